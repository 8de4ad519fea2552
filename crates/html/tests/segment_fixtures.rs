//! Fixture-pair tests for the segmenter, in the style of lol_html's: every
//! `tests/fixtures/segment/NAME.html` is segmented and compared with `NAME.blocks`.
//!
//! # The `.blocks` format
//!
//! Header lines start with `# `:
//! - `# title: TEXT` — the page title ([`Page::title`]); absent when the page has none;
//! - `# recovered` — the segmenter ended an unclosed raw-text element ([`Page::recovered`]);
//! - `# html5ever: differs — REASON` — victor deliberately departs from a strict HTML5 tree
//!   builder on this page (see below);
//! - `# html5ever: reordered — REASON` — the same blocks with the same paths, but html5ever's DOM
//!   has them in another order (foster-parented table content goes before the table; victor
//!   keeps blocks in source order);
//! - any other `# ...` line is a comment (the reason the fixture exists, what a browser shows).
//!
//! Then one line per block, tab-separated:
//! `PATH<TAB>FLAGS<TAB>TEXT[<TAB>SOURCE]`
//! - `PATH`: the ancestors from `html` down to the block's parent, `/`-separated; an element with
//!   an `id` or `class` is written `tag#id.class` (values as victor normalizes them);
//! - `FLAGS`: `_` when white space separated the block from the previous one, `.` when not,
//!   followed by `a` inside an `<a>` and `p` inside a `<pre>`;
//! - `TEXT`: the block's text;
//! - `SOURCE`: the bytes of the original document that [`Block::source`] points at, written only
//!   when they differ from `TEXT` (entities, collapsed white space, markup inside the run);
//!   `\n`, `\t`, `\r` and `\\` are escaped.
//!
//! # Blessing and checking
//!
//! `VICTOR_BLESS=1 cargo test -p victor-features --test segment_fixtures` rewrites the expected
//! files from the current output, keeping their comment and `html5ever` header lines. A blessed
//! file is only a draft: it is read by hand against what a browser builds before it is
//! committed. To help with that, [`fixtures_agree_with_html5ever`] parses every fixture with
//! html5ever and requires the same block texts and tag paths, except on fixtures whose header
//! says `# html5ever: differs`, where it requires a difference (so the header stays true).
//! `VICTOR_HTML5EVER=FILE cargo test -p victor-features --test segment_fixtures
//! show_html5ever -- --nocapture` prints html5ever's blocks for any file, for comparison with
//! `cargo run -p victor-features --example blocks -- FILE`.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use victor_html::{Page, decode, segment};

mod html5ever_tree;
mod wrapper;
use html5ever_tree::{collapse, html5ever_blocks};
use wrapper::without_wrapper;

fn fixture_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/segment")
}

/// The fixtures, sorted by name.
fn fixtures() -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(fixture_dir())
        .expect("tests/fixtures/segment exists")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "html"))
        .collect();
    v.sort();
    v
}

fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            '\\' => out.push_str("\\\\"),
            _ => out.push(c),
        }
    }
    out
}

/// An element written as `tag`, `tag#id`, `tag.class`, or `tag#id.class`.
fn element_label(page: &Page, id: u32) -> String {
    let e = page.element(id);
    let mut s = page.tag_name(e.tag).to_string();
    let (eid, class) = (page.id_of(e), page.class_of(e));
    if !eid.is_empty() {
        s.push('#');
        s.push_str(eid);
    }
    if !class.is_empty() {
        s.push('.');
        s.push_str(class);
    }
    s
}

/// The block lines of a page, as the `.blocks` format writes them (no header).
fn render_blocks(page: &Page, doc: &str) -> String {
    let mut out = String::new();
    for b in &page.blocks {
        let mut labels: Vec<String> = page
            .ancestors(b.parent)
            .map(|(id, _)| element_label(page, id))
            .collect();
        labels.reverse();
        let text = page.block_text(b);
        let mut flags = String::from(if b.space_before { "_" } else { "." });
        if b.in_anchor {
            flags.push('a');
        }
        if b.in_pre {
            flags.push('p');
        }
        let _ = write!(out, "{}\t{flags}\t{text}", labels.join("/"));
        let source = doc
            .get(b.source.start as usize..b.source.end as usize)
            .unwrap_or("<SOURCE OUT OF RANGE>");
        if source != text {
            let _ = write!(out, "\t{}", escape(source));
        }
        out.push('\n');
    }
    out
}

/// Segments a fixture and renders it with the header lines that describe the result.
fn render(html_path: &Path, kept_headers: &[String]) -> String {
    let bytes = std::fs::read(html_path).expect("fixture readable");
    let doc = decode(&bytes).expect("fixture decodes");
    let page = segment(&doc.text).expect("fixture segments");
    let mut out = String::new();
    for h in kept_headers {
        out.push_str(h);
        out.push('\n');
    }
    if let Some(t) = &page.title {
        let _ = writeln!(out, "# title: {t}");
    }
    if page.recovered {
        out.push_str("# recovered\n");
    }
    out.push_str(&render_blocks(&page, &doc.text));
    out
}

/// Comment and html5ever header lines of an expected file (kept when blessing).
fn kept_headers(expected: &str) -> Vec<String> {
    expected
        .lines()
        .take_while(|l| l.starts_with('#'))
        .filter(|l| !l.starts_with("# title: ") && *l != "# recovered")
        .map(str::to_string)
        .collect()
}

#[test]
fn fixtures_match_expected_blocks() {
    let bless = std::env::var_os("VICTOR_BLESS").is_some();
    let files = fixtures();
    assert!(!files.is_empty(), "no fixtures found");
    let mut failures = Vec::new();
    for html in &files {
        let expected_path = html.with_extension("blocks");
        let expected = std::fs::read_to_string(&expected_path).unwrap_or_default();
        let got = render(html, &kept_headers(&expected));
        if got == expected {
            continue;
        }
        if bless {
            std::fs::write(&expected_path, &got).expect("write expected file");
            eprintln!("blessed {}", expected_path.display());
            continue;
        }
        failures.push(format!(
            "--- {}\n--- expected:\n{expected}--- got:\n{got}",
            html.display()
        ));
    }
    assert!(
        failures.is_empty(),
        "{} of {} fixtures differ (VICTOR_BLESS=1 rewrites them; check by hand):\n{}",
        failures.len(),
        files.len(),
        failures.join("\n")
    );
}

// ----- html5ever comparison ---------------------------------------------------------------------

#[test]
fn fixtures_agree_with_html5ever() {
    let mut failures = Vec::new();
    for html in fixtures() {
        let expected = std::fs::read_to_string(html.with_extension("blocks")).unwrap_or_default();
        let header = |h: &str| {
            expected
                .lines()
                .take_while(|l| l.starts_with('#'))
                .any(|l| l.starts_with(h))
        };
        let differs = header("# html5ever: differs");
        let reordered = header("# html5ever: reordered");
        let bytes = std::fs::read(&html).expect("fixture readable");
        let doc = decode(&bytes).expect("fixture decodes");
        let page = segment(&doc.text).expect("fixture segments");
        let ours: Vec<(String, String)> = page
            .blocks
            .iter()
            .map(|b| (page.path(b.parent), page.block_text(b).to_string()))
            .collect();
        let theirs = html5ever_blocks(&without_wrapper(&doc.text));
        if reordered {
            let in_order = ours == theirs;
            let (mut a, mut b) = (ours.clone(), theirs.clone());
            a.sort();
            b.sort();
            if in_order || a != b {
                failures.push(format!(
                    "{}: header says html5ever has the same blocks in another order\n   victor    {ours:?}\n   html5ever {theirs:?}",
                    html.display()
                ));
            }
            continue;
        }
        let same = ours == theirs;
        if same == differs {
            let mut msg = format!(
                "{}: header says html5ever {}, but it {}\n",
                html.display(),
                if differs { "differs" } else { "agrees" },
                if same { "agrees" } else { "differs" }
            );
            for (a, b) in ours
                .iter()
                .zip(theirs.iter())
                .filter(|(a, b)| a != b)
                .take(3)
            {
                let _ = writeln!(msg, "   victor    {a:?}\n   html5ever {b:?}");
            }
            if ours.len() != theirs.len() {
                let _ = writeln!(msg, "   {} vs {} blocks", ours.len(), theirs.len());
            }
            failures.push(msg);
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Debugging aid: `VICTOR_HTML5EVER=FILE` prints html5ever's blocks of FILE.
#[test]
fn show_html5ever() {
    let Some(path) = std::env::var_os("VICTOR_HTML5EVER") else {
        return;
    };
    let bytes = std::fs::read(&path).expect("file readable");
    let doc = decode(&bytes).expect("file decodes");
    for (p, t) in html5ever_blocks(&without_wrapper(&doc.text)) {
        println!("{p} | {t}");
    }
}

// ----- the format itself ------------------------------------------------------------------------

#[test]
fn every_fixture_has_its_expected_file() {
    for html in fixtures() {
        let blocks = html.with_extension("blocks");
        assert!(
            blocks.is_file(),
            "{} has no expected file (VICTOR_BLESS=1 drafts one)",
            html.display()
        );
    }
}

#[test]
fn block_sources_point_at_their_text() {
    // In every fixture, a block's source bytes hold its text once entities are decoded and
    // white space collapsed, unless markup ignored by the tree (a stray end tag) or a recovery
    // sits inside the run: then the text still starts and ends with the source's first and last
    // characters.
    for html in fixtures() {
        let bytes = std::fs::read(&html).expect("fixture readable");
        let doc = decode(&bytes).expect("fixture decodes");
        let page = segment(&doc.text).expect("fixture segments");
        for b in &page.blocks {
            let src = &doc.text[b.source.start as usize..b.source.end as usize];
            let text = page.block_text(b);
            assert!(
                !src.is_empty() && !src.starts_with(char::is_whitespace),
                "{}: {text:?} has source {src:?}",
                html.display()
            );
            assert!(
                !src.ends_with(char::is_whitespace),
                "{}: {text:?} has source {src:?}",
                html.display()
            );
            if !src.contains('<') && !src.contains('&') {
                assert_eq!(collapse(src), text, "{}", html.display());
            }
        }
    }
}

#[test]
fn long_runs_are_decoded_whole() {
    // The tokenizer splits a text run where a `<` opens no tag (and such continuations into
    // pieces of at most 1,024 bytes, as lol_html did); the pieces are joined before entities are
    // decoded. A megabyte of text with an entity every few bytes and such a `<` every thousand
    // comes out exact.
    let unit = "ab &amp; c&#149;d &copy e";
    let want_unit = "ab & c\u{2022}d \u{a9} e";
    let mut html = String::from("<p>");
    let mut want = String::new();
    for i in 0..40_000 {
        html.push_str(unit);
        want.push_str(want_unit);
        if i % 40 == 39 {
            html.push_str(" < &lt;");
            want.push_str(" < <");
        }
        html.push(' ');
        want.push(' ');
    }
    html.push_str("</p>");
    let page = segment(&html).expect("segments");
    assert_eq!(page.blocks.len(), 1);
    assert_eq!(page.block_text(&page.blocks[0]), want.trim_end());
}

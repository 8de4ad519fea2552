//! Markdown output (`render_markdown`) on fixture pairs: `tests/markdown/<name>.html` in,
//! `<name>.md` out. Every block is kept as text except those whose text says `(dropped)`.
//! Each rendering is also read back with a CommonMark parser (pulldown-cmark, GFM tables on):
//! its headings, list items, table cells, code blocks and quotes are counted against the
//! fixture's `<!-- expect: ... -->` line, and its words must be the text output's, in order.
//! Fixtures named `links*` are rendered with links on, `emphasis*` with emphasis on. `BLESS=1`
//! writes the `.md` files.

use std::path::Path;

use pulldown_cmark::{Event, Options, Parser, Tag, TagEnd};
use victor_label::{Label, MarkdownOptions, render_markdown, render_text};

fn labels(page: &victor_features::Page) -> Vec<Label> {
    page.blocks
        .iter()
        .map(|b| {
            if page.block_text(b).contains("(dropped)") {
                Label::Other
            } else {
                Label::Text
            }
        })
        .collect()
}

fn words(s: &str) -> Vec<String> {
    s.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect()
}

/// Counts of what the parser read, and its text.
#[derive(Debug, Default, PartialEq)]
struct Read {
    headings: usize,
    items: usize,
    cells: usize,
    code: usize,
    quotes: usize,
    text: String,
}

fn read(md: &str) -> Read {
    let mut r = Read::default();
    let mut cell_text = false;
    for ev in Parser::new_ext(md, Options::ENABLE_TABLES) {
        if matches!(
            ev,
            Event::Start(_) | Event::End(_) | Event::SoftBreak | Event::HardBreak
        ) {
            r.text.push(' ');
        }
        match ev {
            Event::Start(Tag::Heading { .. }) => r.headings += 1,
            Event::Start(Tag::Item) => r.items += 1,
            Event::Start(Tag::TableCell) => cell_text = false,
            Event::End(TagEnd::TableCell) if cell_text => r.cells += 1,
            Event::Start(Tag::CodeBlock(_)) => r.code += 1,
            Event::Start(Tag::BlockQuote(_)) => r.quotes += 1,
            Event::Text(t) | Event::Code(t) => {
                cell_text |= !t.trim().is_empty();
                r.text.push_str(&t);
            }
            _ => {}
        }
    }
    r
}

fn expected_counts(html: &str) -> Read {
    let line = html.lines().next().unwrap_or_default();
    let mut r = Read::default();
    for kv in line.split_whitespace() {
        let Some((k, v)) = kv.split_once('=') else {
            continue;
        };
        let n: usize = v.parse().unwrap_or(usize::MAX);
        match k {
            "headings" => r.headings = n,
            "items" => r.items = n,
            "cells" => r.cells = n,
            "code" => r.code = n,
            "quotes" => r.quotes = n,
            _ => {}
        }
    }
    r
}

#[test]
fn fixtures_render_as_pinned_and_read_back_with_the_same_words() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/markdown");
    let bless = std::env::var_os("BLESS").is_some();
    let mut names: Vec<_> = std::fs::read_dir(&dir)
        .expect("fixture folder")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "html"))
        .collect();
    names.sort();
    assert!(names.len() >= 9, "fixtures: {names:?}");
    let mut failures = Vec::new();
    for path in names {
        let html = std::fs::read_to_string(&path).expect("fixture");
        let page = victor_features::segment(&html).expect("segments");
        let labels = labels(&page);
        let mut md = String::new();
        // `links*.html`: links on, the page at a made-up address.
        let links = path
            .file_name()
            .is_some_and(|n| n.to_string_lossy().starts_with("links"));
        // `emphasis*.html`: emphasis on.
        let emphasis = path
            .file_name()
            .is_some_and(|n| n.to_string_lossy().starts_with("emphasis"));
        let opts = MarkdownOptions {
            doc: Some(&html),
            links,
            emphasis,
            url: links.then_some("https://example.org/dir/page.html"),
        };
        render_markdown(&page, &labels, opts, &mut md);
        let want_path = path.with_extension("md");
        if bless {
            std::fs::write(&want_path, &md).expect("writes");
        }
        let want = std::fs::read_to_string(&want_path).unwrap_or_default();
        let name = path.file_stem().map(|s| s.to_string_lossy().into_owned());
        if md != want {
            failures.push(format!("{name:?}: got\n{md}\nwant\n{want}"));
        }
        let mut text = String::new();
        render_text(&page, &labels, false, &mut text);
        let got = read(&md);
        if words(&got.text) != words(&text) {
            failures.push(format!(
                "{name:?}: words differ:\n{:?}\n{:?}",
                words(&got.text),
                words(&text)
            ));
        }
        let counts = Read {
            text: String::new(),
            ..got
        };
        let want_counts = expected_counts(&html);
        if counts != want_counts {
            failures.push(format!(
                "{name:?}: read {counts:?}, expected {want_counts:?}"
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

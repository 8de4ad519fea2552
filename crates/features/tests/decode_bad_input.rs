//! Bad input through the whole first stage (decode, segment, features): binary junk, truncated
//! pages, empty files, a 20 MB page, 100,000 levels of nesting, 100,000 misnested tags. Never a
//! panic, a clear error or an empty block list, and work linear in the input: each growth test
//! times the same construction at two sizes ten times apart and requires less than 40 times the
//! time (linear gives 10, quadratic 100; cache effects alone reach 20), so it holds on a loaded
//! machine.
//!
//! The same invariants as the cargo-fuzz target (`fuzz/fuzz_targets/segment.rs`) are checked on
//! every prefix of a page and on deterministic mutations of real pages, so CI replays a little
//! fuzzing without a fuzzer.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

// A seeded generator, so that a failing case can be replayed.
use fastrand::Rng;

use victor_features::{
    DEFAULT_MAX_BLOCKS, DecodeError, Extractor, FeatureConfig, Page, PageError, SegmentError,
    Segmenter, process, segment,
};

fn extractor() -> Extractor {
    Extractor::new(&FeatureConfig::default()).expect("default config compiles")
}

/// Checks what every page must satisfy (the fuzz target's assertions).
fn check_invariants(doc: &str, page: &Page, what: &str) {
    let mut prev_end = 0u32;
    for (i, b) in page.blocks.iter().enumerate() {
        assert!(
            b.source.start <= b.source.end && (b.source.end as usize) <= doc.len(),
            "{what}: block {i} source {:?} outside the document",
            b.source
        );
        assert!(
            doc.get(b.source.start as usize..b.source.end as usize)
                .is_some(),
            "{what}: block {i} source {:?} not on char boundaries",
            b.source
        );
        assert!(
            b.source.start >= prev_end,
            "{what}: block {i} source {:?} overlaps the previous block",
            b.source
        );
        prev_end = b.source.end;
        let t = page.block_text(b);
        assert!(
            !t.is_empty() && t == t.trim(),
            "{what}: block {i} text {t:?}"
        );
        assert!(
            b.parent != 0 && (b.parent as usize) < page.elements.len(),
            "{what}: block {i} parent {}",
            b.parent
        );
        let mut e = b.parent;
        let mut steps = 0;
        while e != 0 {
            e = page.elements[e as usize].parent;
            steps += 1;
            assert!(
                steps <= page.elements.len(),
                "{what}: block {i}: ancestor cycle"
            );
        }
    }
}

/// Runs the whole stage on bytes and checks the invariants; returns the block texts.
fn run(bytes: &[u8], seg: &mut Segmenter, ex: &Extractor, what: &str) -> Vec<String> {
    match process(bytes, seg, ex) {
        Ok(p) => {
            check_invariants(&p.decoded.text, &p.page, what);
            assert_eq!(p.table.blocks, p.page.blocks.len(), "{what}");
            p.page
                .blocks
                .iter()
                .map(|b| p.page.block_text(b).to_string())
                .collect()
        }
        Err(PageError::Decode(_)) => Vec::new(),
        Err(e) => panic!("{what}: {e}"),
    }
}

fn texts(html: &str) -> Vec<String> {
    let page = segment(html).expect("segments");
    check_invariants(html, &page, html);
    page.blocks
        .iter()
        .map(|b| page.block_text(b).to_string())
        .collect()
}

// ----- errors and empty input ---------------------------------------------------------------

#[test]
fn binary_junk_is_a_clear_error() {
    let mut seg = Segmenter::new();
    let ex = extractor();
    let err = process(b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR", &mut seg, &ex).expect_err("refused");
    assert!(matches!(err, PageError::Decode(DecodeError::Binary(_))));
    assert_eq!(
        err.to_string(),
        "not an HTML page: binary data (a PNG image)"
    );
    let err = process(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n1 0 obj", &mut seg, &ex).expect_err("PDF");
    assert_eq!(
        err.to_string(),
        "not an HTML page: binary data (a PDF document)"
    );
    // Mostly NUL bytes is refused; UTF-16 without a byte-order mark or a declaration is read as
    // UTF-16 when it is markup (issue 60), and named when it is not.
    let err = process(&[0u8; 64], &mut seg, &ex).expect_err("NULs");
    assert_eq!(err.to_string(), "not an HTML page: binary data (NUL bytes)");
    let utf16 = b"<\0p\0>\0h\0i\0".repeat(20);
    let p = process(&utf16, &mut seg, &ex).expect("UTF-16LE");
    assert_eq!(p.page.blocks.len(), 20);
    let err = process(&b"h\0i\0 \0".repeat(20), &mut seg, &ex).expect_err("not markup");
    assert!(err.to_string().contains("laid out as UTF-16"), "{err}");
}

#[test]
fn a_few_stray_nul_bytes_do_not_cost_the_page_its_text() {
    let mut seg = Segmenter::new();
    let ex = extractor();
    let clean = format!(
        "<html><head><title>Report</title></head><body><h1>Annual report</h1>{}</body></html>",
        "<p>The council met on Monday and agreed the budget for the coming year.</p>".repeat(8)
    );
    // Two NUL bytes in the first 4 KiB, one inside a word and one between tags.
    let mut dirty = clean.clone().into_bytes();
    let at = clean.find("agreed").expect("word") + 2;
    dirty.insert(at, 0);
    let tag = clean.find("<h1>").expect("tag");
    dirty.insert(tag, 0);
    let want = process(clean.as_bytes(), &mut seg, &ex).expect("clean page");
    let got = process(&dirty, &mut seg, &ex).expect("a few NUL bytes are not binary");
    let block_texts = |p: &victor_features::Processed<'_>| -> Vec<String> {
        p.page
            .blocks
            .iter()
            .map(|b| p.page.block_text(b).to_string())
            .collect()
    };
    assert_eq!(block_texts(&got), block_texts(&want));
    assert!(block_texts(&got).len() >= 9);
    assert!(block_texts(&got).iter().all(|t| !t.contains('\0')));
}

#[test]
fn empty_file_gives_no_blocks() {
    let mut seg = Segmenter::new();
    let ex = extractor();
    let p = process(b"", &mut seg, &ex).expect("empty input is a page");
    assert!(p.page.blocks.is_empty());
    assert_eq!((p.table.blocks, p.page.title.as_deref()), (0, None));
}

// ----- truncated pages ----------------------------------------------------------------------

#[test]
fn truncated_pages_keep_the_text_before_the_cut() {
    // Cut in the middle of a tag: the partial tag is dropped (HTML5: EOF in a tag).
    assert_eq!(texts("<p>one</p><p>two</p><di"), ["one", "two"]);
    assert_eq!(texts("<p>one</p><a href=\"/x"), ["one"]);
    assert_eq!(texts("<p>one</p></di"), ["one"]);
    // Cut in an entity: what is there is decoded as far as it goes.
    assert_eq!(texts("<p>fish &am"), ["fish &am"]);
    assert_eq!(texts("<p>fish &amp"), ["fish &"]);
    assert_eq!(texts("<p>x &#x41"), ["x A"]);
    assert_eq!(texts("<p>x &#x20"), ["x"]);
    // Cut in a comment or a script: the rest is a comment / script.
    assert_eq!(texts("<p>one<!-- a comm"), ["one"]);
    assert_eq!(texts("<p>one</p><script>var a = \"<p>x"), ["one"]);
    // Cut in a title: nothing was swallowed, the strict reading stands.
    let page = segment("<title>The ti").expect("segments");
    assert_eq!(
        (page.title.as_deref(), page.blocks.len(), page.recovered),
        (Some("The ti"), 0, false)
    );
}

const SAMPLE: &str = "<!DOCTYPE html><html><head><title>T &amp; t</title>\
    <meta charset=utf-8><style>p{}</style><script>if (a < b) x = \"</p>\";</script></head>\
    <body class=\"home\"><div id=\"mainContent\"><h1>Caf\u{e9} \u{2019}s</h1>\
    <p>Hello <b>world</b>!&nbsp;&#149; &copy 2008<br>next</p><!-- note -->\
    <table><tr><td>a<td>b</div>c</table><ul><li>x<li><a href=\"/y\">y</a></ul>\
    <b>1<p>2</b>3</p><select><option>o1<option>o2</select><svg><text>no</text></svg>\
    <textarea>t &lt; u</textarea><pre>  pre\n  text</pre></div></body></html>";

#[test]
fn every_prefix_of_a_page_is_read() {
    let mut seg = Segmenter::new();
    let ex = extractor();
    let mut cuts = 0;
    for (i, _) in SAMPLE.char_indices().chain([(SAMPLE.len(), ' ')]) {
        let prefix = &SAMPLE[..i];
        run(prefix.as_bytes(), &mut seg, &ex, prefix);
        cuts += 1;
    }
    assert_eq!(cuts, SAMPLE.chars().count() + 1);
    // The whole page, for reference.
    assert_eq!(
        run(SAMPLE.as_bytes(), &mut seg, &ex, "sample"),
        [
            "Caf\u{e9} \u{2019}s",
            "Hello",
            "world",
            "! \u{2022} \u{a9} 2008",
            "next",
            "a",
            "bc",
            "x",
            "y",
            "1",
            "2",
            "3",
            "pre text"
        ]
    );
}

const TOKENS: &[&[u8]] = &[
    b"<p>",
    b"</p>",
    b"<b>",
    b"</b>",
    b"<i>",
    b"</div>",
    b"<table>",
    b"<td>",
    b"<tr>",
    b"<li>",
    b"<svg>",
    b"<math>",
    b"<title>",
    b"</title>",
    b"<textarea>",
    b"<xmp>",
    b"<noscript>",
    b"<script>",
    b"</script>",
    b"<!--",
    b"-->",
    b"&amp;",
    b"&#149;",
    b"&copy",
    b"\"",
    b"'",
    b"<",
    b">",
    b"</titlevalue=\"x\">",
    b"<select>",
    b"<option>",
    b"<form>",
    b"</form>",
    b"<font color=red>",
    b"\xd1\x8f",
    b"\xe2\x80\x99",
    b"\0",
    b"\r\n",
];

fn mutate(page: &[u8], rng: &mut Rng) -> Vec<u8> {
    let mut out = page.to_vec();
    for _ in 0..1 + rng.usize(..8) {
        let at = rng.usize(..out.len() + 1);
        match rng.usize(..5) {
            0 => out.truncate(at),
            1 => {
                let end = (at + rng.usize(..200)).min(out.len());
                out.drain(at..end);
            }
            2 if at < out.len() => out[at] ^= 1 << rng.usize(..8),
            _ => {
                let tok = TOKENS[rng.usize(..TOKENS.len())];
                out.splice(at..at, tok.iter().copied());
            }
        }
    }
    out
}

fn data_dir() -> Option<PathBuf> {
    let dir = std::env::var_os("VICTOR_DATA")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data"));
    dir.is_dir().then_some(dir)
}

#[test]
fn mutated_real_pages_keep_the_invariants() {
    let Some(dir) = data_dir() else {
        eprintln!("skipped: ../shared/data not found (set VICTOR_DATA); no mutated real pages");
        return;
    };
    let mut files = Vec::new();
    for set in ["l3s-gn1", "cleaneval", "dragnet-train"] {
        if let Ok(rd) = std::fs::read_dir(dir.join(set).join("html")) {
            let mut v: Vec<PathBuf> = rd.filter_map(|e| e.ok().map(|e| e.path())).collect();
            v.sort();
            files.extend(v.into_iter().step_by(40));
        }
    }
    if files.is_empty() {
        eprintln!("skipped: no pages under {}", dir.display());
        return;
    }
    let mut seg = Segmenter::new();
    let ex = extractor();
    let mut rng = Rng::with_seed(0x9e37_79b9_7f4a_7c15);
    let started = Instant::now();
    let mut runs = 0;
    'outer: for f in &files {
        let bytes = victor_features::file::read_page_file(f)
            .unwrap_or_else(|e| panic!("cannot read {}: {e}", f.display()));
        for _ in 0..8 {
            let m = mutate(&bytes, &mut rng);
            run(&m, &mut seg, &ex, &f.display().to_string());
            runs += 1;
            if started.elapsed() > Duration::from_secs(20) {
                break 'outer;
            }
        }
    }
    eprintln!("mutated real pages: {runs} runs over {} pages", files.len());
    assert!(runs > 0);
}

// ----- size and depth -----------------------------------------------------------------------

/// Best of `reps` timings of the whole stage on `html`.
fn time(html: &str, reps: usize) -> (Duration, usize) {
    let mut seg = Segmenter::new();
    let ex = extractor();
    let mut best = Duration::MAX;
    let mut blocks = 0;
    for _ in 0..reps {
        let t = Instant::now();
        let p = process(html.as_bytes(), &mut seg, &ex).expect("processes");
        best = best.min(t.elapsed());
        blocks = p.page.blocks.len();
    }
    (best, blocks)
}

/// Asserts that the work on `make(10 n)` is less than 60 times the work on `make(n)` (best of 3
/// runs each): linear work gives about 10 times (up to 30 with cache effects on a loaded
/// machine), quadratic work 100 times.
fn assert_linear(what: &str, n: usize, make: impl Fn(usize) -> String) -> (usize, usize) {
    let (small, big) = (make(n), make(10 * n));
    let (t_small, b_small) = time(&small, 3);
    let (t_big, b_big) = time(&big, 3);
    // Below a millisecond the small run is mostly noise: compare with at least that.
    let floor = t_small.max(Duration::from_millis(1));
    eprintln!(
        "{what}: {t_small:?} for {} bytes, {t_big:?} for {} bytes",
        small.len(),
        big.len()
    );
    assert!(
        t_big < floor * 60,
        "{what}: {t_big:?} for {} bytes vs {t_small:?} for {} bytes: not linear",
        big.len(),
        small.len()
    );
    (b_small, b_big)
}

#[test]
fn deep_nesting_is_linear_and_keeps_every_ancestor() {
    let html = format!(
        "{}deep{}",
        "<div>".repeat(100_000),
        "</div>".repeat(100_000)
    );
    let page = segment(&html).expect("segments");
    assert_eq!(page.blocks.len(), 1);
    let b = &page.blocks[0];
    assert_eq!(page.block_text(b), "deep");
    // html, body and 100,000 divs.
    assert_eq!(page.ancestors(b.parent).count(), 100_002);
    // (Below 30,000 levels the whole tree fits in the cache and the small run is too fast.)
    let (small, big) = assert_linear("nested divs", 30_000, |n| {
        format!("{}x{}", "<div>".repeat(n), "</div>".repeat(n))
    });
    assert_eq!((small, big), (1, 1));
    assert_linear("nested tables", 10_000, |n| {
        format!("{}x", "<table><tr><td>".repeat(n))
    });
    assert_linear("nested lists", 10_000, |n| "<ul><li>x".repeat(n));
    assert_linear("blocks under deep nesting", 10_000, |n| {
        format!("{}{}", "<div>".repeat(n), "x<br>".repeat(n))
    });
}

#[test]
fn misnested_formatting_is_linear() {
    let page = segment(&"<b><p>x</b>".repeat(100_000)).expect("segments");
    assert_eq!(page.blocks.len(), 100_000);
    let paths: Vec<String> = page.blocks[..3]
        .iter()
        .map(|b| page.path(b.parent))
        .collect();
    // As html5ever builds it (fixture misnested_repeated): each </b> moves the paragraph out.
    assert_eq!(paths, ["html/body/p/b"; 3]);
    let (small, big) = assert_linear("<b><p>x</b>", 10_000, |n| "<b><p>x</b>".repeat(n));
    assert_eq!((small, big), (10_000, 100_000));
    assert_linear("<a>x without </a>", 10_000, |n| "<a>x".repeat(n));
    assert_linear("distinct unclosed <b class>", 10_000, |n| {
        (0..n)
            .map(|i| format!("<b class=c{i}>"))
            .collect::<String>()
            + "x"
    });
    assert_linear("64 formatting elements reopened a paragraph", 10_000, |n| {
        let open: String = (0..64).map(|i| format!("<b class=c{i}>")).collect();
        format!("<p>{open}{}", "<p>x".repeat(n))
    });
    assert_linear("nested forms", 10_000, |n| "<form><div></form>x".repeat(n));
    assert_linear("start tags swallowing markup", 10_000, |n| {
        "<p a=\"b\" <c\nd>x".repeat(n)
    });
}

/// A realistic page of `n` articles: navigation, a table, paragraphs with inline markup and
/// entities, a script and a comment each.
fn realistic(n: usize) -> String {
    let mut s = String::from(
        "<!DOCTYPE html><html><head><title>Big page</title><meta charset=utf-8></head><body>",
    );
    for i in 0..n {
        s.push_str(&format!(
            "<div class=\"nav\"><a href=\"/{i}\">Home</a> | <a href=\"/n{i}\">News</a></div>\
             <div id=\"article{i}\" class=\"story\"><h2>Headline {i}</h2>\
             <p>First paragraph with <b>bold</b> and <i>italic</i> words &amp; an entity, \
             caf\u{e9} \u{2019}quotes\u{2019}, and a date: 12 Jan 2008.</p>\
             <script>var x{i} = \"<p>not text</p>\";</script><!-- comment {i} -->\
             <table><tr><td>cell a<td>cell b</table><p>Second paragraph.<br>Line two</p></div>"
        ));
    }
    s.push_str("</body></html>");
    s
}

#[test]
fn a_page_past_the_block_limit_is_refused_and_the_segmenter_goes_on() {
    let mut seg = Segmenter::new();
    assert_eq!(seg.max_blocks(), DEFAULT_MAX_BLOCKS);
    let ex = extractor();
    // 13 blocks an article: 26 blocks.
    let two = realistic(2);
    seg.set_max_blocks(26);
    let p = process(two.as_bytes(), &mut seg, &ex).expect("at the limit");
    assert_eq!(p.page.blocks.len(), 26);
    seg.set_max_blocks(25);
    let err = process(two.as_bytes(), &mut seg, &ex).expect_err("past the limit");
    assert!(
        matches!(err, PageError::Segment(SegmentError::TooManyBlocks(25))),
        "{err:?}"
    );
    assert_eq!(
        err.to_string(),
        "page has more than 25 text blocks (the block limit)"
    );
    let huge = "<br>x".repeat(1_000_000);
    seg.set_max_blocks(DEFAULT_MAX_BLOCKS);
    let err = process(huge.as_bytes(), &mut seg, &ex).expect_err("a million blocks");
    assert!(
        err.to_string().contains("more than 500000 text blocks"),
        "{err}"
    );
    // The segmenter keeps working after a refusal.
    let one = realistic(1);
    let p = process(one.as_bytes(), &mut seg, &ex).expect("small page");
    assert_eq!(p.page.blocks.len(), 13);
    check_invariants(&p.decoded.text, &p.page, "after a refusal");
}

#[test]
fn a_20_mb_page_is_read_in_linear_time() {
    // 13 blocks an article.
    let big = realistic(50_000);
    assert!(big.len() > 20_000_000, "{} bytes", big.len());
    let mut seg = Segmenter::new();
    // 650,000 blocks: past the default block limit, which the next test pins.
    seg.set_max_blocks(1_000_000);
    let ex = extractor();
    let p = process(big.as_bytes(), &mut seg, &ex).expect("processes");
    assert_eq!(p.page.blocks.len(), 13 * 50_000);
    assert_eq!(p.page.title.as_deref(), Some("Big page"));
    let last = p.page.blocks.last().expect("blocks");
    assert_eq!(p.page.block_text(last), "Line two");
    assert_eq!(p.page.path(last.parent), "html/body/div/p");
    check_invariants(&p.decoded.text, &p.page, "20 MB page");
    drop(p);
    assert_linear("realistic page", 1_000, realistic);
}

#[test]
fn a_deep_block_path_can_be_cut_to_its_tail() {
    let page = segment(&format!("{}x", "<div>".repeat(1000))).expect("segments");
    let parent = page.blocks.last().expect("a block").parent;
    let whole = page.path(parent);
    assert_eq!(whole.split('/').count(), 1002, "html/body and 1000 divs");
    let tail = page.path_tail(parent, 64);
    assert_eq!(tail, format!("…/{}", vec!["div"; 64].join("/")));
    assert_eq!(page.path_tail(parent, 2000), whole);
    assert_eq!(
        page.path_tail(parent, 1002),
        whole,
        "exactly the depth: not cut"
    );
}

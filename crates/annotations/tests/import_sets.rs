//! The importers on tiny hand-made data sets in the shared layout (manifest, html/, gold/,
//! blocks/), written to a temporary folder: exact labels per block, skipped pages, report
//! figures, and the written set loading back.

use std::path::Path;
use std::sync::Mutex;

use victor_annotations::Corpus;
use victor_annotations::Label::{self, Header as H, Other as O, Text as T};
use victor_annotations::{
    ImportEvent, ImportOptions, ImportReport, SourceKind, Supplemental, import_set,
};

/// A page loaded back: its id and its blocks' texts with their labels.
type LoadedPage = (String, Vec<(String, Label)>);

fn write(dir: &Path, rel: &str, bytes: &[u8]) {
    let path = dir.join(rel);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, bytes).unwrap();
}

/// Imports `from` into a fresh folder; returns the report, the events heard, and the labels
/// (with block texts) of every page loaded back from the written set.
fn import(from: &Path, options: &ImportOptions) -> (ImportReport, Vec<String>, Vec<LoadedPage>) {
    let out = tempfile::tempdir().unwrap();
    let events = Mutex::new(Vec::new());
    let report = import_set(from, out.path(), options, &|e| {
        let line = match e {
            ImportEvent::Started { pages } => format!("started {pages}"),
            ImportEvent::Imported { id } => format!("imported {id}"),
            ImportEvent::Skipped { id, .. } => format!("skipped {id}"),
        };
        events.lock().unwrap().push(line);
    })
    .unwrap();
    let written: serde_json::Value =
        serde_json::from_slice(&std::fs::read(out.path().join("import-report.json")).unwrap())
            .unwrap();
    assert_eq!(written["imported"], report.imported);
    let mut pages = Vec::new();
    for page in Corpus::open([out.path()], None).unwrap().iter() {
        let page = page.unwrap();
        let blocks = page
            .page
            .blocks
            .iter()
            .zip(&page.labels)
            .map(|(b, l)| (page.page.block_text(b).to_string(), *l))
            .collect();
        pages.push((page.id, blocks));
    }
    let mut events = events.into_inner().unwrap();
    events.sort();
    (report, events, pages)
}

fn labelled(blocks: &[(&str, Label)]) -> Vec<(String, Label)> {
    blocks.iter().map(|(t, l)| (t.to_string(), *l)).collect()
}

const L3S_PAGE: &str = r#"<html><head><title>Ferry strike ends</title></head><body>
<div id="nav"><a href="/">Home</a> | <a href="/world">World</a></div>
<h1>Ferry workers end their strike</h1>
<p class="date">16 January 2008 – Harbour desk</p>
<p>Ferry workers returned to work on Tuesday after the company’s offer of a 4% raise was accepted.</p>
<p>The union said the “agreement protects jobs” for three years.</p>
<div class="related"><a href="/a">Ferry workers end their strike, say reports</a></div>
<div class="comments"><p>Great news for commuters!</p></div>
<div id="footer">© 2008 News Ltd</div>
</body></html>"#;

/// The same page as the annotation tool saved it: upper-case tags, labelled spans, `?` for
/// every character outside Latin-1, invisible elements.
const L3S_ANNOTATED: &str = r#"<HTML><HEAD><TITLE>Ferry strike ends</TITLE></HEAD><BODY>
<DIV id="nav"><A href="/"><SPAN class="x-nc-sel0">Home</SPAN></A> | <A href="/world"><SPAN class="x-nc-sel0">World</SPAN></A></DIV>
<H1><SPAN class="x-nc-sel1">Ferry workers end their strike</SPAN></H1>
<P class="date"><SPAN class="x-nc-sel3">16 January 2008 ? Harbour desk</SPAN></P>
<P><SPAN class="x-nc-sel2">Ferry workers returned to work on Tuesday after the company?s offer of a 4% raise was accepted.</SPAN></P>
<P><SPAN class="x-nc-sel2">The union said the ?agreement protects jobs? for three years.</SPAN></P>
<DIV class="related"><A href="/a"><SPAN class="x-nc-sel4">Ferry workers end their strike, say reports</SPAN></A></DIV>
<DIV class="comments"><P><SPAN class="x-nc-sel5">Great news for commuters!</SPAN></P></DIV>
<DIV id="footer">© 2008 News Ltd</DIV>
<DIV class="x-nc-invisible"><SPAN class="x-nc-sel2">Ferry workers end their strike</SPAN></DIV>
</BODY></HTML>"#;

#[test]
fn l3s_labels_from_the_annotated_dom() {
    let data = tempfile::tempdir().unwrap();
    let d = data.path();
    write(d, "html/p1.html", L3S_PAGE.as_bytes());
    write(d, "blocks/p1.html", L3S_ANNOTATED.as_bytes());
    write(d, "gold/p1.txt", b"(not read by this importer)");
    write(
        d,
        "manifest.jsonl",
        br#"{"id": "p1", "html": "html/p1.html", "gold": "gold/p1.txt", "blocks": "blocks/p1.html", "lang": "en", "split": "dev", "url": "http://example.org/p1"}
{"id": "p2", "html": "html/p2.html", "gold": "gold/p2.txt", "blocks": "blocks/p2.html", "split": "test"}
"#,
    );
    let (report, events, pages) = import(d, &ImportOptions::new(SourceKind::L3sGn1));
    assert_eq!(events, ["imported p1", "skipped p2", "started 2"]);
    assert_eq!((report.imported, report.selected), (1, 2));
    assert_eq!(report.skipped.len(), 1);
    assert_eq!(report.skipped[0].id, "p2");
    assert!(
        report.skipped[0].reason.starts_with("cannot read ")
            && report.skipped[0].reason.contains("p2.html"),
        "{}",
        report.skipped[0].reason
    );
    let want = labelled(&[
        ("Home", O),
        ("|", O),
        ("World", O),
        ("Ferry workers end their strike", H),
        ("16 January 2008 – Harbour desk", T),
        (
            "Ferry workers returned to work on Tuesday after the company’s offer of a 4% raise was accepted.",
            T,
        ),
        (
            "The union said the “agreement protects jobs” for three years.",
            T,
        ),
        ("Ferry workers end their strike, say reports", O),
        ("Great news for commuters!", O),
        ("© 2008 News Ltd", O),
    ]);
    assert_eq!(pages, [("p1".to_string(), want.clone())]);
    // Gold: 5 + 5 + 18 + 10 content tokens, all covered, nothing else labelled content.
    let f = &report.fidelity;
    assert_eq!(
        (f.gold_tokens, f.gold_in_page, f.gold_covered),
        (38, 38, 38)
    );
    assert_eq!((f.content_tokens, f.content_in_gold), (38, 38));
    assert_eq!(report.pages[0].labels.header, 1);
    assert_eq!(report.options["supplemental"], "text");

    // Supplemental runs as not content.
    let mut options = ImportOptions::new(SourceKind::L3sGn1);
    options.supplemental = Supplemental::Other;
    options.split = Some("dev".into());
    let (report, events, pages) = import(d, &options);
    assert_eq!(events, ["imported p1", "started 1"]);
    assert!(report.skipped.is_empty());
    let mut want = want;
    want[4].1 = O;
    assert_eq!(pages[0].1, want);
    assert_eq!(report.fidelity.gold_tokens, 33);
}

#[test]
fn cleaneval_markers_bullets_and_gold_missing_from_the_page() {
    let data = tempfile::tempdir().unwrap();
    let d = data.path();
    write(
        d,
        "html/dev-1.html",
        // The organisers' wrapper line, then a page in windows-1252 without a declaration.
        b"<text id=\"http://library.example.org/\" title=\"Opening hours\" encoding=\"unset\">\n\
          <html><body><div class=\"menu\"><a href=\"/\">Home</a> <a href=\"/books\">Books</a></div>\n\
          <h2>Opening hours</h2>\n\
          <p>The library is open every day except Sunday, and late on Thursdays.</p>\n\
          <ul><li>Monday to Friday: 9am to 8pm</li><li>Saturday: 10am to 4pm</li></ul>\n\
          <p>Caf\xe9 on the first floor.</p>\n\
          <div class=\"footer\">Library Services \xa9 2007</div></body></html>\n</text>\n",
    );
    write(
        d,
        "gold/dev-1.txt",
        b"<h>Opening hours\n\
          <p>The library is open every day  except Sunday, and late on Thursdays.\n\
          <l>* Monday to Friday: 9am to 8pm\n\
          <l>o Saturday: 10am to 4pm\n\
          <p>__________\n\
          <p>Caf\xc3\xa9 on the first floor.\n\
          <p>Members may borrow twelve books at a time\n",
    );
    write(d, "gold/dev-2.txt", b"");
    write(d, "html/dev-2.html", b"<p>Nothing worth keeping</p>");
    write(
        d,
        "manifest.jsonl",
        br#"{"id": "dev-1", "html": "html/dev-1.html", "gold": "gold/dev-1.txt", "lang": "en", "split": "dev", "source_set": "cleaneval-dev"}
{"id": "dev-2", "html": "html/dev-2.html", "gold": "gold/dev-2.txt", "lang": "en", "split": "dev", "source_set": "cleaneval-dev"}
"#,
    );
    let (report, _, pages) = import(d, &ImportOptions::new(SourceKind::CleanEval));
    assert_eq!(report.imported, 2);
    let want = labelled(&[
        ("Home", O),
        ("Books", O),
        ("Opening hours", H),
        (
            "The library is open every day except Sunday, and late on Thursdays.",
            T,
        ),
        ("Monday to Friday: 9am to 8pm", T),
        ("Saturday: 10am to 4pm", T),
        ("Café on the first floor.", T),
        ("Library Services © 2007", O),
    ]);
    assert_eq!(pages[0], ("dev-1".to_string(), want));
    assert_eq!(
        pages[1],
        (
            "dev-2".to_string(),
            labelled(&[("Nothing worth keeping", O)])
        )
    );
    // 2 + 12 + 6 + 4 + 5 tokens in the page, 8 more only in gold.
    let p = &report.pages[0];
    assert_eq!(
        (p.gold_tokens, p.gold_in_page, p.gold_covered),
        (37, 29, 29)
    );
    assert_eq!((p.content_tokens, p.content_in_gold), (29, 29));
    assert_eq!(report.empty_gold, ["dev-2"]);
    assert_eq!(report.worst.len(), 1);
    assert_eq!(report.worst[0].id, "dev-1");
    let summary = report.to_string();
    assert!(
        summary.contains("fidelity: gold covered 78.4%, content in gold 100.0% (micro"),
        "{summary}"
    );
}

#[test]
fn text_gold_with_headers_from_heading_markup() {
    let data = tempfile::tempdir().unwrap();
    let d = data.path();
    write(
        d,
        "html/7.html",
        br#"<html><head><title>Spring rain</title></head><body>
<ul class="nav"><li><a href="/">Home</a></li><li><a href="/blog">Blog</a></li></ul>
<div class="post"><h1 class="title">Why spring rain smells so good</h1>
<p>That earthy smell after a shower has a name: petrichor.</p>
<h3>Geosmin</h3>
<p>Bacteria in the soil release geosmin, and our noses can detect tiny amounts of it.</p></div>
<div id="comments"><h3>2 comments</h3><p>I love that smell!</p><p>Me too, especially in May.</p></div>
</body></html>"#,
    );
    // UTF-16LE gold that went through a Latin-1 -> UTF-8 conversion (as in dragnet-train).
    let gold = "Why spring rain smells so good\r\nThat earthy smell after a shower has a name: petrichor.\r\nGeosmin\r\nBacteria in the soil release geosmin, and our noses can detect tiny amounts of it.\r\n";
    let mut mangled = "ÿþ".to_string();
    for c in gold.chars() {
        mangled.push(c);
        mangled.push('\0');
    }
    write(d, "gold/7.txt", mangled.as_bytes());
    write(
        d,
        "manifest.jsonl",
        br#"{"id": "7", "html": "html/7.html", "gold": "gold/7.txt", "lang": "en", "split": "dev", "source_split": "train"}
{"id": "../8", "html": "html/7.html", "gold": "gold/7.txt", "split": "dev"}
"#,
    );
    let mut options = ImportOptions::new(SourceKind::Text);
    options.name = Some("spring".into());
    let (report, events, pages) = import(d, &options);
    assert_eq!(events, ["imported 7", "skipped ../8", "started 2"]);
    assert!(report.skipped[0].reason.starts_with("invalid page id"));
    assert_eq!(report.set, "spring");
    let want = labelled(&[
        ("Home", O),
        ("Blog", O),
        ("Why spring rain smells so good", H),
        ("That earthy smell after a shower has a name: petrichor.", T),
        ("Geosmin", H),
        (
            "Bacteria in the soil release geosmin, and our noses can detect tiny amounts of it.",
            T,
        ),
        ("2 comments", O),
        ("I love that smell!", O),
        ("Me too, especially in May.", O),
    ]);
    assert_eq!(pages, [("7".to_string(), want)]);
    // 6 + 10 + 1 + 15 gold tokens, all in content blocks, which hold nothing else.
    let f = &report.fidelity;
    assert_eq!((f.gold_tokens, f.gold_covered), (32, 32));
    assert_eq!((f.content_tokens, f.content_in_gold), (32, 32));
}

//! lol_html as the oracle of victor's own tokenizer (`segment::lex`).
//!
//! The segmenter used to read pages through lol_html's document-level handlers (text chunks with
//! their text type, comments, doctypes, each with its source location). Its own tokenizer must
//! report exactly the same events, so that every output stays byte-identical. This test runs
//! both over:
//!
//! - every page of `../shared/data/*/html` (or `$VICTOR_DATA`), decoded as the pipeline decodes
//!   it (prints `skipped` when the data is absent);
//! - a sample of those pages cut short at a few offsets, and with stray `<`, `</`, `<!--`,
//!   `<script>` and the like inserted at random positions (fixed seed);
//! - random documents built from the markup that drives the tokenizer's states (script escapes,
//!   CDATA in svg and math, integration points, doctypes, bogus comments, the end of input in
//!   every state);
//! - the segmenter's fixture inputs.

use std::path::{Path, PathBuf};

// A seeded generator, so that a failing case can be replayed.
use fastrand::Rng;

use super::lex::{Event, Lexer, Tag, TextType};
use super::scan::{self, RawTag};
use crate::decode;
use lol_html::html_content::TextType as LolType;
use lol_html::{DocumentContentHandlers, HtmlRewriter, Settings, doc_comments, doc_text};

fn data_dir() -> Option<PathBuf> {
    let dir = std::env::var_os("VICTOR_DATA")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data"));
    dir.is_dir().then_some(dir)
}

/// The decoded text of every shared page, in a fixed order.
fn shared_pages(dir: &Path) -> Vec<(PathBuf, String)> {
    let mut sets: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|rd| rd.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    sets.sort();
    let mut out = Vec::new();
    for set in sets {
        let Ok(rd) = std::fs::read_dir(set.join("html")) else {
            continue;
        };
        let mut files: Vec<PathBuf> = rd.filter_map(|e| e.ok().map(|e| e.path())).collect();
        files.sort();
        for f in files {
            let bytes = crate::file::read_page_file(&f)
                .unwrap_or_else(|e| panic!("cannot read {}: {e}", f.display()));
            if let Ok(d) = decode(&bytes) {
                out.push((f, d.text.into_owned()));
            }
        }
    }
    out
}

fn lol_type(t: LolType) -> TextType {
    match t {
        LolType::Data => TextType::Data,
        LolType::RCData => TextType::RcData,
        LolType::RawText => TextType::RawText,
        LolType::ScriptData => TextType::ScriptData,
        LolType::PlainText => TextType::PlainText,
        LolType::CDataSection => TextType::CDataSection,
    }
}

/// One event as text: text and comments with their ranges, doctypes with their parts as
/// lol_html gives them (the name lowercased).
fn show_text(range: std::ops::Range<usize>, kind: TextType) -> String {
    format!("text {range:?} {kind:?}")
}

fn show_doctype(
    range: std::ops::Range<usize>,
    name: Option<String>,
    public: Option<String>,
    system: Option<String>,
) -> String {
    format!("doctype {range:?} {name:?} {public:?} {system:?}")
}

/// The events lol_html reports through document-level handlers, as the segmenter registered
/// them (not strict, the whole document in one write). Empty text chunks are left out (the
/// segmenter ignored them).
fn lol_events(html: &str) -> Vec<String> {
    let events = std::cell::RefCell::new(Vec::new());
    {
        let mut rewriter = HtmlRewriter::new(
            Settings::new()
                .with_strict(false)
                .append_document_content_handler(doc_text!(|t| {
                    let r = t.source_location().bytes();
                    if !r.is_empty() {
                        events
                            .borrow_mut()
                            .push(show_text(r, lol_type(t.text_type())));
                    }
                    Ok(())
                }))
                .append_document_content_handler(doc_comments!(|c| {
                    events
                        .borrow_mut()
                        .push(format!("comment {:?}", c.source_location().bytes()));
                    Ok(())
                }))
                .append_document_content_handler(DocumentContentHandlers::default().doctype(
                    |d: &mut lol_html::html_content::Doctype<'_>| {
                        events.borrow_mut().push(show_doctype(
                            d.source_location().bytes(),
                            d.name(),
                            d.public_id(),
                            d.system_id(),
                        ));
                        Ok(())
                    },
                )),
            |_: &[u8]| {},
        );
        rewriter.write(html.as_bytes()).expect("lol_html write");
        rewriter.end().expect("lol_html end");
    }
    events.into_inner()
}

/// victor's events, the doctype's parts read as the segmenter reads them.
fn victor_events(html: &str) -> Vec<String> {
    let mut out = Vec::new();
    let part = |r: Option<std::ops::Range<usize>>| {
        r.map(|r| {
            encoding_rs::UTF_8
                .decode(html.as_bytes().get(r).unwrap_or_default())
                .0
                .into_owned()
        })
    };
    Lexer::new(html.as_bytes()).run(|e| {
        out.push(match e {
            Event::Text { range, kind } => show_text(range, kind),
            Event::Tag(_) => return true,
            Event::Comment(r) => format!("comment {r:?}"),
            Event::Doctype {
                range,
                name,
                public_id,
                system_id,
            } => show_doctype(
                range,
                part(name).map(|n| n.to_ascii_lowercase()),
                part(public_id),
                part(system_id),
            ),
        });
        true
    });
    out
}

/// A tag the tokenizer reported, kept past its event (its attributes borrow the tokenizer).
struct Kept {
    range: std::ops::Range<usize>,
    name: std::ops::Range<usize>,
    end_tag: bool,
    scan_agrees: bool,
    attrs: Vec<(std::ops::Range<usize>, std::ops::Range<usize>)>,
    lt_name: bool,
}

impl Kept {
    fn of(t: Tag<'_>) -> Kept {
        Kept {
            range: t.range,
            name: t.name,
            end_tag: t.end_tag,
            scan_agrees: t.scan_agrees,
            attrs: t
                .attrs
                .iter()
                .map(|a| (a.name.clone(), a.value.clone()))
                .collect(),
            lt_name: t.lt_name,
        }
    }
}

/// Checks the tags the tokenizer hands to the segmenter directly: in every gap between two spans,
/// the gap scanner must read the same tags, up to the first one it reads otherwise
/// ([`Tag::scan_agrees`]), and a start tag's attributes as the tokenizer listed them must be
/// the pairs the scanner reads from its bytes (a stray `<` only where a name starts with one).
fn check_tags(html: &str) -> Result<(), String> {
    let mut gap_start = 0;
    let mut tags: Vec<Kept> = Vec::new();
    let mut error = None;
    let bytes = html.as_bytes();
    let mut check_gap = |from: usize, to: usize, tags: &mut Vec<Kept>| {
        let direct: Vec<&Kept> = tags.iter().take_while(|t| t.scan_agrees).collect();
        let gap = bytes.get(from..to).unwrap_or_default();
        let scanned: Vec<(RawTag<'_>, std::ops::Range<usize>)> =
            scan::tags(gap).take(direct.len()).collect();
        for (i, t) in direct.iter().enumerate() {
            let name = &bytes[t.name.clone()];
            let ok = scanned.get(i).is_some_and(|(raw, r)| {
                let range_ok = r.start + from == t.range.start && r.end + from == t.range.end;
                range_ok
                    && match raw {
                        RawTag::End { name: n } => t.end_tag && *n == name,
                        RawTag::Start { name: n, attrs, .. } => {
                            let listed: Vec<(&[u8], &[u8])> = t
                                .attrs
                                .iter()
                                .map(|(n, v)| (&bytes[n.clone()], &bytes[v.clone()]))
                                .collect();
                            !t.end_tag
                                && *n == name
                                && *attrs == &bytes[t.name.end..t.range.end - 1]
                                && listed == scan::attrs(attrs).collect::<Vec<_>>()
                                && (t.lt_name || scan::stray_lt(attrs).is_none())
                        }
                    }
            });
            if !ok && error.is_none() {
                error = Some(format!(
                    "tag {:?} read by the tokenizer, {:?} by the scanner",
                    &html[t.range.clone()],
                    scanned
                        .get(i)
                        .map(|(_, r)| &html[r.start + from..r.end + from])
                ));
            }
        }
        tags.clear();
    };
    Lexer::new(html.as_bytes()).run(|e| {
        let span = match e {
            Event::Tag(t) => {
                tags.push(Kept::of(t));
                return true;
            }
            Event::Text { range, .. } => range,
            Event::Comment(range) => range,
            Event::Doctype { range, .. } => range,
        };
        check_gap(gap_start, span.start, &mut tags);
        gap_start = span.end;
        true
    });
    check_gap(gap_start, html.len(), &mut tags);
    error.map_or(Ok(()), Err)
}

/// Compares the two event streams; returns a description of the first difference.
fn compare(html: &str) -> Result<(), String> {
    check_tags(html)?;
    let want = lol_events(html);
    let got = victor_events(html);
    if want == got {
        return Ok(());
    }
    let i = want.iter().zip(&got).take_while(|(a, b)| a == b).count();
    Err(format!(
        "event {i}: lol_html {:?}, victor {:?} (of {} and {})",
        want.get(i),
        got.get(i),
        want.len(),
        got.len()
    ))
}

/// The char boundary at or before `at`.
fn boundary(s: &str, mut at: usize) -> usize {
    at = at.min(s.len());
    while !s.is_char_boundary(at) {
        at -= 1;
    }
    at
}

const STRAYS: &[&str] = &[
    "<",
    "</",
    "<!--",
    "-->",
    "<script>",
    "</script>",
    "<!",
    "<?",
    "<![CDATA[",
    "]]>",
    "<svg>",
    "<math>",
    "<title>",
    "<style>",
    "<textarea>",
    "\"",
    "'",
    "=",
    "<a href=\"",
    "<!DOCTYPE",
    "<script><!--",
    "<plaintext>",
    "</ ",
    "<xmp>",
    "<noscript>",
];

#[test]
fn same_events_as_lol_html_on_the_shared_pages_and_their_mutations() {
    let Some(dir) = data_dir() else {
        eprintln!("skipped: ../shared/data is absent (set VICTOR_DATA)");
        return;
    };
    let pages = shared_pages(&dir);
    assert!(!pages.is_empty(), "no pages under {}", dir.display());
    let mut failures = Vec::new();
    let mut rng = Rng::with_seed(0x9e37_79b9_7f4a_7c15);
    let mut checked = 0usize;
    for (k, (path, text)) in pages.iter().enumerate() {
        if let Err(e) = compare(text) {
            failures.push(format!("{}: {e}", path.display()));
        }
        checked += 1;
        // Mutations of every 8th page: three cuts and three insertions.
        if k % 8 != 0 || text.is_empty() {
            continue;
        }
        for _ in 0..3 {
            let cut = boundary(text, rng.usize(..text.len().max(1)));
            if let Err(e) = compare(&text[..cut]) {
                failures.push(format!("{} cut at {cut}: {e}", path.display()));
            }
            let at = boundary(text, rng.usize(..text.len().max(1)));
            let stray = STRAYS[rng.usize(..STRAYS.len())];
            let mutated = format!("{}{stray}{}", &text[..at], &text[at..]);
            if let Err(e) = compare(&mutated) {
                failures.push(format!("{} with {stray:?} at {at}: {e}", path.display()));
            }
            checked += 2;
        }
    }
    eprintln!(
        "lexer oracle: {checked} documents from {} shared pages, {} differ",
        pages.len(),
        failures.len()
    );
    assert!(
        failures.is_empty(),
        "{}",
        failures[..failures.len().min(20)].join("\n")
    );
}

/// Markup that drives the tokenizer's states, for random documents.
const PIECES: &[&str] = &[
    "<",
    "</",
    ">",
    "/>",
    "<!--",
    "-->",
    "--",
    "-",
    "--!>",
    "<!-",
    "<!",
    "<?",
    "?>",
    "!",
    "]",
    "]]>",
    "]]",
    "<![CDATA[",
    "\"",
    "'",
    "=",
    " ",
    "\n",
    "a",
    "b c",
    "&amp;",
    "<p>",
    "</p>",
    "<br>",
    "<b>",
    "<div class=\"x\">",
    // Attributes as the tokenizer lists them: quoted, unquoted, without a value, after `/`, with
    // a `<` where a name starts (a stray `<`) or inside a name or value.
    "<a b=c<d e>",
    "<img alt=\"x\"<br>",
    "<a x='1'y=2 /z w = \"v\" =u>",
    "<p a<b c= <d>",
    "<i HREF=x onClick>",
    "<script>",
    "</script>",
    "<SCRIPT",
    "</scripT ",
    "<script",
    "script",
    "<style>",
    "</style>",
    "<title>",
    "</title>",
    "<textarea>",
    "</textarea x>",
    "<xmp>",
    "</xmp>",
    "<iframe>",
    "</iframe>",
    "<noscript>",
    "</noscript>",
    "<noembed>",
    "<noframes>",
    "<plaintext>",
    "<svg>",
    "</svg>",
    "<svg/>",
    "<math>",
    "</math>",
    "<mi>",
    "</mi>",
    "<mtext/>",
    "<desc>",
    "</desc>",
    "<foreignObject>",
    "</foreignobject>",
    "<title/>",
    "<font color=red>",
    "<font>",
    "<annotation-xml encoding=\"text/html\">",
    "<annotation-xml encoding='application/xhtml+xml'/>",
    "</annotation-xml>",
    "<!DOCTYPE",
    "<!doctype html",
    " PUBLIC ",
    " SYSTEM ",
    "\"-//W3C//DTD\"",
    "'x'",
    "<a b=>",
    "<a b='",
    "<a =x>",
    "<h1>",
    "<my-tag>",
    "</my-tag>",
    "<é>",
    "é",
    "\u{feff}",
    "<!--<script>",
    "<tag attr=\"a>b\">",
    "</ x>",
    "</>",
    "<x y=z/>",
    "<script src=>",
    "\0",
    "\r\n",
    "\t",
    "\x0c",
    "</SCRIPT>",
    "<!DocType",
    "<![cdata[",
    "<Svg>",
    "<mAth>",
    "</TITLE\t>",
    "<a =\"x>\" y>",
    "<a b=\"x\"=\"y>\">",
    "<a =b=\"c>\">",
    "<i/=\"'>'\">",
];

/// Long text, to cut lol_html's 1,024-byte text chunks at and around multi-byte characters.
fn long_piece(rng: &mut Rng) -> String {
    let unit = ["x", "é", "日本", "\u{1f600}", " "][rng.usize(..5)];
    let n = 200 + rng.usize(..1200);
    let mut s = "y".repeat(rng.usize(..4));
    while s.len() < n {
        s.push_str(unit);
    }
    s
}

#[test]
fn tags_the_gap_scanner_reads_otherwise_are_marked() {
    // HTML5 ends these tags at the first `>`; the scanner reads a quoted value after the `=`.
    for html in ["<a =\"x>\" y>", "<p><a b=\"x\"=\"y>\">z", "<a =b=\"c>\">"] {
        let mut agree = Vec::new();
        Lexer::new(html.as_bytes()).run(|e| {
            if let Event::Tag(t) = e {
                agree.push(t.scan_agrees);
            }
            true
        });
        assert_eq!(agree.last(), Some(&false), "{html}");
        assert_eq!(check_tags(html), Ok(()), "{html}");
    }
}

#[test]
fn same_events_as_lol_html_on_random_markup() {
    let mut rng = Rng::with_seed(0x2545_f491_4f6c_dd1d);
    let mut failures = Vec::new();
    // Pieces of text that continue a text node, longer than lol_html's buffer, cut inside
    // multi-byte characters.
    for unit in ["é", "日本", "\u{1f600}", "x"] {
        for pad in 0..4 {
            let long = format!("{}{}", "y".repeat(pad), unit.repeat(2500 / unit.len()));
            for doc in [
                format!("<p>a < {long}</p>"),
                format!("<script>if (a<{long}</script>"),
                format!("<title>t</x{long}"),
                format!("<svg><![CDATA[]x{long}]]></svg>"),
            ] {
                if let Err(e) = compare(&doc) {
                    failures.push(format!("{unit} {pad}: {e}"));
                }
            }
        }
    }
    let n = 30_000;
    for _ in 0..n {
        let len = 1 + rng.usize(..24);
        let mut doc = String::new();
        for _ in 0..len {
            if rng.usize(..20) == 0 {
                doc.push_str(&long_piece(&mut rng));
            } else {
                doc.push_str(PIECES[rng.usize(..PIECES.len())]);
            }
        }
        if let Err(e) = compare(&doc) {
            failures.push(format!("{doc:?}: {e}"));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {n} documents differ:\n{}",
        failures.len(),
        failures[..failures.len().min(20)].join("\n")
    );
}

#[test]
fn same_events_as_lol_html_on_the_fixture_inputs() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let mut files = Vec::new();
    let mut stack = vec![dir];
    while let Some(d) = stack.pop() {
        let Ok(rd) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in rd.flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else {
                files.push(p);
            }
        }
    }
    assert!(!files.is_empty(), "no fixtures");
    let mut failures = Vec::new();
    for f in &files {
        let Ok(bytes) = std::fs::read(f) else {
            continue;
        };
        let text = String::from_utf8_lossy(&bytes);
        if let Err(e) = compare(&text) {
            failures.push(format!("{}: {e}", f.display()));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

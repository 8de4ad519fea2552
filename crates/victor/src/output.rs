//! The output formats of `victor label`, for any program that writes them: a labelled page as
//! one JSON line ([`write_jsonl`], with fields of the caller's before the page's own, as the
//! WARC reader adds the record's), as CSV rows ([`write_csv`], under [`CSV_HEADER`]), or as its
//! own HTML with every block highlighted by its label ([`render_html`]). The plain text and
//! Markdown are [`crate::Cleaner::clean`]'s and [`crate::MarkdownStyle::render`]'s.

use std::fmt::Write as _;
use std::io::{self, Write};

use serde::Serialize;
use serde::ser::SerializeSeq;
use victor_core::{Label, Probs};
use victor_features::within::Within;
use victor_features::{Block, Page, Tag};
use victor_label::render_text;

/// Checks, in debug builds, that `labels` and `probs` hold one entry a block, as a labeler's
/// output does. The rendering functions are public and take slices a caller could get wrong:
/// a release build renders a block without an entry as `other` with P(other) = 1, the label
/// that keeps nothing.
#[track_caller]
fn debug_check_lengths(page: &Page, labels: &[Label], probs: &[Probs]) {
    debug_assert_eq!(labels.len(), page.blocks.len(), "one label a block");
    debug_assert_eq!(
        probs.len(),
        page.blocks.len(),
        "one probability triple a block"
    );
}

/// Where a page came from and how it was decoded: the fields of a `--format jsonl` line beside
/// its text and blocks.
#[derive(Clone, Copy, Debug)]
pub struct JsonlMeta<'a> {
    /// The input's name (its path, or `-` for standard input).
    pub source: &'a str,
    /// The page's language (ISO 639-3), when identified.
    pub language: Option<&'a str>,
    /// The decoding that chose the labels (`expected-f1`, `threshold 0.7`, `viterbi`).
    pub decoding: &'a str,
    /// The URL the page was fetched from, when known (a WARC record's target URI): a date in
    /// its path counts where the page declares no canonical URL.
    pub url: Option<&'a str>,
    /// When the page was fetched, ISO 8601 (a WARC record's `WARC-Date`): no later date is
    /// the page's ([`victor_label::PageContext::fetched`]).
    pub fetched: Option<&'a str>,
    /// The page's Markdown ([`crate::MarkdownStyle::render`]), written as a `markdown` field
    /// when given (without its last line break).
    pub markdown: Option<&'a str>,
    /// For a gated bundle, the share of the adapted model in the page's marginals
    /// ([`victor_label::LabeledPage::share`]), written as `adapted`; left out when `None`.
    pub adapted: Option<f64>,
    /// Fields written before the page's own, in this order, each a string or `null` (`victor
    /// label` over WARC files gives the record's `WARC-Record-ID` and `WARC-Target-URI`:
    /// capitalised names sort before the page's keys, so the object's keys stay in order).
    /// Names must differ from the page's.
    pub fields: &'a [(&'a str, Option<&'a str>)],
    /// Fields written after the page's own, in this order, each a string or `null` (`victor
    /// label` over WARC files gives `warc_date`, the record's `WARC-Date`: named apart from
    /// `date`, the page's publication date, it sorts after the page's keys). Names must differ
    /// from the page's.
    pub fields_after: &'a [(&'a str, Option<&'a str>)],
}

/// One page as a JSON object on one line (`--format jsonl` with `blocks`, `--format jsonl-text`
/// without): the caller's [`JsonlMeta::fields`], then the meta fields, the page's metadata, its
/// kept text as [`render_text`] writes it (without the last line break; `""` when nothing is
/// kept) and, with `blocks`, every block with its text, offsets, label and marginals. `words`
/// holds each block's words for the `confidence` ([`victor_label::LabeledPage::words`]).
///
/// Serialized straight from the page, block after block, with no intermediate JSON tree, which
/// would take several times the page's memory on a page of many blocks. The page's keys come in
/// alphabetical order.
pub fn write_jsonl(
    out: &mut dyn Write,
    meta: JsonlMeta<'_>,
    page: &Page,
    labels: &[Label],
    probs: &[Probs],
    words: &[u32],
    blocks: bool,
) -> io::Result<()> {
    debug_check_lengths(page, labels, probs);
    let mut text = String::new();
    render_text(page, labels, false, &mut text);
    let ctx = victor_label::PageContext {
        url: meta.url,
        fetched: meta.fetched,
    };
    let md = victor_label::metadata_with(page, labels, ctx);
    let obj = JsonPage {
        fields: Fields(meta.fields),
        adapted: meta.adapted,
        author: md.author.as_deref(),
        canonical: md.canonical.as_deref(),
        confidence: victor_label::confidence(page, labels, probs, words),
        date: md.date.as_deref(),
        date_source: md.date_source.map(victor_label::DateSource::as_str),
        sitename: md.sitename.as_deref(),
        blocks: blocks.then_some(JsonBlocks {
            page,
            labels,
            probs,
        }),
        decoding: meta.decoding,
        language: meta.language,
        markdown: meta.markdown.map(|m| m.strip_suffix('\n').unwrap_or(m)),
        noscript: page.noscript_view,
        source: meta.source,
        text: text.strip_suffix('\n').unwrap_or(&text),
        title: md.title.as_deref(),
        after: Fields(meta.fields_after),
    };
    serde_json::to_writer(&mut *out, &obj)?;
    out.write_all(b"\n")
}

/// The object `write_jsonl` writes (the caller's fields, the page's in alphabetical order, the
/// caller's fields after them, as they appear).
#[derive(Serialize)]
struct JsonPage<'a> {
    #[serde(flatten)]
    fields: Fields<'a>,
    /// How much of a gated bundle's adapted model labelled the page; left out otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    adapted: Option<f64>,
    author: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    blocks: Option<JsonBlocks<'a>>,
    canonical: Option<&'a str>,
    confidence: f64,
    date: Option<&'a str>,
    /// Where the date came from ([`victor_label::DateSource`]).
    date_source: Option<&'static str>,
    decoding: &'a str,
    language: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    markdown: Option<&'a str>,
    /// `true` when the blocks come from the page's `<noscript>` crawler view
    /// ([`Page::noscript_view`]); left out otherwise.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    noscript: bool,
    sitename: Option<&'a str>,
    source: &'a str,
    text: &'a str,
    title: Option<&'a str>,
    #[serde(flatten)]
    after: Fields<'a>,
}

/// The caller's fields of a JSON line, as entries of its object.
struct Fields<'a>(&'a [(&'a str, Option<&'a str>)]);

impl Serialize for Fields<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_map(self.0.iter().map(|(k, v)| (k, v)))
    }
}

/// A page's blocks as a JSON array, serialized one block at a time.
struct JsonBlocks<'a> {
    page: &'a Page,
    labels: &'a [Label],
    probs: &'a [Probs],
}

/// One block of the array.
#[derive(Serialize)]
struct JsonBlock<'a> {
    end: u32,
    label: &'static str,
    probabilities: JsonProbs,
    start: u32,
    text: &'a str,
}

/// A block's marginals by label name.
#[derive(Serialize)]
struct JsonProbs {
    header: f64,
    other: f64,
    text: f64,
}

impl Serialize for JsonBlocks<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let blocks = &self.page.blocks;
        let mut seq = s.serialize_seq(Some(blocks.len()))?;
        for (i, b) in blocks.iter().enumerate() {
            let p = self.probs.get(i).copied().unwrap_or([0.0, 0.0, 1.0]);
            seq.serialize_element(&JsonBlock {
                end: b.source.end,
                label: self.labels.get(i).copied().unwrap_or(Label::Other).as_str(),
                probabilities: JsonProbs {
                    header: p[0],
                    other: p[2],
                    text: p[1],
                },
                start: b.source.start,
                text: self.page.block_text(b),
            })?;
        }
        seq.end()
    }
}

/// Rows of `--format csv`: page, block, start, end, label, P(header), P(text), P(other), text.
pub fn write_csv(
    out: &mut csv::Writer<Vec<u8>>,
    source: &str,
    page: &Page,
    labels: &[Label],
    probs: &[Probs],
) -> csv::Result<()> {
    debug_check_lengths(page, labels, probs);
    let mut num = String::new();
    for (i, b) in page.blocks.iter().enumerate() {
        let p = probs.get(i).copied().unwrap_or([0.0, 0.0, 1.0]);
        num.clear();
        let _ = write!(num, "{i}");
        out.write_record([
            source,
            num.as_str(),
            &b.source.start.to_string(),
            &b.source.end.to_string(),
            labels.get(i).copied().unwrap_or(Label::Other).as_str(),
            &format!("{:.6}", p[0]),
            &format!("{:.6}", p[1]),
            &format!("{:.6}", p[2]),
            page.block_text(b),
        ])?;
    }
    Ok(())
}

/// The header row of `--format csv`.
pub const CSV_HEADER: [&str; 9] = [
    "page", "block", "start", "end", "label", "p_header", "p_text", "p_other", "text",
];

/// Where `render_html` puts its tags: right after the `<head>` start tag when the page has one
/// before its first block, else right after the `<!DOCTYPE ...>` (a document's first thing must
/// stay its doctype, or browsers render it in quirks mode), else at the start.
fn injection_point(doc: &str, limit: usize) -> usize {
    let limit = limit.min(doc.len());
    let head = doc.as_bytes().within(..limit);
    let lower: Vec<u8> = head.iter().map(u8::to_ascii_lowercase).collect();
    let find = |needle: &[u8], from: usize| -> Option<usize> {
        lower
            .get(from..)?
            .windows(needle.len())
            .position(|w| w == needle)
            .map(|i| i + from)
    };
    // The end of the start tag that begins at `start`: just past its `>`.
    let tag_end = |start: usize| -> Option<usize> {
        lower
            .get(start..)?
            .iter()
            .position(|&c| c == b'>')
            .map(|i| start + i + 1)
    };
    let mut from = 0;
    while let Some(i) = find(b"<head", from) {
        let next = lower.get(i + 5).copied();
        if matches!(
            next,
            Some(b'>' | b'/') | Some(b' ' | b'\t' | b'\n' | b'\r' | 0x0c)
        ) {
            if let Some(end) = tag_end(i) {
                return end;
            }
            break;
        }
        from = i + 5;
    }
    // A doctype never closed (a page cut short) runs to the end of what was searched.
    find(b"<!doctype", 0).map_or(0, |i| tag_end(i).unwrap_or(limit))
}

/// The original page with every block highlighted by its label, probabilities on hover
/// (`--format html`). Scripts are disabled by a content security policy, so the page renders
/// as a static picture of what victor kept. The tags victor adds go inside `<head>` (or after
/// the doctype), never before the doctype.
pub fn render_html(doc: &str, page: &Page, labels: &[Label], probs: &[Probs]) -> String {
    debug_check_lengths(page, labels, probs);
    let mut out = String::with_capacity(doc.len() + page.blocks.len() * 120 + 1024);
    let first_block = page
        .blocks
        .iter()
        .map(|b| b.source.start as usize)
        .min()
        .unwrap_or(doc.len());
    let at = injection_point(doc, first_block);
    let at = if doc.is_char_boundary(at) { at } else { 0 };
    out.push_str(&doc[..at]);
    out.push_str(
        "<meta charset=\"utf-8\"><meta http-equiv=\"Content-Security-Policy\" content=\"script-src 'none'\">\
         <style>.victor-header{background:#fcd34d !important;color:#000 !important}\
         .victor-text{background:#86efac !important;color:#000 !important}\
         .victor-other{background:#fecaca !important;color:#555 !important;text-decoration:line-through}</style>\n",
    );
    let mut pos = at;
    for (i, b) in page.blocks.iter().enumerate() {
        let (s, e) = (b.source.start as usize, b.source.end as usize);
        if s < pos
            || e > doc.len()
            || !doc.is_char_boundary(s)
            || !doc.is_char_boundary(e)
            || b.in_pre && in_textarea(page, b)
        {
            continue;
        }
        out.push_str(&doc[pos..s]);
        let l = labels.get(i).copied().unwrap_or(Label::Other);
        let p = probs.get(i).copied().unwrap_or([0.0, 0.0, 1.0]);
        let _ = write!(
            out,
            "<span class=\"victor-{}\" title=\"{}: header {:.3} text {:.3} other {:.3}\">",
            l.as_str(),
            l.as_str(),
            p[0],
            p[1],
            p[2]
        );
        out.push_str(&doc[s..e]);
        out.push_str("</span>");
        pos = e;
    }
    // `pos` is 0 or the end of a block checked above to be in the document.
    out.push_str(doc.within(pos..));
    out
}

fn in_textarea(page: &Page, b: &Block) -> bool {
    page.ancestors(b.parent)
        .any(|(_, e)| e.tag == Tag::TEXTAREA)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn page(html: &str) -> Page {
        victor_features::segment(html).expect("segments")
    }

    #[test]
    fn html_output_wraps_blocks() {
        let doc = "<p>Hello <b>world</b>!</p>";
        let p = page(doc);
        let probs = [[0.1, 0.8, 0.1], [0.0, 0.1, 0.9], [0.2, 0.7, 0.1]];
        let labels = [Label::Text, Label::Other, Label::Text];
        let h = render_html(doc, &p, &labels, &probs);
        assert!(h.contains("<p><span class=\"victor-text\" title=\"text: header 0.100 text 0.800 other 0.100\">Hello</span> <b><span class=\"victor-other\""));
        assert!(h.ends_with("!</span></p>"));
    }

    #[test]
    fn html_output_keeps_the_doctype_first_and_its_tags_in_head() {
        let doc =
            "<!DOCTYPE html>\n<html><head><title>T</title></head><body><p>Hello</p></body></html>";
        let p = page(doc);
        let n = p.blocks.len();
        let h = render_html(doc, &p, &vec![Label::Text; n], &vec![[0.0, 1.0, 0.0]; n]);
        assert!(
            h.starts_with("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">"),
            "{h}"
        );
        // No head: right after the doctype.
        let doc = "<!doctype html><p>Hello</p>";
        let p = page(doc);
        let h = render_html(doc, &p, &[Label::Text], &[[0.0, 1.0, 0.0]]);
        assert!(h.starts_with("<!doctype html><meta charset="), "{h}");
        // A page cut inside its doctype (found by tests/fuzz_pages.rs).
        let doc = "<!DOCTYPE htm";
        let p = page(doc);
        let h = render_html(doc, &p, &[], &[]);
        assert!(h.starts_with("<!DOCTYPE htm<meta charset="), "{h}");
        // <header> is not <head>; no doctype: at the start.
        let doc = "<header>Top</header><p>Hello</p>";
        let p = page(doc);
        let n = p.blocks.len();
        let h = render_html(doc, &p, &vec![Label::Text; n], &vec![[0.0, 1.0, 0.0]; n]);
        assert!(h.starts_with("<meta charset="), "{h}");
        assert!(h.contains("<header><span class=\"victor-text\""), "{h}");
    }
    #[test]
    fn jsonl_lines_carry_the_kept_text_with_or_without_blocks() {
        let p = page("<title>T</title><h1>Title</h1><div>menu</div><p>Body <b>text</b>.</p>");
        let labels = [
            Label::Header,
            Label::Other,
            Label::Text,
            Label::Text,
            Label::Text,
        ];
        assert_eq!(p.blocks.len(), labels.len());
        let probs = [
            [0.6, 0.3, 0.1],
            [0.0, 0.1, 0.9],
            [0.0, 0.9, 0.1],
            [0.0, 0.9, 0.1],
            [0.0, 0.9, 0.1],
        ];
        let meta = JsonlMeta {
            adapted: None,
            source: "a.html",
            language: Some("eng"),
            decoding: "threshold 0.5",
            url: None,
            fetched: None,
            markdown: None,
            fields: &[],
            fields_after: &[],
        };
        let line = |blocks| {
            let mut out = Vec::new();
            write_jsonl(
                &mut out,
                meta,
                &p,
                &labels,
                &probs,
                &victor_label::block_words(&p),
                blocks,
            )
            .expect("writes");
            let s = String::from_utf8(out).expect("utf-8");
            assert!(
                s.ends_with('\n') && s.matches('\n').count() == 1,
                "one line: {s}"
            );
            serde_json::from_str::<serde_json::Value>(&s).expect("one JSON object")
        };
        let full = line(true);
        assert_eq!(
            full["text"], "Title\nBody text.",
            "render_text without the last line break"
        );
        assert_eq!(full["title"], "T");
        assert_eq!(full["language"], "eng");
        assert_eq!(full["blocks"][1]["label"], "other");
        assert_eq!(full["blocks"][1]["text"], "menu");
        let compact = line(false);
        assert!(compact.get("blocks").is_none(), "{compact}");
        assert_eq!(compact["text"], full["text"]);
        assert_eq!(compact["source"], "a.html");
        assert_eq!(compact["decoding"], "threshold 0.5");
        // Nothing kept: an empty text, still one line per page.
        let mut out = Vec::new();
        write_jsonl(
            &mut out,
            meta,
            &p,
            &[Label::Other; 5],
            &probs,
            &[1; 5],
            false,
        )
        .expect("writes");
        let v: serde_json::Value = serde_json::from_slice(&out).expect("JSON");
        assert_eq!(v["text"], "");
    }

    #[test]
    fn a_callers_fields_come_first_and_last_in_the_order_given() {
        let p = page("<p>Body text.</p>");
        let fields = [
            ("WARC-Record-ID", None),
            ("WARC-Target-URI", Some("http://a.example/")),
        ];
        let meta = JsonlMeta {
            adapted: None,
            source: "a.html",
            language: None,
            decoding: "viterbi",
            url: None,
            fetched: None,
            markdown: None,
            fields: &fields,
            fields_after: &[("warc_date", Some("2024-01-01"))],
        };
        let mut out = Vec::new();
        write_jsonl(
            &mut out,
            meta,
            &p,
            &[Label::Text],
            &[[0.0, 1.0, 0.0]],
            &[2],
            false,
        )
        .expect("writes");
        let s = String::from_utf8(out).expect("utf-8");
        assert!(
            s.starts_with(
                "{\"WARC-Record-ID\":null,\"WARC-Target-URI\":\"http://a.example/\",\"author\":"
            ),
            "{s}"
        );
        assert!(s.ends_with(",\"warc_date\":\"2024-01-01\"}\n"), "{s}");
        let v: serde_json::Value = serde_json::from_str(&s).expect("one JSON object");
        assert_eq!(v["text"], "Body text.");
    }
}

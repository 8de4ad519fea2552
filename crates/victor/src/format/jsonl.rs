//! `--format jsonl` and `--format jsonl-text`: one JSON object a page on one line
//! ([`write_jsonl`]), with the blocks (`jsonl`) or without (`jsonl-text`), the page's metadata
//! and confidence, and the caller's fields before and after the page's own (a WARC record's).

use std::io::{self, Write};

use serde::Serialize;
use serde::ser::SerializeSeq;
use victor_core::{Label, Probs};
use victor_features::Page;
use victor_label::render_text;

use super::{Item, Spec, debug_check_lengths, markdown};

/// The JSON-lines formats.
pub(super) struct Jsonl {
    /// Every block with its label and marginals (`jsonl`; `jsonl-text` leaves them out).
    pub(super) blocks: bool,
}

impl Spec for Jsonl {
    fn extension(&self) -> &'static str {
        "jsonl"
    }

    fn needs_head(&self) -> bool {
        true
    }

    fn render(&self, item: &Item<'_>, out: &mut Vec<u8>) -> io::Result<()> {
        let lp = item.lp;
        let markdown = item.how.markdown.then(|| markdown::of(item));
        let meta = JsonlMeta {
            adapted: lp.share,
            source: item.source,
            language: lp.processed.table.language,
            decoding: item.how.decoding,
            url: item.url,
            fetched: item.fetched,
            markdown: markdown.as_deref(),
            fields: item.fields.before,
            fields_after: item.fields.after,
        };
        let page = &lp.processed.page;
        write_jsonl(
            out,
            meta,
            page,
            &lp.labels,
            &lp.probs,
            &lp.words,
            self.blocks,
        )
    }
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
        fields: FieldList(meta.fields),
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
        after: FieldList(meta.fields_after),
    };
    serde_json::to_writer(&mut *out, &obj)?;
    out.write_all(b"\n")
}

/// The object `write_jsonl` writes (the caller's fields, the page's in alphabetical order, the
/// caller's fields after them, as they appear).
#[derive(Serialize)]
struct JsonPage<'a> {
    #[serde(flatten)]
    fields: FieldList<'a>,
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
    after: FieldList<'a>,
}

/// The caller's fields of a JSON line, as entries of its object.
struct FieldList<'a>(&'a [(&'a str, Option<&'a str>)]);

impl Serialize for FieldList<'_> {
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

#[cfg(test)]
mod tests {
    use super::*;

    fn page(html: &str) -> Page {
        victor_features::segment(html).expect("segments")
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

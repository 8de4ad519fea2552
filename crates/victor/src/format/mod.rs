//! The output formats of `victor label`, in one place: [`Format`] names them, `Format::spec`
//! is the one dispatch from a format to the file that writes it (`text.rs` for text and
//! CleanEval, `markdown.rs`, `jsonl.rs` for both JSON-lines formats, `csv.rs`, `html.rs`), and
//! [`Cleaner::render`] labels a page and writes it in a format. A format file says everything
//! about its format: the file extension, whether the parse must collect the page's head, how a
//! page renders, what comes before a file's first page (the CSV header) and whether pages on one
//! stream are set apart by a blank line ([`Stream`]).
//!
//! The renderers that know a page's structure stay where the page is understood: the text and
//! its linearization in `victor_label::render_text_with`, the Markdown in
//! `victor_label::render_markdown`; the format files call them.

mod csv;
mod html;
mod jsonl;
mod markdown;
mod text;

use std::io::{self, Write};
use std::sync::atomic::{AtomicBool, Ordering};

use victor_core::{Label, Probs};
use victor_features::{Collect, Page};
use victor_label::LabeledPage;

use crate::{Cleaner, RawPage};

pub use self::csv::{CSV_HEADER, CsvWriter, write_csv};
pub use self::html::render_html;
pub use self::jsonl::{JsonlMeta, write_jsonl};

/// Output formats of `victor label`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
pub enum Format {
    /// The cleaned text, one paragraph a line (on standard output, a blank line between pages).
    Text,
    /// The cleaned text with CleanEval's `<h>`, `<p>`, `<l>` paragraph markers (a blank line
    /// between pages, as for text).
    Cleaneval,
    /// One JSON object per page: source, language, title, decoding, the cleaned text, and every
    /// block with its text, offsets, label and the probabilities of header, text and other.
    Jsonl,
    /// One JSON object per page without the blocks: source, language, title, decoding and the
    /// cleaned text (one paragraph a line), the document-per-line layout corpus tools read.
    JsonlText,
    /// The original page with each block highlighted by its label (probabilities on hover).
    Html,
    /// One row per block: page, block, start, end, label, p_header, p_text, p_other, text.
    Csv,
    /// The kept text as Markdown with the page's structure: headings, lists, tables, code,
    /// quotes (a blank line between pages on standard output).
    Markdown,
}

/// What one format file provides ([`Format::spec`] picks the file).
trait Spec: Sync {
    /// The extension of an output file (`txt`, `jsonl`, ...).
    fn extension(&self) -> &'static str;
    /// Whether the parse must collect the page's head (the metadata of the JSON formats).
    fn needs_head(&self) -> bool {
        false
    }
    /// Writes one labelled page.
    fn render(&self, page: &Item<'_>, out: &mut Vec<u8>) -> io::Result<()>;
    /// What comes before the first page of a file or a stream (the CSV header).
    fn header(&self, _out: &mut dyn Write) -> io::Result<()> {
        Ok(())
    }
    /// Whether pages on one stream are set apart by a blank line (the text formats).
    fn blank_line_between_pages(&self) -> bool {
        false
    }
}

impl Format {
    /// The file that writes this format: the one dispatch on [`Format`].
    fn spec(self) -> &'static dyn Spec {
        match self {
            Format::Text => &text::Text { markers: false },
            Format::Cleaneval => &text::Text { markers: true },
            Format::Jsonl => &jsonl::Jsonl { blocks: true },
            Format::JsonlText => &jsonl::Jsonl { blocks: false },
            Format::Html => &html::Html,
            Format::Csv => &csv::Csv,
            Format::Markdown => &markdown::Markdown,
        }
    }

    /// The extension of an output file in this format (`txt`, `jsonl`, `html`, `csv`, `md`).
    pub fn extension(self) -> &'static str {
        self.spec().extension()
    }

    /// Writes what comes before a file's (or a stream's) first page: the CSV header row for
    /// `csv`, nothing for the others.
    pub fn write_header(self, out: &mut dyn Write) -> io::Result<()> {
        self.spec().header(out)
    }
}

/// How every page of a run is written: the format and what it adds to it.
#[derive(Clone, Copy, Debug)]
pub struct Rendering<'a> {
    /// The format.
    pub format: Format,
    /// Text formats: Kitten's lists and tables (`victor label --linearize`).
    pub linearize: bool,
    /// JSON-lines formats: a `markdown` field (`--markdown`).
    pub markdown: bool,
    /// Markdown: links as `[text](url)` (`--links`).
    pub links: bool,
    /// Markdown: emphasis (`--emphasis`).
    pub emphasis: bool,
    /// The decoding's (or the rule-based method's) name, written into JSON lines.
    pub decoding: &'a str,
}

impl Rendering<'_> {
    /// What the parse must collect for this output: links for Markdown links, the head for the
    /// metadata of the JSON formats; plain text needs neither.
    pub fn collect(&self) -> Collect {
        Collect {
            links: self.links,
            head: self.format.spec().needs_head(),
        }
    }
}

/// The fields of a JSON line besides the page's own: those written before its keys and those
/// after them (a WARC record's; none for a page file).
#[derive(Clone, Copy, Debug, Default)]
pub struct Fields<'a> {
    /// Before the page's keys.
    pub before: &'a [(&'a str, Option<&'a str>)],
    /// After the page's keys.
    pub after: &'a [(&'a str, Option<&'a str>)],
}

/// One labelled page with all that its rendering reads.
struct Item<'a> {
    lp: &'a LabeledPage<'a>,
    how: &'a Rendering<'a>,
    /// The input's name.
    source: &'a str,
    url: Option<&'a str>,
    fetched: Option<&'a str>,
    fields: Fields<'a>,
}

/// Why a page was not rendered: it could not be labelled, or its rendering not written.
#[derive(Debug, thiserror::Error)]
pub enum RenderError {
    /// The page could not be read or labelled.
    #[error(transparent)]
    Page(#[from] crate::Error),
    /// The rendering could not be written.
    #[error(transparent)]
    Write(#[from] io::Error),
}

impl Cleaner {
    /// Labels a page and appends its rendering to `out`, as `how` asks: the one way
    /// `victor label` writes a page. `source` names the input in the JSON and CSV formats,
    /// `fields` go into a JSON line (a WARC record's).
    ///
    /// # Errors
    ///
    /// [`RenderError::Page`] when the page cannot be labelled.
    pub fn render(
        &self,
        page: RawPage<'_>,
        source: &str,
        fields: Fields<'_>,
        how: &Rendering<'_>,
        out: &mut Vec<u8>,
    ) -> Result<(), RenderError> {
        let spec = how.format.spec();
        self.with_labeled_collecting(page, how.collect(), |lp| {
            let item = Item {
                lp,
                how,
                source,
                url: page.url,
                fetched: page.fetched,
                fields,
            };
            spec.render(&item, out)
        })??;
        Ok(())
    }
}

/// What has gone to one output stream so far, shared by the threads that write there in turn:
/// the header is written before the first page, and text of a page after a blank line when
/// text of an earlier page precedes it.
#[derive(Debug, Default)]
pub struct Stream {
    /// The header (CSV) is written.
    header: AtomicBool,
    /// A page's text is written (the next one is set off by a blank line).
    text: AtomicBool,
}

impl Stream {
    /// Writes one page's rendering: after the format's header before the first page, and after
    /// a blank line when text of an earlier page precedes it (so documents stay apart, one
    /// paragraph a line and a blank line between pages; a page that keeps nothing adds
    /// nothing).
    pub fn write<W: Write + ?Sized>(
        &self,
        out: &mut W,
        format: Format,
        page: &[u8],
    ) -> io::Result<()> {
        let spec = format.spec();
        if !self.header.swap(true, Ordering::SeqCst) {
            let mut head = Vec::new();
            spec.header(&mut head)?;
            out.write_all(&head)?;
        }
        if spec.blank_line_between_pages()
            && !page.is_empty()
            && self.text.swap(true, Ordering::SeqCst)
        {
            out.write_all(b"\n")?;
        }
        out.write_all(page)
    }
}

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

#[cfg(test)]
mod tests {
    use super::*;

    fn written(format: Format, pages: &[&[u8]]) -> String {
        let stream = Stream::default();
        let mut out = Vec::new();
        for p in pages {
            stream.write(&mut out, format, p).expect("writes");
        }
        String::from_utf8(out).expect("utf-8")
    }

    #[test]
    fn a_stream_gets_the_header_once_and_text_pages_a_blank_line_apart() {
        let csv = written(Format::Csv, &[b"a\n", b"b\n"]);
        assert_eq!(
            csv,
            "page,block,start,end,label,p_header,p_text,p_other,text\na\nb\n"
        );
        // A page that keeps nothing adds nothing, not even a blank line.
        for f in [Format::Text, Format::Cleaneval, Format::Markdown] {
            assert_eq!(
                written(f, &[b"one\n", b"", b"two\n"]),
                "one\n\ntwo\n",
                "{f:?}"
            );
        }
        for f in [Format::Jsonl, Format::JsonlText, Format::Html] {
            assert_eq!(written(f, &[b"{}\n", b"{}\n"]), "{}\n{}\n", "{f:?}");
        }
        let exts = [
            Format::Text,
            Format::Cleaneval,
            Format::Jsonl,
            Format::JsonlText,
        ]
        .map(Format::extension);
        assert_eq!(exts, ["txt", "txt", "jsonl", "jsonl"]);
        let exts = [Format::Html, Format::Csv, Format::Markdown].map(Format::extension);
        assert_eq!(exts, ["html", "csv", "md"]);
    }

    #[cfg(feature = "builtin")]
    #[test]
    fn render_writes_each_format_from_one_labelling() {
        let c = Cleaner::builtin().expect("builtin");
        let html = b"<html><head><title>T</title></head><body><nav><a href=/>Home</a></nav>\
            <article><h1>Headline</h1><p>A first paragraph of the article with enough words to \
            be kept as text by the model, since it reads like running prose.</p></article></body></html>";
        let page = RawPage {
            html,
            ..RawPage::default()
        };
        let render = |format| {
            let how = Rendering {
                format,
                linearize: false,
                markdown: false,
                links: false,
                emphasis: false,
                decoding: "viterbi",
            };
            let mut out = Vec::new();
            c.render(page, "a.html", Fields::default(), &how, &mut out)
                .expect("renders");
            String::from_utf8(out).expect("utf-8")
        };
        let text = c.clean(html).expect("cleans");
        assert_eq!(render(Format::Text), format!("{text}\n"));
        let line: serde_json::Value =
            serde_json::from_str(&render(Format::JsonlText)).expect("one JSON line");
        assert_eq!(line["text"], text.as_str());
        assert_eq!(line["title"], "T", "the JSON formats collect the head");
        assert_eq!(line["decoding"], "viterbi");
        assert!(line.get("blocks").is_none());
        let csv = render(Format::Csv);
        assert!(csv.starts_with("a.html,0,"), "{csv}");
        assert!(render(Format::Html).contains("victor-text"));
        assert!(render(Format::Markdown).starts_with("# Headline"));
    }
}

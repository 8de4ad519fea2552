//! # victor: clean web pages with one type
//!
//! ## Map
//!
//! A page goes one way, each stage in one place:
//!
//! | stage | where |
//! |---|---|
//! | bytes -> text (charset, gzip) | `victor-html` (`decode`), inputs: [`inputs`], [`mod@file`], [`warc`] |
//! | text -> blocks | `victor-html` (`segment`) |
//! | blocks -> features | `victor-features` (`Extractor`) |
//! | features -> marginals | `victor-label` (`Labeler`, the CRF in `crf/`) |
//! | marginals -> labels | [`decoding`] settles the [`Decoding`]; `victor-label` decodes (`Labeler::decide`, the one dispatch) |
//! | labels -> output | [`mod@format`]: one file a format under `format/` |
//!
//! [`Cleaner`] runs the stages; [`Cleaner::render`] writes a page in a [`Format`]: `text` and
//! `cleaneval` in `format/text.rs`, `markdown` in `format/markdown.rs`, `jsonl` and
//! `jsonl-text` in `format/jsonl.rs`, `csv` in `format/csv.rs`, `html` in `format/html.rs`
//! (the text and Markdown renderers that know a page's structure stay in `victor-label`).
//!
//! **To add an output format**: write `format/NAME.rs` with a type implementing the format
//! trait `Spec` (extension, rendering, header, page separation), add a variant to [`Format`]
//! and its arm in `Format::spec` (`format/mod.rs`); the command line's `--format` takes it.
//!
//! **To add a decoding rule**: the rule is a variant of [`Decoding`] (`victor-core`,
//! `decoding.rs`) and its arm in the one decoding dispatch, `Labeler::decide` (`victor-label`,
//! `labeler.rs`). To let people ask for it by name: a variant of [`DecodingChoice`] (the same
//! file) with its name in `FromStr` (which Python's `decoding=` reads) and its arm in
//! `Model::decoding` (`victor-label`, `bundle.rs`), the one match from a choice to a decoding,
//! which [`decoding::settle`] calls for the command line and Python; the command line's flag
//! goes into `DecodingArgs` (`crates/cli/src/util/model.rs`).
//!
//! [`Cleaner`] holds a model bundle and a decoding, and turns the bytes of an HTML page into its
//! main text ([`Cleaner::clean`]) or into a [`Document`] with every block, its label and the
//! probabilities of header, text and other ([`Cleaner::label`]). It is `Send + Sync` and cheap to
//! clone (the model is shared): one `Cleaner` serves many threads, each page taking a set of
//! buffers from a pool inside it and putting them back, so buffers grown by earlier pages are
//! reused.
//!
//! ```
//! # #[cfg(feature = "builtin")] {
//! let cleaner = victor::Cleaner::builtin()?;
//! let html = b"<html><head><title>T</title></head><body><nav><a href=/>Home</a></nav>\
//!     <article><h1>Headline</h1><p>A first paragraph of the article with enough words to be \
//!     kept as text by the model, since it reads like running prose.</p></article></body></html>";
//! let text = cleaner.clean(html)?;
//! let doc = cleaner.label(html)?;
//! assert_eq!(doc.text, text);
//! assert_eq!(doc.title.as_deref(), Some("T"));
//! # }
//! # Ok::<(), victor::Error>(())
//! ```
//!
//! A page from a WARC file knows its charset from the HTTP header: [`Cleaner::clean_with`] and
//! [`Cleaner::label_with`] take it (and the page's URL, kept in the [`Document`]) in a [`RawPage`].
//!
//! Features: `builtin` (on by default) builds the shipped default model into the library for
//! [`Cleaner::builtin`]; without it, load a bundle folder with [`Cleaner::load`].

#![forbid(unsafe_code)]
#![warn(missing_docs)]
#![deny(unreachable_pub)]
#![warn(unnameable_types)]

mod http;
// Formats, decoding and inputs (the label path): victor::format, victor::decoding, victor::inputs.
#[cfg(feature = "bench")]
pub mod bench;
pub mod decoding;
pub mod file;
pub mod format;
pub mod inputs;
pub mod method;
pub mod models;
pub mod output;
pub mod warc;

// Evaluation: victor eval, sweep and their tables.
#[cfg(feature = "eval")]
pub mod eval;

// Training and adapting (one assembly), cross-validation, annotated sets, the annotation tool,
// and the blocks' features.
#[cfg(feature = "annotations")]
pub mod annotations;
#[cfg(feature = "annotator")]
pub mod annotator;
#[cfg(all(feature = "train", feature = "eval"))]
pub mod cv;
pub mod features;
#[cfg(feature = "train")]
pub mod train;

use std::path::Path;
use std::sync::{Arc, Mutex};

use serde::Serialize;
use victor_label::render_text;
use victor_label::{Labeler, Scratch};

pub use method::label_by_method;
pub use victor_features::{Collect, DEFAULT_MAX_BLOCKS, known_charset};
pub use victor_label::{
    Calibration, Decoding, DecodingChoice, DecodingChoiceError, ExpectedOptions, NoThreshold,
    Origin, Threshold, ThresholdError,
};
pub use victor_methods::{Method, Methods};
// The types of the label path's public signatures (formats, decoding, inputs).
pub use format::{Format, Rendering};
pub use victor_core::{Label, Probs};
pub use victor_features::{Page, PageError, Processed, SegmentError};
pub use victor_label::{BundleError, LabelError, LabeledPage, Model};

/// Why a cleaner could not be made or a page could not be cleaned.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The model bundle does not load.
    #[error(transparent)]
    Bundle(#[from] BundleError),
    /// The page could not be labelled (binary data, too many blocks, a broken model).
    #[error(transparent)]
    Label(#[from] LabelError),
    /// This library was built without the `builtin` feature (or without models/default).
    #[error("this victor library was built without the default model (feature `builtin`)")]
    NoBuiltin,
    /// A bundle named by [`Cleaner::open`] that cannot be found or loaded.
    #[error(transparent)]
    Model(#[from] models::ModelError),
    /// An input that holds no page ([`check_input`]).
    #[error(transparent)]
    Empty(#[from] EmptyInput),
}

/// An input that holds no page: no bytes, or white space only ([`check_input`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("empty input ({}): no page", self.what())]
pub struct EmptyInput {
    /// Its bytes (all white space).
    pub bytes: usize,
}

impl EmptyInput {
    /// What the input held: `0 bytes`, or `12 bytes of white space only`.
    pub fn what(&self) -> String {
        match self.bytes {
            0 => "0 bytes".to_string(),
            1 => "1 byte of white space only".to_string(),
            n => format!("{n} bytes of white space only"),
        }
    }
}

/// Checks that an input holds a page: a page given to be cleaned that has no bytes, or nothing
/// but white space, is an error, never a silent empty output. The `victor` command refuses such
/// a file, and the Python package such a `clean`, `label` or `markdown` argument, by this one
/// rule. [`Cleaner`] itself cleans any bytes (a WARC record with an empty body keeps nothing),
/// so a program that reads inputs checks them with this first.
///
/// # Errors
///
/// [`EmptyInput`] for an empty input.
pub fn check_input(html: &[u8]) -> Result<(), EmptyInput> {
    if html.iter().all(u8::is_ascii_whitespace) {
        return Err(EmptyInput { bytes: html.len() });
    }
    Ok(())
}

/// What [`Cleaner::markdown_as`] writes beyond the structure.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MarkdownStyle {
    /// Links as `[text](url)`, resolved against the page's `<base href>` and its URL.
    pub links: bool,
    /// Emphasis: `*text*` for `<em>` and `<i>`, `**text**` for `<strong>` and `<b>`.
    pub emphasis: bool,
}

impl MarkdownStyle {
    /// What a parse must collect for this style: the links when it writes them.
    pub fn collect(self) -> Collect {
        Collect {
            links: self.links,
            head: false,
        }
    }

    /// The Markdown of a labelled page (as [`Cleaner::with_labeled`] gives it) in this style,
    /// ending with a line break unless empty; links resolve against `url` (and `<base href>`).
    pub fn render(self, lp: &LabeledPage<'_>, url: Option<&str>) -> String {
        let mut s = String::new();
        let opts = victor_label::MarkdownOptions {
            doc: Some(lp.processed.decoded.text.as_ref()),
            links: self.links,
            emphasis: self.emphasis,
            url,
        };
        victor_label::render_markdown(&lp.processed.page, &lp.labels, opts, &mut s);
        s
    }
}

/// A page as it came, before victor reads it: its bytes with what its transport knows about it
/// (not the segmented page of blocks, `victor_features::Page`).
#[derive(Clone, Copy, Debug, Default)]
pub struct RawPage<'a> {
    /// The raw bytes (the HTTP body, without headers).
    pub html: &'a [u8],
    /// The charset of the HTTP `Content-Type` header, if it gave one: it outranks the page's own
    /// `<meta>` declaration (a byte-order mark and valid UTF-8 still come first).
    pub charset: Option<&'a str>,
    /// The page's URL, kept in the [`Document`] (a date in its path counts where the page
    /// declares no canonical URL).
    pub url: Option<&'a str>,
    /// When the page was fetched, ISO 8601 (a WARC record's `WARC-Date`): the page's date is
    /// never later ([`victor_label::PageContext::fetched`]; `None`: the present bounds it).
    pub fetched: Option<&'a str>,
}

/// One labelled page, owned and serialisable.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Document {
    /// The page's URL, if it was given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    /// The page's headline (its `h1` or declared title, site name removed; `<title>` as a
    /// fallback).
    pub title: Option<String>,
    /// The authors' names, joined with `, `.
    pub author: Option<String>,
    /// The publication date, ISO 8601 (`YYYY-MM-DD`, with the time where the page gives it).
    pub date: Option<String>,
    /// Where the date came from: `json-ld`, `meta`, `time`, `url` or `text`
    /// ([`victor_label::DateSource`]).
    pub date_source: Option<&'static str>,
    /// The site's name (`og:site_name`, JSON-LD publisher).
    pub sitename: Option<String>,
    /// The canonical URL (`link rel=canonical`, else `og:url`).
    pub canonical: Option<String>,
    /// How good victor expects its extraction of this page to be, in [0, 1]: the expected
    /// text-level F1 of the kept blocks under the marginals.
    pub confidence: f64,
    /// For a gated bundle (adapted with a gate), the share of the adapted model in the page's
    /// marginals, in [0, 1]: how much of the user's guideline applied to it. `None` otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub adapted: Option<f64>,
    /// The page's language (ISO 639-3), when identified.
    pub language: Option<String>,
    /// The cleaned text: the kept blocks, one paragraph a line (no final line break).
    pub text: String,
    /// Every block of the page, in document order.
    pub blocks: Vec<Block>,
}

/// One block of a [`Document`].
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Block {
    /// The block's text.
    pub text: String,
    /// Byte offset of its first character in the decoded document.
    pub start: u32,
    /// Byte offset after its last character in the decoded document.
    pub end: u32,
    /// `header`, `text` or `other`.
    pub label: &'static str,
    /// P(header), P(text), P(other).
    pub probabilities: [f64; 3],
}

/// A model and a decoding, shared between threads (see the crate docs).
#[derive(Clone, Debug)]
pub struct Cleaner {
    inner: Arc<Inner>,
}

#[derive(Debug)]
struct Inner {
    model: Arc<Model>,
    decoding: Decoding,
    max_blocks: usize,
    /// A rule-based labeler of the seeds used instead of the model's CRF (the model still
    /// segments the page and names its language).
    method: Option<Method>,
    /// Buffers of labelers between pages, one set per page in flight at most.
    pool: Mutex<Vec<Scratch>>,
    /// The rule-based methods' state (stop-word lists) between pages.
    methods: Mutex<Vec<Methods>>,
}

impl Cleaner {
    /// The shipped default model (`models/default`) with its recommended decoding.
    pub fn builtin() -> Result<Cleaner, Error> {
        match models::default_model() {
            Ok(model) => Ok(Cleaner::from_model(model, None)),
            Err(models::ModelError::NoDefault) => Err(Error::NoBuiltin),
            Err(e) => Err(e.into()),
        }
    }

    /// The bundle a name or a folder names ([`models::open`]: `"news"`, `"models/mine"`), with
    /// its recommended decoding.
    pub fn open(name_or_dir: impl AsRef<Path>) -> Result<Cleaner, Error> {
        Ok(Cleaner::from_model(
            models::open(name_or_dir.as_ref())?,
            None,
        ))
    }

    /// The bundle in folder `dir` (`victor.json` and `model.crfsuite`) with its recommended
    /// decoding.
    pub fn load(dir: &Path) -> Result<Cleaner, Error> {
        Ok(Cleaner::from_model(Model::load(dir)?, None))
    }

    /// A loaded model with a decoding (`None`: the bundle's recommended one).
    pub fn from_model(model: Model, decoding: Option<Decoding>) -> Cleaner {
        let decoding = decoding.unwrap_or_else(|| model.recommended_decoding());
        Cleaner {
            inner: Arc::new(Inner {
                model: Arc::new(model),
                decoding,
                max_blocks: DEFAULT_MAX_BLOCKS,
                method: None,
                pool: Mutex::new(Vec::new()),
                methods: Mutex::new(Vec::new()),
            }),
        }
    }

    /// The same model with another decoding (a [`Threshold`] was checked when it was made;
    /// [`Model::decoding`] completes a [`DecodingChoice`] with the bundle's settings). The model
    /// is shared with `self`, the buffers are not.
    pub fn with_decoding(&self, decoding: Decoding) -> Cleaner {
        self.rebuilt(decoding, self.inner.max_blocks, self.inner.method)
    }

    /// The same model labelling with one of the seeds' rule-based methods instead of its CRF
    /// (`None`: the CRF). Their labels come with one-hot probabilities; the page is still read,
    /// segmented and given its language by the model's feature configuration.
    pub fn with_method(&self, method: Option<Method>) -> Cleaner {
        self.rebuilt(self.inner.decoding, self.inner.max_blocks, method)
    }

    /// The same model refusing pages of more than `max_blocks` text blocks (default
    /// [`DEFAULT_MAX_BLOCKS`]; labeling needs about 1 KB a block).
    pub fn with_max_blocks(&self, max_blocks: usize) -> Cleaner {
        self.rebuilt(self.inner.decoding, max_blocks, self.inner.method)
    }

    fn rebuilt(&self, decoding: Decoding, max_blocks: usize, method: Option<Method>) -> Cleaner {
        Cleaner {
            inner: Arc::new(Inner {
                model: self.inner.model.clone(),
                decoding,
                max_blocks,
                method,
                pool: Mutex::new(Vec::new()),
                methods: Mutex::new(Vec::new()),
            }),
        }
    }

    /// The rule-based method labelling instead of the CRF, if any.
    pub fn method(&self) -> Option<Method> {
        self.inner.method
    }

    /// The model.
    pub fn model(&self) -> &Model {
        &self.inner.model
    }

    /// The decoding.
    pub fn decoding(&self) -> Decoding {
        self.inner.decoding
    }

    /// The cleaned text of a page: its kept blocks, one paragraph a line.
    pub fn clean(&self, html: &[u8]) -> Result<String, Error> {
        self.clean_with(RawPage {
            html,
            ..RawPage::default()
        })
    }

    /// [`Cleaner::clean`] for a page with its HTTP charset.
    pub fn clean_with(&self, page: RawPage<'_>) -> Result<String, Error> {
        self.with_labeled_collecting(page, Collect::NONE, |lp| {
            let mut s = String::new();
            render_text(&lp.processed.page, &lp.labels, false, &mut s);
            if s.ends_with('\n') {
                s.pop();
            }
            s
        })
    }

    /// The kept blocks of a page as Markdown, with the page's structure: headings, lists,
    /// tables, code and quotes (`victor label --format markdown`; no final line break). Its
    /// words are [`Cleaner::clean`]'s.
    pub fn markdown(&self, html: &[u8]) -> Result<String, Error> {
        self.markdown_with(RawPage {
            html,
            ..RawPage::default()
        })
    }

    /// [`Cleaner::markdown`] for a page with its HTTP charset.
    pub fn markdown_with(&self, page: RawPage<'_>) -> Result<String, Error> {
        self.markdown_as(page, MarkdownStyle::default())
    }

    /// [`Cleaner::markdown_with`] with links written as `[text](url)`, resolved against the
    /// page's `<base href>` and its URL (`page.url`).
    pub fn markdown_links_with(&self, page: RawPage<'_>) -> Result<String, Error> {
        self.markdown_as(
            page,
            MarkdownStyle {
                links: true,
                ..MarkdownStyle::default()
            },
        )
    }

    /// [`Cleaner::markdown_with`] with links, emphasis or both, as `style` asks.
    pub fn markdown_as(&self, page: RawPage<'_>, style: MarkdownStyle) -> Result<String, Error> {
        self.with_labeled_collecting(page, style.collect(), |lp| {
            let mut s = style.render(lp, page.url);
            if s.ends_with('\n') {
                s.pop();
            }
            s
        })
    }

    /// Every block of a page with its label and probabilities, and the cleaned text.
    pub fn label(&self, html: &[u8]) -> Result<Document, Error> {
        self.label_with(RawPage {
            html,
            ..RawPage::default()
        })
    }

    /// [`Cleaner::label`] for a page with its HTTP charset and URL.
    pub fn label_with(&self, page: RawPage<'_>) -> Result<Document, Error> {
        let collect = Collect {
            links: false,
            head: true,
        };
        self.with_labeled_collecting(page, collect, |lp| {
            let p = &lp.processed.page;
            let mut text = String::new();
            render_text(p, &lp.labels, false, &mut text);
            if text.ends_with('\n') {
                text.pop();
            }
            let blocks = p
                .blocks
                .iter()
                .enumerate()
                .map(|(i, b)| Block {
                    text: p.block_text(b).to_string(),
                    start: b.source.start,
                    end: b.source.end,
                    label: lp.labels.get(i).copied().unwrap_or(Label::Other).as_str(),
                    probabilities: lp.probs.get(i).copied().unwrap_or([0.0, 0.0, 1.0]),
                })
                .collect();
            let ctx = victor_label::PageContext {
                url: page.url,
                fetched: page.fetched,
            };
            let md = victor_label::metadata_with(p, &lp.labels, ctx);
            Document {
                url: page.url.map(str::to_string),
                title: md.title,
                author: md.author,
                date: md.date,
                date_source: md.date_source.map(victor_label::DateSource::as_str),
                sitename: md.sitename,
                canonical: md.canonical,
                confidence: victor_label::confidence(p, &lp.labels, &lp.probs, &lp.words),
                adapted: lp.share,
                language: lp.processed.table.language.map(str::to_string),
                text,
                blocks,
            }
        })
    }

    /// Labels a page and hands the borrowed result to `f` (no copy of the page's blocks): the
    /// way to render a page some other way, as `victor label`'s output formats do.
    pub fn with_labeled<R>(
        &self,
        page: RawPage<'_>,
        f: impl FnOnce(&LabeledPage<'_>) -> R,
    ) -> Result<R, Error> {
        self.with_labeled_collecting(page, Collect::ALL, f)
    }

    /// [`Cleaner::with_labeled`] with a parse that collects only what `collect` asks beyond the
    /// blocks: a caller that writes plain text asks for [`Collect::NONE`] (a faster parse),
    /// Markdown with links for the links ([`MarkdownStyle::collect`]), metadata for the head.
    /// What is not collected is empty in the page, so renderings that need it lose it.
    pub fn with_labeled_collecting<R>(
        &self,
        page: RawPage<'_>,
        collect: Collect,
        f: impl FnOnce(&LabeledPage<'_>) -> R,
    ) -> Result<R, Error> {
        let inner = &*self.inner;
        let r = self.with_labeler(collect, |labeler| match inner.method {
            None => labeler
                .label_bytes_with_charset(page.html, page.charset, inner.decoding)
                .map(|lp| f(&lp)),
            Some(method) => labeler
                .process_with_charset(page.html, page.charset)
                .map(|processed| f(&self.label_by_method(method, processed))),
        });
        Ok(r?)
    }

    /// The page's expected text-level F1 under the model, from its marginals (the score
    /// `victor cv --order uncertain` and the annotation tool rank pages by: low means the model
    /// is unsure of the page). The decoding and method of this cleaner play no part.
    pub fn expected_f1(&self, html: &[u8]) -> Result<f64, Error> {
        Ok(self.with_labeler(Collect::ALL, |labeler| labeler.expected_f1(html))?)
    }

    /// Runs `f` with a labeler over this cleaner's model, its buffers taken from the pool and put
    /// back afterwards (so buffers grown by earlier pages are reused).
    fn with_labeler<R>(&self, collect: Collect, f: impl FnOnce(&mut Labeler<'_>) -> R) -> R {
        let inner = &*self.inner;
        let scratch = inner
            .pool
            .lock()
            .ok()
            .and_then(|mut p| p.pop())
            .unwrap_or_else(|| Scratch::new(inner.max_blocks));
        let mut labeler = Labeler::with_scratch(&inner.model, scratch);
        labeler.set_collect(collect);
        let r = f(&mut labeler);
        if let Ok(mut p) = inner.pool.lock() {
            p.push(labeler.into_scratch());
        }
        r
    }

    /// Labels a processed page with a rule-based method (one-hot probabilities).
    fn label_by_method<'a>(
        &self,
        method: Method,
        processed: victor_features::Processed<'a>,
    ) -> LabeledPage<'a> {
        let inner = &*self.inner;
        let mut methods = inner
            .methods
            .lock()
            .ok()
            .and_then(|mut p| p.pop())
            // None spare (or the pool's lock poisoned by a panic): a new labeler, the same as
            // a pooled one but for its buffers.
            .unwrap_or_default();
        let n = processed.page.blocks.len();
        let (mut labels, mut probs) = (Vec::with_capacity(n), Vec::with_capacity(n));
        label_by_method(
            &mut methods,
            method,
            &inner.model,
            &processed.page,
            processed.table.language,
            &mut labels,
            &mut probs,
        );
        if let Ok(mut p) = inner.methods.lock() {
            p.push(methods);
        }
        let words = victor_label::block_words(&processed.page);
        LabeledPage {
            processed,
            probs,
            labels,
            words,
            share: None,
        }
    }
}

#[cfg(all(test, feature = "builtin"))]
mod tests {
    use super::*;

    const PAGE: &[u8] = b"<html><head><title>T</title></head><body><nav><a href=/>Home</a> \
        <a href=/a>About</a></nav><article><h1>Headline</h1><p>A first paragraph of the \
        article with enough words to be kept as text by the model, since it reads like running \
        prose and goes on for a while.</p></article></body></html>";

    #[test]
    fn one_cleaner_serves_threads_and_clones_share_the_model() {
        fn send_sync<T: Send + Sync>() {}
        send_sync::<Cleaner>();
        let c = Cleaner::builtin().unwrap();
        let want = c.clean(PAGE).unwrap();
        assert!(want.contains("first paragraph"));
        let d = c.clone();
        assert!(std::ptr::eq(c.model(), d.model()));
        std::thread::scope(|s| {
            let hs: Vec<_> = (0..3)
                .map(|_| s.spawn(|| (0..5).map(|_| d.clean(PAGE).unwrap()).collect::<Vec<_>>()))
                .collect();
            for h in hs {
                assert!(h.join().unwrap().iter().all(|t| *t == want));
            }
        });
    }

    #[test]
    fn label_document_agrees_with_clean_and_keeps_the_url() {
        let c = Cleaner::builtin().unwrap();
        let doc = c
            .label_with(RawPage {
                html: PAGE,
                charset: Some("utf-8"),
                url: Some("http://example.org/"),
                fetched: None,
            })
            .unwrap();
        assert_eq!(doc.text, c.clean(PAGE).unwrap());
        assert_eq!(doc.url.as_deref(), Some("http://example.org/"));
        assert_eq!(doc.title.as_deref(), Some("T"));
        for b in &doc.blocks {
            assert!((b.probabilities.iter().sum::<f64>() - 1.0).abs() < 1e-6);
            assert!(b.start <= b.end);
        }
        assert!(
            doc.blocks
                .iter()
                .any(|b| b.label == "other" && b.text == "Home")
        );
    }

    #[test]
    fn every_decoding_and_method_hands_over_the_words_of_every_block() {
        let c = Cleaner::builtin().unwrap();
        let cleaners = [
            c.clone(),
            c.with_decoding(Decoding::Viterbi),
            c.with_decoding(Decoding::Threshold(Threshold::new(0.5).unwrap())),
            c.with_method(Some(Method::Justext)),
        ];
        for c in cleaners {
            let page = RawPage {
                html: PAGE,
                charset: None,
                url: None,
                fetched: None,
            };
            c.with_labeled(page, |lp| {
                let p = &lp.processed.page;
                assert_eq!(lp.words, victor_label::block_words(p));
                assert_eq!(lp.words.len(), p.blocks.len());
                assert!(lp.words.iter().any(|&w| w > 10), "{:?}", lp.words);
            })
            .unwrap();
        }
    }

    #[test]
    fn decodings_are_complete_and_errors_say_why() {
        let c = Cleaner::builtin().unwrap();
        assert!(Threshold::new(1.5).is_err() && Threshold::new(f64::NAN).is_err());
        let v = c.with_decoding(Decoding::Viterbi);
        assert_eq!(v.decoding(), Decoding::Viterbi);
        let e = c
            .model()
            .decoding(Some(DecodingChoice::ExpectedF1))
            .unwrap();
        assert_eq!(e, Decoding::ExpectedF1(c.model().expected_options()));
        let e = c.clean(b"\x89PNG\r\n\x1a\n\0\0\0\0").unwrap_err();
        assert!(e.to_string().contains("binary"), "{e}");
        assert!(Cleaner::load(Path::new("/nonexistent")).is_err());
        let small = c.with_max_blocks(2);
        assert!(small.clean(PAGE).is_err());
    }
}

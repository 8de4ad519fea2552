//! The `victor` Python package's native module (`victor._victor`): `Cleaner` wraps
//! [`victor::Cleaner`], and every page is cleaned with the GIL released, so Python threads (and
//! `Cleaner.clean_many`) run on as many cores as they have.

#![forbid(unsafe_code)]
#![warn(missing_docs)]
#![deny(unreachable_pub)]

use std::ffi::CString;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, OnceLock};

use pyo3::create_exception;
use pyo3::exceptions::{PyTypeError, PyUserWarning, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyInt, PyList, PyString};

create_exception!(
    victor,
    VictorError,
    PyValueError,
    "A page could not be cleaned, or a model could not be loaded; the message says why."
);

create_exception!(
    victor,
    WarcWarning,
    PyUserWarning,
    "A broken record in a WARC file read by Cleaner.clean_warc: the message names the file, the \
     record's byte offset and the reason; reading goes on."
);

/// A Rust error as a Python exception.
fn err(e: victor::Error) -> PyErr {
    VictorError::new_err(e.to_string())
}

/// A whole-number argument (`threads`, `trees`, `folds`, `max_blocks`): any Python int, so that
/// a negative or huge one reaches the argument's own check, a VictorError that names the range,
/// as the README promises for bad arguments (pyo3's `usize` would raise OverflowError). Any
/// other type is a TypeError.
struct Whole {
    /// The value, when it fits a `usize` (not negative, not huge).
    value: Option<usize>,
    /// The value as Python writes it, for the message.
    text: String,
}

impl<'a, 'py> FromPyObject<'a, 'py> for Whole {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        if !obj.is_instance_of::<PyInt>() {
            return Err(PyTypeError::new_err(format!(
                "expected a whole number (int), not {}",
                obj.get_type().name()?
            )));
        }
        Ok(Whole {
            value: obj.extract::<usize>().ok(),
            text: obj.str()?.to_string(),
        })
    }
}

impl Whole {
    /// A default value.
    const fn of(n: usize) -> Whole {
        Whole {
            value: Some(n),
            text: String::new(),
        }
    }

    /// The value, if it is at least `min`; else a VictorError naming `name` and the range
    /// (`why` says what the argument counts).
    fn at_least(&self, name: &str, min: usize, why: &str) -> PyResult<usize> {
        match self.value {
            Some(n) if n >= min => Ok(n),
            _ => Err(VictorError::new_err(format!(
                "{name} must be at least {min}, a whole number ({why}), not {}",
                if self.text.is_empty() {
                    self.value.unwrap_or_default().to_string()
                } else {
                    self.text.clone()
                }
            ))),
        }
    }
}

/// The bytes of a page given as `bytes` (raw, any encoding) or `str` (encoded as UTF-8).
fn page_bytes<'a>(html: &'a Bound<'_, PyAny>) -> PyResult<std::borrow::Cow<'a, [u8]>> {
    if let Ok(b) = html.cast::<PyBytes>() {
        return Ok(std::borrow::Cow::Borrowed(b.as_bytes()));
    }
    if let Ok(s) = html.cast::<PyString>() {
        return Ok(std::borrow::Cow::Owned(s.to_str()?.as_bytes().to_vec()));
    }
    Err(PyTypeError::new_err(format!(
        "a page is str or bytes, not {}",
        html.get_type().name()?
    )))
}

/// The bytes of a page to clean, refused when they hold no page (none, or white space only),
/// by the rule the `victor` command follows ([`victor::check_input`]): a VictorError, never a
/// silent empty text.
fn input_bytes<'a>(html: &'a Bound<'_, PyAny>) -> PyResult<std::borrow::Cow<'a, [u8]>> {
    let bytes = page_bytes(html)?;
    victor::check_input(&bytes).map_err(|e| VictorError::new_err(e.to_string()))?;
    Ok(bytes)
}

/// The HTTP charset of a page given as bytes; a `str` page is text already (passed on as UTF-8),
/// so a charset does not apply to it. A charset no browser knows ("klingon") is refused with
/// VictorError, whatever the page: the library would ignore it, as a browser ignores a header's.
fn bytes_charset<'a>(
    html: &Bound<'_, PyAny>,
    charset: Option<&'a str>,
) -> PyResult<Option<&'a str>> {
    if let Some(c) = charset
        && !victor::known_charset(c)
    {
        return Err(VictorError::new_err(format!(
            "charset {c:?} is not a charset victor knows (the WHATWG encoding labels: \"utf-8\", \"windows-1252\", \"shift_jis\", ...)"
        )));
    }
    Ok(charset.filter(|_| !html.is_instance_of::<PyString>()))
}

/// Cleans web pages with a victor model:
/// `Cleaner(model=None, threshold=None, decoding=None, max_blocks=None)`.
///
/// `model` is a bundle folder (`victor.json` and `model.crfsuite`), or None for the built-in
/// default model. `decoding` is "threshold", "viterbi", "expected-f1" or "threshold T", read as
/// the `victor` command reads them (default: the bundle's recommended decoding); `threshold`
/// (within 0 and 1) implies "threshold". `max_blocks` is the block limit of `victor label
/// --max-blocks`: a page that splits into more text blocks raises VictorError (default 500,000).
/// A Cleaner can be shared by threads.
#[pyclass(module = "victor", frozen)]
struct Cleaner {
    inner: victor::Cleaner,
}

/// The built-in default cleaner, loaded once.
fn default_cleaner() -> PyResult<victor::Cleaner> {
    static DEFAULT: OnceLock<victor::Cleaner> = OnceLock::new();
    static INIT: Mutex<()> = Mutex::new(());
    if let Some(c) = DEFAULT.get() {
        return Ok(c.clone());
    }
    let _guard = INIT.lock();
    if let Some(c) = DEFAULT.get() {
        return Ok(c.clone());
    }
    let c = victor::Cleaner::builtin().map_err(err)?;
    Ok(DEFAULT.get_or_init(|| c).clone())
}

/// A cleaner for the arguments of `Cleaner(...)` and `clean(...)`.
fn make_cleaner(
    model: Option<PathBuf>,
    threshold: Option<f64>,
    decoding: Option<&str>,
    max_blocks: Option<Whole>,
) -> PyResult<victor::Cleaner> {
    let max_blocks = max_blocks
        .map(|m| m.at_least("max_blocks", 1, "every page has a block or more to refuse"))
        .transpose()?;
    let base = match model {
        None => default_cleaner()?,
        // A bundle folder or a name ("news"), looked up as the victor command looks it up.
        Some(name_or_dir) => victor::Cleaner::open(&name_or_dir).map_err(err)?,
    };
    // The block limit of `victor label --max-blocks`.
    let base = match max_blocks {
        None => base,
        Some(n) => base.with_max_blocks(n),
    };
    // The decoding named, read as the victor command reads it ("threshold 0.4" included), and
    // settled with the bundle by the facade (victor::decoding).
    let choice = victor::decoding::choose(decoding, threshold).map_err(|e| match e {
        victor::decoding::ChoiceError::Threshold(_) => VictorError::new_err(e.to_string()),
        _ => PyValueError::new_err(e.to_string()),
    })?;
    let Some(choice) = choice else {
        return Ok(base);
    };
    base.with_choice(choice).map_err(|_| {
        PyValueError::new_err(
            "decoding=\"threshold\" needs a threshold: this model recommends none",
        )
    })
}

#[pymethods]
impl Cleaner {
    #[new]
    #[pyo3(signature = (model=None, threshold=None, decoding=None, max_blocks=None))]
    fn new(
        model: Option<PathBuf>,
        threshold: Option<f64>,
        decoding: Option<&str>,
        max_blocks: Option<Whole>,
    ) -> PyResult<Self> {
        Ok(Cleaner {
            inner: make_cleaner(model, threshold, decoding, max_blocks)?,
        })
    }

    /// The cleaned text of a page (str or bytes): its main text, one paragraph a line.
    ///
    /// `charset` is the charset of the page's HTTP `Content-Type` header (a page from a WARC
    /// file or a crawler knows it): for bytes it outranks the page's own `<meta>` declaration (a
    /// byte-order mark and valid UTF-8 still come first); a str is UTF-8 already. `url` is the
    /// page's address.
    #[pyo3(signature = (html, *, charset=None, url=None))]
    fn clean(
        &self,
        py: Python<'_>,
        html: &Bound<'_, PyAny>,
        charset: Option<&str>,
        url: Option<&str>,
    ) -> PyResult<String> {
        clean_page(py, &self.inner, html, charset, url)
    }

    /// The kept text of a page (str or bytes) as Markdown with the page's structure: headings,
    /// lists, tables, code and quotes. Its words are `clean`'s. `charset` and `url` as for
    /// `clean`; `links=True` writes links as `[text](url)`, resolved against the page's
    /// `<base href>` and `url`; `emphasis=True` writes `*em*` and `**strong**`.
    #[pyo3(signature = (html, *, charset=None, url=None, links=false, emphasis=false))]
    fn markdown(
        &self,
        py: Python<'_>,
        html: &Bound<'_, PyAny>,
        charset: Option<&str>,
        url: Option<&str>,
        links: bool,
        emphasis: bool,
    ) -> PyResult<String> {
        let style = victor::MarkdownStyle { links, emphasis };
        markdown_page(py, &self.inner, html, charset, url, style)
    }

    /// A page's URL, metadata (title: the headline; author; date: the publication date, ISO
    /// 8601; date_source: where the date came from, `json-ld`, `meta`, `time`, `url` or
    /// `text`; sitename; canonical), confidence (the expected F1 of its extraction, in [0, 1]),
    /// adapted (for a bundle adapted with a gate, the share of the adapted model in the page's
    /// labels, in [0, 1]; None otherwise), language, cleaned text and blocks (text, start, end, label, and the probabilities of
    /// header, text and other), as a dict.
    ///
    /// `charset` and `url` as for `clean`; `url` is returned in the dict (None when not given).
    /// `fetched`: when the page was fetched (ISO 8601, a WARC-Date): no later date is taken as
    /// its publication date (without it, the present bounds the date).
    #[pyo3(signature = (html, *, charset=None, url=None, fetched=None))]
    fn label<'py>(
        &self,
        py: Python<'py>,
        html: &Bound<'py, PyAny>,
        charset: Option<&str>,
        url: Option<&str>,
        fetched: Option<&str>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let bytes = input_bytes(html)?;
        let charset = bytes_charset(html, charset)?;
        let c = &self.inner;
        let doc = py
            .detach(|| {
                c.label_with(victor::RawPage {
                    html: &bytes,
                    charset,
                    url,
                    fetched,
                })
            })
            .map_err(err)?;
        let d = PyDict::new(py);
        d.set_item("url", doc.url)?;
        d.set_item("title", doc.title)?;
        d.set_item("author", doc.author)?;
        d.set_item("date", doc.date)?;
        d.set_item("date_source", doc.date_source)?;
        d.set_item("sitename", doc.sitename)?;
        d.set_item("canonical", doc.canonical)?;
        d.set_item("confidence", doc.confidence)?;
        d.set_item("adapted", doc.adapted)?;
        d.set_item("language", doc.language)?;
        d.set_item("text", doc.text)?;
        let blocks = PyList::empty(py);
        for b in doc.blocks {
            let bd = PyDict::new(py);
            bd.set_item("text", b.text)?;
            bd.set_item("start", b.start)?;
            bd.set_item("end", b.end)?;
            bd.set_item("label", b.label)?;
            let p = PyDict::new(py);
            p.set_item("header", b.probabilities[0])?;
            p.set_item("text", b.probabilities[1])?;
            p.set_item("other", b.probabilities[2])?;
            bd.set_item("probabilities", p)?;
            blocks.append(bd)?;
        }
        d.set_item("blocks", blocks)?;
        Ok(d)
    }

    /// The cleaned texts of many pages, in order, on `threads` threads (default: 1; at least 1)
    /// with the GIL released, as a `victor.Texts` (a list).
    ///
    /// `errors="raise"` (the default): a page that cannot be cleaned raises VictorError naming
    /// its index, after the whole batch was tried. `errors="skip"`: such a page (or one that is
    /// not str or bytes) gives None, and the result's `errors` dict maps its index to the reason.
    #[pyo3(signature = (pages, threads=Whole::of(1), errors="raise"))]
    fn clean_many<'py>(
        &self,
        py: Python<'py>,
        pages: &Bound<'py, PyAny>,
        threads: Whole,
        errors: &str,
    ) -> PyResult<Bound<'py, PyAny>> {
        let threads =
            threads.at_least("threads", 1, "the pages are cleaned on that many threads")?;
        let skip = match errors {
            "raise" => false,
            "skip" => true,
            other => {
                return Err(PyValueError::new_err(format!(
                    "errors must be \"raise\" or \"skip\", not {other:?}"
                )));
            }
        };
        // Each page's bytes, or why it has none.
        let mut owned: Vec<Result<Vec<u8>, String>> = Vec::new();
        for item in pages.try_iter()? {
            match page_bytes(&item?) {
                Ok(b) => owned.push(Ok(b.into_owned())),
                Err(e) if skip => owned.push(Err(e.value(py).to_string())),
                Err(e) => return Err(e),
            }
        }
        let c = &self.inner;
        let results = py.detach(|| clean_all(c, &owned, threads));
        let texts = PyList::empty(py);
        let failed = PyDict::new(py);
        for (i, r) in results.into_iter().enumerate() {
            match r {
                Ok(text) => texts.append(text)?,
                Err(reason) if skip => {
                    texts.append(py.None())?;
                    failed.set_item(i, reason)?;
                }
                Err(reason) => {
                    return Err(VictorError::new_err(format!("page {i}: {reason}")));
                }
            }
        }
        py.import("victor")?
            .getattr("Texts")?
            .call1((texts, failed))
    }

    /// The HTML pages of a WARC file (gzipped or not), streamed: an iterator of dicts with
    /// `record_id`, `url`, `warc_date` (the record's WARC-Date: when the page was fetched),
    /// `date` and `date_source` (its publication date, as `label` gives it), `title`,
    /// `language`, `text` (and `error`, the reason, with `text` None, for a page that could not
    /// be cleaned). Bodies sent chunked or compressed
    /// (gzip, deflate, br) are decoded. `markdown=True` adds `markdown`, the page's Markdown as
    /// `Cleaner.markdown` gives it (the page is labelled a second time for it).
    ///
    /// A broken record (a malformed header, a wrong length, a gzip member or body that does not
    /// decode, the file cut short) is skipped with a `victor.WarcWarning` naming the file, its
    /// byte offset and the reason, and reading goes on; `broken_records` lists them as
    /// (offset, reason). `stats` counts pages, failed, not_html, other and broken records.
    #[pyo3(signature = (path, *, markdown=false))]
    fn clean_warc(&self, path: PathBuf, markdown: bool) -> PyResult<WarcPages> {
        let reader = victor::warc::Reader::open(&path)
            .map_err(|e| VictorError::new_err(format!("{}: {e}", path.display())))?;
        Ok(WarcPages {
            cleaner: self.inner.clone(),
            markdown,
            path: path.display().to_string(),
            state: Mutex::new(WarcState {
                reader,
                stats: victor::warc::Counts::default(),
                broken: Vec::new(),
            }),
        })
    }

    /// The decoding in use ("viterbi", "expected-f1" or "threshold T").
    #[getter]
    fn decoding(&self) -> String {
        self.inner.decoding().to_string()
    }

    /// Which model bundle cleans: a built-in bundle's name ("web" for the default) or the
    /// folder it was loaded from.
    #[getter]
    fn model_name(&self) -> String {
        self.inner.model().name().to_string()
    }

    /// Where the model came from, when it was adapted from another bundle: a dict with
    /// `bundle` (its name), `digest`, `prior`, `trees` (added), `base_pages` and `from` (the
    /// same for its own base, or None), or None for a bundle trained from scratch.
    #[getter]
    fn origin<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyDict>>> {
        self.inner
            .model()
            .meta
            .origin
            .as_ref()
            .map(|o| origin_dict(py, o))
            .transpose()
    }

    fn __repr__(&self) -> String {
        format!(
            "victor.Cleaner(model={:?}, decoding={:?})",
            self.model_name(),
            self.decoding()
        )
    }
}

/// The pages of `pages` cleaned on `threads` threads, in order; a page without bytes keeps its
/// reason. A page whose thread panicked is an error that says so (never an empty text).
fn clean_all(
    c: &victor::Cleaner,
    pages: &[Result<Vec<u8>, String>],
    threads: usize,
) -> Vec<Result<String, String>> {
    let threads = threads.max(1).min(pages.len().max(1));
    let next = AtomicUsize::new(0);
    let mut slots: Vec<Option<Result<String, String>>> = pages.iter().map(|_| None).collect();
    std::thread::scope(|s| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                s.spawn(|| {
                    let mut done = Vec::new();
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some(page) = pages.get(i) else {
                            return done;
                        };
                        let r = match page {
                            // An empty page fails as `clean` fails on it.
                            Ok(bytes) => victor::check_input(bytes)
                                .map_err(victor::Error::from)
                                .and_then(|()| c.clean(bytes))
                                .map_err(|e| e.to_string()),
                            Err(reason) => Err(reason.clone()),
                        };
                        done.push((i, r));
                    }
                })
            })
            .collect();
        for w in workers {
            // A thread that panicked loses its pages: they stay None, reported below.
            if let Ok(done) = w.join() {
                for (i, r) in done {
                    if let Some(slot) = slots.get_mut(i) {
                        *slot = Some(r);
                    }
                }
            }
        }
    });
    slots
        .into_iter()
        .map(|r| r.unwrap_or_else(|| Err("not cleaned: its cleaning thread panicked".into())))
        .collect()
}

/// The pages of a WARC file, cleaned as they are read (`Cleaner.clean_warc`).
#[pyclass(module = "victor", frozen)]
struct WarcPages {
    cleaner: victor::Cleaner,
    /// Each page also as Markdown (`clean_warc(markdown=True)`).
    markdown: bool,
    /// The file, as warnings name it.
    path: String,
    /// The reader and what it gave (in a mutex: a Python object may be reached from any thread).
    state: Mutex<WarcState>,
}

/// A WARC file being read.
struct WarcState {
    reader: victor::warc::Reader<Box<dyn std::io::BufRead + Send>>,
    stats: victor::warc::Counts,
    /// The broken records so far: offset and reason.
    broken: Vec<(u64, String)>,
}

impl WarcPages {
    /// The state for reading what it gave so far: the counts and reasons stay true after a
    /// panic in `next` (they are updated record by record), so a poisoned lock still gives them.
    fn so_far(&self) -> std::sync::MutexGuard<'_, WarcState> {
        self.state
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

/// One record's page, cleaned, with its WARC fields.
struct WarcPage {
    record_id: Option<String>,
    url: Option<String>,
    /// The record's `WARC-Date`: when the page was fetched.
    warc_date: Option<String>,
    doc: Result<victor::Document, String>,
    /// Its Markdown, when asked for (None for a page that could not be cleaned).
    markdown: Option<String>,
}

/// Reads records up to the next HTML page and cleans it (None at the end); counts what it passes
/// over into `stats` and puts the broken records (offset, reason) into `broken`.
fn next_page(
    cleaner: &victor::Cleaner,
    markdown: bool,
    reader: &mut victor::warc::Reader<Box<dyn std::io::BufRead + Send>>,
    stats: &mut victor::warc::Counts,
    broken: &mut Vec<(u64, String)>,
) -> Option<WarcPage> {
    for rec in reader.by_ref() {
        let rec = match rec {
            Ok(r) => r,
            Err(e) => {
                stats.broken += 1;
                broken.push((record_offset(&e), e.to_string()));
                continue;
            }
        };
        let page = match victor::warc::html_page(&rec) {
            Ok(p) => p,
            Err(why) => {
                stats.skipped(why);
                continue;
            }
        };
        let url = rec.header("WARC-Target-URI");
        let body = match page.decoded() {
            Ok(b) => b,
            Err(e) => {
                stats.broken += 1;
                let uri = url.unwrap_or("no URI");
                broken.push((rec.offset, format!("at byte {} ({uri}): {e}", rec.offset)));
                continue;
            }
        };
        let p = victor::RawPage {
            html: &body,
            charset: page.charset,
            url,
            fetched: rec.header("WARC-Date"),
        };
        let doc = cleaner.label_with(p).map_err(|e| e.to_string());
        // Labelled again for its Markdown: the price of the field is paid only when asked.
        let md = (markdown && doc.is_ok())
            .then(|| cleaner.markdown_with(p).ok())
            .flatten();
        match doc {
            Ok(_) => stats.pages += 1,
            Err(_) => stats.failed += 1,
        }
        return Some(WarcPage {
            record_id: rec.header("WARC-Record-ID").map(str::to_string),
            url: url.map(str::to_string),
            warc_date: rec.header("WARC-Date").map(str::to_string),
            doc,
            markdown: md,
        });
    }
    None
}

/// Where a record error happened, in bytes of the uncompressed stream.
fn record_offset(e: &victor::warc::RecordError) -> u64 {
    use victor::warc::RecordError as E;
    match e {
        E::Io { offset, .. }
        | E::Malformed { offset, .. }
        | E::Truncated { offset, .. }
        | E::Gzip { offset, .. }
        | E::TooLarge { offset, .. }
        | E::Overrun { offset, .. } => *offset,
    }
}

#[pymethods]
impl WarcPages {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyDict>>> {
        let (cleaner, state) = (&self.cleaner, &self.state);
        let (next, broken) = py.detach(|| {
            // A panic while reading (raised as PanicException) leaves the reader mid-record:
            // the iteration cannot go on, and says so.
            let Ok(mut guard) = state.lock() else {
                return Err(VictorError::new_err(format!(
                    "{}: reading stopped at a panic in an earlier next(); the rest of the file \
                     is not read",
                    self.path
                )));
            };
            let WarcState {
                reader,
                stats,
                broken,
            } = &mut *guard;
            let seen = broken.len();
            let next = next_page(cleaner, self.markdown, reader, stats, broken);
            Ok((next, broken.iter().skip(seen).cloned().collect::<Vec<_>>()))
        })?;
        // Each broken record met on the way, as a warning (an error where warnings are).
        for (_, reason) in &broken {
            let message = format!("{}: broken record {reason}", self.path).replace('\0', " ");
            let message = CString::new(message)
                .map_err(|e| VictorError::new_err(format!("warning text: {e}")))?;
            PyErr::warn(py, &py.get_type::<WarcWarning>(), &message, 1)?;
        }
        let Some(p) = next else {
            return Ok(None);
        };
        let d = PyDict::new(py);
        d.set_item("record_id", p.record_id)?;
        d.set_item("url", p.url)?;
        // Two dates, named apart: the record's (when the page was fetched) and the page's
        // publication date, `date` as everywhere else (`label()`, `--format jsonl`).
        d.set_item("warc_date", p.warc_date)?;
        if self.markdown {
            d.set_item("markdown", p.markdown)?;
        }
        match p.doc {
            Ok(doc) => {
                d.set_item("date", doc.date)?;
                d.set_item("date_source", doc.date_source)?;
                d.set_item("title", doc.title)?;
                d.set_item("language", doc.language)?;
                d.set_item("text", doc.text)?;
            }
            Err(e) => {
                d.set_item("date", py.None())?;
                d.set_item("date_source", py.None())?;
                d.set_item("title", py.None())?;
                d.set_item("language", py.None())?;
                d.set_item("text", py.None())?;
                d.set_item("error", e)?;
            }
        }
        Ok(Some(d))
    }

    /// Counts so far: pages, failed, not_html, other (records that are no page), broken.
    #[getter]
    fn stats<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let stats = self.so_far().stats;
        let d = PyDict::new(py);
        d.set_item("pages", stats.pages)?;
        d.set_item("failed", stats.failed)?;
        d.set_item("not_html", stats.not_html)?;
        d.set_item("other", stats.other)?;
        d.set_item("broken", stats.broken)?;
        Ok(d)
    }

    /// The broken records so far, as (byte offset, reason), in file order.
    #[getter]
    fn broken_records(&self) -> Vec<(u64, String)> {
        self.so_far().broken.clone()
    }
}

/// The cleaned text of a page (str or bytes) with the built-in model, or the bundle folder
/// `model`; `charset` (the HTTP header's) and `url` as for `Cleaner.clean`; `format` "text"
/// (one paragraph a line) or "markdown" (as `Cleaner.markdown`); `max_blocks` as for `Cleaner`.
#[pyfunction]
#[pyo3(signature = (html, model=None, *, charset=None, url=None, format="text", max_blocks=None))]
fn clean(
    py: Python<'_>,
    html: &Bound<'_, PyAny>,
    model: Option<PathBuf>,
    charset: Option<&str>,
    url: Option<&str>,
    format: &str,
    max_blocks: Option<Whole>,
) -> PyResult<String> {
    let cleaner = make_cleaner(model, None, None, max_blocks)?;
    match format {
        "text" => clean_page(py, &cleaner, html, charset, url),
        "markdown" => markdown_page(py, &cleaner, html, charset, url, Default::default()),
        other => Err(PyValueError::new_err(format!(
            "format must be \"text\" or \"markdown\", got {other:?}"
        ))),
    }
}

/// A page's Markdown with `cleaner`, the GIL released meanwhile (see `clean_page`).
fn markdown_page(
    py: Python<'_>,
    cleaner: &victor::Cleaner,
    html: &Bound<'_, PyAny>,
    charset: Option<&str>,
    url: Option<&str>,
    style: victor::MarkdownStyle,
) -> PyResult<String> {
    let bytes = input_bytes(html)?;
    let charset = bytes_charset(html, charset)?;
    py.detach(|| {
        let page = victor::RawPage {
            html: &bytes,
            charset,
            url,
            ..victor::RawPage::default()
        };
        cleaner.markdown_as(page, style)
    })
    .map_err(err)
}

/// Cleans one page with `cleaner`, the GIL released meanwhile; `charset` counts for bytes only.
fn clean_page(
    py: Python<'_>,
    cleaner: &victor::Cleaner,
    html: &Bound<'_, PyAny>,
    charset: Option<&str>,
    url: Option<&str>,
) -> PyResult<String> {
    let bytes = input_bytes(html)?;
    let charset = bytes_charset(html, charset)?;
    py.detach(|| {
        cleaner.clean_with(victor::RawPage {
            html: &bytes,
            charset,
            url,
            ..victor::RawPage::default()
        })
    })
    .map_err(err)
}

/// The native module.
/// An adapted bundle's lineage as a dict (see `Cleaner.origin`).
fn origin_dict<'py>(py: Python<'py>, o: &victor::Origin) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("bundle", &o.bundle)?;
    d.set_item("digest", &o.digest)?;
    d.set_item("prior", o.prior)?;
    d.set_item("trees", o.trees)?;
    d.set_item("base_pages", o.base_pages)?;
    match &o.from {
        Some(f) => d.set_item("from", origin_dict(py, f)?)?,
        None => d.set_item("from", py.None())?,
    }
    Ok(d)
}

/// What `adapt` and `train` report: pages trained on, the pages left out (with why), blocks,
/// the decoding and how it was chosen, the bundle's origin.
fn made_dict<'py>(
    py: Python<'py>,
    m: &victor::train::Made,
    out: &str,
) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("bundle", out)?;
    d.set_item("pages", m.data.pages)?;
    // The pages left out, with why, as victor.json records them (set by set).
    let left_out = PyList::empty(py);
    for set in &m.meta.data.sets {
        for l in &set.left_out {
            let e = PyDict::new(py);
            e.set_item("set", &set.path)?;
            e.set_item("id", &l.id)?;
            e.set_item("reason", &l.reason)?;
            left_out.append(e)?;
        }
    }
    d.set_item("left_out", left_out)?;
    d.set_item("blocks", m.data.blocks)?;
    d.set_item("seconds", m.data.seconds)?;
    d.set_item(
        "decoding",
        m.meta
            .recommendation
            .as_ref()
            .map(|r| r.decoding().to_string())
            .unwrap_or_else(|| "viterbi".into()),
    )?;
    d.set_item(
        "decoding_chosen_by",
        match &m.decoding {
            victor::train::DecodingSource::CrossValidated(k, _) => {
                format!("{k}-fold cross-validation on the pages")
            }
            victor::train::DecodingSource::Base(why) | victor::train::DecodingSource::None(why) => {
                why.clone()
            }
        },
    )?;
    match &m.meta.origin {
        Some(o) => d.set_item("origin", origin_dict(py, o)?)?,
        None => d.set_item("origin", py.None())?,
    }
    d.set_item("gate", m.meta.gate.as_ref().map(|g| g.describe()))?;
    Ok(d)
}

/// The folds of the cross-validation that chooses a new bundle's decoding: 0 (none) or at least
/// 2, checked by the rule `victor train --threshold-folds` follows
/// ([`victor::train::check_threshold_folds`]), before any page is read.
fn folds_of(folds: &Whole) -> PyResult<usize> {
    let n = folds.at_least("folds", 0, "0: no cross-validation; else at least 2")?;
    victor::train::check_threshold_folds(n).map_err(|e| VictorError::new_err(format!("folds: {e}")))
}

/// The annotated folders a training call names: one path or a list of them.
fn folders(pages: &Bound<'_, PyAny>) -> PyResult<Vec<PathBuf>> {
    if let Ok(p) = pages.extract::<PathBuf>() {
        return Ok(vec![p]);
    }
    pages.extract::<Vec<PathBuf>>().map_err(|_| {
        PyTypeError::new_err("pages is an annotated folder (a path) or a list of them")
    })
}

/// Adapts a trained bundle to annotated pages and writes the new bundle:
/// `adapt(pages, out, base="web", prior=None, trees=None, decoding="base", folds=5,
/// skip_bad_pages=False, force=False, notes="", gate=True)`, as `victor train PAGES --adapt
/// BASE --out OUT` does (see README, "Your own guideline"); `gate=False` is `--no-gate`. `pages` is an annotated folder or a list of
/// them; `base` a built-in name or a bundle folder; `prior` the strength of the prior on the
/// base's weights (default: victor's), `trees` the trees added to its forest, `decoding`
/// "base" (keep the base's) or "pages" (the best in cross-validation on the pages). Returns a
/// dict (pages, left_out, blocks, seconds, decoding, decoding_chosen_by, origin, gate: what
/// the gate does, as `victor models` says it, or None); the GIL is released
/// while it trains. Raises VictorError (bad pages, a base that does not load, a destination
/// that holds something other than a bundle).
#[pyfunction]
#[pyo3(signature = (pages, out, base = "web", prior = None, trees = None, decoding = "base",
                    folds = Whole::of(5), skip_bad_pages = false, force = false, notes = "",
                    gate = true))]
#[allow(clippy::too_many_arguments)]
fn adapt<'py>(
    py: Python<'py>,
    pages: &Bound<'py, PyAny>,
    out: PathBuf,
    base: &str,
    prior: Option<f64>,
    trees: Option<Whole>,
    decoding: &str,
    folds: Whole,
    skip_bad_pages: bool,
    force: bool,
    notes: &str,
    gate: bool,
) -> PyResult<Bound<'py, PyDict>> {
    let dirs = folders(pages)?;
    let decoding = match decoding {
        "base" => victor::train::AdaptDecoding::Base,
        "pages" => victor::train::AdaptDecoding::Pages,
        other => {
            return Err(VictorError::new_err(format!(
                "decoding {other:?}: give \"base\" or \"pages\""
            )));
        }
    };
    let prior = prior.unwrap_or(victor::train::DEFAULT_PRIOR);
    if prior.is_nan() || prior < 0.0 {
        return Err(VictorError::new_err(format!(
            "prior {prior} is not a number at or above 0"
        )));
    }
    let trees = match trees {
        Some(t) => t.at_least("trees", 0, "trees added to the base's forest")?,
        None => victor::train::DEFAULT_TREES,
    };
    let o = victor::train::AdaptOptions {
        adapt: victor::train::AdaptSettings {
            prior,
            trees,
            decoding,
            gate,
            ..victor::train::AdaptSettings::default()
        },
        folds: folds_of(&folds)?,
        skip_bad_pages,
        force,
        notes: notes.to_string(),
        ..victor::train::AdaptOptions::default()
    };
    let refs: Vec<&std::path::Path> = dirs.iter().map(PathBuf::as_path).collect();
    let base = PathBuf::from(base);
    let made = py
        .detach(|| victor::train::adapt(&refs, &base, &out, &o))
        .map_err(|e| VictorError::new_err(e.to_string()))?;
    made_dict(py, &made, &out.display().to_string())
}

/// Trains a bundle from scratch on annotated pages and writes it: `train(pages, out,
/// like=None, c2=1.0, boost=False, folds=5, skip_bad_pages=False, force=False, notes="")`, as
/// `victor train PAGES --out OUT [--like LIKE] [--boost]` does. Returns what `adapt` returns
/// (origin None).
#[pyfunction]
#[pyo3(signature = (pages, out, like = None, c2 = 1.0, boost = false, folds = Whole::of(5),
                    skip_bad_pages = false, force = false, notes = ""))]
#[allow(clippy::too_many_arguments)]
fn train<'py>(
    py: Python<'py>,
    pages: &Bound<'py, PyAny>,
    out: PathBuf,
    like: Option<PathBuf>,
    c2: f64,
    boost: bool,
    folds: Whole,
    skip_bad_pages: bool,
    force: bool,
    notes: &str,
) -> PyResult<Bound<'py, PyDict>> {
    let dirs = folders(pages)?;
    if c2.is_nan() || c2 < 0.0 {
        return Err(VictorError::new_err(format!(
            "c2 {c2} is not a number at or above 0"
        )));
    }
    let s = victor::train::TrainSettings {
        like,
        c2,
        boost: boost.then(victor::train::BoostOptions::default),
        folds: folds_of(&folds)?,
        skip_bad_pages,
        force,
        notes: notes.to_string(),
        ..victor::train::TrainSettings::default()
    };
    let refs: Vec<&std::path::Path> = dirs.iter().map(PathBuf::as_path).collect();
    let made = py
        .detach(|| victor::train::train(&refs, &out, &s))
        .map_err(|e| VictorError::new_err(e.to_string()))?;
    made_dict(py, &made, &out.display().to_string())
}

#[pymodule]
fn _victor(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Cleaner>()?;
    m.add_function(wrap_pyfunction!(clean, m)?)?;
    m.add_function(wrap_pyfunction!(adapt, m)?)?;
    m.add_function(wrap_pyfunction!(train, m)?)?;
    m.add("VictorError", m.py().get_type::<VictorError>())?;
    m.add("WarcWarning", m.py().get_type::<WarcWarning>())?;
    Ok(())
}

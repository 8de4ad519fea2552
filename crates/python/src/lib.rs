//! The `victor` Python package's native module (`victor._victor`): `Cleaner` wraps
//! [`victor::Cleaner`], and every page is cleaned with the GIL released, so Python threads (and
//! `Cleaner.clean_many`) run on as many cores as they have.

#![forbid(unsafe_code)]
#![warn(missing_docs)]
#![deny(unreachable_pub)]

use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, OnceLock};

use pyo3::create_exception;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList, PyString};
use victor::Decoding;

create_exception!(
    victor,
    VictorError,
    PyValueError,
    "A page could not be cleaned, or a model could not be loaded; the message says why."
);

/// A Rust error as a Python exception.
fn err(e: victor::Error) -> PyErr {
    VictorError::new_err(e.to_string())
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

/// The HTTP charset of a page given as bytes; a `str` page is text already (passed on as UTF-8),
/// so a charset does not apply to it.
fn bytes_charset<'a>(html: &Bound<'_, PyAny>, charset: Option<&'a str>) -> Option<&'a str> {
    charset.filter(|_| !html.is_instance_of::<PyString>())
}

/// Cleans web pages with a victor model: `Cleaner(model=None, threshold=None, decoding=None)`.
///
/// `model` is a bundle folder (`victor.json` and `model.crfsuite`), or None for the built-in
/// default model. `decoding` is "threshold", "viterbi" or "expected-f1" (default: the bundle's
/// recommended decoding); `threshold` (within 0 and 1) implies "threshold". A Cleaner can be
/// shared by threads.
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
) -> PyResult<victor::Cleaner> {
    let base = match model {
        None => default_cleaner()?,
        Some(dir) => victor::Cleaner::load(&dir).map_err(err)?,
    };
    let decoding = match (decoding, threshold) {
        (None, None) => return Ok(base),
        (None | Some("threshold"), Some(t)) => Decoding::Threshold(t),
        (Some("threshold"), None) => match base.model().recommended_threshold() {
            Some(t) => Decoding::Threshold(t),
            None => {
                return Err(PyValueError::new_err(
                    "decoding=\"threshold\" needs a threshold: this model recommends none",
                ));
            }
        },
        (Some("viterbi"), None) => Decoding::Viterbi,
        (Some("expected-f1"), None) => Decoding::ExpectedF1,
        (Some(d @ ("viterbi" | "expected-f1")), Some(_)) => {
            return Err(PyValueError::new_err(format!(
                "threshold goes with decoding=\"threshold\", not {d:?}"
            )));
        }
        (Some(d), _) => {
            return Err(PyValueError::new_err(format!(
                "decoding must be \"threshold\", \"viterbi\" or \"expected-f1\", not {d:?}"
            )));
        }
    };
    base.with_decoding(decoding).map_err(err)
}

#[pymethods]
impl Cleaner {
    #[new]
    #[pyo3(signature = (model=None, threshold=None, decoding=None))]
    fn new(
        model: Option<PathBuf>,
        threshold: Option<f64>,
        decoding: Option<&str>,
    ) -> PyResult<Self> {
        Ok(Cleaner {
            inner: make_cleaner(model, threshold, decoding)?,
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

    /// A page's URL, title, language, cleaned text and blocks (text, start, end, label, and the
    /// probabilities of header, text and other), as a dict.
    ///
    /// `charset` and `url` as for `clean`; `url` is returned in the dict (None when not given).
    #[pyo3(signature = (html, *, charset=None, url=None))]
    fn label<'py>(
        &self,
        py: Python<'py>,
        html: &Bound<'py, PyAny>,
        charset: Option<&str>,
        url: Option<&str>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let bytes = page_bytes(html)?;
        let charset = bytes_charset(html, charset);
        let c = &self.inner;
        let doc = py
            .detach(|| {
                c.label_with(victor::Page {
                    html: &bytes,
                    charset,
                    url,
                })
            })
            .map_err(err)?;
        let d = PyDict::new(py);
        d.set_item("url", doc.url)?;
        d.set_item("title", doc.title)?;
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

    /// The cleaned texts of many pages, in order, on `threads` threads (default: 1) with the GIL
    /// released. A page that cannot be cleaned raises VictorError naming its index.
    #[pyo3(signature = (pages, threads=1))]
    fn clean_many(
        &self,
        py: Python<'_>,
        pages: &Bound<'_, PyAny>,
        threads: usize,
    ) -> PyResult<Vec<String>> {
        let mut owned: Vec<Vec<u8>> = Vec::new();
        for item in pages.try_iter()? {
            owned.push(page_bytes(&item?)?.into_owned());
        }
        let c = &self.inner;
        let threads = threads.max(1).min(owned.len().max(1));
        let results: Vec<Result<String, victor::Error>> = py.detach(|| {
            let slots: Vec<Mutex<Option<Result<String, victor::Error>>>> =
                owned.iter().map(|_| Mutex::new(None)).collect();
            let next = AtomicUsize::new(0);
            std::thread::scope(|s| {
                for _ in 0..threads {
                    s.spawn(|| {
                        loop {
                            let i = next.fetch_add(1, Ordering::Relaxed);
                            let (Some(page), Some(slot)) = (owned.get(i), slots.get(i)) else {
                                break;
                            };
                            let r = c.clean(page);
                            if let Ok(mut slot) = slot.lock() {
                                *slot = Some(r);
                            }
                        }
                    });
                }
            });
            slots
                .into_iter()
                .map(|m| {
                    m.into_inner()
                        .ok()
                        .flatten()
                        .unwrap_or_else(|| Ok(String::new()))
                })
                .collect()
        });
        results
            .into_iter()
            .enumerate()
            .map(|(i, r)| r.map_err(|e| VictorError::new_err(format!("page {i}: {e}"))))
            .collect()
    }

    /// The HTML pages of a WARC file (gzipped or not), streamed: an iterator of dicts with
    /// `record_id`, `url`, `date`, `title`, `language`, `text` (and `error`, the reason, with
    /// `text` None, for a page that could not be cleaned). Bodies sent chunked or compressed
    /// (gzip, deflate, br) are decoded; broken records and bodies that do not decode are
    /// skipped; the iterator's `stats` counts pages, failures, skipped and broken records.
    fn clean_warc(&self, path: PathBuf) -> PyResult<WarcPages> {
        let reader = victor::warc::Reader::open(&path)
            .map_err(|e| VictorError::new_err(format!("{}: {e}", path.display())))?;
        Ok(WarcPages {
            cleaner: self.inner.clone(),
            state: Mutex::new((reader, WarcStats::default())),
        })
    }

    /// The decoding in use ("viterbi", "expected-f1" or "threshold T").
    #[getter]
    fn decoding(&self) -> String {
        self.inner.decoding().to_string()
    }

    fn __repr__(&self) -> String {
        format!("victor.Cleaner(decoding={:?})", self.decoding())
    }
}

/// What a WARC file gave so far.
#[derive(Clone, Copy, Debug, Default)]
struct WarcStats {
    pages: usize,
    failed: usize,
    not_html: usize,
    other: usize,
    broken: usize,
}

/// The pages of a WARC file, cleaned as they are read (`Cleaner.clean_warc`).
#[pyclass(module = "victor", frozen)]
struct WarcPages {
    cleaner: victor::Cleaner,
    /// The reader and the counts (in a mutex: a Python object may be reached from any thread).
    state: Mutex<(
        victor::warc::Reader<Box<dyn std::io::BufRead + Send>>,
        WarcStats,
    )>,
}

/// One record's page, cleaned, with its WARC fields.
struct WarcPage {
    record_id: Option<String>,
    url: Option<String>,
    date: Option<String>,
    doc: Result<victor::Document, String>,
}

#[pymethods]
impl WarcPages {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyDict>>> {
        let (cleaner, state) = (&self.cleaner, &self.state);
        let next = py.detach(|| {
            let Ok(mut guard) = state.lock() else {
                return None;
            };
            let (reader, stats) = &mut *guard;
            for rec in reader.by_ref() {
                let rec = match rec {
                    Ok(r) => r,
                    Err(_) => {
                        stats.broken += 1;
                        continue;
                    }
                };
                let page = match victor::warc::html_page(&rec) {
                    Ok(p) => p,
                    Err(victor::warc::Skip::NotHtml) => {
                        stats.not_html += 1;
                        continue;
                    }
                    Err(victor::warc::Skip::NotPage) => {
                        stats.other += 1;
                        continue;
                    }
                };
                let body = match page.decoded() {
                    Ok(b) => b,
                    Err(_) => {
                        stats.broken += 1;
                        continue;
                    }
                };
                let url = rec.header("WARC-Target-URI");
                let doc = cleaner
                    .label_with(victor::Page {
                        html: &body,
                        charset: page.charset,
                        url,
                    })
                    .map_err(|e| e.to_string());
                match doc {
                    Ok(_) => stats.pages += 1,
                    Err(_) => stats.failed += 1,
                }
                return Some(WarcPage {
                    record_id: rec.header("WARC-Record-ID").map(str::to_string),
                    url: url.map(str::to_string),
                    date: rec.header("WARC-Date").map(str::to_string),
                    doc,
                });
            }
            None
        });
        let Some(p) = next else {
            return Ok(None);
        };
        let d = PyDict::new(py);
        d.set_item("record_id", p.record_id)?;
        d.set_item("url", p.url)?;
        d.set_item("date", p.date)?;
        match p.doc {
            Ok(doc) => {
                d.set_item("title", doc.title)?;
                d.set_item("language", doc.language)?;
                d.set_item("text", doc.text)?;
            }
            Err(e) => {
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
        let stats = self.state.lock().map(|g| g.1).unwrap_or_default();
        let d = PyDict::new(py);
        d.set_item("pages", stats.pages)?;
        d.set_item("failed", stats.failed)?;
        d.set_item("not_html", stats.not_html)?;
        d.set_item("other", stats.other)?;
        d.set_item("broken", stats.broken)?;
        Ok(d)
    }
}

/// The cleaned text of a page (str or bytes) with the built-in model, or the bundle folder
/// `model`; `charset` (the HTTP header's) and `url` as for `Cleaner.clean`.
#[pyfunction]
#[pyo3(signature = (html, model=None, *, charset=None, url=None))]
fn clean(
    py: Python<'_>,
    html: &Bound<'_, PyAny>,
    model: Option<PathBuf>,
    charset: Option<&str>,
    url: Option<&str>,
) -> PyResult<String> {
    clean_page(py, &make_cleaner(model, None, None)?, html, charset, url)
}

/// Cleans one page with `cleaner`, the GIL released meanwhile; `charset` counts for bytes only.
fn clean_page(
    py: Python<'_>,
    cleaner: &victor::Cleaner,
    html: &Bound<'_, PyAny>,
    charset: Option<&str>,
    url: Option<&str>,
) -> PyResult<String> {
    let bytes = page_bytes(html)?;
    let charset = bytes_charset(html, charset);
    py.detach(|| {
        cleaner.clean_with(victor::Page {
            html: &bytes,
            charset,
            url,
        })
    })
    .map_err(err)
}

/// The native module.
#[pymodule]
fn _victor(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Cleaner>()?;
    m.add_function(wrap_pyfunction!(clean, m)?)?;
    m.add("VictorError", m.py().get_type::<VictorError>())?;
    Ok(())
}

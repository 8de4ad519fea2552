//! The annotation session: the pages in the order offered, their current labels, saving, and
//! (with [`crate::AdaptLoop`]) the model adapted to the pages saved so far, in the background.

use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, RwLock};
use std::time::Instant;

use axum::http::StatusCode;
use serde_json::{Value, json};
use victor_annotations::Label;
use victor_annotations::{
    Annotator, LoadError, PageInfo, PageRecord, PageRef, SetInfo, SetWriter, Source, StoreError,
    check_page_id,
};
use victor_features::{Page, Segmenter};
use victor_label::{Decoding, Labeler, Model};
use victor_label::{ExpectedScratch, expected_f1, page_threshold};

use crate::adapt::{AdaptLoop, adapt_to_set, snapshot};
use crate::{AnnotateError, Options, Order, UNCERTAIN_MARGIN};

/// One page offered for annotation.
#[derive(Clone, Debug)]
pub struct PageSource {
    /// Its id in the annotated set (the file name of `pages/<id>.html`).
    pub id: String,
    /// Where its bytes are read from (unless the output set has it already).
    pub path: PathBuf,
    /// Its URL, split and language, when known (a data set's manifest), recorded on saving.
    pub url: Option<String>,
    /// Its split (`dev`, `test`).
    pub split: Option<String>,
    /// Its language.
    pub lang: Option<String>,
}

impl PageSource {
    /// A page known by id and file only.
    pub fn new(id: impl Into<String>, path: impl Into<PathBuf>) -> Self {
        Self {
            id: id.into(),
            path: path.into(),
            url: None,
            split: None,
            lang: None,
        }
    }
}

/// What the tool says of one block: one of the three labels, or unknown (the page is then saved
/// partially labelled, `"unlabelled": "unknown"`, and training sums over the unknown blocks'
/// labels). In the API it is the label's name or `"unknown"`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub(crate) enum Mark {
    Header,
    Text,
    Other,
    Unknown,
}

impl Mark {
    /// The label, `None` when unknown.
    fn label(self) -> Option<Label> {
        match self {
            Mark::Header => Some(Label::Header),
            Mark::Text => Some(Label::Text),
            Mark::Other => Some(Label::Other),
            Mark::Unknown => None,
        }
    }
}

impl From<Label> for Mark {
    fn from(l: Label) -> Self {
        match l {
            Label::Header => Mark::Header,
            Label::Text => Mark::Text,
            Label::Other => Mark::Other,
        }
    }
}

/// Why a page could not be shown or saved.
#[derive(Debug, thiserror::Error)]
pub(crate) enum PageError {
    #[error("no page {0}")]
    NotFound(usize),
    #[error("cannot read {path}: {source}")]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{path}: {reason}")]
    Page { path: PathBuf, reason: String },
    #[error("{0}")]
    Load(#[from] LoadError),
    #[error("{0}")]
    Store(#[from] StoreError),
    #[error("{got} labels for a page of {blocks} blocks")]
    LabelCount { got: usize, blocks: usize },
    #[error("labelling with the model failed: {0}")]
    Model(String),
}

impl PageError {
    /// The HTTP status that reports it.
    pub(crate) fn status(&self) -> StatusCode {
        match self {
            PageError::NotFound(_) => StatusCode::NOT_FOUND,
            PageError::LabelCount { .. } => StatusCode::BAD_REQUEST,
            _ => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }
}

/// A page as loaded for annotation.
struct PageState {
    bytes: Vec<u8>,
    encoding: String,
    text: String,
    page: Page,
    labels: Vec<Mark>,
    uncertain: Vec<u32>,
    record: Option<PageRecord>,
    /// The model that pre-labelled the page (its name and the pages it was adapted on), if one
    /// did: the page keeps what it showed when another model comes.
    prelabelled: Option<(String, usize)>,
    expected_f1: Option<f64>,
}

/// What the model says of a page.
struct ModelView {
    /// Its labels under the bundle's recommended decoding.
    labels: Vec<Label>,
    /// The blocks whose P(other) lies near the page's threshold.
    uncertain: Vec<u32>,
    /// The page's expected text-level F1 ([`expected_f1`]).
    expected_f1: f64,
}

/// The model that pre-labels the pages loaded from now on.
pub(crate) struct Prelabeller {
    model: Model,
    /// Its name (the base model's: the adapted model is named as the model it was adapted from).
    name: String,
    /// The pages it was adapted on (0: the model as given).
    seen: usize,
}

/// The pages as offered: their order, the scores it was made by, the states of the pages
/// loaded. One lock guards the three, so that a position's page never changes once loaded
/// (the tool's script addresses pages by position) while an adaptation re-ranks the rest.
struct Book {
    /// Position offered -> index in `pages`.
    order: Vec<usize>,
    /// The model's expected F1 per page (index in `pages`), with [`Order::Uncertain`].
    expected: Vec<Option<f64>>,
    states: Vec<Option<PageState>>,
}

/// The annotation loop's state (with [`AdaptLoop`]).
struct Adapter {
    settings: AdaptLoop,
    /// The model as given, which every adaptation starts from.
    base: Arc<Prelabeller>,
    /// Where the copies of the saved set and the adapted bundle go; removed with the session.
    work: tempfile::TempDir,
    status: Mutex<LoopStatus>,
}

/// What the page says of the loop.
#[derive(Default)]
struct LoopStatus {
    /// The pages the running adaptation takes, if one runs.
    running: Option<usize>,
    /// Pages saved when the last adaptation started.
    started_at: usize,
    /// Adaptations finished (each one a new model).
    adaptations: usize,
    /// Why the last adaptation failed, if it did.
    error: Option<String>,
    /// Seconds the last finished adaptation took.
    seconds: Option<f64>,
    /// Saved pages the last adaptation left out (a page changed since it was saved).
    skipped: usize,
}

/// The session.
pub(crate) struct Session {
    pages: Vec<PageSource>,
    order: Order,
    book: Mutex<Book>,
    writer: SetWriter,
    set_name: String,
    /// The model that pre-labels new pages (replaced by each adaptation).
    model: RwLock<Option<Arc<Prelabeller>>>,
    adapter: Option<Adapter>,
    /// Pages in the output set.
    saved: AtomicUsize,
}

impl Session {
    pub(crate) fn new(options: Options) -> Result<Session, AnnotateError> {
        if options.pages.is_empty() {
            return Err(AnnotateError::NoPages);
        }
        if options.order == Order::Uncertain && options.model.is_none() {
            return Err(AnnotateError::OrderNeedsModel);
        }
        if options.adapt.is_some() && options.model.is_none() {
            return Err(AnnotateError::AdaptNeedsModel);
        }
        let writer = match SetWriter::open(&options.out) {
            Ok(w) => w,
            Err(StoreError::NotASet(_)) => SetWriter::create(
                &options.out,
                &SetInfo::new(
                    options.set_name.clone(),
                    Some("annotated with victor annotate".into()),
                ),
            )?,
            Err(e) => return Err(e.into()),
        };
        let saved = victor_annotations::Corpus::open([writer.dir()], None)?.len();
        let model = options.model.map(|m| {
            Arc::new(Prelabeller {
                model: m,
                name: options
                    .model_name
                    .clone()
                    .unwrap_or_else(|| "the model".into()),
                seen: 0,
            })
        });
        let adapter = match (options.adapt, &model) {
            (Some(settings), Some(base)) => Some(Adapter {
                settings,
                base: base.clone(),
                work: tempfile::Builder::new()
                    .prefix("victor-annotate-")
                    .tempdir()
                    .map_err(AnnotateError::Work)?,
                status: Mutex::new(LoopStatus::default()),
            }),
            _ => None,
        };
        let n = options.pages.len();
        let session = Session {
            book: Mutex::new(Book {
                order: (0..n).collect(),
                expected: vec![None; n],
                states: (0..n).map(|_| None).collect(),
            }),
            pages: options.pages,
            order: options.order,
            writer,
            set_name: options.set_name,
            model: RwLock::new(model),
            adapter,
            saved: AtomicUsize::new(saved),
        };
        if options.order == Order::Uncertain
            && let Some(m) = session.prelabeller()
        {
            // A page that cannot be read goes last; its error shows when it is opened.
            let scores = session.score(&m, (0..n).collect());
            let mut book = session.book_lock();
            for (i, f) in scores {
                book.expected[i] = f;
            }
            let key = |i: usize| book.expected[i].unwrap_or(f64::INFINITY);
            let mut order = book.order.clone();
            order.sort_by(|&a, &b| key(a).total_cmp(&key(b)));
            book.order = order;
        }
        Ok(session)
    }

    fn book_lock(&self) -> std::sync::MutexGuard<'_, Book> {
        self.book.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The model that pre-labels new pages now.
    fn prelabeller(&self) -> Option<Arc<Prelabeller>> {
        self.model.read().unwrap_or_else(|e| e.into_inner()).clone()
    }

    /// The expected F1 of pages `which` (indices in `pages`) under `m`, read from the output set
    /// when it has them, else from their files (`None` for a page that cannot be read or
    /// labelled).
    fn score(&self, m: &Prelabeller, which: Vec<usize>) -> Vec<(usize, Option<f64>)> {
        which
            .into_iter()
            .map(|i| {
                let id = &self.pages[i].id;
                let path = if self.writer.labels_path(id).is_file() {
                    self.writer.page_path(id)
                } else {
                    self.pages[i].path.clone()
                };
                let f = std::fs::read(path)
                    .ok()
                    .and_then(|b| model_view(&m.model, &b).ok())
                    .map(|v| v.expected_f1);
                (i, f)
            })
            .collect()
    }

    pub(crate) fn len(&self) -> usize {
        self.pages.len()
    }

    /// The pages in the order offered, with whether each is in the output set, and the model.
    pub(crate) fn list(&self) -> Value {
        let book = self.book_lock();
        let pages: Vec<Value> = book
            .order
            .iter()
            .map(|&i| {
                let id = &self.pages[i].id;
                json!({
                    "id": id,
                    "annotated": self.writer.labels_path(id).is_file(),
                    "expected_f1": book.expected[i],
                })
            })
            .collect();
        drop(book);
        json!({
            "pages": pages,
            "model": self.prelabeller().map(|m| m.name.clone()),
            "status": self.status(),
        })
    }

    /// The model that pre-labels new pages, how many pages it has seen, and the loop's state:
    /// `adapt` is null without the loop, else `every` (pages between two adaptations),
    /// `saved` (pages in the output set), `next_at` (the saved count that starts the next
    /// one), `running` (the pages the running adaptation takes, or null), `adaptations`
    /// (finished), `seconds` (the last one's), `skipped` (pages it left out), `error` (why the
    /// last one failed, or null).
    pub(crate) fn status(&self) -> Value {
        let m = self.prelabeller();
        let adapt = self.adapter.as_ref().map(|a| {
            let st = a.status.lock().unwrap_or_else(|e| e.into_inner());
            json!({
                "every": a.settings.every,
                "saved": self.saved.load(Ordering::SeqCst),
                "next_at": st.started_at + a.settings.every,
                "running": st.running,
                "adaptations": st.adaptations,
                "seconds": st.seconds,
                "skipped": st.skipped,
                "error": st.error,
            })
        });
        json!({
            "model": m.as_ref().map(|m| m.name.clone()),
            "seen": m.as_ref().map(|m| m.seen),
            "adapt": adapt,
        })
    }

    /// Runs `f` on the state of the page offered at position `n` (loading it first) and its
    /// source.
    fn with_state<T>(
        &self,
        n: usize,
        f: impl FnOnce(&mut PageState, &PageSource, &Self) -> Result<T, PageError>,
    ) -> Result<T, PageError> {
        let mut book = self.book_lock();
        let &i = book.order.get(n).ok_or(PageError::NotFound(n))?;
        if book.states[i].is_none() {
            book.states[i] = Some(self.load(i)?);
        }
        match book.states[i].as_mut() {
            Some(s) => f(s, &self.pages[i], self),
            None => Err(PageError::NotFound(n)),
        }
    }

    /// What the tool's script needs to show page `n`. Opening a page may start an adaptation
    /// ([`Session::maybe_adapt`]): the page left is then complete.
    pub(crate) fn info(self: &Arc<Self>, n: usize) -> Result<Value, PageError> {
        let total = self.pages.len();
        let mut v = self.with_state(n, |s, src, _| {
            let texts: Vec<&str> = s.page.blocks.iter().map(|b| s.page.block_text(b)).collect();
            Ok(json!({
                "n": n,
                "total": total,
                "id": src.id,
                "blocks": s.page.blocks.len(),
                "labels": s.labels,
                "uncertain": s.uncertain,
                "annotated": s.record.is_some(),
                "prelabelled": s.prelabelled.is_some(),
                "prelabelled_by": s.prelabelled.as_ref().map(|(name, seen)| json!({
                    "model": name,
                    "seen": seen,
                })),
                "expected_f1": s.expected_f1,
                "texts": texts,
            }))
        })?;
        self.maybe_adapt();
        v["status"] = self.status();
        Ok(v)
    }

    /// Page `n`'s HTML as served ([`crate::render`]).
    pub(crate) fn html(&self, n: usize) -> Result<String, PageError> {
        self.with_state(n, |s, src, _| {
            crate::render::render(&s.text, &s.page).map_err(|e| PageError::Page {
                path: src.path.clone(),
                reason: e.to_string(),
            })
        })
    }

    /// Saves `labels` (one per block) as page `n`'s labels: partially labelled
    /// ([`PageRecord::set_partial_labels`]) when a block is unknown, fully otherwise.
    pub(crate) fn save(&self, n: usize, labels: &[Mark]) -> Result<(), PageError> {
        self.with_state(n, |s, src, me| {
            if labels.len() != s.page.blocks.len() {
                return Err(PageError::LabelCount {
                    got: labels.len(),
                    blocks: s.page.blocks.len(),
                });
            }
            let first = s.record.is_none();
            let mut record = s.record.clone().unwrap_or_else(|| PageRecord {
                format: victor_annotations::FORMAT_VERSION,
                id: src.id.clone(),
                split: src.split.clone(),
                lang: src.lang.clone(),
                url: src.url.clone(),
                page: PageInfo::of(&s.bytes, &s.encoding, s.page.blocks.len()),
                source: Source {
                    set: me.set_name.clone(),
                    source_set: None,
                    html: Some(src.path.display().to_string()),
                    gold: None,
                    annotated: None,
                },
                annotated_by: Annotator::new("victor annotate"),
                labels: Vec::new(),
                unlabelled: Default::default(),
            });
            record.annotated_by = Annotator::new("victor annotate");
            if let Some((name, seen)) = &s.prelabelled {
                let options = &mut record.annotated_by.options;
                options.insert("prelabelled_by".into(), name.clone());
                if *seen > 0 {
                    // The model adapted by the annotation loop ([`crate::AdaptLoop`]).
                    options.insert("prelabelled_adapted_on".into(), seen.to_string());
                }
            }
            let anchored = if labels.contains(&Mark::Unknown) {
                let partial: Vec<Option<Label>> = labels.iter().map(|m| m.label()).collect();
                record.set_partial_labels(&s.page, &partial)
            } else {
                let full: Vec<Label> = labels.iter().filter_map(|m| m.label()).collect();
                record.set_labels(&s.page, &full)
            };
            anchored.map_err(|e| PageError::Load(LoadError::from(e)))?;
            if first {
                me.writer.write_page(&record, &s.bytes)?;
                me.saved.fetch_add(1, Ordering::SeqCst);
            } else {
                me.writer.write_labels(&record)?;
            }
            s.labels = labels.to_vec();
            s.record = Some(record);
            Ok(())
        })
    }

    /// Loads page `i` (index in `pages`): from the output set when it has the page, else from
    /// its file, pre-labelled by the model if there is one.
    fn load(&self, i: usize) -> Result<PageState, PageError> {
        let src = &self.pages[i];
        check_page_id(&src.id)?;
        let mut segmenter = Segmenter::new();
        let prelabeller = self.prelabeller();
        if self.writer.labels_path(&src.id).is_file() {
            let r = PageRef {
                dir: self.writer.dir().to_path_buf(),
                set: self.set_name.clone(),
                id: src.id.clone(),
            };
            let bytes = r.bytes()?;
            let loaded = r.load(&mut segmenter)?;
            let encoding = loaded.record.page.encoding.clone();
            // `known` is empty when every block is known.
            let labels = loaded
                .labels
                .iter()
                .enumerate()
                .map(|(i, &l)| match loaded.known.get(i) {
                    Some(false) => Mark::Unknown,
                    _ => Mark::from(l),
                })
                .collect();
            let expected_f1 = prelabeller
                .and_then(|m| model_view(&m.model, &bytes).ok())
                .map(|v| v.expected_f1);
            return Ok(PageState {
                bytes,
                encoding,
                text: loaded.text,
                page: loaded.page,
                labels,
                uncertain: Vec::new(),
                record: Some(loaded.record),
                prelabelled: None,
                expected_f1,
            });
        }
        // As every reader of page files reads them (gzip inflated; a FIFO never waited on).
        let bytes =
            victor_features::file::read_page_file(&src.path).map_err(|source| PageError::Read {
                path: src.path.clone(),
                source,
            })?;
        let bad = |reason: String| PageError::Page {
            path: src.path.clone(),
            reason,
        };
        let decoded = victor_features::decode(&bytes).map_err(|e| bad(e.to_string()))?;
        let encoding = decoded.encoding.name().to_string();
        let text = decoded.text.into_owned();
        let page = segmenter.segment(&text).map_err(|e| bad(e.to_string()))?;
        let mut state = PageState {
            labels: vec![Mark::Other; page.blocks.len()],
            bytes: Vec::new(),
            encoding,
            text,
            page,
            uncertain: Vec::new(),
            record: None,
            prelabelled: None,
            expected_f1: None,
        };
        if let Some(m) = prelabeller {
            let view = model_view(&m.model, &bytes)?;
            if view.labels.len() == state.page.blocks.len() {
                state.labels = view.labels.into_iter().map(Mark::from).collect();
                state.uncertain = view.uncertain;
                state.prelabelled = Some((m.name.clone(), m.seen));
                state.expected_f1 = Some(view.expected_f1);
            }
        }
        state.bytes = bytes;
        Ok(state)
    }

    /// Starts an adaptation in a thread of its own when the loop is on, none runs, and the
    /// output set holds at least [`AdaptLoop::every`] more pages than when the last one
    /// started (the first: than none).
    pub(crate) fn maybe_adapt(self: &Arc<Self>) {
        let Some(a) = &self.adapter else {
            return;
        };
        let saved = self.saved.load(Ordering::SeqCst);
        let mut st = a.status.lock().unwrap_or_else(|e| e.into_inner());
        if st.running.is_some() || saved < st.started_at + a.settings.every.max(1) {
            return;
        }
        st.running = Some(saved);
        st.started_at = saved;
        let me = Arc::clone(self);
        let spawned = std::thread::Builder::new()
            .name("victor-adapt".into())
            .spawn(move || me.adapt_now());
        if let Err(e) = spawned {
            st.running = None;
            st.error = Some(format!("cannot start the adaptation: {e}"));
        }
    }

    /// One adaptation (in its own thread): the base model adapted to a copy of the output set;
    /// on success, with [`Order::Uncertain`], the pages not yet shown ranked again by the new
    /// model, which then pre-labels every page loaded after it; on failure the reason is kept
    /// for the page and the model stays. Then the next one, if enough pages were saved
    /// meanwhile.
    fn adapt_now(self: Arc<Self>) {
        let Some(a) = &self.adapter else {
            return;
        };
        let t0 = Instant::now();
        let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            let copy = tempfile::Builder::new()
                .prefix("saved-")
                .tempdir_in(a.work.path())
                .map_err(|e| format!("cannot copy the saved pages: {e}"))?;
            let set = copy.path().join("set");
            snapshot(self.writer.dir(), &set).map_err(|e| e.to_string())?;
            adapt_to_set(
                &a.base.model,
                &a.settings.adapt,
                &set,
                &a.work.path().join("model"),
            )
            .map_err(|e| e.to_string())
        }))
        .unwrap_or_else(|_| Err("the adaptation stopped unexpectedly".into()));
        let mut st_error = None;
        let mut skipped = 0;
        match outcome {
            Ok(adapted) => {
                skipped = adapted.skipped.len();
                let m = Arc::new(Prelabeller {
                    model: adapted.model,
                    name: a.base.name.clone(),
                    seen: adapted.pages,
                });
                self.install(m);
            }
            Err(e) => st_error = Some(e),
        }
        {
            let mut st = a.status.lock().unwrap_or_else(|e| e.into_inner());
            st.running = None;
            st.seconds = Some(t0.elapsed().as_secs_f64());
            if st_error.is_none() {
                st.adaptations += 1;
                st.skipped = skipped;
            }
            st.error = st_error;
        }
        self.maybe_adapt();
    }

    /// Makes `m` the model that pre-labels new pages; with [`Order::Uncertain`], first ranks
    /// again the pages neither shown nor saved by `m`'s expected F1, lowest first, in the
    /// positions they held (a page shown keeps its position).
    fn install(&self, m: Arc<Prelabeller>) {
        if self.order == Order::Uncertain {
            let fresh = |book: &Book, i: usize| {
                book.states[i].is_none() && !self.writer.labels_path(&self.pages[i].id).is_file()
            };
            let which: Vec<usize> = {
                let book = self.book_lock();
                (0..self.pages.len()).filter(|&i| fresh(&book, i)).collect()
            };
            // Scored without the lock: the server goes on answering meanwhile.
            let scores = self.score(&m, which);
            let mut book = self.book_lock();
            for &(i, f) in &scores {
                book.expected[i] = f;
            }
            let positions: Vec<usize> = (0..book.order.len())
                .filter(|&n| {
                    let i = book.order[n];
                    fresh(&book, i) && scores.iter().any(|&(j, _)| j == i)
                })
                .collect();
            let mut moved: Vec<usize> = positions.iter().map(|&n| book.order[n]).collect();
            let key = |i: usize| book.expected[i].unwrap_or(f64::INFINITY);
            moved.sort_by(|&x, &y| key(x).total_cmp(&key(y)));
            for (&n, i) in positions.iter().zip(moved) {
                book.order[n] = i;
            }
            // Under the book's lock: no page loads between the ranking and the new model.
            *self.model.write().unwrap_or_else(|e| e.into_inner()) = Some(m);
            return;
        }
        *self.model.write().unwrap_or_else(|e| e.into_inner()) = Some(m);
    }
}

/// The model's labels of a page, its uncertain blocks, and its expected F1.
fn model_view(model: &Model, bytes: &[u8]) -> Result<ModelView, PageError> {
    let mut labeler = Labeler::new(model);
    let decoding = labeler.default_decoding();
    let labelled = labeler
        .label_bytes(bytes, decoding)
        .map_err(|e| PageError::Model(e.to_string()))?;
    let page = &labelled.processed.page;
    let threshold = match decoding {
        Decoding::Threshold(t) => t.get(),
        Decoding::ExpectedF1(opts) => page_threshold(
            page,
            &labelled.probs,
            opts.calibration,
            &mut ExpectedScratch::default(),
        ),
        Decoding::Viterbi => 0.5,
    };
    let uncertain = labelled
        .probs
        .iter()
        .enumerate()
        .filter(|(_, p)| (p[2] - threshold).abs() < UNCERTAIN_MARGIN)
        .filter_map(|(i, _)| u32::try_from(i).ok())
        .collect();
    let f1 = expected_f1(page, &labelled.probs, model.expected_options().calibration);
    Ok(ModelView {
        labels: labelled.labels,
        uncertain,
        expected_f1: f1,
    })
}

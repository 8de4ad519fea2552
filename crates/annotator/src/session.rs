//! The annotation session: the pages in the order offered, their current labels, and saving.

use std::path::PathBuf;
use std::sync::Mutex;

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
    prelabelled: bool,
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

/// The session.
pub(crate) struct Session {
    pages: Vec<PageSource>,
    /// Position offered -> index in `pages`.
    order: Vec<usize>,
    /// The model's expected F1 per page (index in `pages`), with [`Order::Uncertain`].
    expected: Vec<Option<f64>>,
    writer: SetWriter,
    set_name: String,
    model: Option<Model>,
    model_name: Option<String>,
    states: Mutex<Vec<Option<PageState>>>,
}

impl Session {
    pub(crate) fn new(options: Options) -> Result<Session, AnnotateError> {
        if options.pages.is_empty() {
            return Err(AnnotateError::NoPages);
        }
        if options.order == Order::Uncertain && options.model.is_none() {
            return Err(AnnotateError::OrderNeedsModel);
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
        let n = options.pages.len();
        let mut session = Session {
            order: (0..n).collect(),
            expected: vec![None; n],
            pages: options.pages,
            writer,
            set_name: options.set_name,
            model: options.model,
            model_name: options.model_name,
            states: Mutex::new((0..n).map(|_| None).collect()),
        };
        if options.order == Order::Uncertain {
            for i in 0..n {
                // A page that cannot be read goes last; its error shows when it is opened.
                session.expected[i] = session.load(i).ok().and_then(|s| s.expected_f1);
            }
            let key = |i: usize| session.expected[i].unwrap_or(f64::INFINITY);
            let mut order = session.order.clone();
            order.sort_by(|&a, &b| key(a).total_cmp(&key(b)));
            session.order = order;
        }
        Ok(session)
    }

    pub(crate) fn len(&self) -> usize {
        self.pages.len()
    }

    /// The pages in the order offered, with whether each is in the output set.
    pub(crate) fn list(&self) -> Value {
        let pages: Vec<Value> = self
            .order
            .iter()
            .map(|&i| {
                let id = &self.pages[i].id;
                json!({
                    "id": id,
                    "annotated": self.writer.labels_path(id).is_file(),
                    "expected_f1": self.expected[i],
                })
            })
            .collect();
        json!({ "pages": pages, "model": self.model_name })
    }

    /// Runs `f` on the state of the page offered at position `n`, loading it first.
    fn with_state<T>(
        &self,
        n: usize,
        f: impl FnOnce(&mut PageState, &Self) -> Result<T, PageError>,
    ) -> Result<T, PageError> {
        let &i = self.order.get(n).ok_or(PageError::NotFound(n))?;
        let mut states = self.states.lock().unwrap_or_else(|e| e.into_inner());
        if states[i].is_none() {
            states[i] = Some(self.load(i)?);
        }
        match states[i].as_mut() {
            Some(s) => f(s, self),
            None => Err(PageError::NotFound(n)),
        }
    }

    /// What the tool's script needs to show page `n`.
    pub(crate) fn info(&self, n: usize) -> Result<Value, PageError> {
        self.with_state(n, |s, me| {
            let texts: Vec<&str> = s.page.blocks.iter().map(|b| s.page.block_text(b)).collect();
            Ok(json!({
                "n": n,
                "total": me.order.len(),
                "id": me.pages[me.order[n]].id,
                "blocks": s.page.blocks.len(),
                "labels": s.labels,
                "uncertain": s.uncertain,
                "annotated": s.record.is_some(),
                "prelabelled": s.prelabelled,
                "expected_f1": s.expected_f1,
                "texts": texts,
            }))
        })
    }

    /// Page `n`'s HTML as served ([`crate::render`]).
    pub(crate) fn html(&self, n: usize) -> Result<String, PageError> {
        self.with_state(n, |s, me| {
            crate::render::render(&s.text, &s.page).map_err(|e| PageError::Page {
                path: me.pages[me.order[n]].path.clone(),
                reason: e.to_string(),
            })
        })
    }

    /// Saves `labels` (one per block) as page `n`'s labels: partially labelled
    /// ([`PageRecord::set_partial_labels`]) when a block is unknown, fully otherwise.
    pub(crate) fn save(&self, n: usize, labels: &[Mark]) -> Result<(), PageError> {
        self.with_state(n, |s, me| {
            if labels.len() != s.page.blocks.len() {
                return Err(PageError::LabelCount {
                    got: labels.len(),
                    blocks: s.page.blocks.len(),
                });
            }
            let src = &me.pages[me.order[n]];
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
            if s.prelabelled
                && let Some(m) = &me.model_name
            {
                record
                    .annotated_by
                    .options
                    .insert("prelabelled_by".into(), m.clone());
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
            let expected_f1 = self.model_view(&bytes).ok().map(|v| v.expected_f1);
            return Ok(PageState {
                bytes,
                encoding,
                text: loaded.text,
                page: loaded.page,
                labels,
                uncertain: Vec::new(),
                record: Some(loaded.record),
                prelabelled: false,
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
            prelabelled: false,
            expected_f1: None,
        };
        if self.model.is_some() {
            let view = self.model_view(&bytes)?;
            if view.labels.len() == state.page.blocks.len() {
                state.labels = view.labels.into_iter().map(Mark::from).collect();
                state.uncertain = view.uncertain;
                state.prelabelled = true;
                state.expected_f1 = Some(view.expected_f1);
            }
        }
        state.bytes = bytes;
        Ok(state)
    }

    /// The model's labels of a page, its uncertain blocks, and its expected F1.
    fn model_view(&self, bytes: &[u8]) -> Result<ModelView, PageError> {
        let Some(model) = &self.model else {
            return Err(PageError::Model("no model".into()));
        };
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
}

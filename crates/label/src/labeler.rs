//! Labeling pages: features -> state scores -> exact marginals -> labels under the threshold.
//!
//! A block is `other` where P(other) >= T; elsewhere the likelier of `header` and `text` wins
//! (a tie goes to `text`). Lowering T can only turn content into `other`, so the number of
//! content blocks never rises as T falls. [`Decoding::Viterbi`] asks for the single best label
//! sequence instead, and [`Decoding::ExpectedF1`] for the threshold of each page that maximises
//! its expected text-level F1 under the settings it carries (see [`crate::expected`]).

use ndarray::Array2;
use victor_core::{Decoding, Label, Probs, decide_page};
use victor_features::{Collect, FeatureTable, Page, PageError, PageProfile, Processed, Segmenter};

use crate::boost;
use crate::bundle::Model;
use crate::crf::{InferenceError, Workspace};
use crate::expected;

/// Why a page could not be labelled.
#[derive(Debug, thiserror::Error)]
pub enum LabelError {
    /// Reading the page failed.
    #[error(transparent)]
    Page(#[from] PageError),
    /// Inference failed (non-finite scores: a broken model).
    #[error("inference failed: {0}")]
    Inference(#[from] InferenceError),
}

/// A labelled page.
#[derive(Debug)]
pub struct LabeledPage<'a> {
    /// The decoded page, its blocks and features.
    pub processed: Processed<'a>,
    /// Marginals per block.
    pub probs: Vec<Probs>,
    /// Labels per block.
    pub labels: Vec<Label>,
    /// Words per block under the text-level measure ([`crate::block_words`]): the weights of
    /// the expected-F1 decoding, kept for [`crate::confidence()`] so that they are counted
    /// once.
    pub words: Vec<u32>,
    /// For a gated bundle, the share of the adapted model in the page's marginals
    /// ([`Labeler::share`]); `None` for a bundle without a gate.
    pub share: Option<f64>,
}

/// Whether the labeler's state-score buffer holds the page's scores under the bundle's model
/// when the decoding runs (Viterbi decoding then need not score the page again).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Scores {
    /// [`Labeler::probabilities`] has just scored this page.
    Kept,
    /// The buffer may hold another page's scores.
    Gone,
}

/// Per-thread labeling state (buffers are reused across pages).
#[derive(Debug)]
pub struct Labeler<'m> {
    model: &'m Model,
    /// The buffers, reused from page to page.
    s: Scratch,
    /// [`Labeler::share`].
    share: Option<f64>,
}

impl<'m> Labeler<'m> {
    /// A labeler for a model.
    pub fn new(model: &'m Model) -> Self {
        Labeler {
            model,
            s: Scratch::new(victor_features::DEFAULT_MAX_BLOCKS),
            share: None,
        }
    }

    /// The model.
    pub fn model(&self) -> &'m Model {
        self.model
    }

    /// Sets the block limit of the labeler's segmenter (default
    /// [`victor_features::DEFAULT_MAX_BLOCKS`]): a page with more blocks is refused
    /// with an error instead of taking memory in proportion to its size.
    pub fn set_max_blocks(&mut self, max_blocks: usize) {
        self.s.segmenter.set_max_blocks(max_blocks);
    }

    /// Sets what the labeler's segmenter collects beyond the blocks (default
    /// [`Collect::ALL`]): links for Markdown links, the head for metadata. Plain text needs
    /// neither, and a parse that skips them is faster.
    pub fn set_collect(&mut self, collect: Collect) {
        self.s.segmenter.set_collect(collect);
    }

    /// The probabilities of header, text and other for every block of a page (its feature
    /// table given): the CRF's marginals, blended with the bundle's boosted trees if it has
    /// them (so not the CRF's marginals alone, which
    /// [`CrfModel::marginals`](crate::CrfModel::marginals) gives); for a gated bundle, mixed
    /// with its base's by the gate's share of the page ([`crate::gate`], then
    /// [`Labeler::share`]).
    pub fn probabilities(
        &mut self,
        page: &Page,
        table: &FeatureTable,
        out: &mut Vec<Probs>,
    ) -> Result<(), InferenceError> {
        self.share = probabilities_of(self.model, page, table, &mut self.s, out, 0)?;
        Ok(())
    }

    /// For a gated bundle, the share of the adapted model in the page whose probabilities were
    /// computed last (0: the base's alone; 1: the adapted model's alone); `None` for a bundle
    /// without a gate.
    pub fn share(&self) -> Option<f64> {
        self.share
    }

    /// The Viterbi labels of a page (its feature table given); a gated bundle decodes with the
    /// model that has the larger share of the page (the adapted one at a half).
    pub fn viterbi(
        &mut self,
        page: &Page,
        table: &FeatureTable,
        out: &mut Vec<Label>,
    ) -> Result<(), InferenceError> {
        let m = viterbi_model(self.model, page);
        m.compiled.state_scores(table, &mut self.s.scores);
        self.viterbi_scored(m, out)
    }

    /// Viterbi over the state scores already in `self.s.scores`, which are `m`'s.
    fn viterbi_scored(&mut self, m: &Model, out: &mut Vec<Label>) -> Result<(), InferenceError> {
        m.crf
            .viterbi_into(self.s.scores.view(), &mut self.s.ws, &mut self.s.path)?;
        out.clear();
        for &id in &self.s.path {
            let l = Label::ALL
                .iter()
                .zip(m.label_ids)
                .find(|(_, mid)| *mid == Some(id))
                .map_or(Label::Other, |(l, _)| *l);
            out.push(l);
        }
        Ok(())
    }

    /// Labels the blocks of a page from its feature table.
    pub fn label_table(
        &mut self,
        page: &Page,
        table: &FeatureTable,
        decoding: Decoding,
        probs: &mut Vec<Probs>,
        labels: &mut Vec<Label>,
    ) -> Result<(), InferenceError> {
        self.probabilities(page, table, probs)?;
        // `probabilities` left this table's state scores in `self.s.scores`.
        self.decide(page, table, probs, decoding, Scores::Kept, labels)
    }

    /// Labels the blocks of a page under `decoding` from probabilities already computed for its
    /// feature table by [`Labeler::probabilities`] (Viterbi decoding reads the table again).
    pub fn decide_labels(
        &mut self,
        page: &Page,
        table: &FeatureTable,
        probs: &[Probs],
        decoding: Decoding,
        labels: &mut Vec<Label>,
    ) -> Result<(), InferenceError> {
        self.decide(page, table, probs, decoding, Scores::Gone, labels)
    }

    /// The decoding dispatch. Viterbi decoding reuses the state scores in `self.s.scores` when
    /// `scores` says they are this page's and the bundle has no gate (a gated bundle's Viterbi
    /// decoding scores the page again with the model it decodes with); else it scores the
    /// page again.
    fn decide(
        &mut self,
        page: &Page,
        table: &FeatureTable,
        probs: &[Probs],
        decoding: Decoding,
        scores: Scores,
        labels: &mut Vec<Label>,
    ) -> Result<(), InferenceError> {
        match decoding {
            Decoding::Threshold(t) => decide_page(probs, t.get(), labels),
            Decoding::Viterbi if scores == Scores::Kept && self.model.gated.is_none() => {
                self.viterbi_scored(self.model, labels)?
            }
            Decoding::Viterbi => self.viterbi(page, table, labels)?,
            Decoding::ExpectedF1(opts) => {
                labels.clear();
                expected::decide_expected(page, probs, opts, &mut self.s.expected, labels);
            }
        }
        Ok(())
    }

    /// Reads, segments, extracts and labels one page.
    pub fn label_bytes<'a>(
        &mut self,
        bytes: &'a [u8],
        decoding: Decoding,
    ) -> Result<LabeledPage<'a>, LabelError> {
        self.label_bytes_with_charset(bytes, None, decoding)
    }

    /// Reads, segments and extracts one page (with the HTTP charset, if known) without labeling
    /// it: for labelers other than the model's CRF, with this labeler's segmenter and the
    /// model's feature configuration.
    pub fn process_with_charset<'a>(
        &mut self,
        bytes: &'a [u8],
        charset: Option<&str>,
    ) -> Result<victor_features::Processed<'a>, LabelError> {
        Ok(victor_features::process_with_charset(
            bytes,
            charset,
            &mut self.s.segmenter,
            &self.model.extractor,
        )?)
    }

    /// [`Labeler::label_bytes`] for a page whose transport declared a charset (an HTTP
    /// `Content-Type`'s; see [`victor_features::decode_with_charset`]).
    pub fn label_bytes_with_charset<'a>(
        &mut self,
        bytes: &'a [u8],
        charset: Option<&str>,
        decoding: Decoding,
    ) -> Result<LabeledPage<'a>, LabelError> {
        let processed = self.process_with_charset(bytes, charset)?;
        let mut probs = Vec::with_capacity(processed.page.blocks.len());
        let mut labels = Vec::with_capacity(processed.page.blocks.len());
        self.label_table(
            &processed.page,
            &processed.table,
            decoding,
            &mut probs,
            &mut labels,
        )?;
        // The expected-F1 decoding counted the words of this page's blocks just now.
        let fresh = matches!(decoding, Decoding::ExpectedF1(_));
        let words = self.s.expected.words_of(&processed.page, fresh);
        Ok(LabeledPage {
            processed,
            probs,
            labels,
            words,
            share: self.share,
        })
    }

    /// The decoding the model recommends ([`Model::recommended_decoding`]).
    pub fn default_decoding(&self) -> Decoding {
        self.model.recommended_decoding()
    }

    /// The model's expected text-level F1 of a page ([`crate::expected::expected_f1`] of its
    /// marginals under the bundle's recalibration): how sure the model is of the page, the
    /// score active learning ranks pages by (lowest first).
    ///
    /// # Errors
    ///
    /// As [`Labeler::label_bytes`].
    pub fn expected_f1(&mut self, bytes: &[u8]) -> Result<f64, LabelError> {
        let processed = self.process_with_charset(bytes, None)?;
        let mut probs = Vec::with_capacity(processed.page.blocks.len());
        self.probabilities(&processed.page, &processed.table, &mut probs)?;
        let cal = self.model.expected_options().calibration;
        Ok(crate::expected::expected_f1(&processed.page, &probs, cal))
    }
}

/// A labeler's buffers without its model: an owner that shares the model between threads (and
/// so cannot keep a borrow of it) keeps these between pages and rebuilds a [`Labeler`] around
/// them with [`Labeler::with_scratch`], so buffers grown by earlier pages are reused.
#[derive(Debug)]
pub struct Scratch {
    segmenter: Segmenter,
    ws: Workspace,
    scores: Array2<f64>,
    marginals: Array2<f64>,
    path: Vec<usize>,
    expected: expected::ExpectedScratch,
    /// Raw feature rows and log-odds of the boosted trees.
    rows: Vec<f32>,
    logits: Vec<f64>,
    /// A gated bundle's base's probabilities, one buffer per level of nesting.
    mix: Vec<Vec<Probs>>,
}

impl Scratch {
    /// Empty buffers, with the block limit of a [`Labeler::set_max_blocks`].
    pub fn new(max_blocks: usize) -> Self {
        let mut segmenter = Segmenter::new();
        segmenter.set_max_blocks(max_blocks);
        Scratch {
            segmenter,
            ws: Workspace::new(),
            scores: Array2::zeros((0, 0)),
            marginals: Array2::zeros((0, 0)),
            path: Vec::new(),
            expected: expected::ExpectedScratch::default(),
            rows: Vec::new(),
            logits: Vec::new(),
            mix: Vec::new(),
        }
    }
}

impl<'m> Labeler<'m> {
    /// A labeler for a model around buffers kept from an earlier one.
    pub fn with_scratch(model: &'m Model, s: Scratch) -> Self {
        Labeler {
            model,
            s,
            share: None,
        }
    }

    /// The labeler's buffers, to keep for a later [`Labeler::with_scratch`].
    pub fn into_scratch(self) -> Scratch {
        self.s
    }
}

/// The probabilities of a page's blocks under `m` (a gated bundle's mixed with its base's by
/// the gate), into `out`; returns the gate's share of the page, `None` for a bundle without a
/// gate. `depth` is the level of nesting (a gated base), which picks the buffer of `s.mix`.
fn probabilities_of(
    m: &Model,
    page: &Page,
    table: &FeatureTable,
    s: &mut Scratch,
    out: &mut Vec<Probs>,
    depth: usize,
) -> Result<Option<f64>, InferenceError> {
    let Some((gate, base)) = &m.gated else {
        own_probabilities(m, table, s, out)?;
        return Ok(None);
    };
    let share = gate.share(&PageProfile::of(page));
    if share >= 1.0 {
        own_probabilities(m, table, s, out)?;
        return Ok(Some(share));
    }
    if share <= 0.0 {
        probabilities_of(base, page, table, s, out, depth + 1)?;
        return Ok(Some(share));
    }
    own_probabilities(m, table, s, out)?;
    if s.mix.len() <= depth {
        s.mix.resize_with(depth + 1, Vec::new);
    }
    let mut theirs = std::mem::take(&mut s.mix[depth]);
    let done = probabilities_of(base, page, table, s, &mut theirs, depth + 1);
    if done.is_ok() {
        for (p, q) in out.iter_mut().zip(&theirs) {
            for (a, b) in p.iter_mut().zip(q) {
                *a = share * *a + (1.0 - share) * b;
            }
        }
    }
    s.mix[depth] = theirs;
    done.map(|_| Some(share))
}

/// A model's own probabilities (its CRF's marginals blended with its trees), ignoring any gate;
/// leaves its state scores in `s.scores`.
fn own_probabilities(
    m: &Model,
    table: &FeatureTable,
    s: &mut Scratch,
    out: &mut Vec<Probs>,
) -> Result<(), InferenceError> {
    m.compiled.state_scores(table, &mut s.scores);
    m.crf
        .marginals(s.scores.view(), &mut s.ws, &mut s.marginals)?;
    out.clear();
    let ids = m.label_ids;
    for row in s.marginals.rows() {
        out.push(ids.map(|id| id.and_then(|i| row.get(i).copied()).unwrap_or(0.0)));
    }
    if let Some((forest, weight)) = &m.forest {
        forest.logits(table, &mut s.rows, &mut s.logits);
        for (p, &f) in out.iter_mut().zip(&s.logits) {
            boost::blend(p, f, *weight);
        }
    }
    Ok(())
}

/// The model a gated bundle decodes a page with under Viterbi decoding: itself where the
/// gate's share of the page is at least a half, else its base (in turn).
fn viterbi_model<'m>(m: &'m Model, page: &Page) -> &'m Model {
    match &m.gated {
        Some((gate, base)) if gate.share(&PageProfile::of(page)) < 0.5 => viterbi_model(base, page),
        _ => m,
    }
}

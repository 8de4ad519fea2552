//! One page of an input -> victor's blocks with their marginals, and the page's gold.
//!
//! A [`Worker`] holds one thread's buffers (labeler, segmenter, tokenizer). For a page of a
//! manifest set it reads the gold file (markers stripped, as the acceptance scorer does),
//! labels the page, and imports it in memory with the input's importer to get gold block
//! labels, which are then resolved onto the blocks the labeler saw (same decoder, same
//! segmenter, so they fit). For a page of an annotated set it loads the page with its labels,
//! extracts features from those blocks and computes the marginals; the gold text is then the
//! text of the gold-labelled blocks, rendered as victor renders its output.
//!
//! The gold text and the gold labels come from different files, so each can be missing
//! without the other: a page whose import fails still counts at the text level (its block
//! labels are reported missing), and a page that cannot be labelled still counts at the text
//! level as an empty output, as the acceptance scorer counts a missing output file.

use victor_annotations::Label;
use victor_annotations::import_page;
use victor_annotations::resolve_labels;
use victor_eval::read_gold;
use victor_eval::{Bags, PageScore, TokenBag, Tokenizer};
use victor_features::{FeatureTable, Page, Segmenter};
use victor_label::render_text;
use victor_label::{Labeler, Model, Probs};

use super::input::{Input, Source};
use crate::{Method, Methods};

/// A page ready to be scored.
#[derive(Debug)]
pub(crate) struct Loaded {
    /// The page id.
    pub(crate) id: String,
    /// victor's blocks of the page.
    pub(crate) page: Page,
    /// Their features (for Viterbi decoding).
    pub(crate) table: FeatureTable,
    /// Marginals of header, text and other, per block (one-hot under a rule-based method).
    pub(crate) probs: Vec<Probs>,
    /// The labels of the rule-based method, when one labels instead of the CRF (else empty).
    pub(crate) method_labels: Vec<Label>,
    /// Gold label per block, or why there are none (the import failed).
    pub(crate) gold_labels: Result<Vec<Label>, String>,
    /// Tokens of the gold text (`None`: the page has no gold text).
    pub(crate) gold_text: Option<TokenBag>,
}

/// A page that could not be labelled.
#[derive(Debug)]
pub(crate) struct Failed {
    /// The page id.
    pub(crate) id: String,
    /// What went wrong.
    pub(crate) reason: String,
    /// Tokens of the gold text, when it could be read: the page then scores as empty output.
    pub(crate) gold_text: Option<TokenBag>,
}

/// One thread's labelling state.
#[derive(Debug)]
pub(crate) struct Worker<'m> {
    /// Marginals and Viterbi paths.
    pub(crate) labeler: Labeler<'m>,
    segmenter: Segmenter,
    tokenizer: Tokenizer,
    text: String,
    bag: TokenBag,
    /// A rule-based method that replaces the CRF's marginals by its one-hot labels.
    method: Option<Method>,
    methods: Methods,
    labels: Vec<Label>,
}

impl<'m> Worker<'m> {
    /// A worker for a model.
    pub(crate) fn new(model: &'m Model) -> Self {
        Worker {
            labeler: Labeler::new(model),
            segmenter: Segmenter::new(),
            tokenizer: Tokenizer::new(),
            text: String::new(),
            bag: TokenBag::new(),
            method: None,
            methods: Methods::new(),
            labels: Vec::new(),
        }
    }

    /// Labels pages with a rule-based method instead of the model's CRF (`None`: the CRF).
    pub(crate) fn with_method(mut self, method: Option<Method>) -> Self {
        self.method = method;
        self
    }

    /// The page's marginals: the CRF's, or the one-hot labels of the method (its labels in
    /// `self.labels`).
    fn probs(
        &mut self,
        page: &Page,
        table: &FeatureTable,
        probs: &mut Vec<Probs>,
    ) -> Result<(), victor_label::InferenceError> {
        match self.method {
            None => {
                self.labels.clear();
                self.labeler.probabilities(page, table, probs)
            }
            Some(m) => {
                crate::label_by_method(
                    &mut self.methods,
                    m,
                    self.labeler.model(),
                    page,
                    table.language,
                    &mut self.labels,
                    probs,
                );
                Ok(())
            }
        }
    }

    /// Loads and labels page `index` of `input`.
    pub(crate) fn load(&mut self, input: &Input, index: usize) -> Result<Loaded, Failed> {
        match &input.source {
            Source::Annotated(pages) => {
                let Some(p) = pages.get(index) else {
                    return Err(self.failed(input.page_id(index), "no such page", None));
                };
                let a = match p.load(&mut self.segmenter) {
                    Ok(a) => a,
                    Err(e) => return Err(self.failed(&p.id, e.to_string(), None)),
                };
                self.text.clear();
                render_text(&a.page, &a.labels, false, &mut self.text);
                let gold_text = self.tokenizer.bag(&self.text);
                let table = self.labeler.model().extractor.extract(&a.page);
                let mut probs = Vec::with_capacity(a.page.blocks.len());
                if let Err(e) = self.probs(&a.page, &table, &mut probs) {
                    return Err(self.failed(&p.id, e.to_string(), Some(gold_text)));
                }
                Ok(Loaded {
                    id: a.id,
                    page: a.page,
                    table,
                    probs,
                    method_labels: self.labels.clone(),
                    gold_labels: Ok(a.labels),
                    gold_text: Some(gold_text),
                })
            }
            Source::Manifest {
                dir,
                entries,
                options,
            } => {
                let Some(entry) = entries.get(index) else {
                    return Err(self.failed(input.page_id(index), "no such page", None));
                };
                let id = entry.id.as_str();
                let gold_text = match &entry.gold {
                    Some(g) => match read_gold(&dir.join(g)) {
                        Ok(text) => Some(self.tokenizer.bag(&text)),
                        Err(e) => return Err(self.failed(id, e.to_string(), None)),
                    },
                    None => None,
                };
                let html = dir.join(&entry.html);
                let bytes = match victor_features::file::read_page_file(&html) {
                    Ok(b) => b,
                    Err(e) => {
                        let reason = format!("cannot read {}: {e}", html.display());
                        return Err(self.failed(id, reason, gold_text));
                    }
                };
                let model = self.labeler.model();
                let processed =
                    match victor_features::process(&bytes, &mut self.segmenter, &model.extractor) {
                        Ok(p) => p,
                        Err(e) => return Err(self.failed(id, e.to_string(), gold_text)),
                    };
                let (page, table) = (processed.page, processed.table);
                let mut probs = Vec::with_capacity(page.blocks.len());
                if let Err(e) = self.probs(&page, &table, &mut probs) {
                    return Err(self.failed(id, e.to_string(), gold_text));
                }
                let gold_labels =
                    import_page(dir, &input.name, entry, options, &mut self.segmenter)
                        .map_err(|e| format!("import: {e}"))
                        .and_then(|imported| {
                            resolve_labels(
                                id,
                                &page,
                                &imported.record.labels,
                                imported.record.page.blocks as usize,
                            )
                            .map_err(|e| format!("import: {e}"))
                        });
                Ok(Loaded {
                    id: id.to_string(),
                    page,
                    table,
                    probs,
                    method_labels: self.labels.clone(),
                    gold_labels,
                    gold_text,
                })
            }
        }
    }

    /// The text-level score of `labels` on `page`: victor's text output (as `victor label
    /// --format text` writes it) against the gold tokens.
    pub(crate) fn text_score(
        &mut self,
        page: &Page,
        labels: &[Label],
        gold: &TokenBag,
    ) -> PageScore {
        self.text.clear();
        render_text(page, labels, false, &mut self.text);
        self.tokenizer.fill_bag(&self.text, &mut self.bag);
        PageScore::new(&self.bag, gold)
    }

    fn failed(&self, id: &str, reason: impl Into<String>, gold_text: Option<TokenBag>) -> Failed {
        Failed {
            id: id.to_string(),
            reason: reason.into(),
            gold_text,
        }
    }
}

/// The text-level score of a page that produced no output.
pub(crate) fn empty_output(gold: &TokenBag) -> PageScore {
    PageScore::new(&TokenBag::new(), gold)
}

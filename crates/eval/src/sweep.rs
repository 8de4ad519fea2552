//! The precision/recall sweep over thresholds on P(other) (the Victor paper, Figure 2).
//!
//! The CRF gives each block marginal probabilities of header, text and other. At threshold T a
//! block is labelled `other` when P(other) ≥ T, else the likelier of header and text
//! ([`decide`]). Lowering T therefore only turns content blocks into `other`: precision rises
//! and recall falls.
//!
//! [`sweep`] scores a list of thresholds at the block level; [`sweep_with_text`] also scores
//! the text each threshold would extract, against the gold text, with the scorer's tokens.
//! The marginals come from the caller, computed once; per threshold the sweep only re-decides
//! labels. How labelled blocks become text belongs to the caller: a closure receives the page
//! index and the labels and writes the text into a buffer. A page's text is rebuilt and
//! re-tokenized only when its labels differ from those at the previous threshold.

use serde::Serialize;
use victor_annotations::Label;

use crate::block_score::{BlockCounts, BlockMetrics};
use crate::text_score::{PageScore, TextScores, TextSummary};
use crate::tokens::{TokenBag, Tokenizer};

/// Marginal probabilities of one block, indexed by [`Label::index`]: `[P(header), P(text),
/// P(other)]`.
pub type Marginals = [f64; 3];

// `decide` destructures marginals in this order.
const _: () =
    assert!(Label::Header.index() == 0 && Label::Text.index() == 1 && Label::Other.index() == 2);

/// The label of a block at `threshold`: `other` if P(other) ≥ `threshold`, else header if
/// P(header) > P(text), else text (a tie goes to text).
pub fn decide(marginals: &Marginals, threshold: f64) -> Label {
    let [header, text, other] = *marginals;
    if other >= threshold {
        Label::Other
    } else if header > text {
        Label::Header
    } else {
        Label::Text
    }
}

/// Labels all blocks of a page at `threshold` into `out` (cleared first).
pub fn decide_page(marginals: &[Marginals], threshold: f64, out: &mut Vec<Label>) {
    out.clear();
    out.extend(marginals.iter().map(|m| decide(m, threshold)));
}

/// `steps + 1` evenly spaced thresholds from 0 to 1 inclusive (`i / steps`, no accumulated
/// rounding); `[0.0, 1.0]` for `steps == 0`.
pub fn threshold_grid(steps: usize) -> Vec<f64> {
    let steps = steps.max(1);
    (0..=steps).map(|i| i as f64 / steps as f64).collect()
}

/// One page's input to a sweep.
#[derive(Debug, Clone, Copy)]
pub struct SweepPage<'a> {
    /// Marginals of each block, in page order.
    pub marginals: &'a [Marginals],
    /// Gold label of each block, in page order.
    pub gold: &'a [Label],
}

/// Input that cannot be swept.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum SweepError {
    /// A threshold that is NaN or infinite.
    #[error("threshold #{index} is {value}, not a finite number")]
    InvalidThreshold {
        /// Position in the threshold list.
        index: usize,
        /// The value.
        value: f64,
    },
    /// A page whose marginals and gold labels differ in number.
    #[error("page {page}: {marginals} blocks have marginals but {gold} have gold labels")]
    LengthMismatch {
        /// Page index.
        page: usize,
        /// Number of marginal triples.
        marginals: usize,
        /// Number of gold labels.
        gold: usize,
    },
    /// A block whose marginals are not all finite.
    #[error("page {page}, block {block}: marginals {values:?} are not all finite")]
    InvalidMarginals {
        /// Page index.
        page: usize,
        /// Block index within the page.
        block: usize,
        /// The marginals.
        values: Marginals,
    },
    /// Not one gold text per page.
    #[error("{pages} pages but {gold_texts} gold texts")]
    GoldTextCount {
        /// Number of pages.
        pages: usize,
        /// Number of gold texts.
        gold_texts: usize,
    },
}

/// The figures of one threshold.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SweepRow {
    /// The threshold on P(other).
    pub threshold: f64,
    /// Blocks labelled content at this threshold.
    pub content_blocks: u64,
    /// Block-level figures.
    pub block: BlockMetrics,
    /// Text-level figures (macro, micro, median), if text was scored and there are pages.
    pub text: Option<TextSummary>,
    /// The block confusion matrix.
    #[serde(skip)]
    pub counts: BlockCounts,
    /// Per-page text scores, in page order, if text was scored.
    #[serde(skip)]
    pub text_pages: Option<TextScores>,
}

/// Block-level figures at each threshold, one row per threshold in the given order.
pub fn sweep(pages: &[SweepPage<'_>], thresholds: &[f64]) -> Result<Vec<SweepRow>, SweepError> {
    run::<fn(usize, &[Label], &mut String)>(pages, thresholds, None)
}

/// Block- and text-level figures at each threshold, one row per threshold in the given order.
///
/// `gold_texts[i]` holds the tokens of page `i`'s gold text (see
/// [`Tokenizer::bag`](crate::tokens::Tokenizer::bag)). `extract(i, labels, out)` must append
/// to `out` (empty on entry) the text that page `i` yields with `labels`, one label per block.
pub fn sweep_with_text<F>(
    pages: &[SweepPage<'_>],
    gold_texts: &[TokenBag],
    thresholds: &[f64],
    extract: F,
) -> Result<Vec<SweepRow>, SweepError>
where
    F: FnMut(usize, &[Label], &mut String),
{
    if gold_texts.len() != pages.len() {
        return Err(SweepError::GoldTextCount {
            pages: pages.len(),
            gold_texts: gold_texts.len(),
        });
    }
    run(pages, thresholds, Some((gold_texts, extract)))
}

/// Checks thresholds and pages before any work.
fn validate(pages: &[SweepPage<'_>], thresholds: &[f64]) -> Result<(), SweepError> {
    if let Some((index, &value)) = thresholds.iter().enumerate().find(|(_, t)| !t.is_finite()) {
        return Err(SweepError::InvalidThreshold { index, value });
    }
    for (page, p) in pages.iter().enumerate() {
        if p.marginals.len() != p.gold.len() {
            return Err(SweepError::LengthMismatch {
                page,
                marginals: p.marginals.len(),
                gold: p.gold.len(),
            });
        }
        if let Some((block, values)) = p
            .marginals
            .iter()
            .enumerate()
            .find(|(_, m)| !m.iter().all(|x| x.is_finite()))
        {
            return Err(SweepError::InvalidMarginals {
                page,
                block,
                values: *values,
            });
        }
    }
    Ok(())
}

/// The sweep proper: pages outside, thresholds inside, so each page's labels at the previous
/// threshold are at hand to skip unchanged texts.
fn run<F>(
    pages: &[SweepPage<'_>],
    thresholds: &[f64],
    mut text: Option<(&[TokenBag], F)>,
) -> Result<Vec<SweepRow>, SweepError>
where
    F: FnMut(usize, &[Label], &mut String),
{
    validate(pages, thresholds)?;
    let mut counts = vec![BlockCounts::new(); thresholds.len()];
    let mut text_scores = text
        .as_ref()
        .map(|_| vec![TextScores::new(); thresholds.len()]);
    let mut tokenizer = Tokenizer::new();
    let mut bag = TokenBag::new();
    let mut buf = String::new();
    let (mut labels, mut prev_labels) = (Vec::new(), Vec::new());

    for (page_index, page) in pages.iter().enumerate() {
        let mut prev_score: Option<PageScore> = None;
        for (t_index, &threshold) in thresholds.iter().enumerate() {
            decide_page(page.marginals, threshold, &mut labels);
            if let Some(c) = counts.get_mut(t_index) {
                c.add_page(page.gold, &labels)
                    .map_err(|e| SweepError::LengthMismatch {
                        page: page_index,
                        marginals: e.predicted,
                        gold: e.gold,
                    })?;
            }
            let (Some((gold_texts, extract)), Some(scores)) = (text.as_mut(), text_scores.as_mut())
            else {
                continue;
            };
            let score = match prev_score {
                Some(score) if prev_labels == labels => score,
                _ => {
                    buf.clear();
                    extract(page_index, &labels, &mut buf);
                    tokenizer.fill_bag(&buf, &mut bag);
                    let gold = gold_texts
                        .get(page_index)
                        .ok_or(SweepError::GoldTextCount {
                            pages: pages.len(),
                            gold_texts: gold_texts.len(),
                        })?;
                    PageScore::new(&bag, gold)
                }
            };
            if let Some(s) = scores.get_mut(t_index) {
                s.push(score);
            }
            prev_score = Some(score);
            std::mem::swap(&mut labels, &mut prev_labels);
        }
    }

    let mut text_scores = text_scores.map(Vec::into_iter);
    Ok(thresholds
        .iter()
        .zip(counts)
        .map(|(&threshold, counts)| {
            let text_pages = text_scores.as_mut().and_then(Iterator::next);
            SweepRow {
                threshold,
                content_blocks: counts.labelled_content(),
                block: counts.metrics(),
                text: text_pages.as_ref().and_then(TextScores::summary),
                counts,
                text_pages,
            }
        })
        .collect())
}

//! The precision/recall sweep over thresholds on P(other) (the Victor paper, Figure 2).
//!
//! The CRF gives each block marginal probabilities of header, text and other. At threshold T a
//! block is labelled `other` when P(other) ≥ T, else the likelier of header and text
//! ([`victor_core::decide`]). Lowering T therefore only turns content blocks into `other`: precision rises
//! and recall falls.
//!
//! [`sweep`] scores a list of thresholds at the block level; [`sweep_with_text`] also scores
//! the text each threshold would extract, against the gold text, with the scorer's tokens.
//! The marginals come from the caller, computed once; per threshold the sweep only re-decides
//! labels. How labelled blocks become text belongs to the caller: a closure receives the page
//! index and the labels and writes the text into a buffer. A page's text is rebuilt and
//! re-tokenized only when its labels differ from those at the previous threshold.

use serde::Serialize;
use victor_core::{Label, Probs, decide_page};

use crate::block_score::{BlockCounts, BlockMetrics, LengthMismatch};
use crate::text_score::{PageScore, TextScores, TextSummary};
use crate::tokens::{Bags, TokenBag, Tokenizer};

/// The most thresholds a grid may hold.
pub const MAX_GRID: usize = 100_000;

/// A threshold grid that cannot be made.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum GridError {
    /// Ends outside [0, 1], or the lower above the upper.
    #[error("need 0 <= lowest <= highest <= 1, got {from} and {to}")]
    Ends {
        /// The lowest threshold asked for.
        from: f64,
        /// The highest threshold asked for.
        to: f64,
    },
    /// A step that is not a positive finite number.
    #[error("the step must be positive, got {0}")]
    Step(f64),
    /// More than [`MAX_GRID`] thresholds.
    #[error("the step {0} gives more than 100000 thresholds")]
    TooMany(f64),
}

/// The thresholds `from, from + step, ...` up to `to`, which is always included: the one
/// threshold grid of victor (`victor sweep`'s, and the grid `victor train` chooses a bundle's
/// threshold from). Each value is `from + i * step` rounded to 9 decimals, so that 0.05 * 17
/// is 0.85 and a recorded threshold reads as it was meant.
///
/// # Errors
///
/// [`GridError`] for ends outside [0, 1] or in the wrong order, a step that is not positive,
/// or more than [`MAX_GRID`] thresholds.
pub fn threshold_grid(from: f64, to: f64, step: f64) -> Result<Vec<f64>, GridError> {
    let unit = 0.0..=1.0;
    if !unit.contains(&from) || !unit.contains(&to) || from > to {
        return Err(GridError::Ends { from, to });
    }
    if !(step > 0.0 && step.is_finite()) {
        return Err(GridError::Step(step));
    }
    let round = |x: f64| (x * 1e9).round() / 1e9;
    let n = ((to - from) / step + 1e-9).floor();
    if n >= MAX_GRID as f64 {
        return Err(GridError::TooMany(step));
    }
    let mut v: Vec<f64> = (0..=n as usize)
        .map(|i| round(from + i as f64 * step))
        .collect();
    if v.last().is_none_or(|&last| last < round(to)) {
        v.push(round(to));
    }
    Ok(v)
}

/// One page's input to a sweep.
#[derive(Debug, Clone, Copy)]
pub struct SweepPage<'a> {
    /// Marginal probabilities of each block, in page order.
    pub marginals: &'a [Probs],
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
        values: Probs,
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

/// Buffers for [`score_page`], reused from page to page.
#[derive(Debug, Default)]
pub struct PageScratch {
    tokenizer: Tokenizer,
    bag: TokenBag,
    buf: String,
    labels: Vec<Label>,
    prev_labels: Vec<Label>,
}

impl PageScratch {
    /// The scorer's tokenizer, for a caller that tokenizes the gold text or other decodings'
    /// texts with the same buffers.
    pub fn tokenizer(&mut self) -> &mut Tokenizer {
        &mut self.tokenizer
    }
}

/// One page's text, to be scored at each threshold.
#[derive(Debug, Clone, Copy)]
pub struct PageText<'a, F> {
    /// The tokens of the page's gold text.
    pub gold: &'a TokenBag,
    /// `extract(labels, out)` appends to `out` (empty on entry) the text the page yields with
    /// `labels`, one label per block.
    pub extract: F,
}

/// Scores one page at every threshold of a grid: decides its labels from `probs`, adds the
/// block counts against `gold` to `counts[k]` and, with `text`, the page's text-level score to
/// `texts[k]` for threshold `k`. The text is rebuilt and re-tokenized only when the labels
/// differ from those at the previous threshold.
///
/// `counts` (and `texts`) hold one entry per threshold. On a length mismatch between `probs`
/// and `gold` nothing is added.
pub fn score_page<F>(
    probs: &[Probs],
    gold: &[Label],
    thresholds: &[f64],
    text: Option<(PageText<'_, F>, &mut [TextScores])>,
    counts: &mut [BlockCounts],
    s: &mut PageScratch,
) -> Result<(), LengthMismatch>
where
    F: FnMut(&[Label], &mut String),
{
    if probs.len() != gold.len() {
        return Err(LengthMismatch {
            gold: gold.len(),
            predicted: probs.len(),
        });
    }
    let mut text = text;
    let mut prev_score: Option<PageScore> = None;
    s.prev_labels.clear();
    for (k, &threshold) in thresholds.iter().enumerate() {
        decide_page(probs, threshold, &mut s.labels);
        if let Some(c) = counts.get_mut(k) {
            c.add_page(gold, &s.labels)?;
        }
        let Some((page, texts)) = text.as_mut() else {
            continue;
        };
        let score = match prev_score {
            Some(score) if s.prev_labels == s.labels => score,
            _ => {
                s.buf.clear();
                (page.extract)(&s.labels, &mut s.buf);
                s.tokenizer.fill_bag(&s.buf, &mut s.bag);
                PageScore::new(&s.bag, page.gold)
            }
        };
        if let Some(t) = texts.get_mut(k) {
            t.push(score);
        }
        prev_score = Some(score);
        std::mem::swap(&mut s.labels, &mut s.prev_labels);
    }
    Ok(())
}

/// The sweep proper: pages outside, thresholds inside ([`score_page`]).
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
    let mut s = PageScratch::default();

    for (page_index, page) in pages.iter().enumerate() {
        let page_text = match (text.as_mut(), text_scores.as_mut()) {
            (Some((gold_texts, extract)), Some(scores)) => {
                let gold = gold_texts
                    .get(page_index)
                    .ok_or(SweepError::GoldTextCount {
                        pages: pages.len(),
                        gold_texts: gold_texts.len(),
                    })?;
                let extract = |labels: &[Label], out: &mut String| extract(page_index, labels, out);
                Some((PageText { gold, extract }, scores.as_mut_slice()))
            }
            _ => None,
        };
        score_page(
            page.marginals,
            page.gold,
            thresholds,
            page_text,
            &mut counts,
            &mut s,
        )
        .map_err(|e| SweepError::LengthMismatch {
            page: page_index,
            marginals: e.predicted,
            gold: e.gold,
        })?;
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

//! Block-level metrics of the Victor paper (section 5.2), from (gold, predicted) label pairs.
//!
//! [`BlockCounts`] is a 3×3 confusion matrix (rows: gold label, columns: predicted label, both
//! in [`Label::ALL`] order). It is an accumulator: add pages, merge folds or data sets, then
//! read the figures:
//! - *accuracy* (3-way): share of blocks whose label is exactly right;
//! - *unlabelled accuracy* (2-way): share of blocks right on content (header or text) vs other;
//! - *precision* = correct content blocks / blocks labelled content;
//! - *recall* = correct content blocks / blocks annotated content;
//! - *F1*, their harmonic mean.
//!
//! A block is a correct content block when gold and prediction are both content: text
//! labelled header, and header labelled text, count as correct, as in the paper.
//!
//! Zero denominators: a ratio over no blocks is 1, since nothing was got wrong. So precision
//! is 1 when no block was labelled content (at any threshold high enough the curve ends at
//! P = 1, R = 0), recall is 1 when no block is annotated content, accuracy is 1 on no blocks,
//! and F1 is 0 when precision and recall are both 0.

use std::ops::AddAssign;

use serde::Serialize;
use victor_core::Label;

/// Gold and predicted label sequences of different lengths.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("{gold} gold labels but {predicted} predicted labels")]
pub struct LengthMismatch {
    /// Number of gold labels.
    pub gold: usize,
    /// Number of predicted labels.
    pub predicted: usize,
}

/// Confusion matrix of block labels: `counts[gold][predicted]`, indexed by [`Label::index`].
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct BlockCounts {
    /// Number of blocks per (gold, predicted) label pair.
    counts: [[u64; 3]; 3],
}

/// The block-level figures of a [`BlockCounts`].
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct BlockMetrics {
    /// Number of blocks.
    pub blocks: u64,
    /// Text/header/other accuracy.
    pub accuracy: f64,
    /// Text+header/other (unlabelled) accuracy.
    pub unlabelled_accuracy: f64,
    /// Correct content blocks / blocks labelled content.
    pub precision: f64,
    /// Correct content blocks / blocks annotated content.
    pub recall: f64,
    /// Harmonic mean of precision and recall.
    pub f1: f64,
}

/// `num / den`, or 1 when there is nothing to count.
fn ratio(num: u64, den: u64) -> f64 {
    if den == 0 {
        1.0
    } else {
        num as f64 / den as f64
    }
}

impl BlockCounts {
    /// An empty matrix.
    pub fn new() -> Self {
        Self::default()
    }

    /// Counts one block.
    pub fn add(&mut self, gold: Label, predicted: Label) {
        self.add_n(gold, predicted, 1);
    }

    /// Counts `n` blocks with the same labels.
    pub fn add_n(&mut self, gold: Label, predicted: Label, n: u64) {
        if let Some(cell) = self
            .counts
            .get_mut(gold.index())
            .and_then(|row| row.get_mut(predicted.index()))
        {
            *cell += n;
        }
    }

    /// Counts the blocks of one page, pairing the sequences position by position.
    pub fn add_page(&mut self, gold: &[Label], predicted: &[Label]) -> Result<(), LengthMismatch> {
        if gold.len() != predicted.len() {
            return Err(LengthMismatch {
                gold: gold.len(),
                predicted: predicted.len(),
            });
        }
        for (&g, &p) in gold.iter().zip(predicted) {
            self.add(g, p);
        }
        Ok(())
    }

    /// Adds the counts of `other` (another page, fold or data set).
    pub fn merge(&mut self, other: &BlockCounts) {
        for (row, other_row) in self.counts.iter_mut().zip(&other.counts) {
            for (cell, n) in row.iter_mut().zip(other_row) {
                *cell += n;
            }
        }
    }

    /// Number of blocks with gold label `gold` that were labelled `predicted`.
    pub fn count(&self, gold: Label, predicted: Label) -> u64 {
        self.counts
            .get(gold.index())
            .and_then(|row| row.get(predicted.index()))
            .copied()
            .unwrap_or(0)
    }

    /// The matrix, `[gold][predicted]` in [`Label::ALL`] order.
    pub fn confusion(&self) -> [[u64; 3]; 3] {
        self.counts
    }

    /// Sum of the cells whose (gold, predicted) pair satisfies `keep`.
    fn sum_where(&self, keep: impl Fn(Label, Label) -> bool) -> u64 {
        let mut sum = 0;
        for g in Label::ALL {
            for p in Label::ALL {
                if keep(g, p) {
                    sum += self.count(g, p);
                }
            }
        }
        sum
    }

    /// Number of blocks.
    pub fn total(&self) -> u64 {
        self.sum_where(|_, _| true)
    }

    /// Blocks annotated header or text.
    pub fn annotated_content(&self) -> u64 {
        self.sum_where(|g, _| g.is_content())
    }

    /// Blocks labelled header or text.
    pub fn labelled_content(&self) -> u64 {
        self.sum_where(|_, p| p.is_content())
    }

    /// Blocks annotated and labelled content (header and text interchangeable).
    pub fn correct_content(&self) -> u64 {
        self.sum_where(|g, p| g.is_content() && p.is_content())
    }

    /// Text/header/other accuracy (1 on no blocks).
    pub fn accuracy(&self) -> f64 {
        ratio(self.sum_where(|g, p| g == p), self.total())
    }

    /// Text+header/other accuracy (1 on no blocks).
    pub fn unlabelled_accuracy(&self) -> f64 {
        ratio(
            self.sum_where(|g, p| g.is_content() == p.is_content()),
            self.total(),
        )
    }

    /// Correct content blocks / blocks labelled content (1 if none was labelled content).
    pub fn precision(&self) -> f64 {
        ratio(self.correct_content(), self.labelled_content())
    }

    /// Correct content blocks / blocks annotated content (1 if none is annotated content).
    pub fn recall(&self) -> f64 {
        ratio(self.correct_content(), self.annotated_content())
    }

    /// Harmonic mean of precision and recall (0 if both are 0).
    pub fn f1(&self) -> f64 {
        let (p, r) = (self.precision(), self.recall());
        if p + r > 0.0 {
            2.0 * p * r / (p + r)
        } else {
            0.0
        }
    }

    /// All figures at once.
    pub fn metrics(&self) -> BlockMetrics {
        BlockMetrics {
            blocks: self.total(),
            accuracy: self.accuracy(),
            unlabelled_accuracy: self.unlabelled_accuracy(),
            precision: self.precision(),
            recall: self.recall(),
            f1: self.f1(),
        }
    }
}

impl AddAssign<&BlockCounts> for BlockCounts {
    fn add_assign(&mut self, other: &BlockCounts) {
        self.merge(other);
    }
}

impl<'a> std::iter::Sum<&'a BlockCounts> for BlockCounts {
    fn sum<I: Iterator<Item = &'a BlockCounts>>(iter: I) -> BlockCounts {
        let mut total = BlockCounts::new();
        for counts in iter {
            total.merge(counts);
        }
        total
    }
}

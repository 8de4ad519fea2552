//! Text-level scores: extracted text against gold text, compared as token multisets.
//!
//! Per page ([`PageScore`]), with `overlap` the size of the multiset intersection:
//! precision = overlap / extracted tokens, recall = overlap / gold tokens, F1 their harmonic
//! mean. Two rules of the acceptance scorer settle the empty cases:
//! - empty gold: recall = 1, and precision = F1 = 1 if the output is empty too, else 0;
//! - empty output, non-empty gold: 0 / 0 / 0.
//!
//! Over pages ([`TextScores`]): the macro means of P, R and F1 (what `score.py` prints), the
//! median F1, and micro figures from the summed counts (the same rules applied to the sums).
//! Per-page scores stay available, in insertion order, to list the worst pages.
//!
//! The arithmetic follows `score.py` operation by operation, so macro figures agree with it
//! to the last bit, not just to four decimals.

mod gold;

pub use gold::{ReadError, gold_text, read_gold, read_text_lossy};

use serde::Serialize;

use crate::tokens::TokenBag;

/// Precision, recall and F1, each in `0..=1`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Prf {
    /// Share of the extracted tokens that are in the gold text.
    pub precision: f64,
    /// Share of the gold tokens that were extracted.
    pub recall: f64,
    /// Harmonic mean of precision and recall (0 when both are 0).
    pub f1: f64,
}

impl Prf {
    /// The scores for `overlap` common tokens out of `extracted` and `gold` tokens, with the
    /// scorer's rules for empty texts (see the module documentation).
    pub fn from_counts(overlap: u64, extracted: u64, gold: u64) -> Prf {
        if gold == 0 {
            let p = if extracted == 0 { 1.0 } else { 0.0 };
            return Prf {
                precision: p,
                recall: 1.0,
                f1: p,
            };
        }
        if extracted == 0 {
            return Prf {
                precision: 0.0,
                recall: 0.0,
                f1: 0.0,
            };
        }
        let p = overlap as f64 / extracted as f64;
        let r = overlap as f64 / gold as f64;
        let f1 = if p + r > 0.0 {
            2.0 * p * r / (p + r)
        } else {
            0.0
        };
        Prf {
            precision: p,
            recall: r,
            f1,
        }
    }
}

/// The token counts of one page; the scores derive from them.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct PageScore {
    /// Tokens common to the extracted and the gold text (multiset intersection size).
    pub overlap: u64,
    /// Tokens of the extracted text.
    pub extracted: u64,
    /// Tokens of the gold text.
    pub gold: u64,
}

impl PageScore {
    /// Compares two token bags.
    pub fn new(extracted: &TokenBag, gold: &TokenBag) -> PageScore {
        PageScore {
            overlap: extracted.overlap(gold),
            extracted: extracted.len(),
            gold: gold.len(),
        }
    }

    /// Precision, recall and F1 of the page.
    pub fn prf(&self) -> Prf {
        Prf::from_counts(self.overlap, self.extracted, self.gold)
    }
}

/// Aggregated text-level figures over a set of pages.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct TextSummary {
    /// Number of pages.
    pub pages: usize,
    /// Means of the per-page precision, recall and F1 (the scorer's figures).
    pub macro_avg: Prf,
    /// Scores of the summed token counts (long pages weigh more).
    pub micro: Prf,
    /// Median of the per-page F1 (mean of the two middle values for an even count).
    pub median_f1: f64,
}

/// Per-page text scores of a set of pages, in the order they were added.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct TextScores {
    /// One entry per page.
    pages: Vec<PageScore>,
}

impl TextScores {
    /// No pages yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds a page; its index is the number of pages added before it.
    pub fn push(&mut self, page: PageScore) {
        self.pages.push(page);
    }

    /// Appends the pages of `other` (to pool folds or data sets), after the pages of `self`.
    pub fn merge(&mut self, other: &TextScores) {
        self.pages.extend_from_slice(&other.pages);
    }

    /// The per-page scores, in insertion order.
    pub fn pages(&self) -> &[PageScore] {
        &self.pages
    }

    /// Number of pages.
    pub fn len(&self) -> usize {
        self.pages.len()
    }

    /// Whether no page was added.
    pub fn is_empty(&self) -> bool {
        self.pages.is_empty()
    }

    /// Mean per-page precision, recall and F1; `None` without pages.
    pub fn macro_avg(&self) -> Option<Prf> {
        if self.pages.is_empty() {
            return None;
        }
        let n = self.pages.len() as f64;
        let (mut p, mut r, mut f) = (0.0, 0.0, 0.0);
        for prf in self.pages.iter().map(PageScore::prf) {
            p += prf.precision;
            r += prf.recall;
            f += prf.f1;
        }
        Some(Prf {
            precision: p / n,
            recall: r / n,
            f1: f / n,
        })
    }

    /// Scores of the summed counts; `None` without pages.
    pub fn micro(&self) -> Option<Prf> {
        if self.pages.is_empty() {
            return None;
        }
        let sum = self
            .pages
            .iter()
            .fold(PageScore::default(), |acc, p| PageScore {
                overlap: acc.overlap + p.overlap,
                extracted: acc.extracted + p.extracted,
                gold: acc.gold + p.gold,
            });
        Some(sum.prf())
    }

    /// Median per-page F1; `None` without pages.
    pub fn median_f1(&self) -> Option<f64> {
        let mut f1: Vec<f64> = self.pages.iter().map(|p| p.prf().f1).collect();
        f1.sort_by(f64::total_cmp);
        let mid = f1.len() / 2;
        match f1.len() {
            0 => None,
            n if n % 2 == 1 => f1.get(mid).copied(),
            _ => Some((f1.get(mid - 1)? + f1.get(mid)?) / 2.0),
        }
    }

    /// All aggregates at once; `None` without pages.
    pub fn summary(&self) -> Option<TextSummary> {
        Some(TextSummary {
            pages: self.pages.len(),
            macro_avg: self.macro_avg()?,
            micro: self.micro()?,
            median_f1: self.median_f1()?,
        })
    }

    /// Indices of the `n` pages with the lowest F1, worst first (ties: lower index first).
    pub fn worst(&self, n: usize) -> Vec<usize> {
        let mut order: Vec<(f64, usize)> = self
            .pages
            .iter()
            .enumerate()
            .map(|(i, p)| (p.prf().f1, i))
            .collect();
        order.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        order.into_iter().take(n).map(|(_, i)| i).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tokens::{Bags, Tokenizer};

    #[test]
    fn a_page_score_counts_tokens() {
        let mut tok = Tokenizer::new();
        let gold = tok.bag("the cat sat on the mat");
        let page = PageScore::new(&tok.bag("The cat, the dog"), &gold);
        assert_eq!(
            page,
            PageScore {
                overlap: 3,
                extracted: 4,
                gold: 6
            }
        );
    }
}

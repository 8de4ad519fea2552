//! Scoring labelled pages against their gold labels at many thresholds at once.
//!
//! For each page, the marginals are computed once; then, for every threshold of a grid, the
//! labels are decided, the kept text is rendered and compared with the text of the gold-labelled
//! blocks (text-level P/R/F1 over word-token multisets), and block-level counts are collected.
//! Viterbi and expected-F1 decoding (a threshold per page) are scored beside the grid, the
//! latter once per calibration (a list such as [`calibration_grid`]) and minimum
//! output size ([`MIN_WORDS_GRID`]).
//! Cross-validation uses it to report the Victor paper's figures and to choose the recommended
//! other-threshold and decoding.

use victor_annotations::Label;
use victor_eval::LengthMismatch;
use victor_eval::{Bags, BlockCounts, PageScore, TextScores, TokenBag};
use victor_eval::{PageScratch, PageText, score_page};
use victor_features::Page;
use victor_label::Probs;
use victor_label::render_text;
use victor_label::{
    Calibration, ExpectedOptions, ExpectedScratch, MIN_WORDS_GRID, decide_expected,
};

/// How much better (macro text-level F1) other settings of expected-F1 decoding must score than
/// the raw marginals without a minimum to be chosen: a guard against picking noise out of the
/// grids.
pub(crate) const CALIBRATION_MARGIN: f64 = 0.001;

/// The default threshold grid: 0.05, 0.10, ..., 0.95 (victor's one grid,
/// [`victor_eval::threshold_grid`]: the nearest doubles, 0.85 and not 0.8500000000000001, so
/// that recorded thresholds read as they were meant).
pub(crate) fn default_grid() -> Vec<f64> {
    victor_eval::threshold_grid(0.05, 0.95, 0.05).expect("constant ends and step make a grid")
}

/// Scores accumulated over pages, per threshold and for Viterbi decoding.
#[derive(Clone, Debug)]
pub struct Assessment {
    /// The thresholds.
    pub thresholds: Vec<f64>,
    /// Text-level scores per threshold.
    pub text: Vec<TextScores>,
    /// Block-level counts per threshold.
    pub blocks: Vec<BlockCounts>,
    /// Text-level scores of Viterbi decoding.
    pub viterbi_text: TextScores,
    /// Block-level counts of Viterbi decoding.
    pub viterbi_blocks: BlockCounts,
    /// Text-level scores of expected-F1 decoding (raw marginals).
    pub expected_text: TextScores,
    /// Block-level counts of expected-F1 decoding (raw marginals).
    pub expected_blocks: BlockCounts,
    /// The calibrations expected-F1 decoding is also scored with.
    pub calibrations: Vec<Calibration>,
    /// Text-level scores of expected-F1 decoding per calibration and minimum output size
    /// ([`MIN_WORDS_GRID`]), the minimum varying fastest.
    pub calibrated_text: Vec<TextScores>,
}

/// Reusable buffers for [`Assessment::add_page`].
#[derive(Debug, Default)]
pub(crate) struct Scratch {
    grid: PageScratch,
    text: String,
    gold: TokenBag,
    got: TokenBag,
    labels: Vec<Label>,
    expected: ExpectedScratch,
}

impl Assessment {
    /// An empty assessment over a threshold grid.
    pub(crate) fn new(thresholds: Vec<f64>) -> Assessment {
        let n = thresholds.len();
        Assessment {
            thresholds,
            text: vec![TextScores::new(); n],
            blocks: vec![BlockCounts::new(); n],
            viterbi_text: TextScores::new(),
            viterbi_blocks: BlockCounts::new(),
            expected_text: TextScores::new(),
            expected_blocks: BlockCounts::new(),
            calibrations: Vec::new(),
            calibrated_text: Vec::new(),
        }
    }

    /// The same, with expected-F1 decoding also scored under each of `calibrations`.
    pub(crate) fn with_calibrations(
        thresholds: Vec<f64>,
        calibrations: Vec<Calibration>,
    ) -> Assessment {
        let mut a = Assessment::new(thresholds);
        a.calibrated_text = vec![TextScores::new(); calibrations.len() * MIN_WORDS_GRID.len()];
        a.calibrations = calibrations;
        a
    }

    /// Adds a page: its blocks, gold labels, marginals and Viterbi labels. A page whose gold,
    /// marginals or Viterbi labels do not have one entry per block is refused whole (no count
    /// changes), so that every score counts the same pages.
    pub(crate) fn add_page(
        &mut self,
        page: &Page,
        gold: &[Label],
        probs: &[Probs],
        viterbi: &[Label],
        s: &mut Scratch,
    ) -> Result<(), LengthMismatch> {
        let n = page.blocks.len();
        for len in [gold.len(), probs.len(), viterbi.len()] {
            if len != n {
                return Err(LengthMismatch {
                    gold: n,
                    predicted: len,
                });
            }
        }
        s.text.clear();
        render_text(page, gold, false, &mut s.text);
        s.grid.tokenizer().fill_bag(&s.text, &mut s.gold);
        let page_text = PageText {
            gold: &s.gold,
            extract: |labels: &[Label], out: &mut String| render_text(page, labels, false, out),
        };
        score_page(
            probs,
            gold,
            &self.thresholds,
            Some((page_text, self.text.as_mut_slice())),
            &mut self.blocks,
            &mut s.grid,
        )?;
        s.text.clear();
        render_text(page, viterbi, false, &mut s.text);
        s.grid.tokenizer().fill_bag(&s.text, &mut s.got);
        self.viterbi_text.push(PageScore::new(&s.got, &s.gold));
        self.viterbi_blocks.add_page(gold, viterbi)?;

        let raw = Self::expected_page(page, probs, Calibration::IDENTITY, s);
        self.expected_text.push(raw.0);
        self.expected_blocks.add_page(gold, &s.labels)?;
        let m = MIN_WORDS_GRID.len();
        for k in 0..self.calibrations.len() {
            let cal = self.calibrations[k];
            let (score, kept) = if cal.is_identity() {
                raw
            } else {
                Self::expected_page(page, probs, cal, s)
            };
            // Under a minimum, the page keeps nothing: its score is that of an empty output.
            let empty = PageScore {
                overlap: 0,
                extracted: 0,
                gold: score.gold,
            };
            for (j, &min) in MIN_WORDS_GRID.iter().enumerate() {
                let got = if kept < min { empty } else { score };
                self.calibrated_text[k * m + j].push(got);
            }
        }
        Ok(())
    }

    /// The text-level score of expected-F1 decoding under `cal` without a minimum, and the words
    /// kept (its labels left in `s.labels`).
    fn expected_page(
        page: &Page,
        probs: &[Probs],
        cal: Calibration,
        s: &mut Scratch,
    ) -> (PageScore, u32) {
        s.labels.clear();
        let opts = ExpectedOptions {
            calibration: cal,
            min_words: 0,
        };
        let kept = decide_expected(page, probs, opts, &mut s.expected, &mut s.labels);
        s.text.clear();
        render_text(page, &s.labels, false, &mut s.text);
        s.grid.tokenizer().fill_bag(&s.text, &mut s.got);
        (PageScore::new(&s.got, &s.gold), kept)
    }

    /// Merges another assessment over the same grid.
    pub(crate) fn merge(&mut self, other: &Assessment) {
        for (a, b) in self.text.iter_mut().zip(&other.text) {
            a.merge(b);
        }
        for (a, b) in self.blocks.iter_mut().zip(&other.blocks) {
            a.merge(b);
        }
        self.viterbi_text.merge(&other.viterbi_text);
        self.viterbi_blocks.merge(&other.viterbi_blocks);
        self.expected_text.merge(&other.expected_text);
        self.expected_blocks.merge(&other.expected_blocks);
        for (a, b) in self.calibrated_text.iter_mut().zip(&other.calibrated_text) {
            a.merge(b);
        }
    }

    /// The text-level scores of expected-F1 decoding under `opts`, if its calibration and
    /// minimum are among those scored.
    pub fn expected_scores(&self, opts: ExpectedOptions) -> Option<&TextScores> {
        let c = self
            .calibrations
            .iter()
            .position(|c| *c == opts.calibration)?;
        let m = MIN_WORDS_GRID.iter().position(|m| *m == opts.min_words)?;
        self.calibrated_text.get(c * MIN_WORDS_GRID.len() + m)
    }

    /// The settings of expected-F1 decoding (calibration, minimum output size) with the best
    /// macro text-level F1, with that F1. The raw marginals without a minimum win unless other
    /// settings beat them by more than `CALIBRATION_MARGIN`; among the others, ties go to the
    /// earlier ones of the grids.
    pub fn best_expected(&self) -> Option<(ExpectedOptions, f64)> {
        let raw = self.expected_text.macro_avg()?.f1;
        let mut best = (ExpectedOptions::default(), raw);
        let m = MIN_WORDS_GRID.len();
        for (i, s) in self.calibrated_text.iter().enumerate() {
            let Some(f) = s.macro_avg().map(|p| p.f1) else {
                continue;
            };
            if f > raw + CALIBRATION_MARGIN && f > best.1 + 1e-12 {
                let opts = ExpectedOptions {
                    calibration: self.calibrations[i / m],
                    min_words: MIN_WORDS_GRID[i % m],
                };
                best = (opts, f);
            }
        }
        Some(best)
    }

    /// The threshold with the best macro text-level F1 (ties: the one nearest 0.5), with that F1.
    pub fn best_threshold(&self) -> Option<(f64, f64)> {
        let mut best: Option<(f64, f64)> = None;
        for (t, s) in self.thresholds.iter().zip(&self.text) {
            let f = s.macro_avg()?.f1;
            let better = match best {
                None => true,
                Some((bt, bf)) => {
                    f > bf + 1e-12
                        || ((f - bf).abs() <= 1e-12 && (t - 0.5).abs() < (bt - 0.5).abs())
                }
            };
            if better {
                best = Some((*t, f));
            }
        }
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use victor_label::calibration_grid;

    /// A page of one paragraph (one block) per text, segmented as victor segments pages.
    fn page(texts: &[&str]) -> Page {
        let html: String = texts.iter().map(|t| format!("<p>{t}</p>")).collect();
        let p = victor_features::segment(&html).expect("segments");
        assert_eq!(p.blocks.len(), texts.len());
        p
    }

    #[test]
    fn a_page_with_a_label_missing_is_refused_and_counts_nowhere() {
        let mut a = Assessment::with_calibrations(vec![0.5], vec![Calibration::IDENTITY]);
        let mut s = Scratch::default();
        let p = page(&["first block of text", "second block"]);
        let probs = [[0.0, 0.9, 0.1], [0.0, 0.1, 0.9]];
        let short = [Label::Text];
        assert!(a.add_page(&p, &short, &probs, &short, &mut s).is_err());
        assert_eq!(a.expected_text.macro_avg(), None);
        assert_eq!(a.viterbi_text.macro_avg(), None);
        let gold = [Label::Text, Label::Other];
        a.add_page(&p, &gold, &probs, &gold, &mut s)
            .expect("one label a block");
        assert_eq!(a.viterbi_text.macro_avg().map(|p| p.f1), Some(1.0));
    }

    #[test]
    fn a_minimum_output_size_is_chosen_when_empty_gold_pages_pay_for_it() {
        let mut a = Assessment::with_calibrations(vec![0.5], vec![Calibration::IDENTITY]);
        let mut s = Scratch::default();
        // An error page: gold keeps nothing, the model keeps its three words.
        let p = page(&["page not found"]);
        let probs = [[0.0, 0.8, 0.2]];
        a.add_page(&p, &[Label::Other], &probs, &[Label::Text], &mut s)
            .expect("one label a block");
        // An article of twelve words, kept.
        let p = page(&["one two three four five six seven eight nine ten eleven twelve"]);
        a.add_page(&p, &[Label::Text], &probs, &[Label::Text], &mut s)
            .expect("one label a block");

        assert_eq!(a.expected_text.macro_avg().map(|p| p.f1), Some(0.5));
        let (opts, f1) = a.best_expected().expect("scored");
        // 5 and 10 words both empty the error page and keep the article; 5 comes first.
        assert_eq!(opts.min_words, 5);
        assert!(opts.calibration.is_identity());
        assert_eq!(f1, 1.0);
        // The per-setting scores: no minimum 0.5; 20 words empties the article too.
        let m = MIN_WORDS_GRID.len();
        let f = |j: usize| a.calibrated_text[j].macro_avg().map(|p| p.f1);
        assert_eq!((f(0), f(1), f(3)), (Some(0.5), Some(1.0), Some(0.5)));
        assert_eq!(a.calibrated_text.len(), m);
        let at = |min_words| {
            a.expected_scores(ExpectedOptions {
                calibration: Calibration::IDENTITY,
                min_words,
            })
            .and_then(|t| t.macro_avg())
            .map(|p| p.f1)
        };
        assert_eq!((at(0), at(5), at(20)), (f(0), f(1), f(3)));
        assert_eq!(at(7), None, "not on the grid");
    }

    #[test]
    fn raw_marginals_stay_unless_a_setting_beats_them_by_the_margin() {
        let grid = calibration_grid();
        let mut a = Assessment::with_calibrations(vec![0.5], grid);
        let mut s = Scratch::default();
        // Sure content and sure boilerplate: every setting decodes the same.
        let p = page(&["a long sentence of real text here", "home | news | contact"]);
        let probs = [[0.0, 0.99, 0.01], [0.0, 0.01, 0.99]];
        let gold = [Label::Text, Label::Other];
        a.add_page(&p, &gold, &probs, &gold, &mut s)
            .expect("one label a block");
        let mut b = a.clone();
        b.merge(&a);
        let (opts, f1) = b.best_expected().expect("scored");
        assert_eq!(opts, ExpectedOptions::default());
        assert_eq!(f1, 1.0);
        assert_eq!(b.calibrated_text[0].len(), 2, "merged pages");
    }
}

//! Scoring labelled pages against their gold labels at many thresholds at once.
//!
//! For each page, the marginals are computed once; then, for every threshold of a grid, the
//! labels are decided, the kept text is rendered and compared with the text of the gold-labelled
//! blocks (text-level P/R/F1 over word-token multisets), and block-level counts are collected.
//! Viterbi and expected-F1 decoding (a threshold per page) are scored beside the grid.
//! Cross-validation uses it to report the Victor paper's figures and to choose the recommended
//! other-threshold and decoding.

use victor_annotations::Label;
use victor_eval::{BlockCounts, PageScore, TextScores, TokenBag, Tokenizer};
use victor_features::Page;
use victor_label::expected;
use victor_label::render::render_text;
use victor_label::{Probs, decide};

/// The default threshold grid: 0.05, 0.10, ..., 0.95.
pub fn default_grid() -> Vec<f64> {
    // i / 20 rather than i * 0.05: the nearest doubles to 0.05, 0.10, ... (0.85, not
    // 0.8500000000000001), so that recorded thresholds read as they were meant.
    (1..20).map(|i| f64::from(i) / 20.0).collect()
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
    /// Text-level scores of expected-F1 decoding.
    pub expected_text: TextScores,
    /// Block-level counts of expected-F1 decoding.
    pub expected_blocks: BlockCounts,
}

/// Reusable buffers for [`Assessment::add_page`].
#[derive(Debug, Default)]
pub struct Scratch {
    tokenizer: Tokenizer,
    text: String,
    gold: TokenBag,
    got: TokenBag,
    labels: Vec<Label>,
    expected: expected::Scratch,
}

impl Assessment {
    /// An empty assessment over a threshold grid.
    pub fn new(thresholds: Vec<f64>) -> Assessment {
        let n = thresholds.len();
        Assessment {
            thresholds,
            text: vec![TextScores::new(); n],
            blocks: vec![BlockCounts::new(); n],
            viterbi_text: TextScores::new(),
            viterbi_blocks: BlockCounts::new(),
            expected_text: TextScores::new(),
            expected_blocks: BlockCounts::new(),
        }
    }

    /// Adds a page: its blocks, gold labels, marginals and Viterbi labels.
    pub fn add_page(
        &mut self,
        page: &Page,
        gold: &[Label],
        probs: &[Probs],
        viterbi: &[Label],
        s: &mut Scratch,
    ) {
        s.text.clear();
        render_text(page, gold, false, &mut s.text);
        s.tokenizer.fill_bag(&s.text, &mut s.gold);
        let mut prev_content: Option<usize> = None;
        let mut prev_score = PageScore::default();
        for (k, &t) in self.thresholds.iter().enumerate() {
            s.labels.clear();
            s.labels.extend(probs.iter().map(|p| decide(p, t)));
            let content = s.labels.iter().filter(|l| l.is_content()).count();
            // The same labels give the same text: reuse the score when nothing changed.
            let score = if prev_content == Some(content)
                && k > 0
                && same_as_previous(probs, self.thresholds[k - 1], t)
            {
                prev_score
            } else {
                s.text.clear();
                render_text(page, &s.labels, false, &mut s.text);
                s.tokenizer.fill_bag(&s.text, &mut s.got);
                PageScore::new(&s.got, &s.gold)
            };
            prev_content = Some(content);
            prev_score = score;
            self.text[k].push(score);
            let _ = self.blocks[k].add_page(gold, &s.labels);
        }
        s.text.clear();
        render_text(page, viterbi, false, &mut s.text);
        s.tokenizer.fill_bag(&s.text, &mut s.got);
        self.viterbi_text.push(PageScore::new(&s.got, &s.gold));
        let _ = self.viterbi_blocks.add_page(gold, viterbi);

        s.labels.clear();
        expected::decide_page(page, probs, &mut s.expected, &mut s.labels);
        s.text.clear();
        render_text(page, &s.labels, false, &mut s.text);
        s.tokenizer.fill_bag(&s.text, &mut s.got);
        self.expected_text.push(PageScore::new(&s.got, &s.gold));
        let _ = self.expected_blocks.add_page(gold, &s.labels);
    }

    /// Merges another assessment over the same grid.
    pub fn merge(&mut self, other: &Assessment) {
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

/// Whether no block's decision changes between thresholds `a` and `b`.
fn same_as_previous(probs: &[Probs], a: f64, b: f64) -> bool {
    let (lo, hi) = if a < b { (a, b) } else { (b, a) };
    !probs.iter().any(|p| p[2] >= lo && p[2] < hi)
}

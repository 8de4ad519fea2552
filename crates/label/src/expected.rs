//! Expected-F1 decoding: each page gets the other-threshold that maximises its expected
//! text-level F1 under the marginals.
//!
//! Text-level F1 compares the words of the kept blocks with the words of the gold text. Treat
//! each block as content with probability c = 1 - P(other), independently, and let w be its
//! number of words. Keeping a set S of blocks then has, to first order, the expected F1
//!
//! ```text
//! E[F1](S) ≈ 2 Σ_{i∈S} c_i w_i / (Σ_{i∈S} w_i + Σ_all c_j w_j)
//! ```
//!
//! (expected overlap over the expected sizes of output and gold). For a fixed size of S the
//! numerator is largest when S holds the blocks most likely to be content, so the best S is a
//! prefix of the blocks sorted by P(other): one pass over that order finds it, O(n log n) per
//! page. The prefix ends at some P(other) = q, which makes the decoding a threshold chosen per
//! page: a block is `other` where P(other) > q.
//!
//! What it buys over one fixed threshold for every page: a page whose article the model is
//! unsure of (every block at P(other) 0.8, say) still gives its likeliest blocks instead of
//! nothing, and on a page with a clear article the doubtful blocks around it are dropped when
//! their words would cost more precision than they bring recall. There is no threshold to tune
//! (its two settings, below, are chosen per bundle).
//! It is no longer monotone in one global threshold, so the precision/recall sweep stays a sweep
//! over fixed thresholds.
//!
//! # Calibration
//!
//! The formula takes the marginals at their word, and a CRF's marginals are rarely calibrated:
//! on CleanEval pages they are too sure (too many blocks near 0 and 1), on news articles they
//! lean the other way. A [`Calibration`] maps P(other) through `logit' = scale * logit + shift`
//! before the expected F1 is computed. The map is monotone, so it changes where a page's prefix
//! ends, never the order of the blocks; the threshold returned is still one on the raw
//! P(other).
//!
//! # Errors that go together
//!
//! The formula also treats the blocks as independent, but a model's errors are not: on a page
//! of a kind it has rarely seen, it is wrong about many blocks at once, all of them in the same
//! direction. With a `spread` s > 0, the calibrated log-odds of every block of a page move by
//! one shift d ~ N(0, s^2) together. The expected F1 of each prefix is then the average of the
//! formula over d, computed by Gauss-Hermite quadrature ([`SPREAD_NODES`] points). What the
//! spread gained when it was added is in CHANGELOG.md.
//!
//! # Pages with next to nothing to keep
//!
//! Some pages have no running text at all (error pages, link hubs, splash pages); whatever the
//! decoding keeps there is noise, and a corpus is better off without it. With
//! [`ExpectedOptions::min_words`] a page whose kept blocks hold fewer words gives nothing.
//!
//! `victor train` chooses both in its threshold cross-validation, among [`calibration_grid`] and
//! [`MIN_WORDS_GRID`], and records them in the bundle; a bundle without them gets the identity
//! and no minimum.

use victor_core::{Calibration, ExpectedOptions, Label};
use victor_features::Page;

use victor_core::words::Tokenizer;
use victor_core::{Probs, decide};

/// The number of words of a block's text for the expected-F1 decoding: its tokens under the
/// text-level measure that the decoding maximises ([`victor_core::words`]), with `tok`'s buffer.
pub(crate) fn word_count(tok: &mut Tokenizer, text: &str) -> u32 {
    u32::try_from(tok.count(text)).unwrap_or(u32::MAX)
}

/// The words of each of a page's blocks ([`word_count`]), in block order, into `out`.
fn count_block_words(page: &Page, tok: &mut Tokenizer, out: &mut Vec<u32>) {
    out.clear();
    out.extend(
        page.blocks
            .iter()
            .map(|b| word_count(tok, page.block_text(b))),
    );
}

/// The words of each of a page's blocks under the text-level measure, in block order: the
/// weights of the expected-F1 decoding and of [`crate::confidence()`]. A labeler that decoded
/// the page has them already ([`crate::LabeledPage::words`]).
pub fn block_words(page: &Page) -> Vec<u32> {
    let mut out = Vec::with_capacity(page.blocks.len());
    count_block_words(page, &mut Tokenizer::new(), &mut out);
    out
}

impl ExpectedScratch {
    /// The words of each block of `page`: those [`page_threshold`] counted when it last saw
    /// this page (`fresh`), or counted now.
    pub(crate) fn words_of(&mut self, page: &Page, fresh: bool) -> Vec<u32> {
        if !fresh || self.block_words.len() != page.blocks.len() {
            count_block_words(page, &mut self.words, &mut self.block_words);
        }
        self.block_words.clone()
    }
}

/// Number of Gauss-Hermite points over which the page-wide shift is averaged (a 17-point rule
/// for a standard normal: 0, eight positive points and their mirror images).
pub(crate) const SPREAD_NODES: usize = 17;

/// The non-negative points of a 17-point Gauss-Hermite rule for a standard normal.
const SPREAD_X: [f64; 9] = [
    0.0,
    0.7518426007038962,
    1.5098833077967408,
    2.281019440252989,
    3.0737971753281936,
    3.90006571719801,
    4.778531589629984,
    5.744460078659406,
    6.889122439895333,
];

/// Their weights (summing to 1 over all 17 points).
const SPREAD_W: [f64; 9] = [
    0.29953837012660545,
    0.2267063084689769,
    0.0974063711627211,
    0.023086657025710968,
    0.002858946062284619,
    0.0001684914315513384,
    4.012679447979844e-06,
    2.8080161179305654e-08,
    2.5843149193748912e-11,
];

/// The calibrations `victor train` tries in its threshold cross-validation: scales 0.4 to 1.5
/// times shifts -1 to 1 with independent blocks, the identity among them; then scales 0.4 to 1
/// times shifts 0 to 1 times spreads 1 to 4.
pub fn calibration_grid() -> Vec<Calibration> {
    const SCALES: [f64; 7] = [0.4, 0.5, 0.6, 0.8, 1.0, 1.25, 1.5];
    const SHIFTS: [f64; 5] = [-1.0, -0.5, 0.0, 0.5, 1.0];
    const SPREAD_SCALES: [f64; 4] = [0.4, 0.6, 0.8, 1.0];
    const SPREAD_SHIFTS: [f64; 3] = [0.0, 0.5, 1.0];
    const SPREADS: [f64; 4] = [1.0, 2.0, 3.0, 4.0];
    let mut grid: Vec<Calibration> = SCALES
        .iter()
        .flat_map(|&scale| {
            SHIFTS.iter().map(move |&shift| Calibration {
                scale,
                shift,
                spread: 0.0,
            })
        })
        .collect();
    for &scale in &SPREAD_SCALES {
        for &shift in &SPREAD_SHIFTS {
            for &spread in &SPREADS {
                grid.push(Calibration {
                    scale,
                    shift,
                    spread,
                });
            }
        }
    }
    grid
}

/// The minimum output sizes (words) `victor train` tries in its threshold cross-validation.
pub const MIN_WORDS_GRID: [u32; 5] = [0, 5, 10, 20, 40];

/// Reusable buffer for [`page_threshold`].
#[derive(Debug, Default)]
pub struct ExpectedScratch {
    /// (P(other), words, recalibrated P(content)) of the blocks with words.
    blocks: Vec<(f64, u32, f64)>,
    /// The word counter's buffer.
    words: Tokenizer,
    /// The words of each block of the page [`page_threshold`] last saw, in block order.
    block_words: Vec<u32>,
    /// Per block of `blocks`, its words times P(content) under each shift of the spread.
    spread: Vec<[f64; SPREAD_NODES]>,
}

/// The other-threshold of a page under expected-F1 decoding: a block is `other` where
/// P(other) >= the returned value (so [`victor_core::decide`] applies it). 0 keeps nothing: the page
/// has no block with words and a chance of being content. `cal` recalibrates the marginals
/// first.
pub fn page_threshold(
    page: &Page,
    probs: &[Probs],
    cal: Calibration,
    s: &mut ExpectedScratch,
) -> f64 {
    count_block_words(page, &mut s.words, &mut s.block_words);
    s.blocks.clear();
    s.blocks.extend(
        s.block_words
            .iter()
            .zip(probs)
            .filter(|&(&w, _)| w > 0)
            .map(|(&w, p)| (p[2], w, 1.0 - cal.apply(p[2]))),
    );
    if cal.spread > 0.0 {
        best_cut_spread(&mut s.blocks, cal.spread, &mut s.spread)
    } else {
        best_cut(&mut s.blocks)
    }
}

/// Appends the labels of a page's blocks under expected-F1 decoding with `opts` to `out`, and
/// returns the number of words of the blocks kept (0 when the page falls under the minimum).
pub fn decide_expected(
    page: &Page,
    probs: &[Probs],
    opts: ExpectedOptions,
    s: &mut ExpectedScratch,
    out: &mut Vec<Label>,
) -> u32 {
    let mut t = page_threshold(page, probs, opts.calibration, s);
    // `s.blocks` holds the page's blocks with words, sorted by P(other).
    let mut kept: u32 = s
        .blocks
        .iter()
        .take_while(|b| b.0 < t)
        .map(|b| b.1)
        .fold(0u32, u32::saturating_add);
    if kept < opts.min_words {
        t = 0.0;
        kept = 0;
    }
    out.extend(probs.iter().map(|p| decide(p, t)));
    kept
}

/// The threshold of the best prefix of `blocks` ((P(other), words, P(content)) triples, the
/// last recalibrated) sorted by P(other), with the expected F1 computed on P(content).
fn best_cut(blocks: &mut [(f64, u32, f64)]) -> f64 {
    blocks.sort_unstable_by(|a, b| a.0.total_cmp(&b.0));
    let gold: f64 = blocks.iter().map(|&(_, w, c)| c * f64::from(w)).sum();
    best_prefix(
        blocks,
        0.0f64,
        |overlap, w, c| *overlap += c * w,
        |&overlap, kept| 2.0 * overlap / (kept + gold),
    )
}

/// The prefix sweep both cuts share: over `blocks` sorted by P(other), feeds each block's words
/// and P(content) to `keep` (which adds them to the expected overlap `state`), and after each run
/// of equal P(other) scores the prefix with `value(state, words kept)`. Returns the threshold
/// that keeps the best prefix (0 when none scores above 0).
fn best_prefix<S>(
    blocks: &[(f64, u32, f64)],
    mut state: S,
    keep: impl Fn(&mut S, f64, f64),
    value: impl Fn(&S, f64) -> f64,
) -> f64 {
    let mut kept = 0.0f64;
    let (mut best, mut cut) = (0.0f64, None);
    let mut i = 0;
    while i < blocks.len() {
        // Blocks with the same P(other) are kept or dropped together.
        let q = blocks[i].0;
        while i < blocks.len() && blocks[i].0 == q {
            let w = f64::from(blocks[i].1);
            keep(&mut state, w, blocks[i].2);
            kept += w;
            i += 1;
        }
        let f = value(&state, kept);
        if f > best {
            best = f;
            cut = Some(q);
        }
    }
    // `other` where P(other) >= the next double above q: the prefix up to q is kept.
    cut.map_or(0.0, f64::next_up)
}

/// [`best_cut`] with the expected F1 averaged over a page-wide shift `d ~ N(0, spread^2)` of
/// the calibrated log-odds of `other` (the third member of each triple is the calibrated
/// P(content)).
fn best_cut_spread(
    blocks: &mut [(f64, u32, f64)],
    spread: f64,
    contrib: &mut Vec<[f64; SPREAD_NODES]>,
) -> f64 {
    blocks.sort_unstable_by(|a, b| a.0.total_cmp(&b.0));
    // The 17 points as factors on the odds of content: a shift d of the log-odds of `other`
    // multiplies the odds of content c / (1 - c) by exp(-d).
    let mut factor = [0.0f64; SPREAD_NODES];
    let mut weight = [0.0f64; SPREAD_NODES];
    for (k, (f, w)) in factor.iter_mut().zip(&mut weight).enumerate() {
        let (x, wk) = if k < 8 {
            (-SPREAD_X[8 - k], SPREAD_W[8 - k])
        } else {
            (SPREAD_X[k - 8], SPREAD_W[k - 8])
        };
        *f = (-spread * x).exp();
        *w = wk;
    }
    // Every block's words times its P(content) under each point's shift, computed once for the
    // gold sum and the prefix sweep; the odds are divided out once per block, not per point.
    contrib.clear();
    contrib.extend(blocks.iter().map(|&(_, w, c)| {
        let w = f64::from(w);
        if c <= 0.0 || c >= 1.0 || c.is_nan() {
            return [c * w; SPREAD_NODES];
        }
        let odds = c / (1.0 - c);
        // odds / (1 + odds), also right when the odds overflow to infinity.
        factor.map(|f| 1.0 / (1.0 + 1.0 / (odds * f)) * w)
    }));
    let add = |acc: &mut [f64; SPREAD_NODES], x: &[f64; SPREAD_NODES]| {
        for (a, x) in acc.iter_mut().zip(x) {
            *a += x;
        }
    };
    let mut gold = [0.0f64; SPREAD_NODES];
    for x in contrib.iter() {
        add(&mut gold, x);
    }
    // The sweep's state: the expected overlap and the next block's index in `contrib`.
    best_prefix(
        blocks,
        ([0.0f64; SPREAD_NODES], 0usize),
        |(overlap, next), _, _| {
            if let Some(x) = contrib.get(*next) {
                add(overlap, x);
            }
            *next += 1;
        },
        |(overlap, _), kept| {
            (0..SPREAD_NODES)
                .map(|k| {
                    let den = kept + gold[k];
                    if den > 0.0 {
                        weight[k] * 2.0 * overlap[k] / den
                    } else {
                        0.0
                    }
                })
                .sum()
        },
    )
}

/// The expected text-level F1 of a page under the model's marginals: the best, over the
/// prefixes of its blocks sorted by P(other), of `2 Σ_kept c w / (Σ_kept w + Σ_all c w)`, with
/// c the (recalibrated) probability that a block is content and w its words (the quantity
/// [`page_threshold`] maximises, without the spread). A page where the model is sure scores
/// near 1; a page of doubtful blocks scores low. A page without words scores 1 (nothing to get
/// wrong). It is the uncertainty that active learning ranks pages by: `victor annotate --order
/// uncertain` and `victor cv --curve-order uncertain` offer the lowest first.
pub fn expected_f1(page: &Page, probs: &[Probs], cal: Calibration) -> f64 {
    let mut words = Tokenizer::new();
    let mut blocks: Vec<(f64, f64, f64)> = page
        .blocks
        .iter()
        .zip(probs)
        .map(|(b, p)| {
            (
                p[2],
                f64::from(word_count(&mut words, page.block_text(b))),
                1.0 - cal.apply(p[2]),
            )
        })
        .filter(|&(_, w, _)| w > 0.0)
        .collect();
    if blocks.is_empty() {
        return 1.0;
    }
    blocks.sort_unstable_by(|a, b| a.0.total_cmp(&b.0));
    let gold: f64 = blocks.iter().map(|&(_, w, c)| c * w).sum();
    let (mut overlap, mut kept, mut best) = (0.0f64, 0.0f64, 0.0f64);
    for &(_, w, c) in &blocks {
        overlap += c * w;
        kept += w;
        best = best.max(2.0 * overlap / (kept + gold));
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn expected_f1_is_low_where_the_model_is_unsure() {
        let page = victor_features::segment(
            "<html><body><p>one two three four five</p><p>six seven eight nine ten</p>\
             <div>menu</div></body></html>",
        )
        .expect("segments");
        assert_eq!(page.blocks.len(), 3);
        let sure = [[0.0, 0.99, 0.01], [0.0, 0.99, 0.01], [0.0, 0.01, 0.99]];
        let unsure = [[0.0, 0.5, 0.5], [0.0, 0.4, 0.6], [0.0, 0.5, 0.5]];
        let cal = Calibration::default();
        let (s, u) = (
            expected_f1(&page, &sure, cal),
            expected_f1(&page, &unsure, cal),
        );
        assert!(s > 0.98 && s <= 1.0, "{s}");
        // Expected content words 2.5 + 2 + 0.5; keeping all 11 words is the best prefix.
        assert!((u - 2.0 * 5.0 / (11.0 + 5.0)).abs() < 1e-12, "{u}");
        let empty = victor_features::segment("<html><body></body></html>").expect("segments");
        assert_eq!(expected_f1(&empty, &[], cal), 1.0);
    }

    /// [`best_cut`] over (P(other), words) pairs recalibrated by `cal`.
    fn cut(blocks: &[(f64, u32)], cal: Calibration) -> f64 {
        let mut b: Vec<(f64, u32, f64)> = blocks
            .iter()
            .map(|&(q, w)| (q, w, 1.0 - cal.apply(q)))
            .collect();
        best_cut(&mut b)
    }

    #[test]
    fn words_are_the_text_measures_tokens() {
        let mut t = Tokenizer::new();
        let mut word_count = |s: &str| word_count(&mut t, s);
        assert_eq!(word_count(""), 0);
        assert_eq!(word_count(" | "), 0);
        assert_eq!(word_count("Hello, world! 42 times"), 4);
        assert_eq!(word_count("naïve café-crème"), 3);
        assert_eq!(word_count("東京タワー is tall"), 7);
        // Hangul is written with spaces: a run is a word. Thai, without spaces, is counted
        // by characters, as the measure does.
        assert_eq!(word_count("한국어 단어"), 2);
        assert_eq!(word_count("ภาษาไทย ok"), 8);
        // As the measure normalizes: a decomposed accent (NFKC composes it), a fraction
        // (NFKC spells it 1⁄2), Turkish İ (lowercased to i and a combining dot).
        assert_eq!(word_count("cafe\u{301}s"), 1);
        assert_eq!(word_count("½"), 2);
        assert_eq!(word_count("İstanbul"), 2);
    }

    #[test]
    fn a_sure_article_drops_doubtful_blocks() {
        // Two sure content blocks of 100 words; a doubtful one of 100 words at P(other) 0.6:
        // keeping it would add 40 expected words of overlap against 100 words of output.
        let b = vec![(0.01, 100), (0.6, 100), (0.02, 100), (0.99, 50)];
        let t = cut(&b, Calibration::IDENTITY);
        assert!(t > 0.02 && t <= 0.6, "threshold {t}");
    }

    #[test]
    fn an_unsure_page_still_keeps_its_likeliest_blocks() {
        // Every block is likelier other than content; a fixed threshold of 0.7 keeps nothing.
        let b = vec![(0.8, 200), (0.95, 10), (0.97, 10), (0.99, 30)];
        let t = cut(&b, Calibration::IDENTITY);
        assert!(t > 0.8 && t <= 0.95, "threshold {t}");
    }

    /// A small page: (P(other), words) of six blocks.
    const SMALL_PAGE: [(f64, u32); 6] = [
        (0.1, 30),
        (0.3, 5),
        (0.45, 40),
        (0.5, 8),
        (0.7, 60),
        (0.9, 3),
    ];

    #[test]
    fn expected_f1_of_the_chosen_prefix_is_the_best() {
        // Brute force over every prefix of a small page.
        let b = SMALL_PAGE.to_vec();
        let t = cut(&b, Calibration::IDENTITY);
        let gold: f64 = b.iter().map(|&(q, w)| (1.0 - q) * f64::from(w)).sum();
        let ef1 = |cut: f64| {
            let (o, k) = b
                .iter()
                .filter(|x| x.0 < cut)
                .fold((0.0, 0.0), |(o, k), &(q, w)| {
                    (o + (1.0 - q) * f64::from(w), k + f64::from(w))
                });
            2.0 * o / (k + gold)
        };
        for &(q, _) in &b {
            assert!(ef1(t) >= ef1(q.next_up()) - 1e-12);
        }
        assert!(ef1(t) > ef1(0.0));
    }

    #[test]
    fn calibration_is_monotone_and_keeps_the_ends() {
        let c = Calibration {
            scale: 0.5,
            shift: 0.5,
            spread: 0.0,
        };
        let qs = [0.0, 0.01, 0.2, 0.5, 0.8, 0.99, 1.0];
        let out: Vec<f64> = qs.iter().map(|&q| c.apply(q)).collect();
        assert!(out.windows(2).all(|w| w[0] < w[1]), "{out:?}");
        assert_eq!((out[0], out[6]), (0.0, 1.0));
        // logit 0 -> 0.5 -> sigmoid(0.5)
        assert!((out[3] - 1.0 / (1.0 + (-0.5f64).exp())).abs() < 1e-12);
        // Softening: a sure block gets less sure.
        assert!(out[1] > 0.01 && out[5] < 0.999);
        assert_eq!(Calibration::IDENTITY.apply(0.3), 0.3);
        assert!(calibration_grid().contains(&Calibration::IDENTITY));
    }

    #[test]
    fn a_softer_calibration_keeps_more_of_an_uncertain_page() {
        // A sure 100-word block and a doubtful 100-word one at P(other) 0.7: raw marginals drop
        // the doubtful block; softened ones count the sure block as less than sure, so the
        // gold looks larger and keeping the doubtful block pays.
        let raw = cut(&[(0.001, 100), (0.7, 100)], Calibration::IDENTITY);
        let soft = cut(
            &[(0.001, 100), (0.7, 100)],
            Calibration {
                scale: 0.3,
                shift: 0.0,
                spread: 0.0,
            },
        );
        assert!(raw <= 0.7, "raw {raw}");
        assert!(soft > 0.7, "soft {soft}");
    }

    /// The cut under a calibration with a spread, through the same path as a page's.
    fn cut_spread(blocks: &[(f64, u32)], cal: Calibration) -> f64 {
        let mut b: Vec<(f64, u32, f64)> = blocks
            .iter()
            .map(|&(q, w)| (q, w, 1.0 - cal.apply(q)))
            .collect();
        best_cut_spread(&mut b, cal.spread, &mut Vec::new())
    }

    #[test]
    fn the_quadrature_is_a_standard_normal() {
        let (mut total, mut var) = (SPREAD_W[0], 0.0);
        for (x, w) in SPREAD_X.iter().zip(&SPREAD_W).skip(1) {
            total += 2.0 * w;
            var += 2.0 * w * x * x;
        }
        assert!((total - 1.0).abs() < 1e-12, "weights sum to {total}");
        assert!((var - 1.0).abs() < 1e-9, "variance {var}");
    }

    #[test]
    fn a_tiny_spread_decodes_as_independent_blocks() {
        // With a sure content block and a sure `other` one, which no shift moves.
        let mut b = SMALL_PAGE.to_vec();
        b.extend([(0.0, 12), (1.0, 7)]);
        for (scale, shift) in [(1.0, 0.0), (0.4, 0.5), (0.8, 1.0)] {
            let flat = Calibration {
                scale,
                shift,
                spread: 0.0,
            };
            let tiny = Calibration {
                spread: 1e-9,
                ..flat
            };
            assert_eq!(
                cut(&b, flat),
                cut_spread(&b, tiny),
                "scale {scale} shift {shift}"
            );
        }
    }

    #[test]
    fn the_spread_cut_is_the_best_prefix_of_the_averaged_expected_f1() {
        // The averaged formula by brute force: a fine Riemann sum over the normal shift.
        let b = vec![
            (0.02, 120),
            (0.2, 15),
            (0.35, 60),
            (0.55, 40),
            (0.75, 200),
            (0.9, 25),
            (0.97, 80),
        ];
        let cal = Calibration {
            scale: 0.8,
            shift: 1.0,
            spread: 3.0,
        };
        let averaged = |t: f64| -> f64 {
            let (mut sum, mut norm) = (0.0, 0.0);
            let steps = 4000;
            for i in 0..=steps {
                let d = -8.0 * cal.spread + 16.0 * cal.spread * f64::from(i) / f64::from(steps);
                let density = (-0.5 * (d / cal.spread).powi(2)).exp();
                let c = |q: f64| {
                    let l = cal.scale * (q / (1.0 - q)).ln() + cal.shift + d;
                    1.0 - 1.0 / (1.0 + (-l).exp())
                };
                let gold: f64 = b.iter().map(|&(q, w)| c(q) * f64::from(w)).sum();
                let (o, k) = b
                    .iter()
                    .filter(|x| x.0 < t)
                    .fold((0.0, 0.0), |(o, k), &(q, w)| {
                        (o + c(q) * f64::from(w), k + f64::from(w))
                    });
                sum += density * 2.0 * o / (k + gold);
                norm += density;
            }
            sum / norm
        };
        let t = cut_spread(&b, cal);
        assert!(t > 0.0, "keeps something");
        for &(q, _) in &b {
            assert!(
                averaged(t) >= averaged(q.next_up()) - 1e-6,
                "cut {t}: {} < {} at {q}",
                averaged(t),
                averaged(q.next_up())
            );
        }
        // And the spread matters here: independent blocks cut elsewhere.
        let flat = cut(&b, Calibration { spread: 0.0, ..cal });
        assert_ne!(t, flat);
    }

    #[test]
    fn a_page_under_the_minimum_keeps_nothing() {
        let page =
            victor_features::segment("<p>one two three four five six</p>").expect("segments");
        let probs = [[0.0, 0.9, 0.1]];
        let mut s = ExpectedScratch::default();
        let mut out = Vec::new();
        let mut opts = ExpectedOptions::default();
        assert_eq!(decide_expected(&page, &probs, opts, &mut s, &mut out), 6);
        assert_eq!(out, [Label::Text]);
        opts.min_words = 6;
        out.clear();
        assert_eq!(decide_expected(&page, &probs, opts, &mut s, &mut out), 6);
        opts.min_words = 7;
        out.clear();
        assert_eq!(decide_expected(&page, &probs, opts, &mut s, &mut out), 0);
        assert_eq!(out, [Label::Other]);
    }

    #[test]
    fn nothing_to_keep() {
        assert_eq!(cut(&[], Calibration::IDENTITY), 0.0);
        assert_eq!(cut(&[(1.0, 10)], Calibration::IDENTITY), 0.0);
    }
}

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
//! their words would cost more precision than they bring recall. There is no parameter to tune.
//! It is no longer monotone in one global threshold, so the precision/recall sweep stays a sweep
//! over fixed thresholds.

use victor_annotations::Label;
use victor_features::Page;

use crate::labeler::{Probs, decide};

/// The number of words of a block's text for the expected-F1 decoding: runs of letters and
/// digits, with every Han, kana or Hangul character a word of its own (as Unicode word
/// segmentation treats them).
pub fn word_count(text: &str) -> u32 {
    let mut n = 0u32;
    let mut in_word = false;
    for ch in text.chars() {
        if ch.is_ascii() {
            let w = ch.is_ascii_alphanumeric();
            n += u32::from(w && !in_word);
            in_word = w;
        } else if is_ideographic(ch) {
            n += 1;
            in_word = false;
        } else {
            let w = ch.is_alphanumeric();
            n += u32::from(w && !in_word);
            in_word = w;
        }
    }
    n
}

/// Han, Hiragana, Katakana and Hangul syllables: one word per character.
fn is_ideographic(ch: char) -> bool {
    matches!(ch as u32,
        0x3040..=0x30FF      // Hiragana, Katakana
        | 0x3400..=0x4DBF    // CJK Extension A
        | 0x4E00..=0x9FFF    // CJK Unified Ideographs
        | 0xAC00..=0xD7AF    // Hangul syllables
        | 0xF900..=0xFAFF    // CJK Compatibility Ideographs
        | 0x20000..=0x3134F) // CJK Extensions B to G
}

/// Reusable buffer for [`page_threshold`].
#[derive(Debug, Default)]
pub struct Scratch {
    /// (P(other), words) of the blocks with words.
    blocks: Vec<(f64, u32)>,
}

/// The other-threshold of a page under expected-F1 decoding: a block is `other` where
/// P(other) >= the returned value (so [`crate::decide`] applies it). 0 keeps nothing: the page
/// has no block with words and a chance of being content.
pub fn page_threshold(page: &Page, probs: &[Probs], s: &mut Scratch) -> f64 {
    s.blocks.clear();
    s.blocks.extend(
        page.blocks
            .iter()
            .zip(probs)
            .map(|(b, p)| (p[2], word_count(page.block_text(b))))
            .filter(|&(_, w)| w > 0),
    );
    best_cut(&mut s.blocks)
}

/// Appends the labels of a page's blocks under expected-F1 decoding to `out`.
pub fn decide_page(page: &Page, probs: &[Probs], s: &mut Scratch, out: &mut Vec<Label>) {
    let t = page_threshold(page, probs, s);
    out.extend(probs.iter().map(|p| decide(p, t)));
}

/// The threshold of the best prefix of `blocks` ((P(other), words) pairs) sorted by P(other).
fn best_cut(blocks: &mut [(f64, u32)]) -> f64 {
    blocks.sort_unstable_by(|a, b| a.0.total_cmp(&b.0));
    let gold: f64 = blocks.iter().map(|&(q, w)| (1.0 - q) * f64::from(w)).sum();
    let (mut overlap, mut kept) = (0.0f64, 0.0f64);
    let (mut best, mut cut) = (0.0f64, None);
    let mut i = 0;
    while i < blocks.len() {
        // Blocks with the same P(other) are kept or dropped together.
        let q = blocks[i].0;
        while i < blocks.len() && blocks[i].0 == q {
            let w = f64::from(blocks[i].1);
            overlap += (1.0 - q) * w;
            kept += w;
            i += 1;
        }
        let f = 2.0 * overlap / (kept + gold);
        if f > best {
            best = f;
            cut = Some(q);
        }
    }
    // `other` where P(other) >= the next double above q: the prefix up to q is kept.
    cut.map_or(0.0, f64::next_up)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_are_letter_and_digit_runs() {
        assert_eq!(word_count(""), 0);
        assert_eq!(word_count(" | "), 0);
        assert_eq!(word_count("Hello, world! 42 times"), 4);
        assert_eq!(word_count("naïve café-crème"), 3);
        assert_eq!(word_count("東京タワー is tall"), 7);
    }

    #[test]
    fn a_sure_article_drops_doubtful_blocks() {
        // Two sure content blocks of 100 words; a doubtful one of 100 words at P(other) 0.6:
        // keeping it would add 40 expected words of overlap against 100 words of output.
        let mut b = vec![(0.01, 100), (0.6, 100), (0.02, 100), (0.99, 50)];
        let t = best_cut(&mut b);
        assert!(t > 0.02 && t <= 0.6, "threshold {t}");
    }

    #[test]
    fn an_unsure_page_still_keeps_its_likeliest_blocks() {
        // Every block is likelier other than content; a fixed threshold of 0.7 keeps nothing.
        let mut b = vec![(0.8, 200), (0.95, 10), (0.97, 10), (0.99, 30)];
        let t = best_cut(&mut b);
        assert!(t > 0.8 && t <= 0.95, "threshold {t}");
    }

    #[test]
    fn expected_f1_of_the_chosen_prefix_is_the_best() {
        // Brute force over every prefix of a small page.
        let mut b = vec![
            (0.1, 30),
            (0.3, 5),
            (0.45, 40),
            (0.5, 8),
            (0.7, 60),
            (0.9, 3),
        ];
        let t = best_cut(&mut b);
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
    fn nothing_to_keep() {
        assert_eq!(best_cut(&mut []), 0.0);
        assert_eq!(best_cut(&mut [(1.0, 10)]), 0.0);
    }
}

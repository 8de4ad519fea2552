//! Marginals to labels under a threshold on P(other).
//!
//! A block is `other` where P(other) >= T; elsewhere the likelier of `header` and `text` wins (a
//! tie goes to `text`). Lowering T can only turn content into `other`, so the number of content
//! blocks never rises as T falls: sweeping T trades recall for precision (the Victor paper,
//! Figure 2).

use crate::Label;

/// Marginal probabilities of one block, in [`Label::ALL`] order: `[P(header), P(text),
/// P(other)]`.
pub type Probs = [f64; 3];

// `decide` destructures marginals in this order.
const _: () =
    assert!(Label::Header.index() == 0 && Label::Text.index() == 1 && Label::Other.index() == 2);

/// The label of a block at `threshold`: `other` if P(other) >= `threshold`, else header if
/// P(header) > P(text), else text (a tie goes to text).
#[inline]
pub fn decide(probs: &Probs, threshold: f64) -> Label {
    let [header, text, other] = *probs;
    if other >= threshold {
        Label::Other
    } else if header > text {
        Label::Header
    } else {
        Label::Text
    }
}

/// Labels all blocks of a page at `threshold` into `out` (cleared first).
pub fn decide_page(probs: &[Probs], threshold: f64, out: &mut Vec<Label>) {
    out.clear();
    out.extend(probs.iter().map(|p| decide(p, threshold)));
}

#[cfg(test)]
mod tests {
    use super::*;
    use Label::{Header as H, Other as O, Text as T};

    #[test]
    fn other_at_or_above_the_threshold_else_the_likelier_content_label() {
        assert_eq!(decide(&[0.1, 0.2, 0.7], 0.7), O, "P(other) = T is other");
        assert_eq!(decide(&[0.1, 0.2, 0.7], 0.71), T);
        assert_eq!(decide(&[0.3, 0.2, 0.5], 0.9), H);
        assert_eq!(decide(&[0.25, 0.25, 0.5], 0.9), T, "a tie goes to text");
        assert_eq!(decide(&[0.0, 0.0, 0.0], 0.0), O);
        let mut out = vec![H];
        decide_page(&[[0.2, 0.3, 0.5], [0.6, 0.3, 0.1]], 0.5, &mut out);
        assert_eq!(out, [O, H], "cleared first");
    }

    #[test]
    fn lowering_the_threshold_never_adds_content() {
        let probs: Vec<Probs> = (0..=20)
            .map(|i| {
                let o = f64::from(i) / 20.0;
                [(1.0 - o) * 0.3, (1.0 - o) * 0.7, o]
            })
            .collect();
        let mut hi = Vec::new();
        let mut lo = Vec::new();
        for step in 1..=20 {
            decide_page(&probs, f64::from(step) / 20.0, &mut hi);
            decide_page(&probs, f64::from(step - 1) / 20.0, &mut lo);
            let count = |l: &[Label]| l.iter().filter(|l| l.is_content()).count();
            assert!(count(&lo) <= count(&hi));
        }
    }
}

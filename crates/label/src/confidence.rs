//! How far to trust a page's extraction: the text-level F1 its labels are expected to reach
//! under the marginals, a number in [0, 1] that corpus builders use to drop or re-route the
//! doubtful pages.
//!
//! Each block is content with probability c = 1 - P(other) and holds w words; the labels keep
//! a set K of blocks. The expected overlap of the output with the gold text is Σ_K c w, the
//! expected size of the gold Σ_all c w, so (to first order, as in `expected`)
//!
//! ```text
//! confidence = 2 Σ_{i∈K} c_i w_i / (Σ_{i∈K} w_i + Σ_all c_j w_j)
//! ```
//!
//! It falls when the kept blocks are doubtful (precision) and when likely content is left out
//! (recall). Measured against the true word F1 on `dev` pages (`eval/metadata.md`), it is
//! close to calibrated on the sets the default model was not trained on (CleanEval: pages at
//! 0.8-0.9 reach 0.83 on average, at 0.9-0.95 0.90, above 0.95 0.96), so it is given as it is,
//! with no further mapping. A page that keeps no words gets 0: there is nothing to trust.
//!
//! A block's words w are counted as the text-level measure counts them ([`crate::block_words`]),
//! the counts the expected-F1 decoding weighs blocks by: a labeler hands them over with the
//! labels ([`crate::LabeledPage::words`]), so the confidence costs one pass over the blocks.

use victor_core::{Label, Probs};
use victor_features::Page;

/// The confidence of a labelled page (see the module's documentation): `labels`, `probs` and
/// `words` hold one entry a block, `words` the block's words under the text-level measure
/// ([`crate::block_words`], or [`crate::LabeledPage::words`] where a labeler counted them).
pub fn confidence(page: &Page, labels: &[Label], probs: &[Probs], words: &[u32]) -> f64 {
    let (mut overlap, mut kept, mut gold) = (0.0f64, 0.0f64, 0.0f64);
    for i in 0..page.blocks.len() {
        let p = probs.get(i).copied().unwrap_or([0.0, 0.0, 1.0]);
        let c = (1.0 - p[2]).clamp(0.0, 1.0);
        let w = f64::from(words.get(i).copied().unwrap_or(0));
        gold += c * w;
        if labels.get(i).is_some_and(|l| l.is_content()) {
            kept += w;
            overlap += c * w;
        }
    }
    if kept <= 0.0 {
        return 0.0;
    }
    (2.0 * overlap / (kept + gold)).clamp(0.0, 1.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn page() -> Page {
        victor_features::segment(
            "<html><body><nav>Home About Contact</nav><p>One two three four five six seven \
             eight nine ten.</p><p>Eleven twelve thirteen fourteen.</p><footer>Copyright \
             notice here</footer></body></html>",
        )
        .expect("segments")
    }

    fn conf(labels: &[Label], probs: &[Probs]) -> f64 {
        let p = page();
        confidence(&p, labels, probs, &crate::block_words(&p))
    }

    #[test]
    fn confidence_is_in_the_unit_interval_and_monotone_in_the_obvious_cases() {
        let p = page();
        assert_eq!(p.blocks.len(), 4);
        let (h, t, o) = (Label::Header, Label::Text, Label::Other);
        let labels = [o, t, t, o];
        let sure = [
            [0.0, 0.0, 1.0],
            [0.0, 1.0, 0.0],
            [0.0, 1.0, 0.0],
            [0.0, 0.0, 1.0],
        ];
        let unsure = [
            [0.0, 0.3, 0.7],
            [0.0, 0.6, 0.4],
            [0.0, 0.6, 0.4],
            [0.0, 0.3, 0.7],
        ];
        let (a, b) = (conf(&labels, &sure), conf(&labels, &unsure));
        assert!((a - 1.0).abs() < 1e-9, "a sure page: {a}");
        assert!((0.0..1.0).contains(&b), "an unsure page: {b}");
        // Dropping a block that is surely content costs recall.
        let dropped = conf(&[o, t, o, o], &sure);
        assert!(dropped < a, "{dropped}");
        // Keeping a block that is surely boilerplate costs precision.
        let noisy = conf(&[h, t, t, t], &sure);
        assert!(noisy < a, "{noisy}");
        // Nothing kept: nothing to trust.
        assert_eq!(conf(&[o, o, o, o], &sure), 0.0);
        for probs in [sure, unsure] {
            for l in [[o, t, t, o], [t, t, t, t], [o, o, t, o]] {
                let c = conf(&l, &probs);
                assert!((0.0..=1.0).contains(&c), "{c}");
            }
        }
    }
}

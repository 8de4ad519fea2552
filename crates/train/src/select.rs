//! Model selection: from cross-validation folds to the decoding a bundle recommends.
//!
//! `victor train` runs a cross-validation on its own training pages ([`threshold_cv`]), merges
//! the folds' held-out scores ([`merge_folds`]) and keeps, in the bundle, the threshold on
//! P(other) with the best macro text-level F1 and the expected-F1 settings (calibration,
//! minimum words) that score best, recommending expected-F1 decoding when it beats the
//! threshold ([`recommend`]). Test pages are never seen here.

use victor_label::{DecodingRecommendation, RecommendedDecoding, Threshold};
use victor_label::{ExpectedOptions, calibration_grid};

use crate::assess::{Assessment, default_grid};
use crate::bundle::Replace;
use crate::cv::{CurveOrder, CvOptions, FoldResult};

/// The cross-validation `victor train` chooses a bundle's decoding with: `folds` folds by page
/// (seed 1), `parallel` trained at once, the default threshold grid and every calibration of
/// [`calibration_grid`], all of each fold's training pages (a learning curve would draw them
/// with seed 1), no kept fold models.
pub fn threshold_cv(folds: usize, parallel: usize) -> CvOptions {
    CvOptions {
        folds,
        seed: 1,
        thresholds: default_grid(),
        parallel,
        calibrations: calibration_grid(),
        by_site: false,
        keep_models: None,
        replace: Replace::OnlyBundle,
        train_share: 1.0,
        curve_order: CurveOrder::Random { seed: 1 },
    }
}

/// The held-out scores of every fold, merged over the grid and calibrations of `cv`.
pub fn merge_folds(results: &[FoldResult], cv: &CvOptions) -> Assessment {
    let mut all = Assessment::with_calibrations(cv.thresholds.clone(), cv.calibrations.clone());
    for r in results {
        all.merge(&r.assessment);
    }
    all
}

/// The decoding a bundle recommends from a merged cross-validation of `folds` folds: the
/// threshold with the best macro text-level F1, and expected-F1 decoding (with the best
/// calibration and minimum) where it scores higher. `None` when no page was scored.
pub fn recommend(all: &Assessment, folds: usize) -> Option<DecodingRecommendation> {
    let viterbi_f1 = all.viterbi_text.macro_avg().map_or(0.0, |p| p.f1);
    let calibrated = all.best_expected();
    let expected_f1 = calibrated.map(|(_, f)| f);
    let expected = calibrated.map_or(ExpectedOptions::default(), |(c, _)| c);
    let (value, f1) = all.best_threshold()?;
    // The grid is made of thresholds (`victor_eval::threshold_grid` keeps within 0 and 1).
    let value = Threshold::new(value).ok()?;
    Some(DecodingRecommendation {
        value,
        method: format!(
            "{folds}-fold cross-validation on the training pages, best macro text-level F1"
        ),
        f1,
        viterbi_f1,
        expected_f1,
        decoding: match expected_f1 {
            Some(e) if e > f1 => RecommendedDecoding::ExpectedF1,
            _ => RecommendedDecoding::Threshold,
        },
        calibration: expected.calibration,
        min_words: expected.min_words,
    })
}

/// The macro text-level F1 that the decoding `rec` recommends scored in a merged
/// cross-validation: expected-F1 decoding with its calibration and minimum, or its
/// threshold; `None` when the cross-validation did not score those settings.
pub(crate) fn score_of(all: &Assessment, rec: &DecodingRecommendation) -> Option<f64> {
    match rec.decoding {
        RecommendedDecoding::ExpectedF1 => {
            let opts = rec.expected_options();
            let scores = if opts == ExpectedOptions::default() {
                Some(&all.expected_text)
            } else {
                all.expected_scores(opts)
            };
            scores?.macro_avg().map(|p| p.f1)
        }
        RecommendedDecoding::Threshold => {
            let t = rec.value.get();
            let i = all.thresholds.iter().position(|x| (x - t).abs() < 1e-9)?;
            all.text.get(i)?.macro_avg().map(|p| p.f1)
        }
    }
}

/// The F1 the recommended decoding of `rec` scored (expected-F1's or the threshold's).
pub(crate) fn recommended_f1(rec: &DecodingRecommendation) -> f64 {
    match rec.decoding {
        RecommendedDecoding::ExpectedF1 => rec.expected_f1.unwrap_or(rec.f1),
        RecommendedDecoding::Threshold => rec.f1,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use victor_label::Label;

    /// One page of two one-word blocks, gold `text` then `other`.
    fn page() -> victor_features::Page {
        victor_features::segment("<p>alpha</p><p>beta</p>").expect("segments")
    }

    #[test]
    fn recommends_the_best_threshold_and_expected_f1_only_when_it_scores_higher() {
        let cv = threshold_cv(2, 1);
        let mut a = Assessment::with_calibrations(cv.thresholds.clone(), cv.calibrations.clone());
        let mut s = crate::assess::Scratch::default();
        let gold = [Label::Text, Label::Other];
        // P(other) 0.3 and 0.6: thresholds above 0.3 and up to 0.6 keep exactly the gold block.
        let probs = [[0.0, 0.7, 0.3], [0.0, 0.4, 0.6]];
        a.add_page(&page(), &gold, &probs, &gold, &mut s)
            .expect("one label per block");
        let r = recommend(&a, 2).expect("a page was scored");
        assert!(
            r.value.get() > 0.3 && r.value.get() <= 0.6,
            "threshold {}",
            r.value
        );
        assert_eq!(r.f1, 1.0);
        assert_eq!(r.viterbi_f1, 1.0);
        assert!(r.method.starts_with("2-fold"));
        // Expected-F1 cannot beat a perfect threshold, so the threshold stays recommended.
        assert_eq!(r.decoding, RecommendedDecoding::Threshold);
        assert!(recommend(&Assessment::new(default_grid()), 2).is_none());
    }
}

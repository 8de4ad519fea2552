//! Annotated pages -> a bundle folder: the whole of `victor train` (and of Python's
//! `victor.train` and `victor.adapt`), so that the command line and the binding stay thin.
//!
//! [`check_pages`] loads every page once before any work, so that a malformed annotation is
//! reported first, not after the cross-validation. [`train_bundle`] then chooses the decoding
//! ([`choose_decoding`]: cross-validation on the pages, or, with too few of them, the base's
//! when adapting), trains the CRF (and the trees), and writes the bundle atomically.

use std::path::{Path, PathBuf};

use rayon::prelude::*;
use victor_annotations::PageRef;
use victor_features::Segmenter;
use victor_label::{BundleMeta, DecodingRecommendation, LeftOut, RecommendedDecoding, TrainingSet};

use crate::adapt::{AdaptDecoding, MIN_CV_PAGES};
use crate::bundle::{Replace, make_meta, write_bundle_replacing};
use crate::crf::TrainOptions;
use crate::cv::{CvEvent, cross_validate};
use crate::pipeline::{DataSummary, Event, Setup, TrainError, train_crf};
use crate::select::{merge_folds, recommend, recommended_f1, score_of, threshold_cv};

/// A page that cannot be used, with why.
pub type BadPage = (PageRef, String);

/// The pages that cannot be loaded (unreadable or malformed annotation, a page changed since
/// it was annotated, labels that no longer fit), with the reason; loaded in parallel, each
/// page once, nothing kept.
pub fn check_pages(pages: &[PageRef]) -> Vec<BadPage> {
    pages
        .par_iter()
        .map_init(Segmenter::new, |seg, p| {
            p.load(seg).err().map(|e| (p.clone(), e.to_string()))
        })
        .flatten()
        .collect()
}

/// The pages that can be used and, apart, those that cannot ([`check_pages`], with the
/// reason), in the order of `pages`.
pub fn sort_out_pages(pages: &[PageRef]) -> (Vec<PageRef>, Vec<BadPage>) {
    let bad = check_pages(pages);
    let out = keys(&bad);
    let good = pages
        .iter()
        .filter(|p| !out.contains(&(p.dir.as_path(), p.id.as_str())))
        .cloned()
        .collect();
    (good, bad)
}

/// The pages of `bad` by folder and id (one page each: ids are unique within a set).
fn keys(bad: &[BadPage]) -> std::collections::HashSet<(&Path, &str)> {
    bad.iter()
        .map(|(p, _)| (p.dir.as_path(), p.id.as_str()))
        .collect()
}

/// How a bundle is made beyond the training options.
#[derive(Clone, Debug)]
pub struct Plan {
    /// Folds of the cross-validation that chooses the decoding (below 2: none).
    pub threshold_folds: usize,
    /// Folds trained at the same time.
    pub parallel_folds: usize,
    /// The annotated folders the pages come from, in order. `victor.json` records each
    /// ([`TrainingSet`]) with the pages trained on and those left out, with why: those of
    /// `left_out` and those the training could not read ([`DataSummary::skipped`]).
    pub folders: Vec<PathBuf>,
    /// The split the pages were taken from (`--split`); `None`: every page.
    pub split: Option<String>,
    /// The folders' pages left out before the training (unusable, and left out by
    /// `--skip-bad-pages`), with why ([`sort_out_pages`]).
    pub left_out: Vec<BadPage>,
    /// Notes stored in `victor.json`.
    pub notes: String,
    /// What the bundle may replace at the destination.
    pub replace: Replace,
}

impl Plan {
    /// The folders as `victor.json` records them ([`DataInfo::sets`](victor_label::DataInfo)):
    /// each with its set's name, the pages of `used` trained on (those the training `skipped`
    /// are not) and the pages left out, with why (the plan's, then those skipped).
    pub fn training_sets(&self, used: &[PageRef], skipped: &[BadPage]) -> Vec<TrainingSet> {
        let not_trained = keys(skipped);
        self.folders
            .iter()
            .map(|dir| {
                let left_out: Vec<&BadPage> = self
                    .left_out
                    .iter()
                    .chain(skipped)
                    .filter(|(p, _)| p.dir == *dir)
                    .collect();
                let trained = used
                    .iter()
                    .filter(|p| {
                        p.dir == *dir && !not_trained.contains(&(p.dir.as_path(), p.id.as_str()))
                    })
                    .count();
                let source = used
                    .iter()
                    .chain(left_out.iter().map(|(p, _)| p))
                    .find(|p| p.dir == *dir)
                    .map(|p| p.set.clone())
                    // A folder without pages has no set name: the row says so with `""`.
                    .unwrap_or_default();
                TrainingSet {
                    path: dir.display().to_string(),
                    source,
                    // No split: every page, written as `""`.
                    split: self.split.clone().unwrap_or_default(),
                    pages: trained,
                    left_out: left_out
                        .into_iter()
                        .map(|(p, reason)| LeftOut {
                            id: p.id.clone(),
                            reason: reason.clone(),
                        })
                        .collect(),
                }
            })
            .collect()
    }
}

/// How the decoding of a new bundle was chosen.
#[derive(Clone, Debug, PartialEq)]
pub enum DecodingSource {
    /// By a cross-validation of this many folds on the pages; when adapting, with what the
    /// base's decoding scored there (its settings scored, which the chosen one beat by more
    /// than the margin).
    CrossValidated(usize, Option<f64>),
    /// The base bundle's, kept when adapting (the reason: too few pages, or no folds asked).
    Base(String),
    /// None: the bundle decodes with Viterbi (the reason).
    None(String),
}

/// Progress of [`train_bundle`].
#[derive(Clone, Debug)]
pub enum MakeEvent {
    /// The decoding's cross-validation: its folds.
    Cv(CvEvent),
    /// The decoding is chosen.
    Decoding(Option<DecodingRecommendation>, DecodingSource),
    /// The final training.
    Train(Event),
}

/// What [`train_bundle`] made.
#[derive(Clone, Debug)]
pub struct Made {
    /// What the final training was fed.
    pub data: DataSummary,
    /// The description written.
    pub meta: BundleMeta,
    /// How its decoding was chosen.
    pub decoding: DecodingSource,
}

/// Checks the folds of the cross-validation that chooses a new bundle's decoding
/// (`victor train --threshold-folds`, Python's `folds`): 0 (none) or at least 2, one fold to
/// train on and one to test on. The command line and the Python package both check by this.
///
/// # Errors
///
/// [`TrainError::Folds`] for 1.
pub fn check_threshold_folds(folds: usize) -> Result<usize, TrainError> {
    match folds {
        1 => Err(TrainError::Folds(folds)),
        n => Ok(n),
    }
}

/// The decoding a bundle trained on `pages` with `opts` should recommend, and how it was
/// chosen.
///
/// Training from zero: a cross-validation of `folds` folds on the pages picks it (none, and
/// Viterbi decoding, below 2 pages or 2 folds). Adapting
/// ([`crate::Adapt::decoding`]): with [`AdaptDecoding::Base`] the base's decoding is kept
/// and the cross-validation (each fold adapted from the base) only measures it, its figures
/// replacing the base's in the recommendation; with [`AdaptDecoding::Pages`] the
/// cross-validation chooses as it does from zero. Below [`MIN_CV_PAGES`] pages either keeps
/// the base's as it is. The reason goes with the choice.
pub fn choose_decoding(
    pages: &[PageRef],
    setup: Setup<'_>,
    opts: &TrainOptions,
    folds: usize,
    parallel: usize,
    on: &(dyn Fn(CvEvent) + Sync),
) -> Result<(Option<DecodingRecommendation>, DecodingSource), TrainError> {
    check_threshold_folds(folds)?;
    let skip = if folds == 0 {
        Some("no cross-validation asked for (0 folds)".to_string())
    } else if pages.len() < MIN_CV_PAGES && opts.adapt.is_some() {
        // Adapting has the base's decoding to fall back on, better than one chosen on a handful
        // of pages; from zero the only other choice is Viterbi, so a small cross-validation
        // still chooses (as `victor train` always has).
        Some(format!(
            "{} too few to cross-validate a decoding (at least {MIN_CV_PAGES})",
            match pages.len() {
                1 => "1 page is".to_string(),
                n => format!("{n} pages are"),
            }
        ))
    } else if pages.len() < 2 {
        Some(format!(
            "{} page cannot be cross-validated (at least 2)",
            pages.len()
        ))
    } else {
        None
    };
    if let Some(why) = skip {
        return Ok(match &opts.adapt {
            Some(a) => (
                a.base.recommendation.clone(),
                DecodingSource::Base(format!("{why}: {}'s decoding is kept", a.base.name)),
            ),
            None => (
                None,
                DecodingSource::None(format!("{why}: Viterbi decoding")),
            ),
        });
    }
    let cv = threshold_cv(folds, parallel);
    let results = cross_validate(pages, setup, opts, &cv, on)?;
    let all = merge_folds(&results, &cv);
    let chosen = recommend(&all, folds);
    let Some(a) = &opts.adapt else {
        return Ok(match chosen {
            Some(r) => (Some(r), DecodingSource::CrossValidated(folds, None)),
            None => (
                None,
                DecodingSource::None("no page could be scored in cross-validation".into()),
            ),
        });
    };
    let Some(base) = &a.base.recommendation else {
        // A base without a recommendation (Viterbi): the pages choose.
        return Ok((chosen, DecodingSource::CrossValidated(folds, None)));
    };
    let kept = score_of(&all, base);
    match (a.decoding, chosen) {
        (AdaptDecoding::Pages, Some(r)) => {
            Ok((Some(r), DecodingSource::CrossValidated(folds, kept)))
        }
        (_, chosen) => {
            let best = chosen.as_ref().map(recommended_f1);
            let mut rec = base.clone();
            // The base's settings, with what they scored on these pages.
            if let Some(f) = kept {
                match rec.decoding {
                    RecommendedDecoding::ExpectedF1 => rec.expected_f1 = Some(f),
                    RecommendedDecoding::Threshold => rec.f1 = f,
                }
            }
            rec.viterbi_f1 = all
                .viterbi_text
                .macro_avg()
                .map_or(rec.viterbi_f1, |p| p.f1);
            rec.method = format!(
                "{}'s decoding, kept when adapting; measured by {folds}-fold cross-validation on the pages adapted on",
                a.base.name
            );
            let numbers = match (kept, best) {
                (Some(k), Some(b)) => format!(
                    "it scored {k:.4} in {folds}-fold cross-validation on the pages, the best decoding of the grid {b:.4}"
                ),
                _ => format!("{folds}-fold cross-validation could not score it"),
            };
            Ok((
                Some(rec),
                DecodingSource::Base(format!(
                    "{}'s decoding is kept ({numbers}; --adapt-decoding pages takes the best)",
                    a.base.name
                )),
            ))
        }
    }
}

/// Trains a bundle on `pages` and writes it to `out` (never half-written; what may be
/// replaced there is `plan.replace`'s): the decoding first ([`choose_decoding`]), then the CRF
/// on every page, the trees, and the description.
pub fn train_bundle(
    pages: &[PageRef],
    setup: Setup<'_>,
    opts: &TrainOptions,
    plan: &Plan,
    out: &Path,
    on: &(dyn Fn(MakeEvent) + Sync),
) -> Result<Made, TrainError> {
    // Before the training, not after it: a refusal costs nothing.
    crate::bundle::check_replaceable(out, plan.replace)?;
    let (recommendation, source) = choose_decoding(
        pages,
        setup,
        opts,
        plan.threshold_folds,
        plan.parallel_folds,
        &|e| on(MakeEvent::Cv(e)),
    )?;
    on(MakeEvent::Decoding(recommendation.clone(), source.clone()));
    let tmp = tempfile::tempdir().map_err(|source| TrainError::Io {
        path: std::env::temp_dir(),
        source,
    })?;
    let model_path = tmp.path().join(victor_label::MODEL_FILE);
    let data = train_crf(pages, setup, opts, &model_path, &|e| {
        on(MakeEvent::Train(e))
    })?;
    let mut meta = make_meta(
        setup,
        opts,
        &data,
        plan.training_sets(pages, &data.skipped),
        recommendation,
        plan.notes.clone(),
    );
    // Adapting with a gate: fitted on these pages' profiles against the base's sample, and the
    // base kept whole as the new bundle's `base/`.
    let base_image = crate::gate::for_adaptation(opts, &data).map(|(gate, image)| {
        meta.gate = Some(gate);
        image
    });
    write_bundle_replacing(out, &meta, &model_path, base_image, plan.replace)?;
    Ok(Made {
        data,
        meta,
        decoding: source,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn page(dir: &str, id: &str) -> PageRef {
        PageRef {
            dir: PathBuf::from(dir),
            set: format!("set {dir}"),
            id: id.to_string(),
        }
    }

    #[test]
    fn a_set_counts_the_pages_trained_on_and_lists_those_left_out() {
        let plan = Plan {
            threshold_folds: 0,
            parallel_folds: 1,
            folders: vec![PathBuf::from("a"), PathBuf::from("b"), PathBuf::from("c")],
            split: Some("dev".into()),
            left_out: vec![(page("a", "x"), "not a valid record".into())],
            notes: String::new(),
            replace: Replace::OnlyBundle,
        };
        // `z` of `a` is given to the training, which cannot read it; `b` also has an `x`.
        let used = [page("a", "y"), page("a", "z"), page("b", "x")];
        let skipped = [(page("a", "z"), "changed since annotated".to_string())];
        let sets = plan.training_sets(&used, &skipped);
        let left = |s: &TrainingSet| -> Vec<(String, String)> {
            s.left_out
                .iter()
                .map(|l| (l.id.clone(), l.reason.clone()))
                .collect()
        };
        assert_eq!((sets[0].path.as_str(), sets[0].pages), ("a", 1));
        assert_eq!(sets[0].source, "set a");
        assert_eq!(sets[0].split, "dev");
        assert_eq!(
            left(&sets[0]),
            [
                ("x".to_string(), "not a valid record".to_string()),
                ("z".to_string(), "changed since annotated".to_string())
            ]
        );
        assert_eq!((sets[1].pages, left(&sets[1]).len()), (1, 0));
        // A folder without pages: none trained on, and no set name.
        assert_eq!((sets[2].pages, sets[2].source.as_str()), (0, ""));
    }

    #[test]
    fn one_fold_is_refused_and_none_or_two_are_taken() {
        assert!(matches!(
            check_threshold_folds(1),
            Err(TrainError::Folds(1))
        ));
        assert_eq!(check_threshold_folds(0).ok(), Some(0));
        assert_eq!(check_threshold_folds(5).ok(), Some(5));
    }
}

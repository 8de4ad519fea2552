//! Training a bundle, or adapting one to your pages, from a program (the `train` feature).
//!
//! [`adapt`] is `victor train PAGES --adapt BASE --out DIR`, [`train`] is `victor train PAGES
//! --out DIR [--like BUNDLE]`: the pages are annotated folders (`annotations/README.md`), every
//! page is checked before any work ([`usable_pages`]), and the bundle is written atomically by
//! [`Recipe::make`], the one assembly that the command line (`victor train`, `victor cv`), the
//! Python package and the annotation tool's adaptation loop all run: [`AdaptSettings::adapt`]
//! makes the adaptation of a loaded bundle, [`Recipe::adapting`] the recipe that adapts it.
//!
//! ```no_run
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! use std::path::Path;
//! let made = victor::train::adapt(
//!     &[Path::new("my-annotations")],
//!     Path::new("web"),
//!     Path::new("models/mine"),
//!     &victor::train::AdaptOptions::default(),
//! )?;
//! println!("{} pages; adapted from {:?}", made.data.pages, made.meta.origin);
//! let _cleaner = victor::Cleaner::open(Path::new("models/mine"))?;
//! # Ok(()) }
//! ```

use std::path::{Path, PathBuf};

use victor_annotations::{Corpus, PageRef};
pub use victor_features::{DEFAULT_TEMPLATE, Extractor, FeatureConfig, Template};
pub use victor_label::{
    DecodingRecommendation, META_FILE, MODEL_FILE, RecommendedDecoding, SetWeight,
};
pub use victor_train::{
    Adapt, AdaptDecoding, AdaptSettings, Algorithm, BadPage, Base, BoostOptions, CvEvent,
    DEFAULT_LEAF_PRIOR, DEFAULT_PRIOR, DEFAULT_TREES, DataSummary, DecodingSource, Engine, Event,
    MIN_CV_PAGES, Made, MakeEvent, Plan, Recipe, Replace, Setup, TrainError, TrainOptions,
    Unusable, UnusableWhy, check_replaceable, check_threshold_folds, export_crfsuite, like_boost,
    train_bundle, usable_pages,
};

use crate::models::{self, ModelError};

/// Where a bundle's feature extraction comes from ([`Prepared::new`]).
#[derive(Clone, Debug)]
pub enum Start {
    /// Adapting the bundle named (a folder or a name, as [`models::open`] takes it) with these
    /// settings: its feature configuration and template (`victor train --adapt`).
    Adapt(PathBuf, AdaptSettings),
    /// The feature configuration, template and boosted trees' settings recorded in the bundle
    /// named (`--like`): its recipe retrained as it was.
    Like(PathBuf),
    /// A feature configuration and the text of a template (`--config`, `--template`).
    Given(Box<FeatureConfig>, String),
}

/// Why a recipe could not be prepared.
#[derive(Debug, thiserror::Error)]
pub enum PrepareError {
    /// The bundle to adapt cannot be found or loaded.
    #[error("the bundle to adapt")]
    Adapt(#[source] ModelError),
    /// The bundle to train like cannot be found or loaded.
    #[error("the bundle to train like")]
    Like(#[source] ModelError),
    /// The feature configuration is invalid.
    #[error("invalid feature configuration")]
    Config(#[source] victor_features::ConfigError),
    /// The template is invalid.
    #[error("invalid template")]
    Template(#[source] victor_features::TemplateError),
}

/// A recipe's parts, owned: the feature extractor, the template and the training options
/// ([`Prepared::recipe`] lends them as a [`Recipe`]).
#[derive(Debug)]
pub struct Prepared {
    /// The feature extractor.
    pub extractor: Extractor,
    /// The template.
    pub template: Template,
    /// The training options (with [`TrainOptions::adapt`] when adapting).
    pub opts: TrainOptions,
}

impl Prepared {
    /// The recipe that `start` gives, with the training options `opts`: adapting sets their
    /// [`TrainOptions::adapt`], training like a bundle that has boosted trees takes its trees'
    /// settings unless `opts` has some.
    ///
    /// # Errors
    ///
    /// [`PrepareError`]: a bundle that does not load, an invalid configuration or template.
    pub fn new(start: Start, mut opts: TrainOptions) -> Result<Prepared, PrepareError> {
        let (config, text) = match start {
            Start::Adapt(name, settings) => {
                let (model, image) = models::open_with_image(&name).map_err(PrepareError::Adapt)?;
                // Named as the user named it (`web`); the digest says which bundle it was.
                opts.adapt = Some(settings.adapt(&model, name.display().to_string(), image));
                (model.meta.features, model.meta.template)
            }
            Start::Like(name) => {
                let meta = models::open(&name).map_err(PrepareError::Like)?.meta;
                opts.boost = opts.boost.or_else(|| like_boost(&meta));
                (meta.features, meta.template)
            }
            Start::Given(config, text) => (*config, text),
        };
        let extractor = Extractor::new(&config).map_err(PrepareError::Config)?;
        let template =
            Template::parse(&text, extractor.schema()).map_err(PrepareError::Template)?;
        Ok(Prepared {
            extractor,
            template,
            opts,
        })
    }

    /// The recipe, as [`Recipe::make`] and the cross-validation take it.
    pub fn recipe(&self) -> Recipe<'_> {
        Recipe {
            setup: Setup {
                extractor: &self.extractor,
                template: &self.template,
            },
            opts: self.opts.clone(),
        }
    }
}

/// Why a bundle could not be trained or adapted.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The annotated folders could not be listed.
    #[error("cannot open annotated pages: {0}")]
    Annotations(#[from] victor_annotations::LoadError),
    /// No page in them.
    #[error("no annotated pages in {0}")]
    NoPages(String),
    /// Some pages cannot be used (each with its reason) and they were not to be skipped.
    #[error("{} annotated pages cannot be used: {}", .0.len(), describe(.0))]
    BadPages(Vec<(String, String)>),
    /// The base bundle (or `like`) cannot be found or loaded.
    #[error(transparent)]
    Model(#[from] ModelError),
    /// Its feature configuration or template does not load.
    #[error(transparent)]
    Bundle(#[from] victor_label::BundleError),
    /// Training failed (or writing the bundle).
    #[error(transparent)]
    Train(#[from] TrainError),
}

/// The first few bad pages, for a message.
fn describe(bad: &[(String, String)]) -> String {
    let mut s: Vec<String> = bad
        .iter()
        .take(3)
        .map(|(id, why)| format!("{id}: {why}"))
        .collect();
    if bad.len() > 3 {
        s.push(format!("and {} more", bad.len() - 3));
    }
    s.join("; ")
}

/// How [`adapt`] adapts.
#[derive(Clone, Debug)]
pub struct AdaptOptions {
    /// The adaptation's settings (`victor train --prior`, `--adapt-trees`, `--adapt-leaf-prior`,
    /// `--adapt-decoding`, `--no-gate`).
    pub adapt: AdaptSettings,
    /// Folds of the cross-validation that chooses the decoding (`--threshold-folds`): 0 (none)
    /// or at least 2, checked as the command line checks it
    /// ([`check_threshold_folds`]).
    pub folds: usize,
    /// Folds trained at once.
    pub parallel_folds: usize,
    /// Leave out pages that cannot be used instead of failing (`--skip-bad-pages`).
    pub skip_bad_pages: bool,
    /// Write into a folder that holds other files too (`--force`); a bundle is replaced
    /// either way.
    pub force: bool,
    /// Notes stored in `victor.json`.
    pub notes: String,
}

impl Default for AdaptOptions {
    fn default() -> Self {
        AdaptOptions {
            adapt: AdaptSettings::default(),
            folds: 5,
            parallel_folds: 2,
            skip_bad_pages: false,
            force: false,
            notes: String::new(),
        }
    }
}

/// How [`train`] trains from zero.
#[derive(Clone, Debug)]
pub struct TrainSettings {
    /// Take the feature configuration and template of this bundle (`--like`); none: the
    /// built-in defaults.
    pub like: Option<PathBuf>,
    /// The L2 penalty (`--c2`).
    pub c2: f64,
    /// Boosted trees (`--boost`); with `like`, a bundle that has them passes its settings on
    /// when this is `None`.
    pub boost: Option<BoostOptions>,
    /// Folds of the cross-validation that chooses the decoding (`--threshold-folds`): 0 (none)
    /// or at least 2, checked as the command line checks it
    /// ([`check_threshold_folds`]).
    pub folds: usize,
    /// Folds trained at once.
    pub parallel_folds: usize,
    /// Leave out pages that cannot be used instead of failing.
    pub skip_bad_pages: bool,
    /// Write into a folder that holds other files too.
    pub force: bool,
    /// Notes stored in `victor.json`.
    pub notes: String,
}

impl Default for TrainSettings {
    fn default() -> Self {
        TrainSettings {
            like: None,
            c2: TrainOptions::default().c2,
            boost: None,
            folds: 5,
            parallel_folds: 2,
            skip_bad_pages: false,
            force: false,
            notes: String::new(),
        }
    }
}

/// The pages of `dirs`, checked: bad ones are an error, or left out with `skip` (and returned
/// apart, with why, for `victor.json` to record).
fn usable_pages_in(dirs: &[&Path], skip: bool) -> Result<(Vec<PageRef>, LeftOut), Error> {
    let corpus = Corpus::open(dirs, None)?;
    if corpus.is_empty() {
        return Err(Error::NoPages(
            dirs.iter()
                .map(|d| d.display().to_string())
                .collect::<Vec<_>>()
                .join(", "),
        ));
    }
    let (pages, bad) = usable_pages(corpus.pages(), skip)
        .map_err(|e| Error::BadPages(e.bad.into_iter().map(|(p, why)| (p.id, why)).collect()))?;
    Ok((pages, bad))
}

/// Pages left out before a training, with why.
type LeftOut = Vec<BadPage>;

/// How the bundle of `dirs` is made, the pages `left_out` recorded with their folders.
fn plan(
    dirs: &[&Path],
    folds: usize,
    parallel_folds: usize,
    left_out: LeftOut,
    notes: &str,
    force: bool,
) -> Plan {
    Plan {
        threshold_folds: folds,
        parallel_folds: parallel_folds.max(1),
        folders: dirs.iter().map(|d| d.to_path_buf()).collect(),
        split: None,
        left_out,
        notes: notes.to_string(),
        replace: Replace::forced(force),
    }
}

/// Adapts the bundle `base` (a folder or a name, as [`models::open`] takes it) to the
/// annotated pages in `dirs`, and writes the new bundle to `out` (see the module's docs).
///
/// # Errors
///
/// [`Error`]: no or bad pages, a base that does not load, a failed training, or a destination
/// that holds something other than a bundle (unless `force`).
pub fn adapt(dirs: &[&Path], base: &Path, out: &Path, o: &AdaptOptions) -> Result<Made, Error> {
    adapt_with(dirs, base, out, o, &|_| {})
}

/// [`adapt`], with its progress ([`MakeEvent`]) reported to `on`.
///
/// # Errors
///
/// As [`adapt`].
pub fn adapt_with(
    dirs: &[&Path],
    base: &Path,
    out: &Path,
    o: &AdaptOptions,
    on: &(dyn Fn(MakeEvent) + Sync),
) -> Result<Made, Error> {
    // The folds first: a bad argument is refused before any page is read.
    check_threshold_folds(o.folds)?;
    let (pages, left_out) = usable_pages_in(dirs, o.skip_bad_pages)?;
    let (model, image) = models::open_with_image(base)?;
    let adapt = o.adapt.adapt(&model, base.display().to_string(), image);
    let plan = plan(dirs, o.folds, o.parallel_folds, left_out, &o.notes, o.force);
    Ok(Recipe::adapting(&model, adapt).make(&pages, &plan, out, on)?)
}

/// Trains a bundle from zero on the annotated pages in `dirs` and writes it to `out`.
///
/// # Errors
///
/// As [`adapt`].
pub fn train(dirs: &[&Path], out: &Path, s: &TrainSettings) -> Result<Made, Error> {
    check_threshold_folds(s.folds)?;
    let (pages, left_out) = usable_pages_in(dirs, s.skip_bad_pages)?;
    let start = match &s.like {
        Some(b) => Start::Like(b.clone()),
        None => Start::Given(Box::default(), DEFAULT_TEMPLATE.to_string()),
    };
    let opts = TrainOptions {
        c2: s.c2,
        boost: s.boost.clone(),
        ..TrainOptions::default()
    };
    let prepared = Prepared::new(start, opts).map_err(|e| match e {
        PrepareError::Adapt(e) | PrepareError::Like(e) => Error::Model(e),
        PrepareError::Config(e) => Error::Bundle(victor_label::BundleError::Inconsistent(format!(
            "feature configuration: {e}"
        ))),
        PrepareError::Template(e) => Error::Bundle(victor_label::BundleError::Inconsistent(
            format!("template: {e}"),
        )),
    })?;
    let recipe = prepared.recipe();
    let plan = plan(dirs, s.folds, s.parallel_folds, left_out, &s.notes, s.force);
    Ok(recipe.make(&pages, &plan, out, &|_| {})?)
}

/// How the decoding of a new bundle was chosen, in one line (`victor train` prints it): the
/// recommended threshold and expected-F1 settings with their cross-validated figures, or why
/// the base's decoding was kept, or why none was chosen; `None` when the cross-validation
/// recommended nothing.
pub fn describe_decoding(
    chosen: Option<&DecodingRecommendation>,
    source: &DecodingSource,
) -> Option<String> {
    match (chosen, source) {
        (Some(t), DecodingSource::CrossValidated(folds, base)) => Some(format!(
            "recommended other-threshold {:.2} (text-level F1 {:.4} in {folds}-fold cross-validation; Viterbi {:.4}; expected-F1 decoding {:.4} with the marginals recalibrated by scale {} shift {} spread {} and at least {} words a page); default decoding: {}{}",
            t.value.get(),
            t.f1,
            t.viterbi_f1,
            t.expected_f1.unwrap_or(0.0),
            t.calibration.scale,
            t.calibration.shift,
            t.calibration.spread,
            t.min_words,
            match t.decoding {
                RecommendedDecoding::ExpectedF1 => "expected-f1",
                RecommendedDecoding::Threshold => "threshold",
            },
            base.map(|b| format!(" (the adapted bundle's decoding scored {b:.4})"))
                .unwrap_or_default()
        )),
        // The base's decoding kept, measured by the cross-validation or not: the reason says
        // which.
        (_, DecodingSource::Base(why)) => Some(format!("decoding: {why}")),
        (_, DecodingSource::None(why)) => Some(format!("decoding not cross-validated: {why}")),
        (None, DecodingSource::CrossValidated(..)) => None,
    }
}

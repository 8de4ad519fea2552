//! `victor train`: annotated pages -> a CRF model bundle (model.crfsuite + victor.json).

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Context;
use victor_annotations::{Corpus, PageRef};
use victor_features::{Extractor, Template};
use victor_label::{RecommendedDecoding, TrainingSet};
use victor_train::BoostOptions;
use victor_train::export_crfsuite;
use victor_train::{Algorithm, Engine, Event, Setup, TrainError, TrainOptions, train_crf};
use victor_train::{CvEvent, cross_validate};
use victor_train::{Replace, check_replaceable, make_meta, write_bundle_replacing};
use victor_train::{merge_folds, recommend, threshold_cv};

use crate::util::{capture::Capture, progress};

/// Training options shared by `victor train` and `victor cv`.
#[derive(clap::Args, Debug, Clone)]
pub(crate) struct TrainArgs {
    /// CRF++ template (default: the built-in templates/default.tpl).
    #[arg(long, value_name = "FILE")]
    pub template: Option<PathBuf>,
    /// Feature configuration (default: the built-in templates/features.json).
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// Take the feature configuration and the template recorded in this model bundle (a folder
    /// with victor.json, or a name as --model takes it: `--like corpus`): retrains a bundle's
    /// recipe as it was, whatever the files in templates/ say now.
    #[arg(long, value_name = "BUNDLE", conflicts_with_all = ["template", "config"])]
    pub like: Option<PathBuf>,
    /// Training algorithm.
    #[arg(long, value_enum, default_value_t = TrainOptions::default().algorithm)]
    pub algorithm: Algorithm,
    /// L-BFGS implementation (other algorithms always use crfs): `parallel` runs on all cores.
    #[arg(long, value_enum, default_value_t = TrainOptions::default().engine)]
    pub trainer: Engine,
    /// L1 penalty (L-BFGS only; > 0 prunes features, making smaller models).
    #[arg(long, default_value_t = TrainOptions::default().c1)]
    pub c1: f64,
    /// L2 penalty (L-BFGS and L2-SGD).
    #[arg(long, default_value_t = TrainOptions::default().c2)]
    pub c2: f64,
    /// Iteration limit.
    #[arg(long, default_value_t = TrainOptions::default().max_iterations)]
    pub max_iterations: usize,
    /// Drop features seen fewer times than this.
    #[arg(long, default_value_t = TrainOptions::default().min_freq)]
    pub min_freq: f64,
    /// Only pages of this split (`dev`, `test`) where the annotations record one.
    #[arg(long)]
    pub split: Option<String>,
    /// Also fit boosted trees over the blocks' raw feature values and blend their P(other) into
    /// the CRF's marginals (thresholds and expected-F1 decoding use the blend; Viterbi stays the
    /// CRF's). With --like, a bundle that has them passes its settings on, unless --boost is
    /// given: then the --boost-* options below apply.
    #[arg(long)]
    pub boost: bool,
    /// Trees of the boosted forest.
    #[arg(long, default_value_t = BoostOptions::default().trees, value_name = "N", requires = "boost")]
    pub boost_trees: usize,
    /// Depth limit of each tree (1 to 15).
    #[arg(long, default_value_t = default_boost_depth(), value_name = "N", requires = "boost",
          value_parser = clap::value_parser!(u8).range(1..=15))]
    pub boost_depth: u8,
    /// Shrinkage of each tree.
    #[arg(long, default_value_t = BoostOptions::default().learning_rate, value_name = "RATE", requires = "boost")]
    pub boost_learning_rate: f64,
    /// Weight of the trees' log-odds in the blend with the CRF's (0 to 1).
    #[arg(long, default_value_t = BoostOptions::default().weight, value_name = "W", value_parser = unit_interval, requires = "boost")]
    pub boost_weight: f64,
}

/// [`BoostOptions::default`]'s depth limit, as `--boost-depth` takes it.
fn default_boost_depth() -> u8 {
    u8::try_from(BoostOptions::default().max_depth).unwrap_or(u8::MAX)
}

/// Parses a number between 0 and 1.
fn unit_interval(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(v) if (0.0..=1.0).contains(&v) => Ok(v),
        _ => Err(format!("{s:?} is not a number between 0 and 1")),
    }
}

/// Everything a training needs, loaded and checked.
pub(crate) struct Loaded {
    pub extractor: Extractor,
    pub template: Template,
    pub opts: TrainOptions,
    pub corpus: Corpus,
}

impl Loaded {
    /// The feature extractor and template, as the trainer takes them.
    pub(crate) fn setup(&self) -> Setup<'_> {
        Setup {
            extractor: &self.extractor,
            template: &self.template,
        }
    }
}

impl TrainArgs {
    /// Loads configuration, template and the page list.
    pub(crate) fn load(&self, annotations: &[PathBuf]) -> anyhow::Result<Loaded> {
        let mut like_boost = None;
        let (config, text) = match &self.like {
            Some(dir) => {
                // A folder or a name, as --model takes it (`--like corpus`).
                let meta = victor::models::open(dir).context("--like")?.meta;
                like_boost = meta.boost.map(|b| BoostOptions {
                    trees: b.trees,
                    max_depth: b.max_depth,
                    learning_rate: b.learning_rate,
                    weight: b.weight,
                });
                (meta.features, meta.template)
            }
            None => (
                super::features::load_config(self.config.as_deref())?,
                match &self.template {
                    None => victor_features::DEFAULT_TEMPLATE.to_string(),
                    Some(p) => std::fs::read_to_string(p)
                        .with_context(|| format!("cannot read template {}", p.display()))?,
                },
            ),
        };
        let extractor = Extractor::new(&config).context("invalid feature configuration")?;
        let template = Template::parse(&text, extractor.schema()).context("invalid template")?;
        let opts = TrainOptions {
            algorithm: self.algorithm,
            c1: self.c1,
            c2: self.c2,
            max_iterations: self.max_iterations,
            min_freq: self.min_freq,
            verbose: false,
            engine: self.trainer,
            boost: if self.boost {
                Some(BoostOptions {
                    trees: self.boost_trees,
                    max_depth: usize::from(self.boost_depth),
                    learning_rate: self.boost_learning_rate,
                    weight: self.boost_weight,
                })
            } else {
                like_boost
            },
        };
        let corpus = Corpus::open(annotations, self.split.as_deref())
            .context("cannot open annotated pages")?;
        if corpus.is_empty() {
            anyhow::bail!(
                "no annotated pages in {}{}",
                crate::util::inputs::joined(annotations),
                self.split
                    .as_ref()
                    .map(|s| format!(" (split {s})"))
                    .unwrap_or_default()
            );
        }
        Ok(Loaded {
            extractor,
            template,
            opts,
            corpus,
        })
    }
}

/// Train a CRF model bundle from annotated pages.
///
/// Writes OUT/model.crfsuite (a CRFsuite model, loadable by CRFsuite's own tools) and
/// OUT/victor.json (feature configuration, template, labels, training parameters, data
/// provenance, and the recommended other-threshold chosen by cross-validation on the training
/// pages).
#[derive(clap::Args, Debug)]
pub(crate) struct Args {
    /// Folders of annotated pages (see annotations/README.md).
    #[arg(required = true)]
    annotations: Vec<PathBuf>,
    /// The bundle folder to write (e.g. models/mine). It may exist only as an empty folder or as
    /// a victor bundle (victor.json and model.crfsuite), which is replaced; a folder holding
    /// anything else is refused, unless --force; a file is always refused.
    #[arg(long, value_name = "DIR", required_unless_present = "export_crfsuite")]
    out: Option<PathBuf>,
    /// Write the bundle into --out even if the folder holds other files: victor.json and
    /// model.crfsuite are replaced, each atomically, and nothing else in the folder is touched.
    #[arg(long)]
    force: bool,
    /// Instead of training, write the training data to FILE in CRFsuite's text format and exit
    /// (no bundle; --out is not needed). One line per block: the label, then its attributes,
    /// tab-separated (`\` and `:` in names escaped with a backslash, value 1 omitted); an empty
    /// line after each page. For comparing trainers on the same data
    /// (scripts/bench_crfsuite.py).
    #[arg(long, value_name = "FILE")]
    export_crfsuite: Option<PathBuf>,
    #[command(flatten)]
    train: TrainArgs,
    /// Folds of the cross-validation that picks the recommended threshold (0: none; the bundle
    /// then decodes with Viterbi by default).
    #[arg(long, default_value_t = 5, value_parser = crate::util::values::folds_or_none)]
    threshold_folds: usize,
    /// Folds trained at the same time during that cross-validation.
    #[arg(long, default_value_t = 2, value_parser = crate::util::values::at_least_one)]
    parallel_folds: usize,
    /// Notes stored in victor.json (recipe, intended use).
    #[arg(long, default_value = "")]
    notes: String,
    /// No progress display.
    #[arg(long, short)]
    quiet: bool,
}

pub(crate) fn training_sets(
    corpus: &Corpus,
    dirs: &[PathBuf],
    split: Option<&str>,
) -> Vec<TrainingSet> {
    dirs.iter()
        .map(|d| {
            let pages = corpus.pages().iter().filter(|p| p.dir == *d).count();
            let source = corpus
                .pages()
                .iter()
                .find(|p| p.dir == *d)
                .map(|p| p.set.clone())
                // A folder without pages has no set name: the row says so with `""`.
                .unwrap_or_default();
            TrainingSet {
                path: d.display().to_string(),
                source,
                // No --split: every page, written as `""`.
                split: split.unwrap_or("").to_string(),
                pages,
            }
        })
        .collect()
}

/// Runs the subcommand.
pub(crate) fn run(args: Args) -> anyhow::Result<ExitCode> {
    let l = args.train.load(&args.annotations)?;
    let setup = l.setup();
    let pages = l.corpus.pages();
    eprintln!(
        "victor train: {} annotated pages, algorithm {}, template of {} lines",
        pages.len(),
        l.opts.algorithm.as_str(),
        l.template.lines().len()
    );
    if let Some(file) = &args.export_crfsuite {
        return export(file, pages, setup, args.quiet);
    }
    let Some(out) = args.out.as_deref() else {
        anyhow::bail!("--out DIR is required");
    };
    let replace = if args.force {
        Replace::Anything
    } else {
        Replace::OnlyBundle
    };
    // Before the training, not after it: a refusal costs nothing.
    check_out(out, replace)?;

    let threshold = if args.threshold_folds >= 2 {
        let bar = progress::bar(args.threshold_folds as u64, "folds", args.quiet);
        bar.set_message("threshold cv");
        let cv = threshold_cv(args.threshold_folds, args.parallel_folds);
        let results = cross_validate(pages, setup, &l.opts, &cv, &|e| match e {
            CvEvent::FoldDone { .. } => bar.inc(1),
            CvEvent::Skipped { .. } | CvEvent::Folds { .. } => {}
        })?;
        bar.finish_and_clear();
        let all = merge_folds(&results, &cv);
        let chosen = recommend(&all, args.threshold_folds);
        if let Some(t) = &chosen {
            let raw_expected_f1 = all.expected_text.macro_avg().map_or(0.0, |p| p.f1);
            eprintln!(
                "victor train: recommended other-threshold {:.2} (text-level F1 {:.4} in {}-fold cross-validation; Viterbi {:.4}; expected-F1 decoding {raw_expected_f1:.4}, {:.4} with the marginals recalibrated by scale {} shift {} spread {} and at least {} words a page); default decoding: {}",
                t.value.get(),
                t.f1,
                args.threshold_folds,
                t.viterbi_f1,
                t.expected_f1.unwrap_or(0.0),
                t.calibration.scale,
                t.calibration.shift,
                t.calibration.spread,
                t.min_words,
                match t.decoding {
                    RecommendedDecoding::ExpectedF1 => "expected-f1",
                    RecommendedDecoding::Threshold => "threshold",
                }
            );
        }
        chosen
    } else {
        None
    };

    let tmp = tempfile::tempdir().context("cannot create a temporary folder")?;
    let model_path = tmp.path().join("model.crfsuite");
    let bar = progress::bar(pages.len() as u64, "pages", args.quiet);
    bar.set_message("features");
    let skipped = std::sync::Mutex::new(Vec::new());
    let iter_bar = progress::bar(l.opts.max_iterations as u64, "iterations", args.quiet);
    iter_bar.set_message("optimising");
    let mut opts = l.opts.clone();
    opts.verbose = !args.quiet;
    let capture = std::sync::Mutex::new(None);
    let data = train_crf(pages, setup, &opts, &model_path, &|e| match e {
        Event::Extracted { done, .. } => bar.set_position(done as u64),
        Event::Skipped { id, reason } => {
            progress::note(&bar, &format!("victor: skipped page {id}: {reason}"));
            if let Ok(mut s) = skipped.lock() {
                s.push(id);
            }
        }
        Event::Optimising { pages, blocks } => {
            bar.finish_and_clear();
            eprintln!("victor train: optimising on {pages} pages, {blocks} blocks");
            if !args.quiet {
                iter_bar.reset_elapsed();
                if let (Ok(c), Ok(mut slot)) = (Capture::start(iter_bar.clone()), capture.lock()) {
                    *slot = Some(c);
                }
            }
        }
        Event::Boosting { blocks } => {
            iter_bar.finish_and_clear();
            eprintln!("victor train: fitting boosted trees on {blocks} blocks");
        }
    });
    if let Ok(mut slot) = capture.lock() {
        drop(slot.take());
    }
    iter_bar.finish_and_clear();
    let data = data?;
    let sets = training_sets(&l.corpus, &args.annotations, args.train.split.as_deref());
    let meta = make_meta(setup, &opts, &data, sets, threshold, args.notes.clone());
    write_bundle_replacing(out, &meta, &model_path, replace).map_err(|e| hint_force(e, replace))?;
    let size = std::fs::metadata(out.join("model.crfsuite"))
        .map(|m| m.len())
        .unwrap_or(0);
    eprintln!(
        "victor train: wrote {} ({} pages, {} blocks, {:.1} s optimising, model {:.1} MB){}",
        out.display(),
        data.pages,
        data.blocks,
        data.seconds,
        size as f64 / 1e6,
        if data.skipped.is_empty() {
            String::new()
        } else {
            format!("; {} pages skipped", data.skipped.len())
        }
    );
    Ok(ExitCode::SUCCESS)
}

/// Checks that a bundle may be written at `dir` (see [`check_replaceable`]), saying how to
/// override a refusal.
pub(crate) fn check_out(dir: &Path, replace: Replace) -> anyhow::Result<()> {
    check_replaceable(dir, replace).map_err(|e| hint_force(e, replace))
}

/// The error, with "--force" named when it would have let the bundle be written.
pub(crate) fn hint_force(e: TrainError, replace: Replace) -> anyhow::Error {
    match e {
        TrainError::NotABundle { .. } if replace == Replace::OnlyBundle => {
            anyhow::anyhow!("{e} (--force replaces it anyway)")
        }
        e => e.into(),
    }
}

/// `--export-crfsuite`: the training data in CRFsuite's text format, no training.
fn export(
    file: &Path,
    pages: &[PageRef],
    setup: Setup<'_>,
    quiet: bool,
) -> anyhow::Result<ExitCode> {
    let bar = progress::bar(pages.len() as u64, "pages", quiet);
    bar.set_message("export");
    let data = export_crfsuite(pages, setup, file, &|e| match e {
        Event::Extracted { done, .. } => bar.set_position(done as u64),
        Event::Skipped { id, reason } => {
            progress::note(&bar, &format!("victor: skipped page {id}: {reason}"));
        }
        Event::Optimising { .. } | Event::Boosting { .. } => {}
    });
    bar.finish_and_clear();
    let data = data?;
    eprintln!(
        "victor train: wrote {} in CRFsuite's format ({} pages, {} blocks; data digest {}; not trained){}",
        file.display(),
        data.pages,
        data.blocks,
        data.digest,
        if data.skipped.is_empty() {
            String::new()
        } else {
            format!("; {} pages skipped", data.skipped.len())
        }
    );
    Ok(ExitCode::SUCCESS)
}

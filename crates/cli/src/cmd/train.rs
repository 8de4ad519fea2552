//! `victor train`: annotated pages -> a CRF model bundle (model.crfsuite + victor.json).

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Mutex;

use anyhow::Context;
use indicatif::ProgressBar;
use victor::annotations::{Corpus, PageRef};
use victor::train::{
    AdaptSettings, Algorithm, BadPage, BoostOptions, CvEvent, Engine, Event, MakeEvent, Plan,
    PrepareError, Prepared, Replace, Setup, Start, TrainError, TrainOptions, UnusableWhy,
    check_replaceable, export_crfsuite,
};

use crate::util::streams::say;
use crate::util::{capture::Capture, progress, values, words};

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
    /// Adapt this trained bundle to the pages instead of training from zero (a folder or a
    /// name, as --model takes it: `--adapt web`). The new bundle keeps its features, bins,
    /// template and labels; its CRF weights are fitted with a Gaussian prior centred on the
    /// bundle's (see --prior), its boosted trees are kept and extended on the pages (see
    /// --adapt-trees). Its decoding is the bundle's, measured on the pages by cross-validation
    /// (--adapt-decoding pages takes the best of the cross-validation instead; below 10 pages
    /// the bundle's is kept unmeasured). victor.json records the bundle adapted (name and
    /// digest) under `origin`.
    #[arg(long, value_name = "BUNDLE",
          conflicts_with_all = ["template", "config", "like", "boost", "c1", "c2", "algorithm", "trainer"])]
    pub adapt: Option<PathBuf>,
    /// Strength of the prior when adapting: the penalty is C * |w - w0|^2, w0 the adapted
    /// bundle's weights. Larger keeps closer to the bundle (forgets less of the rest of the
    /// web), smaller follows the pages more; `inf` keeps the bundle's CRF as it is, 0 ignores it.
    #[arg(long, value_name = "C", default_value_t = victor::train::DEFAULT_PRIOR,
          requires = "adapt", value_parser = values::non_negative)]
    pub prior: f64,
    /// Trees fitted on the pages after the adapted bundle's forest (0: its forest as it is).
    #[arg(long, value_name = "N", default_value_t = victor::train::DEFAULT_TREES, requires = "adapt",
          value_parser = values::count)]
    pub adapt_trees: usize,
    /// Precision of the prior at 0 on the further trees' leaves: larger keeps them closer to
    /// the adapted bundle's forest, smaller follows the pages more.
    #[arg(long, value_name = "L", default_value_t = victor::train::DEFAULT_LEAF_PRIOR,
          requires = "adapt", value_parser = values::non_negative)]
    pub adapt_leaf_prior: f64,
    /// Adapt without a gate: the adapted model applies to every page. By default it applies
    /// where pages are like the ones adapted on, and the labels of the bundle adapted from
    /// stand elsewhere (a copy of it is kept in the new bundle's base/).
    #[arg(long, requires = "adapt")]
    pub no_gate: bool,
    /// Which decoding the adapted bundle recommends: `base`, the adapted bundle's own (its
    /// figures measured on the pages by the cross-validation), or `pages`, the one that the
    /// cross-validation scores best on the pages.
    #[arg(long, value_enum, default_value_t = victor::train::AdaptDecoding::Base, requires = "adapt")]
    pub adapt_decoding: victor::train::AdaptDecoding,
    /// Training algorithm.
    #[arg(long, value_enum, default_value_t = TrainOptions::default().algorithm)]
    pub algorithm: Algorithm,
    /// L-BFGS implementation (other algorithms always use crfs): `parallel` runs on all cores.
    #[arg(long, value_enum, default_value_t = TrainOptions::default().engine)]
    pub trainer: Engine,
    /// L1 penalty (L-BFGS only; > 0 prunes features, making smaller models).
    #[arg(long, default_value_t = TrainOptions::default().c1, value_parser = values::non_negative_finite)]
    pub c1: f64,
    /// L2 penalty (L-BFGS and L2-SGD).
    #[arg(long, default_value_t = TrainOptions::default().c2, value_parser = values::non_negative_finite)]
    pub c2: f64,
    /// Iteration limit.
    #[arg(long, default_value_t = TrainOptions::default().max_iterations, value_parser = values::count)]
    pub max_iterations: usize,
    /// Drop features seen fewer times than this.
    #[arg(long, default_value_t = TrainOptions::default().min_freq, value_parser = values::non_negative_finite)]
    pub min_freq: f64,
    /// Only pages of this split (`dev`, `test`) where the annotations record one.
    #[arg(long)]
    pub split: Option<String>,
    /// Weigh the pages of one training set (its name in set.json) in the CRF's objective:
    /// `--set-weight wcxb=0.25` makes each of its pages count a quarter (repeatable; other sets
    /// 1; parallel L-BFGS only). Balances sets of different guidelines or sizes.
    #[arg(long, value_name = "NAME=W")]
    pub set_weight: Vec<victor::train::SetWeight>,
    /// Also fit boosted trees over the blocks' raw feature values and blend their P(other) into
    /// the CRF's marginals (thresholds and expected-F1 decoding use the blend; Viterbi stays the
    /// CRF's). With --like, a bundle that has them passes its settings on, unless --boost is
    /// given: then the --boost-* options below apply.
    #[arg(long)]
    pub boost: bool,
    /// Trees of the boosted forest.
    #[arg(long, default_value_t = BoostOptions::default().trees, value_name = "N", requires = "boost",
          value_parser = values::count)]
    pub boost_trees: usize,
    /// Depth limit of each tree (1 to 15).
    #[arg(long, default_value_t = default_boost_depth(), value_name = "N", requires = "boost",
          value_parser = clap::value_parser!(u8).range(1..=15))]
    pub boost_depth: u8,
    /// Shrinkage of each tree.
    #[arg(long, default_value_t = BoostOptions::default().learning_rate, value_name = "RATE", requires = "boost",
          value_parser = values::positive)]
    pub boost_learning_rate: f64,
    /// Weight of the trees' log-odds in the blend with the CRF's (0 to 1).
    #[arg(long, default_value_t = BoostOptions::default().weight, value_name = "W", value_parser = values::unit_interval, requires = "boost")]
    pub boost_weight: f64,
}

/// [`BoostOptions::default`]'s depth limit, as `--boost-depth` takes it.
fn default_boost_depth() -> u8 {
    u8::try_from(BoostOptions::default().max_depth).unwrap_or(u8::MAX)
}

/// Everything a training needs, loaded and checked: the recipe's parts and the pages.
pub(crate) struct Loaded {
    pub prepared: Prepared,
    pub corpus: Corpus,
}

impl TrainArgs {
    /// Loads configuration, template and the page list.
    pub(crate) fn load(&self, annotations: &[PathBuf]) -> anyhow::Result<Loaded> {
        let start = match (&self.adapt, &self.like) {
            (Some(name), _) => Start::Adapt(
                name.clone(),
                AdaptSettings {
                    prior: self.prior,
                    trees: self.adapt_trees,
                    leaf_prior: self.adapt_leaf_prior,
                    decoding: self.adapt_decoding,
                    gate: !self.no_gate,
                },
            ),
            // A folder or a name, as --model takes it (`--like corpus`).
            (None, Some(dir)) => Start::Like(dir.clone()),
            (None, None) => Start::Given(
                Box::new(victor::features::read_config(self.config.as_deref())?),
                victor::features::read_template(self.template.as_deref())?,
            ),
        };
        let opts = TrainOptions {
            algorithm: self.algorithm,
            c1: self.c1,
            c2: self.c2,
            max_iterations: self.max_iterations,
            min_freq: self.min_freq,
            verbose: false,
            engine: self.trainer,
            boost: self.boost.then(|| BoostOptions {
                trees: self.boost_trees,
                max_depth: usize::from(self.boost_depth),
                learning_rate: self.boost_learning_rate,
                weight: self.boost_weight,
            }),
            set_weights: self.set_weight.clone(),
            adapt: None,
        };
        let prepared = Prepared::new(start, opts).map_err(|e| match e {
            PrepareError::Adapt(e) => anyhow::Error::new(e).context("--adapt"),
            PrepareError::Like(e) => anyhow::Error::new(e).context("--like"),
            PrepareError::Config(e) => {
                anyhow::Error::new(e).context("invalid feature configuration")
            }
            PrepareError::Template(e) => anyhow::Error::new(e).context("invalid template"),
        })?;
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
        // A weight for a set that is not there is a typo, not a no-op.
        for w in &prepared.opts.set_weights {
            if !corpus.pages().iter().any(|p| p.set == w.set) {
                let mut names: Vec<&str> = corpus.pages().iter().map(|p| p.set.as_str()).collect();
                names.dedup();
                anyhow::bail!(
                    "--set-weight {}={}: no training set is named {:?} (the sets: {})",
                    w.set,
                    w.weight,
                    w.set,
                    names.join(", ")
                );
            }
        }
        Ok(Loaded { prepared, corpus })
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
    #[arg(long, default_value_t = 5, value_parser = values::folds_or_none)]
    threshold_folds: usize,
    /// Folds trained at the same time during that cross-validation.
    #[arg(long, default_value_t = 2, value_parser = values::at_least_one)]
    parallel_folds: usize,
    /// Notes stored in victor.json (recipe, intended use).
    #[arg(long, default_value = "")]
    notes: String,
    /// Leave out annotated pages that cannot be used (a malformed annotation, a page changed
    /// since it was annotated) instead of stopping: they are listed first either way.
    #[arg(long)]
    skip_bad_pages: bool,
    /// No progress display.
    #[arg(long, short)]
    quiet: bool,
}

/// The pages a run can use ([`victor::train::usable_pages`]), the bad ones said first (`victor
/// CMD: bad page ...`): they stop the run unless the user chose to leave them out (`skip`).
/// Returns the usable pages and those left out, with why.
pub(crate) fn usable_pages(
    all: &[PageRef],
    skip: bool,
    cmd: &str,
) -> anyhow::Result<(Vec<PageRef>, Vec<BadPage>)> {
    let sorted = victor::train::usable_pages(all, skip);
    let bad = match &sorted {
        Ok((_, bad)) => bad,
        Err(e) => &e.bad,
    };
    for (page, reason) in bad {
        say!("victor {cmd}: bad page {}: {reason}", page.id);
    }
    sorted.map_err(|e| match e.why {
        UnusableWhy::BadPages => {
            anyhow::anyhow!("{e} (above); fix them, or leave them out with --skip-bad-pages")
        }
        UnusableWhy::NoneLeft => e.into(),
    })
}

/// `N annotated pages` and, when some were, how many bad ones were left out.
pub(crate) fn pages_and_left_out(pages: usize, bad: usize, noun: &str) -> String {
    let mut s = words::count(pages, noun, &format!("{noun}s"));
    if bad > 0 {
        s.push_str(&format!(
            " ({} left out)",
            words::count(bad, "bad one", "bad ones")
        ));
    }
    s
}

/// Runs the subcommand.
pub(crate) fn run(args: Args) -> anyhow::Result<ExitCode> {
    let l = args.train.load(&args.annotations)?;
    let (pages, bad) = usable_pages(l.corpus.pages(), args.skip_bad_pages, "train")?;
    say!(
        "victor train: {}, {}, template of {}",
        pages_and_left_out(pages.len(), bad.len(), "annotated page"),
        match &l.prepared.opts.adapt {
            Some(a) => format!(
                "adapting {} (prior {}, {} added)",
                a.base.name,
                a.prior,
                words::count(a.trees, "tree", "trees")
            ),
            None => format!("algorithm {}", l.prepared.opts.algorithm.as_str()),
        },
        words::count(l.prepared.template.lines().len(), "line", "lines")
    );
    let mut recipe = l.prepared.recipe();
    if let Some(file) = &args.export_crfsuite {
        return export(file, &pages, recipe.setup, args.quiet);
    }
    let Some(out) = args.out.as_deref() else {
        anyhow::bail!("--out DIR is required");
    };
    let replace = Replace::forced(args.force);
    let plan = Plan {
        threshold_folds: args.threshold_folds,
        parallel_folds: args.parallel_folds,
        folders: args.annotations.clone(),
        split: args.train.split.clone(),
        left_out: bad,
        notes: args.notes.clone(),
        replace,
    };
    recipe.opts.verbose = !args.quiet;
    let bars = Bars::new(&args, pages.len(), recipe.opts.max_iterations);
    let made = recipe.make(&pages, &plan, out, &|e| bars.on(e));
    bars.finish();
    let made = made.map_err(|e| hint_force(e, replace))?;
    let data = &made.data;
    let size = std::fs::metadata(out.join(victor::train::MODEL_FILE))
        .map(|m| m.len())
        .unwrap_or(0);
    say!(
        "victor train: wrote {} ({}, {} blocks, {:.1} s optimising, model {:.1} MB){}",
        out.display(),
        words::pages(data.pages),
        data.blocks,
        data.seconds,
        size as f64 / 1e6,
        if data.skipped.is_empty() {
            String::new()
        } else {
            format!("; {} skipped", words::pages(data.skipped.len()))
        }
    );
    if let Some(o) = &made.meta.origin {
        say!("victor train: adapted from {}", o.describe());
    }
    Ok(ExitCode::SUCCESS)
}

/// The progress of a training: the folds of the decoding's cross-validation, then the final
/// training's pages and iterations (whose optimiser's lines are captured into the bar).
struct Bars {
    quiet: bool,
    pages: usize,
    iterations: usize,
    folds: ProgressBar,
    /// The pages' and the iterations' bars.
    training: Mutex<(ProgressBar, ProgressBar)>,
    capture: Mutex<Option<Capture>>,
}

impl Bars {
    fn new(args: &Args, pages: usize, iterations: usize) -> Bars {
        let folds = progress::bar(args.threshold_folds as u64, "folds", args.quiet);
        folds.set_message("threshold cv");
        let bar = progress::bar(pages as u64, "pages", true);
        let iter_bar = progress::bar(iterations as u64, "iterations", true);
        Bars {
            quiet: args.quiet,
            pages,
            iterations,
            folds,
            training: Mutex::new((bar, iter_bar)),
            capture: Mutex::new(None),
        }
    }

    fn on(&self, e: MakeEvent) {
        match e {
            MakeEvent::Cv(CvEvent::FoldDone { .. }) => self.folds.inc(1),
            MakeEvent::Cv(_) => {}
            MakeEvent::Decoding(chosen, source) => {
                self.folds.finish_and_clear();
                if let Some(line) = victor::train::describe_decoding(chosen.as_ref(), &source) {
                    say!("victor train: {line}");
                }
                // The final training's bars appear once the cross-validation's is gone.
                if let Ok(mut b) = self.training.lock() {
                    b.0 = progress::bar(self.pages as u64, "pages", self.quiet);
                    b.0.set_message("features");
                    b.1 = progress::bar(self.iterations as u64, "iterations", self.quiet);
                    b.1.set_message("optimising");
                }
            }
            MakeEvent::Train(e) => self.train(e),
        }
    }

    fn train(&self, e: Event) {
        let Ok(b) = self.training.lock() else { return };
        let (bar, iter_bar) = (&b.0, &b.1);
        match e {
            Event::Extracted { done, .. } => bar.set_position(done as u64),
            Event::Skipped { id, reason } => {
                progress::note(bar, &format!("victor: skipped page {id}: {reason}"));
            }
            Event::Optimising { pages, blocks } => {
                bar.finish_and_clear();
                say!(
                    "victor train: optimising on {}, {}",
                    words::pages(pages),
                    words::count(blocks, "block", "blocks")
                );
                if !self.quiet {
                    iter_bar.reset_elapsed();
                    if let (Ok(c), Ok(mut slot)) =
                        (Capture::start(iter_bar.clone()), self.capture.lock())
                    {
                        *slot = Some(c);
                    }
                }
            }
            Event::Boosting { blocks } => {
                if let Ok(mut slot) = self.capture.lock() {
                    drop(slot.take());
                }
                iter_bar.finish_and_clear();
                say!("victor train: fitting boosted trees on {blocks} blocks");
            }
        }
    }

    /// Ends the capture and clears every bar.
    fn finish(&self) {
        if let Ok(mut slot) = self.capture.lock() {
            drop(slot.take());
        }
        if let Ok(b) = self.training.lock() {
            b.0.finish_and_clear();
            b.1.finish_and_clear();
        }
    }
}

/// Checks that a bundle may be written at `dir` (see [`check_replaceable`]), saying how to
/// override a refusal.
pub(crate) fn check_out(dir: &Path, replace: Replace) -> anyhow::Result<()> {
    check_replaceable(dir, replace).map_err(|e| hint_force(e, replace))
}

/// The error, with "--force" named when it would have let the bundle be written.
pub(crate) fn hint_force(e: TrainError, replace: Replace) -> anyhow::Error {
    match e {
        TrainError::NotABundle { .. } if replace == Replace::OnlyBundle => anyhow::anyhow!(
            "{e} (--force writes the bundle's own two files, {} and {}, into it, replacing \
             files of those names, and keeps everything else)",
            victor::train::META_FILE,
            victor::train::MODEL_FILE
        ),
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
    say!(
        "victor train: wrote {} in CRFsuite's format ({}, {} blocks; data digest {}; not trained){}",
        file.display(),
        words::pages(data.pages),
        data.blocks,
        data.digest,
        if data.skipped.is_empty() {
            String::new()
        } else {
            format!("; {} skipped", words::pages(data.skipped.len()))
        }
    );
    Ok(ExitCode::SUCCESS)
}

//! One algorithm-independent trainer over [`ParallelTrainer`] and `crfs`'s trainers.
//!
//! L-BFGS runs on the parallel trainer of this crate by default ([`Engine::Parallel`]); crfs's
//! own L-BFGS stays available as the reference ([`Engine::Crfs`]), and the other algorithms
//! are crfs's. `crfs` has one trainer type per algorithm; [`CrfTrainer`] hides that behind one
//! enum so the rest of the crate (and the CLI's `--algorithm`) stays simple. crfs prints
//! progress lines with `println!` when verbose and offers no callback; the parallel trainer
//! prints the same lines; [`TrainOptions::verbose`] switches them on and the command line turns
//! them into a progress display (see `victor train`).

use std::path::Path;

use crfs::Attribute;
use crfs::train::{Arow, AveragedPerceptron, L2Sgd, Lbfgs, PassiveAggressive, Trainer};
use serde::{Deserialize, Serialize};

use crate::adapt::Adapt;
use crate::parallel::{LbfgsParams, ParallelError, ParallelTrainer};

/// Which implementation trains an L-BFGS model (the model file is the same format).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
#[serde(rename_all = "lowercase")]
pub enum Engine {
    /// The parallel, deterministic trainer of this crate; it also takes partial labels.
    #[default]
    Parallel,
    /// crfs's single-threaded trainer, kept as the reference.
    Crfs,
}

/// A training algorithm of CRFsuite.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
#[serde(rename_all = "lowercase")]
pub enum Algorithm {
    /// Limited-memory BFGS (OWL-QN when `c1 > 0`): maximum likelihood with L1/L2 penalties.
    #[default]
    Lbfgs,
    /// Stochastic gradient descent with an L2 penalty.
    L2sgd,
    /// Averaged perceptron.
    Ap,
    /// Passive aggressive.
    Pa,
    /// Adaptive regularization of weights.
    Arow,
}

impl Algorithm {
    /// The name used on the command line and in bundles.
    pub fn as_str(self) -> &'static str {
        match self {
            Algorithm::Lbfgs => "lbfgs",
            Algorithm::L2sgd => "l2sgd",
            Algorithm::Ap => "ap",
            Algorithm::Pa => "pa",
            Algorithm::Arow => "arow",
        }
    }
}

/// Training parameters.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TrainOptions {
    /// The algorithm.
    pub algorithm: Algorithm,
    /// L1 penalty (L-BFGS; > 0 switches to OWL-QN and prunes features).
    pub c1: f64,
    /// L2 penalty (L-BFGS and L2-SGD).
    pub c2: f64,
    /// Iteration (or epoch) limit.
    pub max_iterations: usize,
    /// Features seen fewer times than this are dropped before training.
    pub min_freq: f64,
    /// Let the trainer print its progress lines on standard output.
    pub verbose: bool,
    /// The L-BFGS implementation (other algorithms always use crfs).
    #[serde(default)]
    pub engine: Engine,
    /// Also fit boosted trees on the same blocks and blend them into the marginals
    /// (`crate::boost`).
    #[serde(default)]
    pub boost: Option<crate::boost::BoostOptions>,
    /// Weights of training sets' pages in the CRF's objective, by set name (other sets: 1;
    /// the boosted trees see every block once, whatever its set's weight).
    #[serde(default)]
    pub set_weights: Vec<victor_label::SetWeight>,
    /// Adapt a trained bundle instead of training from zero ([`Adapt`](crate::Adapt)): the penalty is
    /// centred on its weights with strength [`Adapt::prior`] (which replaces `c2`), and its
    /// forest is extended (parallel L-BFGS, no L1).
    #[serde(skip)]
    pub adapt: Option<Adapt>,
}

impl TrainOptions {
    /// The L2 penalty in effect: `c2`, or the prior's strength when adapting.
    pub fn penalty(&self) -> f64 {
        self.adapt.as_ref().map_or(self.c2, |a| a.prior)
    }

    /// The weight of a page of set `set` in the CRF's objective.
    pub fn weight_of(&self, set: &str) -> f64 {
        self.set_weights
            .iter()
            .find(|w| w.set == set)
            .map_or(1.0, |w| w.weight)
    }
}

impl Default for TrainOptions {
    fn default() -> Self {
        TrainOptions {
            algorithm: Algorithm::Lbfgs,
            c1: 0.0,
            c2: 1.0,
            max_iterations: 200,
            min_freq: 0.0,
            verbose: false,
            engine: Engine::Parallel,
            boost: None,
            set_weights: Vec::new(),
            adapt: None,
        }
    }
}

/// Errors of the CRF trainer (crfs reports I/O errors only).
#[derive(Debug, thiserror::Error)]
pub enum CrfError {
    /// crfs refused a parameter or the data, or failed writing the model.
    #[error("CRF trainer: {0}")]
    Crfs(#[from] std::io::Error),
    /// The parallel trainer failed.
    #[error("CRF trainer: {0}")]
    Parallel(#[from] ParallelError),
    /// Partial labels need the parallel L-BFGS trainer.
    #[error("CRF trainer: pages with unknown labels need --trainer parallel and lbfgs")]
    PartialUnsupported,
    /// A parameter out of range.
    #[error("CRF trainer: {0}")]
    Parameter(String),
}

/// crfs's trainers, one per algorithm.
enum Crfs {
    Lbfgs(Trainer<Lbfgs>),
    L2sgd(Trainer<L2Sgd>),
    Ap(Trainer<AveragedPerceptron>),
    Pa(Trainer<PassiveAggressive>),
    Arow(Trainer<Arow>),
}

enum Inner {
    /// The parallel trainer, its parameters, and whether to print progress lines.
    Parallel(Box<ParallelTrainer>, LbfgsParams, bool),
    Crfs(Crfs),
}

/// A CRF trainer: the parallel L-BFGS trainer or one of crfs's, chosen by [`Algorithm`] and
/// [`Engine`].
pub struct CrfTrainer {
    inner: Inner,
    sequences: usize,
}

impl std::fmt::Debug for CrfTrainer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CrfTrainer")
            .field("sequences", &self.sequences)
            .finish()
    }
}

macro_rules! each {
    ($c:expr, $t:ident => $e:expr) => {
        match $c {
            Crfs::Lbfgs($t) => $e,
            Crfs::L2sgd($t) => $e,
            Crfs::Ap($t) => $e,
            Crfs::Pa($t) => $e,
            Crfs::Arow($t) => $e,
        }
    };
}

/// crfs weighs every sequence alike: a weight other than 1 is refused.
fn unweighted(weight: f64) -> Result<(), CrfError> {
    if weight == 1.0 {
        Ok(())
    } else {
        Err(CrfError::Parameter(format!(
            "page weight {weight}: only the parallel L-BFGS trainer weighs pages (--trainer parallel)"
        )))
    }
}

impl CrfTrainer {
    /// A trainer with these options.
    pub fn new(o: &TrainOptions) -> Result<CrfTrainer, CrfError> {
        let iters = o.max_iterations.max(1);
        if let Some(a) = &o.adapt
            && (o.algorithm != Algorithm::Lbfgs || o.engine != Engine::Parallel || o.c1 != 0.0)
        {
            return Err(CrfError::Parameter(format!(
                "adapting {} needs the parallel L-BFGS trainer without an L1 penalty",
                a.base.name
            )));
        }
        if o.algorithm == Algorithm::Lbfgs && o.engine == Engine::Parallel {
            let c2 = o.penalty();
            if !(o.c1 >= 0.0 && c2 >= 0.0 && o.min_freq >= 0.0) {
                return Err(CrfError::Parameter(format!(
                    "c1 ({}), c2 ({c2}) and min_freq ({}) must be non-negative numbers",
                    o.c1, o.min_freq
                )));
            }
            let params = LbfgsParams {
                c1: o.c1,
                c2,
                max_iterations: iters,
                min_freq: o.min_freq,
                ..LbfgsParams::default()
            };
            let mut trainer = ParallelTrainer::new();
            if let Some(a) = &o.adapt {
                trainer.set_prior(&a.base.prior)?;
            }
            return Ok(CrfTrainer {
                inner: Inner::Parallel(Box::new(trainer), params, o.verbose),
                sequences: 0,
            });
        }
        let mut c = match o.algorithm {
            Algorithm::Lbfgs => Crfs::Lbfgs(
                Trainer::lbfgs()
                    .with_c1(o.c1)?
                    .with_c2(o.c2)?
                    .with_max_iterations(iters)?,
            ),
            Algorithm::L2sgd => {
                Crfs::L2sgd(Trainer::l2sgd().with_c2(o.c2)?.with_max_iterations(iters)?)
            }
            Algorithm::Ap => Crfs::Ap(Trainer::averaged_perceptron().with_max_iterations(iters)?),
            Algorithm::Pa => Crfs::Pa(Trainer::passive_aggressive().with_max_iterations(iters)?),
            Algorithm::Arow => Crfs::Arow(Trainer::arow().with_max_iterations(iters)?),
        };
        let verbose = o.verbose;
        each!(&mut c, x => { x.verbose(verbose); });
        let mf = o.min_freq;
        each!(&mut c, x => x.set_feature_minfreq(mf))?;
        Ok(CrfTrainer {
            inner: Inner::Crfs(c),
            sequences: 0,
        })
    }

    /// Adds one page: an attribute list and a label per block.
    pub fn append(&mut self, xseq: &[Vec<Attribute>], yseq: &[&str]) -> Result<(), CrfError> {
        self.add_page(
            xseq,
            |p| p.append(xseq, yseq),
            |c| Ok(each!(c, x => x.append(xseq, yseq))?),
        )
    }

    /// [`Self::append`], the page's negative log-likelihood counted `weight` times in the
    /// objective (the parallel trainer only: crfs refuses a weight other than 1).
    pub fn append_weighted(
        &mut self,
        xseq: &[Vec<Attribute>],
        yseq: &[&str],
        weight: f64,
    ) -> Result<(), CrfError> {
        self.add_page(
            xseq,
            |p| p.append_weighted(xseq, yseq, weight),
            |c| {
                unweighted(weight)?;
                Ok(each!(c, x => x.append(xseq, yseq))?)
            },
        )
    }

    /// Adds one page whose blocks may have an unknown label (`None`), its negative
    /// log-likelihood counted `weight` times as by [`Self::append_weighted`]; only the
    /// parallel trainer takes such pages. A fully labelled page is appended as by
    /// [`Self::append_weighted`].
    pub fn append_partial_weighted(
        &mut self,
        xseq: &[Vec<Attribute>],
        yseq: &[Option<&str>],
        weight: f64,
    ) -> Result<(), CrfError> {
        self.add_page(
            xseq,
            |p| p.append_partial_weighted(xseq, yseq, weight),
            |c| {
                unweighted(weight)?;
                let full: Option<Vec<&str>> = yseq.iter().copied().collect();
                let full = full.ok_or(CrfError::PartialUnsupported)?;
                Ok(each!(c, x => x.append(xseq, &full))?)
            },
        )
    }

    /// Adds a page through the trainer in use (`parallel` or `crfs` appends it) and counts
    /// it; an empty page (no blocks in `xseq`) is ignored.
    fn add_page(
        &mut self,
        xseq: &[Vec<Attribute>],
        parallel: impl FnOnce(&mut ParallelTrainer) -> Result<(), ParallelError>,
        crfs: impl FnOnce(&mut Crfs) -> Result<(), CrfError>,
    ) -> Result<(), CrfError> {
        if xseq.is_empty() {
            return Ok(());
        }
        match &mut self.inner {
            Inner::Parallel(p, ..) => parallel(p)?,
            Inner::Crfs(c) => crfs(c)?,
        }
        self.sequences += 1;
        Ok(())
    }

    /// Sequences appended so far.
    pub fn sequences(&self) -> usize {
        self.sequences
    }

    /// Trains and writes the CRFsuite model file.
    pub fn train(self, model: &Path) -> Result<(), CrfError> {
        match self.inner {
            Inner::Parallel(p, params, verbose) => {
                let out = p.train(&params, model, |iter, loss| {
                    if verbose {
                        // The line crfs prints, which `victor train` turns into its progress.
                        println!("Iteration {iter}: loss = {loss:.6}");
                    }
                })?;
                if verbose {
                    println!("Number of features: {}", out.features);
                    println!("Final loss: {:.6}", out.loss);
                    if out.delta_stop {
                        println!("Stopped by the delta test after {} steps", out.iterations);
                    }
                    if let Some(w) = out.warning {
                        println!("L-BFGS stopped early: {w}");
                    }
                }
            }
            Inner::Crfs(mut c) => each!(&mut c, x => x.train(model))?,
        }
        Ok(())
    }
}

//! A thin, algorithm-independent wrapper over `crfs`'s trainers.
//!
//! `crfs` has one trainer type per algorithm; [`CrfTrainer`] hides that behind one enum so the
//! rest of the crate (and the CLI's `--algorithm`) stays simple. crfs prints progress lines with
//! `println!` when verbose and offers no callback; [`TrainOptions::verbose`] switches them on
//! and the command line turns them into a progress display (see `victor train`).

use std::path::Path;
use std::str::FromStr;

use crfs::Attribute;
use crfs::train::{Arow, AveragedPerceptron, L2Sgd, Lbfgs, PassiveAggressive, Trainer};
use serde::{Deserialize, Serialize};

/// A training algorithm of CRFsuite.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
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

impl FromStr for Algorithm {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Ok(match s {
            "lbfgs" => Algorithm::Lbfgs,
            "l2sgd" => Algorithm::L2sgd,
            "ap" => Algorithm::Ap,
            "pa" => Algorithm::Pa,
            "arow" => Algorithm::Arow,
            _ => {
                return Err(format!(
                    "unknown algorithm {s:?} (lbfgs, l2sgd, ap, pa, arow)"
                ));
            }
        })
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
    /// Let crfs print its progress lines on standard output.
    pub verbose: bool,
    /// Also fit boosted trees on the same blocks and blend them into the marginals
    /// ([`crate::boost`]).
    #[serde(default)]
    pub boost: Option<crate::boost::BoostOptions>,
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
            boost: None,
        }
    }
}

/// Errors of the CRF trainer (crfs reports I/O errors only).
#[derive(Debug, thiserror::Error)]
pub enum CrfError {
    /// crfs refused a parameter or the data, or failed writing the model.
    #[error("CRF trainer: {0}")]
    Crfs(#[from] std::io::Error),
}

enum Inner {
    Lbfgs(Trainer<Lbfgs>),
    L2sgd(Trainer<L2Sgd>),
    Ap(Trainer<AveragedPerceptron>),
    Pa(Trainer<PassiveAggressive>),
    Arow(Trainer<Arow>),
}

/// One of crfs's trainers, chosen by [`Algorithm`].
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
    ($self:expr, $t:ident => $e:expr) => {
        match &mut $self.inner {
            Inner::Lbfgs($t) => $e,
            Inner::L2sgd($t) => $e,
            Inner::Ap($t) => $e,
            Inner::Pa($t) => $e,
            Inner::Arow($t) => $e,
        }
    };
}

impl CrfTrainer {
    /// A trainer with these options.
    pub fn new(o: &TrainOptions) -> Result<CrfTrainer, CrfError> {
        let iters = o.max_iterations.max(1);
        let inner = match o.algorithm {
            Algorithm::Lbfgs => Inner::Lbfgs(
                Trainer::lbfgs()
                    .with_c1(o.c1)?
                    .with_c2(o.c2)?
                    .with_max_iterations(iters)?,
            ),
            Algorithm::L2sgd => {
                Inner::L2sgd(Trainer::l2sgd().with_c2(o.c2)?.with_max_iterations(iters)?)
            }
            Algorithm::Ap => Inner::Ap(Trainer::averaged_perceptron().with_max_iterations(iters)?),
            Algorithm::Pa => Inner::Pa(Trainer::passive_aggressive().with_max_iterations(iters)?),
            Algorithm::Arow => Inner::Arow(Trainer::arow().with_max_iterations(iters)?),
        };
        let mut t = CrfTrainer {
            inner,
            sequences: 0,
        };
        let verbose = o.verbose;
        each!(t, x => { x.verbose(verbose); });
        let mf = o.min_freq;
        each!(t, x => x.set_feature_minfreq(mf))?;
        Ok(t)
    }

    /// Adds one page: an attribute list and a label per block.
    pub fn append(&mut self, xseq: &[Vec<Attribute>], yseq: &[&str]) -> Result<(), CrfError> {
        if xseq.is_empty() {
            return Ok(());
        }
        each!(self, x => x.append(xseq, yseq))?;
        self.sequences += 1;
        Ok(())
    }

    /// Sequences appended so far.
    pub fn sequences(&self) -> usize {
        self.sequences
    }

    /// Trains and writes the CRFsuite model file.
    pub fn train(mut self, model: &Path) -> Result<(), CrfError> {
        each!(self, x => x.train(model))?;
        Ok(())
    }
}

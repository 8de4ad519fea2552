//! The optimisation: L-BFGS (OWL-QN with an L1 penalty) with CRFsuite's parameters and stopping
//! rules, and training to a model file.

use std::path::Path;

use super::features::Model;
use super::{ParallelError, ParallelTrainer};

/// Optimisation parameters (CRFsuite's L-BFGS parameters and defaults).
#[derive(Clone, Debug, PartialEq)]
pub struct LbfgsParams {
    /// L1 penalty (> 0: OWL-QN).
    pub c1: f64,
    /// L2 penalty.
    pub c2: f64,
    /// Line-search steps at most (CRFsuite's `max_iterations`).
    pub max_iterations: usize,
    /// Features with a lower frequency are dropped.
    pub min_freq: f64,
    /// Stop when the gradient norm is below `epsilon * max(1, |w|)`.
    pub epsilon: f64,
    /// Stop when the objective improved by less than `delta` (relative) over `period` iterations.
    pub delta: f64,
    /// See `delta`; 0 disables that test.
    pub period: usize,
    /// Line search trials per iteration.
    pub max_linesearch: usize,
}

impl Default for LbfgsParams {
    fn default() -> Self {
        LbfgsParams {
            c1: 0.0,
            c2: 1.0,
            max_iterations: usize::MAX,
            min_freq: 0.0,
            epsilon: 1e-5,
            delta: 1e-5,
            period: 10,
            max_linesearch: 20,
        }
    }
}

/// What the optimisation did.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Outcome {
    /// Objective (regularised negative log-likelihood) at the final weights.
    pub loss: f64,
    /// Objective evaluations.
    pub evaluations: usize,
    /// Line-search steps taken.
    pub iterations: usize,
    /// Whether the delta test stopped the optimisation.
    pub delta_stop: bool,
    /// Features in the training set (before zero weights are pruned from the file).
    pub features: usize,
    /// Why the optimiser stopped early, when it reported an error (weights are still written).
    pub warning: Option<String>,
}

impl ParallelTrainer {
    /// Trains and writes the CRFsuite model file to `model_path`.
    pub fn train(
        &self,
        p: &LbfgsParams,
        model_path: &Path,
        mut progress: impl FnMut(usize, f64),
    ) -> Result<Outcome, ParallelError> {
        let (w, outcome, m) = self.optimise(p, &mut progress)?;
        let bytes = self.model_bytes(&m, &w)?;
        std::fs::write(model_path, bytes).map_err(|source| ParallelError::Io {
            path: model_path.to_path_buf(),
            source,
        })?;
        Ok(outcome)
    }

    /// Runs L-BFGS (OWL-QN when `c1 > 0`) and returns the weights by feature id.
    fn optimise(
        &self,
        p: &LbfgsParams,
        progress: &mut dyn FnMut(usize, f64),
    ) -> Result<(Vec<f64>, Outcome, Model), ParallelError> {
        if self.sequences() == 0 || self.label_names.is_empty() {
            return Err(ParallelError::NoData);
        }
        let m = self.model(p.min_freq)?;
        let nf = m.features.len();
        // From the prior's weights when adapting (where the optimum lies when the data is
        // weak), from 0 otherwise.
        let mut w = if m.centre.is_empty() {
            vec![0.0f64; nf]
        } else {
            m.centre.clone()
        };
        if p.c2 == f64::INFINITY {
            // An infinitely strong prior: its weights are the optimum.
            let mut g = vec![0.0; nf];
            let loss = self.evaluate(&m, 0.0, &w, &mut g);
            let outcome = Outcome {
                loss,
                evaluations: 1,
                features: nf,
                ..Outcome::default()
            };
            return Ok((w, outcome, m));
        }
        let mut evaluations = 0usize;
        let mut last = 0.0;
        let mut history: Vec<f64> = Vec::new();
        let mut delta_stop = false;
        // liblbfgs counts the starting point as an iteration: one more gives `max_iterations`
        // line-search steps, as CRFsuite takes.
        let mut opt = liblbfgs::lbfgs()
            .with_max_iterations(p.max_iterations.saturating_add(1))
            .with_epsilon(p.epsilon)
            .with_fx_delta(p.delta, p.period)
            .with_max_linesearch(p.max_linesearch);
        opt = if p.c1 > 0.0 {
            opt.with_linesearch_algorithm("BacktrackingStrongWolfe")
                .with_orthantwise(p.c1, 0, nf)
        } else {
            opt.with_linesearch_algorithm("MoreThuente")
        };
        let result = opt.minimize(
            &mut w,
            |x: &[f64], g: &mut [f64]| {
                evaluations += 1;
                last = self.evaluate(&m, p.c2, x, g);
                Ok(last)
            },
            |pr: &liblbfgs::Progress| {
                // Progress `niter` = steps taken + 1 (the starting point is reported twice).
                let Some(step) = pr.niter.checked_sub(1) else {
                    return false;
                };
                if step < history.len() {
                    return false;
                }
                history.push(pr.fx);
                if step > 0 {
                    progress(step, pr.fx);
                }
                // CRFsuite's delta test (liblbfgs stores delta and period but never applies
                // them): stop when the objective fell by less than `delta` (relative) over the
                // last `period` steps.
                delta_stop = p.period > 0
                    && step >= p.period
                    && ((history[step - p.period] - pr.fx) / pr.fx).abs() < p.delta;
                delta_stop
            },
        );
        // The callback sees every state but the last unless the delta test stopped it there.
        let iterations = if delta_stop {
            history.len().saturating_sub(1)
        } else {
            history.len()
        };
        let (loss, warning) = match result {
            Ok(r) => (r.fx, None),
            Err(e) => (last, Some(format!("{e:#}"))),
        };
        if !delta_stop && iterations > 0 && warning.is_none() {
            progress(iterations, loss);
        }
        Ok((
            w,
            Outcome {
                loss,
                evaluations,
                iterations,
                delta_stop,
                features: nf,
                warning,
            },
            m,
        ))
    }

    /// Optimises without writing a model: the weights by feature id (state features by
    /// attribute then label, then transitions) and the outcome. For tests and comparisons.
    ///
    /// # Errors
    ///
    /// [`ParallelError::NoData`] without data.
    pub fn weights(&self, p: &LbfgsParams) -> Result<(Vec<f64>, Outcome), ParallelError> {
        let (w, o, _) = self.optimise(p, &mut |_, _| {})?;
        Ok((w, o))
    }
}

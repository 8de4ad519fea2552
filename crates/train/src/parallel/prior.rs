//! The prior of MAP adaptation: the penalty centred on a trained model's weights.

use super::{ParallelError, ParallelTrainer};

/// A Gaussian prior centred on the weights of a trained model, for adapting that model to new
/// pages (MAP adaptation, as Chelba and Acero adapt a maximum-entropy model): the penalty
/// `c2 * |w|^2` becomes `c2 * |w - w0|^2`, where `w0` is the model's weight of each feature (0
/// for a feature the model does not have) and `c2` ([`super::LbfgsParams::c2`]) is the strength of the
/// prior.
///
/// The features are those the new pages give (as without a prior) and every feature of the
/// model: a feature the new pages never touch keeps its weight; one they touch moves as far as
/// their evidence outweighs the prior. The optimisation starts at `w0`. An infinitely strong
/// prior gives the model back unchanged; a prior of strength 0 leaves the likelihood alone.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Prior {
    /// Label names, in the model's order (they become the trainer's first labels).
    pub labels: Vec<String>,
    /// State weights: an attribute and its weight for each label of `labels`.
    pub state: Vec<(String, Vec<f64>)>,
    /// Transition weights, `labels x labels`, from-major (`trans[i * L + j]`: label i to j).
    pub trans: Vec<f64>,
}

impl ParallelTrainer {
    /// Centres the penalty on `prior`'s weights instead of 0 ([`Prior`]): training then adapts
    /// that model to the appended pages. Call it before appending, so that the prior's labels
    /// keep its order; a second call replaces the first prior (its names stay interned).
    ///
    /// # Errors
    ///
    /// [`ParallelError::Weights`] when a state row or the transition table does not have one
    /// weight per label (or pair of labels); [`ParallelError::Prior`] for a weight that is
    /// not finite.
    pub fn set_prior(&mut self, prior: &Prior) -> Result<(), ParallelError> {
        let l = prior.labels.len();
        if prior.trans.len() != l * l {
            return Err(ParallelError::Weights {
                given: prior.trans.len(),
                features: l * l,
            });
        }
        let ids = prior
            .labels
            .iter()
            .map(|name| self.label_id(name))
            .collect::<Result<Vec<u32>, _>>()?;
        let finite = |w: &f64| {
            if w.is_finite() {
                Ok(())
            } else {
                Err(ParallelError::Prior(format!("a weight of {w}")))
            }
        };
        let mut state = Vec::new();
        for (name, row) in &prior.state {
            if row.len() != l {
                return Err(ParallelError::Weights {
                    given: row.len(),
                    features: l,
                });
            }
            let a = self.attr_id(name)?;
            for (y, w) in row.iter().enumerate() {
                finite(w)?;
                if *w != 0.0 {
                    state.push((a, ids[y], *w));
                }
            }
        }
        // Transitions by the trainer's label ids, which the data may extend later.
        let mut trans = Vec::new();
        for (k, w) in prior.trans.iter().enumerate() {
            finite(w)?;
            if *w != 0.0 {
                trans.push((ids[k / l], ids[k % l], *w));
            }
        }
        self.prior_state = state;
        self.prior_trans = trans;
        Ok(())
    }
}

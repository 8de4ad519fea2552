//! [`CrfModel`]: a CRFsuite model file turned into dense weight matrices and name tables.
//!
//! Reading happens in three steps, each trusting only what the previous one proved:
//!
//! 1. `Layout` (`layout.rs`) checks the header, the bounds of every chunk and the counts,
//!    then decodes and validates the `FEAT` records and the reference lists;
//! 2. the weights go into an `attrs x labels` state matrix and a `labels x labels` transition
//!    matrix; a duplicate `(type, source, target)` is an error;
//! 3. the label and attribute names are read with `crfs`'s CQDB reader, inside
//!    [`std::panic::catch_unwind`] as a last defence, and copied out, so the model owns all its
//!    data and has no lifetime.
//!
//! Label ids are the file's ids: `crfs` numbers labels in order of first appearance in the
//! training data, so callers must map names through [`CrfModel::label_id`], never assume an order.

use std::collections::{HashMap, HashSet};
use std::panic::{self, AssertUnwindSafe};

use ndarray::Array2;

use super::error::ModelError;
use super::layout::{Layout, RawFeature, STATE};
use victor_features::within::{ItemAt, Within};

/// Largest dense state-weight matrix accepted, in entries (2 GiB of `f64`).
const MAX_STATE_WEIGHTS: usize = 1 << 28;

/// A linear-chain CRF read from a CRFsuite model file.
///
/// Immutable once built and `Send + Sync`: share one model between threads and give each
/// thread its own [`Workspace`](super::Workspace).
#[derive(Debug, Clone)]
pub struct CrfModel {
    /// Label names in id order.
    labels: Vec<String>,
    /// All attribute names, concatenated in id order.
    attr_text: String,
    /// End of each attribute name in `attr_text` (start is the previous end).
    attr_ends: Vec<usize>,
    /// Attribute name -> id.
    attr_ids: HashMap<Box<str>, u32>,
    /// Number of non-zero features in the file.
    num_features: usize,
    /// `state[[a, y]]`: weight of attribute `a` for label `y`.
    state: Array2<f64>,
    /// `trans[[i, j]]`: weight of the transition from label `i` to label `j`.
    trans: Array2<f64>,
    /// Largest entry of `trans`, subtracted before exponentiating so no factor exceeds 1.
    pub(super) trans_max: f64,
    /// `exp(trans[[i, j]] - trans_max)`, row-major, for the scaled forward-backward.
    pub(super) exp_trans: Vec<f64>,
    /// `trans[[i, j]]` stored at `[j * L + i]`, for Viterbi's per-target maximum.
    pub(super) trans_by_target: Vec<f64>,
}

impl CrfModel {
    /// Reads a CRFsuite model file (as written by `crfs` or CRFsuite itself).
    ///
    /// Any inconsistency (truncation, bad magic, out-of-bounds offset, mismatched counts,
    /// unknown feature type, non-finite or duplicate weight, unreadable or duplicate name)
    /// becomes a [`ModelError`]; this function does not panic on any input.
    pub fn from_bytes(buf: &[u8]) -> Result<Self, ModelError> {
        let layout = Layout::parse(buf)?;
        let features = layout.features(buf).collect::<Result<Vec<_>, _>>()?;
        layout.check_refs(buf, &features)?;

        let num_labels = layout.num_labels as usize;
        let num_attrs = layout.num_attrs as usize;
        let (state, trans) = weight_matrices(&features, num_attrs, num_labels)?;
        let (labels, attr_text, attr_ends) = read_names(buf, &layout)?;

        let mut attr_ids = HashMap::with_capacity(num_attrs);
        let mut start = 0;
        for (id, &end) in (0u32..).zip(&attr_ends) {
            // read_names made the ends as it appended each name.
            let name = attr_text.within(start..end);
            if attr_ids.insert(Box::from(name), id).is_some() {
                return Err(ModelError::Dictionary {
                    dict: "attribute",
                    problem: format!("attribute {name:?} appears twice"),
                });
            }
            start = end;
        }
        let mut distinct = HashSet::with_capacity(labels.len());
        if let Some(label) = labels.iter().find(|l| !distinct.insert(l.as_str())) {
            return Err(ModelError::Dictionary {
                dict: "label",
                problem: format!("label {label:?} appears twice"),
            });
        }

        let trans_max = trans.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let exp_trans = trans.iter().map(|&w| (w - trans_max).exp()).collect();
        let trans_by_target = trans.t().iter().copied().collect();
        Ok(Self {
            labels,
            attr_text,
            attr_ends,
            attr_ids,
            num_features: features.len(),
            state,
            trans,
            trans_max,
            exp_trans,
            trans_by_target,
        })
    }

    /// A model from in-memory weights, for unit tests of inference.
    #[cfg(test)]
    pub(crate) fn from_weights(
        labels: Vec<String>,
        attrs: Vec<String>,
        state: Array2<f64>,
        trans: Array2<f64>,
    ) -> Self {
        let mut attr_text = String::new();
        let mut attr_ends = Vec::new();
        let mut attr_ids = HashMap::new();
        for (id, name) in (0u32..).zip(&attrs) {
            attr_text.push_str(name);
            attr_ends.push(attr_text.len());
            attr_ids.insert(Box::from(name.as_str()), id);
        }
        let trans_max = trans.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        Self {
            labels,
            attr_text,
            attr_ends,
            attr_ids,
            num_features: 0,
            exp_trans: trans.iter().map(|&w| (w - trans_max).exp()).collect(),
            trans_by_target: trans.t().iter().copied().collect(),
            trans_max,
            state,
            trans,
        }
    }

    /// Number of labels (`L`): the width of every score and marginal matrix.
    pub fn num_labels(&self) -> usize {
        self.labels.len()
    }

    /// Number of attributes: valid attribute ids are `0..num_attrs()`.
    pub fn num_attrs(&self) -> usize {
        self.attr_ends.len()
    }

    /// Number of (non-zero) features stored in the file.
    pub fn num_features(&self) -> usize {
        self.num_features
    }

    /// Label names, indexed by label id (the file's order, usually first appearance in the
    /// training data).
    pub fn labels(&self) -> &[String] {
        &self.labels
    }

    /// Id of the label called `name`, if the model has it.
    pub fn label_id(&self, name: &str) -> Option<usize> {
        self.labels.iter().position(|l| l == name)
    }

    /// Name of attribute `id`, if it exists.
    pub fn attr_name(&self, id: u32) -> Option<&str> {
        let id = usize::try_from(id).ok()?;
        let end = *self.attr_ends.get(id)?;
        let start = match id.checked_sub(1) {
            Some(prev) => *self.attr_ends.get(prev)?,
            None => 0,
        };
        self.attr_text.get(start..end)
    }

    /// Id of the attribute called `name`, if the model has it.
    ///
    /// Attributes that never received a non-zero weight are pruned from the file by `crfs`
    /// and CRFsuite, so an attribute seen in training may be absent: callers simply skip it.
    pub fn attr_id(&self, name: &str) -> Option<u32> {
        self.attr_ids.get(name).copied()
    }

    /// All attributes as `(id, name)`, in id order.
    pub fn attrs(&self) -> impl ExactSizeIterator<Item = (u32, &str)> + '_ {
        // Ids fit in u32: the file stores at most u32::MAX attributes.
        (0..self.attr_ends.len()).map(|id| {
            let start = id
                .checked_sub(1)
                .map_or(0, |prev| self.attr_ends.item_at(prev));
            // The ends were made as each name was appended to the text.
            (
                id as u32,
                self.attr_text.within(start..self.attr_ends.item_at(id)),
            )
        })
    }

    /// State weights: `state_weights()[[a, y]]` is the weight of attribute `a` for label `y`
    /// (`num_attrs x num_labels`; zero where the file has no feature).
    pub fn state_weights(&self) -> &Array2<f64> {
        &self.state
    }

    /// Transition weights: `transitions()[[i, j]]` is the weight of label `i` followed by label
    /// `j` (`num_labels x num_labels`; zero where the file has no feature).
    pub fn transitions(&self) -> &Array2<f64> {
        &self.trans
    }
}

/// Builds the dense state and transition matrices; a repeated feature is an error.
fn weight_matrices(
    features: &[RawFeature],
    num_attrs: usize,
    num_labels: usize,
) -> Result<(Array2<f64>, Array2<f64>), ModelError> {
    let too_large = || ModelError::TooLarge {
        num_attrs: u32::try_from(num_attrs).unwrap_or(u32::MAX),
        num_labels: u32::try_from(num_labels).unwrap_or(u32::MAX),
    };
    let state_len = num_attrs
        .checked_mul(num_labels)
        .filter(|&n| n <= MAX_STATE_WEIGHTS)
        .ok_or_else(too_large)?;
    let trans_len = num_labels
        .checked_mul(num_labels)
        .filter(|&n| n <= MAX_STATE_WEIGHTS)
        .ok_or_else(too_large)?;
    let mut state = Array2::<f64>::zeros((num_attrs, num_labels));
    let mut trans = Array2::<f64>::zeros((num_labels, num_labels));
    // Which cells were set, to refuse duplicates (a weight of exactly 0 is never written).
    let mut seen = vec![false; state_len + trans_len];
    for (index, f) in features.iter().enumerate() {
        let (source, target) = (f.source as usize, f.target as usize);
        let (matrix, cell) = if f.kind == STATE {
            (&mut state, source * num_labels + target)
        } else {
            (&mut trans, state_len + source * num_labels + target)
        };
        let duplicate = seen.get_mut(cell).map(|s| std::mem::replace(s, true));
        let slot = matrix.get_mut((source, target));
        match (duplicate, slot) {
            (Some(false), Some(slot)) => *slot = f.weight,
            (Some(true), _) => {
                return Err(ModelError::Feature {
                    index,
                    problem: format!(
                        "duplicate {} feature {source} -> {target}",
                        if f.kind == STATE {
                            "state"
                        } else {
                            "transition"
                        }
                    ),
                });
            }
            _ => {
                return Err(ModelError::Feature {
                    index,
                    problem: format!("ids {source} -> {target} out of range"),
                });
            }
        }
    }
    Ok((state, trans))
}

/// Label names, concatenated attribute names and their end offsets.
type Names = (Vec<String>, String, Vec<usize>);

/// Reads all label and attribute names through `crfs`'s CQDB reader.
///
/// The buffer has passed [`Layout::parse`], which is everything `crfs::Model::new` and its
/// lookups rely on; the call is still wrapped in `catch_unwind` so that a case those checks
/// missed becomes an error instead of a panic.
fn read_names(buf: &[u8], layout: &Layout) -> Result<Names, ModelError> {
    let read = || -> Result<Names, ModelError> {
        let model = crfs::Model::new(buf).map_err(|e| ModelError::Dictionary {
            dict: "label or attribute",
            problem: e.to_string(),
        })?;
        let missing = |dict: &'static str, id: u32| ModelError::Dictionary {
            dict,
            problem: format!("no valid UTF-8 name for id {id}"),
        };
        let labels = (0..layout.num_labels)
            .map(|id| {
                model
                    .to_label(id)
                    .map(str::to_owned)
                    .ok_or_else(|| missing("label", id))
            })
            .collect::<Result<Vec<_>, _>>()?;
        let mut text = String::new();
        let mut ends = Vec::with_capacity(layout.num_attrs as usize);
        for id in 0..layout.num_attrs {
            text.push_str(model.to_attr(id).ok_or_else(|| missing("attribute", id))?);
            ends.push(text.len());
        }
        Ok((labels, text, ends))
    };
    // The closure only reads `buf` and builds fresh values: nothing is left half-updated if it
    // unwinds.
    panic::catch_unwind(AssertUnwindSafe(read)).unwrap_or_else(|payload| {
        let message = payload
            .downcast_ref::<&str>()
            .map(|s| (*s).to_owned())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "panic without a message".to_owned());
        Err(ModelError::ReaderPanic { message })
    })
}

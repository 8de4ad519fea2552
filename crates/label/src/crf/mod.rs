//! The linear-chain CRF core: read a CRFsuite model file, score a sequence, get exact
//! per-position marginals and the Viterbi path.
//!
//! Models are trained with `crfs` (a Rust port of CRFsuite), whose tagger only decodes the
//! Viterbi path. Victor thresholds the marginal `P(label | page)` of each block, so this module
//! reads the model's weights itself and runs its own inference:
//!
//! - [`model`]: [`CrfModel::from_bytes`] validates the whole file (`layout.rs` does the byte
//!   checks) and keeps the weights as dense `ndarray` matrices plus the label and attribute
//!   names;
//! - [`inference`]: [`CrfModel::state_scores`] turns attribute ids into a `positions x labels`
//!   score matrix, [`CrfModel::marginals`] runs a scaled forward-backward and
//!   [`CrfModel::viterbi_into`] the Viterbi decoding, both with caller-owned buffers
//!   ([`Workspace`]) so labeling many pages allocates nothing per page;
//! - [`error`]: [`ModelError`] and [`InferenceError`].
//!
//! Typical use, per page:
//!
//! ```no_run
//! # fn demo(bytes: &[u8], page: &[Vec<u32>]) -> Result<(), Box<dyn std::error::Error>> {
//! use ndarray::Array2;
//! use victor_label::{CrfModel, Workspace};
//!
//! let model = CrfModel::from_bytes(bytes)?;
//! let (mut ws, mut scores, mut marginals) = (Workspace::new(), Array2::zeros((0, 0)), Array2::zeros((0, 0)));
//! model.state_scores(page, &mut scores)?; // page[t] = attribute ids of block t
//! model.marginals(scores.view(), &mut ws, &mut marginals)?;
//! let other = model.label_id("other").ok_or("model has no 'other' label")?;
//! let p_other = marginals.column(other);
//! # let _ = p_other; Ok(()) }
//! ```

#![warn(missing_docs)]

mod error;
mod inference;
mod layout;
mod model;

pub use error::{InferenceError, ModelError};
pub use inference::Workspace;
pub use model::CrfModel;

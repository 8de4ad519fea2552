//! One module per subcommand, and `evaluate`: what `eval` and `sweep` share (their input
//! options and a run of `victor::eval` under a progress bar).

pub(crate) mod annotate;
pub(crate) mod annotations;
pub(crate) mod bench;
pub(crate) mod cv;
pub(crate) mod eval;
pub(crate) mod evaluate;
pub(crate) mod features;
pub(crate) mod import;
pub(crate) mod label;
pub(crate) mod models;
pub(crate) mod sweep;
pub(crate) mod train;

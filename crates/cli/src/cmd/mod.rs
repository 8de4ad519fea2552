//! One module per subcommand.

pub mod annotate;
pub mod annotations;
pub mod bench;
pub mod cv;
pub mod eval;
pub mod evaluate;
pub mod features;
pub mod import;
pub mod label;
pub mod sweep;
pub mod train;

//! Helpers shared by the subcommands: input discovery, atomic output, progress bars.

pub mod inputs;
pub mod output;
pub mod progress;

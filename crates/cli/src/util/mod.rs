//! Helpers shared by the subcommands: input discovery, atomic output, progress bars.

pub mod capture;
pub mod inputs;
pub mod model;
pub mod output;
pub mod progress;

//! Helpers shared by the subcommands: input discovery, atomic output, progress bars, error
//! messages.

pub mod capture;
pub mod errors;
pub mod inputs;
pub mod model;
pub mod output;
pub mod progress;
pub mod values;

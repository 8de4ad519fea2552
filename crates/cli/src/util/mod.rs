//! Helpers shared by the subcommands: input discovery, atomic output, progress bars, error
//! messages, interruption, and the rule for closed pipes (`streams`).

pub(crate) mod capture;
pub(crate) mod errors;
pub(crate) mod inputs;
pub(crate) mod interrupt;
pub(crate) mod model;
pub(crate) mod output;
pub(crate) mod progress;
pub(crate) mod streams;
pub(crate) mod values;
pub(crate) mod words;

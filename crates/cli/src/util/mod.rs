//! Helpers shared by the subcommands: input discovery, atomic output, progress bars, error
//! messages.

// The one place with `unsafe`: POSIX descriptor calls that point standard output at a pipe.
#[allow(unsafe_code)]
pub(crate) mod capture;
pub(crate) mod errors;
pub(crate) mod inputs;
pub(crate) mod model;
pub(crate) mod output;
pub(crate) mod progress;
pub(crate) mod values;

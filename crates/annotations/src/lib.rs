//! # victor-annotations: annotated pages, the importers that make them, and their statistics
//!
//! An *annotated page* is a page's exact original bytes plus one [`Label`] per block (header,
//! text, other), as victor's segmenter (`victor-features`) cuts the page into blocks. This
//! crate holds everything about them, one stage per module:
//!
//! - [`format`](mod@format): the on-disk format of annotated sets (a folder of page files and small JSON
//!   label files, labels anchored to the text they cover), writing it atomically and loading it
//!   back for training and evaluation;
//! - [`align`]: aligning gold *text* to a page's blocks, independent of HTML;
//! - [`import`]: turning the project's gold standards (L3S-GN1, CleanEval, plain-text gold such
//!   as dragnet) into annotated sets, with a fidelity report;
//! - [`stats`]: label distributions (the Victor paper's Table 1) and per-page counts.
//!
//! The library neither prints nor keeps global state; progress is reported through callbacks,
//! failures through typed errors.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod align;
pub mod format;
pub mod import;
pub mod stats;

/// The block labels, from `victor-core`, re-exported because the annotation format is written in them.
pub use victor_core::{Label, UnknownLabel};

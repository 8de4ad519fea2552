//! Annotated pages: a page's exact bytes plus the labels of its blocks.
//!
//! (Work in progress: the format, importers and statistics land with the annotations issue.)

pub mod align;
mod label;

pub use label::{Label, UnknownLabel};

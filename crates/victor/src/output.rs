//! The output formats' writers under their former paths: they live in [`crate::format`], one
//! file a format; this module re-exports the functions a program calls on a labelled page
//! (kept so that `victor::output::write_jsonl` and the like go on working).

pub use crate::format::{CSV_HEADER, CsvWriter, JsonlMeta, render_html, write_csv, write_jsonl};

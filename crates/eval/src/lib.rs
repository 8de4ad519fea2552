//! Evaluation of victor's output: the Victor paper's block-level metrics, text-level scores
//! that match the acceptance scorer (`checks/score.py`), the precision/recall sweep over
//! thresholds on P(other), and its plot.
//!
//! The modules follow the data; their public items are re-exported here:
//! - `tokens`: text → the scorer's tokens and token multisets ([`Tokenizer`], [`TokenBag`]);
//! - `text_score`: gold files, per-page precision/recall/F1 of texts, and their aggregates
//!   ([`read_gold`], [`PageScore`], [`TextScores`]);
//! - `block_score`: (gold, predicted) block labels → confusion matrix and the paper's figures
//!   ([`BlockCounts`], [`BlockMetrics`]);
//! - `sweep`: per-block marginals → labels at each threshold → one row of figures per threshold
//!   ([`sweep()`], [`SweepRow`], [`score_page`]);
//! - `plot`: sweep rows → SVG precision/recall curves ([`render_svg`]);
//! - `paired`: per-page scores of two runs → the mean gain and its standard error, and a
//!   learning curve's gain per doubling of the training data ([`paired_difference`]).
//!
//! The crate computes and returns; it never prints. Every fallible function returns a typed
//! error.

#![forbid(unsafe_code)]
#![warn(missing_docs)]
#![deny(unreachable_pub)]
#![warn(unnameable_types)]

mod block_score;
mod paired;
mod plot;
mod sweep;
mod text_score;
mod tokens;

pub use block_score::{BlockCounts, BlockMetrics, LengthMismatch};
pub use paired::{MeanSe, gain_per_doubling, paired_difference};
pub use plot::{Axes, Curve, CurvePoint, PlotError, PlotOptions, render_svg};
pub use sweep::{
    GridError, MAX_GRID, PageScratch, PageText, SweepError, SweepPage, SweepRow, score_page, sweep,
    sweep_with_text, threshold_grid,
};
pub use text_score::{
    PageScore, Prf, ReadError, TextScores, TextSummary, gold_text, read_gold, read_text_lossy,
};
pub use tokens::{Bags, TokenBag, Tokenizer, is_single, is_word_char, tokens};

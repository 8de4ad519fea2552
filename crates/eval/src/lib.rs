//! Evaluation of victor's output: the Victor paper's block-level metrics, text-level scores
//! that match the acceptance scorer (`checks/score.py`), the precision/recall sweep over
//! thresholds on P(other), and its plot.
//!
//! The modules follow the data:
//! - [`tokens`]: text → the scorer's tokens and token multisets;
//! - [`text_score`]: gold files, per-page precision/recall/F1 of texts, and their aggregates;
//! - [`block_score`]: (gold, predicted) block labels → confusion matrix and the paper's figures;
//! - [`sweep`](mod@sweep): per-block marginals → labels at each threshold → one row of figures per
//!   threshold;
//! - [`plot`]: sweep rows → SVG precision/recall curves;
//! - [`paired`]: per-page scores of two runs → the mean gain and its standard error, and a
//!   learning curve's gain per doubling of the training data.
//!
//! The crate computes and returns; it never prints. Every fallible function returns a typed
//! error.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod block_score;
pub mod paired;
pub mod plot;
pub mod sweep;
pub mod text_score;
pub mod tokens;

pub use block_score::{BlockCounts, BlockMetrics};
pub use paired::{MeanSe, gain_per_doubling, paired_difference};
pub use sweep::{SweepError, SweepPage, SweepRow, sweep, sweep_with_text};
pub use text_score::{PageScore, Prf, TextScores, TextSummary};
pub use tokens::{Bags, TokenBag, Tokenizer};

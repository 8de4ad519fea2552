//! Aligning gold *text* to a page's *blocks*, to turn text-level gold standards into block labels.
//!
//! CleanEval and dragnet gold is text typed or pasted by annotators; L3S-GN1 labels a
//! re-serialised copy of the page whose text runs do not line up with the original. This
//! module, independent of HTML, takes the page's block texts in page order and the gold as
//! segments (text plus a [`GoldTag`]), and says for every block how many of its tokens were
//! found in gold and under which tag. An importer then labels a block content when at least
//! half of its tokens align to content ([`Alignment::labels`]).
//!
//! The pipeline, one submodule per stage:
//! 1. `token`: both sides become normalized word tokens (NFKC, lowercase, letters and digits,
//!    CJK characters alone), so punctuation, bullets, rules, whitespace and L3S's `?` for lost
//!    characters vanish; `streams` interns them into two id sequences, blocks and segments
//!    concatenated.
//! 2. `tiles`: maximal runs of at least [`AlignConfig::min_run`] equal tokens are found through
//!    a hash index of page k-grams and placed longest first, never using a token twice (greedy
//!    string tiling). Order is not assumed, so reordered, missing and extra paragraphs are
//!    fine; equal competitors (a sentence twice in the page) are decided by context.
//! 3. `whole`: a gold segment too short to anchor ("Why?") may match a page block that it
//!    equals exactly, the one nearest its context; never a lone word inside a longer block.
//! 4. `gaps`: between two bracketing matches, a local LCS picks up words that typos broke
//!    into short runs, and tiny gaps are bridged as substitutions.
//! 5. `result`: per block and per segment counts, totals, labels and fidelity figures.
//!
//! Cost: sorting the page's k-grams, O(N log N), plus one index lookup per gold k-gram and the
//! extension of each distinct run once: near-linear on real pages. Every phase has a cap (see
//! [`AlignConfig`]) so that huge repetitive pages degrade to fewer aligned tokens rather than
//! quadratic time; gap LCS tables are bounded per gap and per page.
//!
//! ```
//! use victor_annotations::Label;
//! use victor_annotations::{AlignConfig, GoldSegment, SegmentKind, align};
//!
//! let blocks = ["Home", "News", "Hello", "world", "!", "It is a fine day today.", "© 2024"];
//! let gold = [
//!     GoldSegment::new("Hello world!", SegmentKind::Header),
//!     GoldSegment::new("It is a fine day today", SegmentKind::Paragraph),
//! ];
//! let alignment = align(blocks, gold, &AlignConfig::default())?;
//! assert_eq!(
//!     alignment.labels(0.5),
//!     [Label::Other, Label::Other, Label::Header, Label::Header, Label::Header, Label::Text, Label::Other]
//! );
//! assert_eq!(alignment.totals().gold_found, 8);
//! # Ok::<(), victor_annotations::AlignError>(())
//! ```

mod gaps;
mod matching;
mod result;
mod streams;
mod tag;
mod tiles;
mod token;
mod whole;

pub use result::{
    Alignment, BlockAlignment, DEFAULT_CONTENT_THRESHOLD, Fidelity, SegmentAlignment, Totals,
};
pub use tag::{GoldSegment, GoldTag, SegmentKind};

use matching::Matching;
use streams::Streams;

/// Knobs of the aligner; the defaults suit the project's gold standards.
#[derive(Clone, Debug, PartialEq)]
pub struct AlignConfig {
    /// Shortest run of equal tokens that anchors anywhere on the page (default 3; 0 counts as
    /// 1). Shorter matches only count for a whole segment equal to a whole block, or between
    /// anchors.
    pub min_run: usize,
    /// A page k-gram occurring more often than this seeds no run (default 64); also the most
    /// equal blocks considered for one short segment.
    pub max_seed_occurrences: usize,
    /// Most candidate runs collected (default 4,000,000).
    pub max_runs: usize,
    /// Most token comparisons spent extending runs, and again placing them (default
    /// 64,000,000 each).
    pub max_run_work: usize,
    /// Largest LCS table, gold gap times page gap, filled for one gap (default 262,144).
    pub max_gap_cells: usize,
    /// Largest total of LCS table cells for one page (default 16,000,000).
    pub max_total_gap_cells: usize,
    /// Longest gap, in tokens on each side, bridged as a substitution (default 2; doubled when
    /// a gold token there touches a `?`).
    pub max_substitution: usize,
}

impl Default for AlignConfig {
    fn default() -> Self {
        Self {
            min_run: 3,
            max_seed_occurrences: 64,
            max_runs: 4_000_000,
            max_run_work: 64_000_000,
            max_gap_cells: 1 << 18,
            max_total_gap_cells: 16_000_000,
            max_substitution: 2,
        }
    }
}

/// Why an alignment could not be made or evaluated.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AlignError {
    /// The page or the gold has more tokens (or blocks, or segments) than positions can hold.
    #[error("too many tokens, blocks or segments to align (at most {max})")]
    TooManyTokens {
        /// The largest count supported.
        max: usize,
    },
    /// [`Alignment::fidelity`] was given a label count that is not the block count.
    #[error("{labels} labels given for {blocks} blocks")]
    LabelCount {
        /// Number of labels given.
        labels: usize,
        /// Number of blocks aligned.
        blocks: usize,
    },
}

/// Aligns gold segments to the blocks of one page.
///
/// `blocks` are the page's block texts in page order; `gold` the gold segments in gold order.
/// Either may be empty. The result has one [`BlockAlignment`] per block and one
/// [`SegmentAlignment`] per segment, in the order given.
///
/// # Errors
///
/// [`AlignError::TooManyTokens`] if either side has 2³² − 1 tokens or more.
pub fn align<B, G, S, T>(
    blocks: B,
    gold: G,
    config: &AlignConfig,
) -> Result<Alignment<T>, AlignError>
where
    B: IntoIterator,
    B::Item: AsRef<str>,
    G: IntoIterator<Item = GoldSegment<S, T>>,
    S: AsRef<str>,
    T: GoldTag,
{
    let mut tags = Vec::new();
    let streams = Streams::build(blocks, gold, &mut tags)?;
    let mut matching = Matching::new(streams.gold.len(), streams.page.len());
    let runs = tiles::find_runs(&streams, config);
    tiles::place_runs(runs, &mut matching, config);
    whole::match_whole_blocks(&streams, &mut matching, config);
    gaps::fill_with_lcs(&streams, &mut matching, config);
    gaps::substitute(&streams, &mut matching, config);
    Ok(Alignment::build(streams, matching, tags))
}

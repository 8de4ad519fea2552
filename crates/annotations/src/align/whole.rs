//! Short segments: a gold segment that is exactly a whole block.
//!
//! Tiling needs runs of [`AlignConfig::min_run`] tokens, so a one-word heading ("Why?") or a
//! two-word list item cannot anchor there: a lone word would match any occurrence of it, such
//! as a "the" in a menu. The exception is a gold segment whose tokens equal a whole page block:
//! that is strong evidence even for one token. Each still wholly unmatched segment is looked
//! up in a hash index of the blocks' token sequences; among the free, equal blocks the one
//! nearest to where the surrounding tiles predict wins. At most
//! [`AlignConfig::max_seed_occurrences`] equal blocks are considered per segment.
//!
//! Short matches inside longer blocks or segments are left to gap filling, which only accepts
//! them between two tiles that bracket them.

use super::AlignConfig;
use super::matching::{Matching, Run};
use super::streams::{ABSENT, Streams};
use super::tiles::hash_ids;

/// Matches wholly unmatched segments to equal, wholly free blocks.
pub(crate) fn match_whole_blocks(s: &Streams, matching: &mut Matching, config: &AlignConfig) {
    let mut index: Vec<(u64, u32)> = (0..s.blocks())
        .filter_map(|b| {
            let ids = s.page.get(s.block_range(b))?;
            (!ids.is_empty()).then(|| (hash_ids(ids), b as u32))
        })
        .collect();
    index.sort_unstable();
    for seg in 0..s.segments() {
        let range = s.segment_range(seg);
        let Some(ids) = s.gold.get(range.clone()) else {
            continue;
        };
        if ids.is_empty() || ids.contains(&ABSENT) || !range.clone().all(|g| matching.gold_free(g))
        {
            continue;
        }
        let h = hash_ids(ids);
        let lo = index.partition_point(|e| e.0 < h);
        let hi = index.partition_point(|e| e.0 <= h);
        let mut best: Option<(u64, Run)> = None;
        for &(_, b) in index
            .get(lo..hi)
            .unwrap_or(&[])
            .iter()
            .take(config.max_seed_occurrences)
        {
            let block = s.block_range(b as usize);
            if s.page.get(block.clone()) != Some(ids)
                || !block.clone().all(|p| matching.page_free(p))
            {
                continue;
            }
            let run = Run {
                g: range.start as u32,
                p: block.start as u32,
                len: ids.len() as u32,
            };
            let d = matching.context_distance(run.g, run.len, run.p);
            if best.is_none_or(|(bd, _)| d < bd) {
                best = Some((d, run));
            }
        }
        if let Some((_, run)) = best {
            matching.place(run);
        }
    }
}

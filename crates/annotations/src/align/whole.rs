//! Short segments: a gold segment that is exactly a whole block.
//!
//! Tiling needs runs of [`AlignConfig::min_run`] tokens, so a one-word heading ("Why?") or a
//! two-word list item cannot anchor there: a lone word would match any occurrence of it, such
//! as a "the" in a menu. The exception is a gold segment whose tokens equal a whole page block:
//! that is strong evidence even for one token. Each still wholly unmatched segment is looked
//! up in a hash index of the blocks' token sequences; among the free, equal blocks the one
//! nearest to where the surrounding tiles predict wins. At most
//! [`AlignConfig::max_seed_occurrences`] equal blocks are considered per segment, outwards
//! from the predicted place.
//!
//! Short matches inside longer blocks or segments are left to gap filling, which only accepts
//! them between two tiles that bracket them.

use super::AlignConfig;
use super::matching::{Matching, Run};
use super::streams::Streams;
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
        if ids.is_empty()
            || !ids.iter().all(|&t| s.in_page(t))
            || !range.clone().all(|g| matching.gold_free(g))
        {
            continue;
        }
        let h = hash_ids(ids);
        let lo = index.partition_point(|e| e.0 < h);
        let hi = index.partition_point(|e| e.0 <= h);
        let Some(equal) = index.get(lo..hi) else {
            continue;
        };
        // Look at equal blocks outwards from the one where the context predicts the segment.
        let near = matching
            .expected_page(range.start as u32, ids.len() as u32)
            .and_then(|p| s.page_block.get(p as usize).copied())
            .unwrap_or(0);
        let mid = equal.partition_point(|e| e.1 < near);
        let (before, after) = equal.split_at(mid);
        let mut best: Option<(u64, Run)> = None;
        for &(_, b) in
            interleave(after.iter(), before.iter().rev()).take(config.max_seed_occurrences)
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

/// Alternates between two iterators (`a` first), continuing with the longer one.
fn interleave<'a, T: 'a>(
    a: impl Iterator<Item = &'a T>,
    b: impl Iterator<Item = &'a T>,
) -> impl Iterator<Item = &'a T> {
    let (mut a, mut b) = (a.fuse(), b.fuse());
    let mut take_a = false;
    std::iter::from_fn(move || {
        take_a = !take_a;
        if take_a {
            a.next().or_else(|| b.next())
        } else {
            b.next().or_else(|| a.next())
        }
    })
}

//! Anchoring: find the maximal runs shared by gold and page, then place them longest first.
//!
//! *Seeding.* Every k-gram of the page (k = [`AlignConfig::min_run`]) is hashed into a sorted
//! index. Each gold k-gram found there gives a seed, which is extended left and right as far as
//! the tokens agree: a maximal diagonal run. Seeds inside a run already found on the same
//! diagonal are skipped, so each run is extended once. Runs are not confined to a block or a
//! segment: a paragraph split by inline tags, or two gold paragraphs in one block, is one run.
//!
//! *Tiling* (greedy string tiling, as plagiarism detectors do). Runs are taken longest first;
//! a run whose tokens are all unused on both sides becomes a tile; a run partly used is cut to
//! its free pieces, which go back into the queue if still at least k long. This tolerates
//! reordered, missing and extra paragraphs, and never uses a token twice. Runs of equal length
//! that compete for the same gold text (a sentence twice in the page) or the same page text
//! (a sentence twice in the gold) are placed after the unambiguous ones of that length, the one
//! closest to where the surrounding tiles predict first.
//!
//! *Work caps.* A k-gram that occurs more than [`AlignConfig::max_seed_occurrences`] times in
//! the page seeds nothing (its text can still be covered by a run seeded elsewhere, or by the
//! later phases); at most [`AlignConfig::max_runs`] runs are collected, and extending runs, like
//! placing them, stops after [`AlignConfig::max_run_work`] token comparisons. On a huge repetitive page the
//! alignment degrades (fewer tokens aligned) instead of taking quadratic time.

use std::collections::BinaryHeap;
use std::hash::{Hash, Hasher};

use rustc_hash::{FxHashMap, FxHasher};

use super::AlignConfig;
use super::matching::{Matching, Run};
use super::streams::Streams;

/// Hash of a token sequence (the same function for page and gold).
pub(crate) fn hash_ids(ids: &[u32]) -> u64 {
    let mut h = FxHasher::default();
    ids.hash(&mut h);
    h.finish()
}

/// Finds the maximal runs shared by gold and page that are at least `min_run` long.
pub(crate) fn find_runs(s: &Streams, config: &AlignConfig) -> Vec<Run> {
    let k = config.min_run.max(1);
    let (page, gold) = (s.page.as_slice(), s.gold.as_slice());
    let mut runs = Vec::new();
    if page.len() < k || gold.len() < k {
        return runs;
    }
    let mut index: Vec<(u64, u32)> = page
        .windows(k)
        .enumerate()
        .map(|(j, w)| (hash_ids(w), j as u32))
        .collect();
    index.sort_unstable();

    // Per diagonal (page minus gold position), where the last run found on it ends in gold.
    let mut diagonal_end: FxHashMap<i64, usize> = FxHashMap::default();
    let mut work = 0usize;
    // The next gold window start free of absent tokens.
    let mut clean_from = 0usize;
    for (i, window) in gold.windows(k).enumerate() {
        if let Some(last_absent) = window.iter().rposition(|&t| !s.in_page(t)) {
            clean_from = i + last_absent + 1;
        }
        if i < clean_from {
            continue;
        }
        let h = hash_ids(window);
        let lo = index.partition_point(|e| e.0 < h);
        let hi = index.partition_point(|e| e.0 <= h);
        if hi - lo > config.max_seed_occurrences {
            continue;
        }
        for &(_, j) in index.get(lo..hi).unwrap_or(&[]) {
            let j = j as usize;
            let d = j as i64 - i as i64;
            if diagonal_end.get(&d).is_some_and(|&end| i < end) {
                continue;
            }
            let (mut gs, mut ps) = (i, j);
            while gs > 0 && ps > 0 && gold.get(gs - 1) == page.get(ps - 1) {
                gs -= 1;
                ps -= 1;
            }
            let (mut ge, mut pe) = (i, j);
            while ge < gold.len() && pe < page.len() && gold.get(ge) == page.get(pe) {
                ge += 1;
                pe += 1;
            }
            work += ge - gs;
            diagonal_end.insert(d, ge.max(i + 1));
            if let Some(run) = trim_ends(s, gs, ps, ge - gs, k) {
                runs.push(run);
            }
            if runs.len() >= config.max_runs || work >= config.max_run_work {
                return runs;
            }
        }
    }
    runs
}

/// Cuts off the ends of a run that reach fewer than `k` tokens into a segment or block that
/// goes on: chance agreement past the end of a paragraph (gold "… end." then "The …", page
/// "… end." then another "The …") must not steal the first word of a paragraph found elsewhere.
/// Returns the rest if still at least `k` long.
fn trim_ends(s: &Streams, g: usize, p: usize, len: usize, k: usize) -> Option<Run> {
    if len < k.max(1) {
        return None;
    }
    let (mut head, mut tail) = (0, len);
    for (of, unit) in [(g, &s.gold_segment), (p, &s.page_block)] {
        let id = |i: usize| unit.get(of + i).copied();
        // The run starts inside a unit that began before it: drop up to the next unit start
        // if that is near.
        if head == 0
            && of > 0
            && unit.get(of - 1) == id(0).as_ref()
            && let Some(cut) = (1..len.min(k)).find(|&i| id(i) != id(i - 1))
        {
            head = cut;
        }
        // The run ends inside a unit that goes on after it: likewise at the end.
        if tail == len
            && id(len).is_some()
            && id(len) == id(len - 1)
            && let Some(cut) = (len.saturating_sub(k - 1)..len)
                .rev()
                .find(|&i| i > 0 && id(i) != id(i - 1))
        {
            tail = cut;
        }
    }
    (tail >= head + k).then(|| Run {
        g: (g + head) as u32,
        p: (p + head) as u32,
        len: (tail - head) as u32,
    })
}

/// Places runs as tiles, longest first, context deciding between equal competitors.
pub(crate) fn place_runs(runs: Vec<Run>, matching: &mut Matching, config: &AlignConfig) {
    let min_len = config.min_run.max(1) as u32;
    let mut heap = BinaryHeap::from(runs);
    let mut free: Vec<(Run, bool)> = Vec::new();
    let mut ambiguous: Vec<(u64, Run)> = Vec::new();
    let mut work = 0usize;
    while let Some(top) = heap.pop() {
        if work > config.max_run_work {
            break;
        }
        free.clear();
        let mut next = Some(top);
        while let Some(run) = next {
            // Each run is checked here and at most once more when settled.
            work += 2 * run.len as usize;
            if matching.run_free(run) {
                free.push((run, false));
            } else {
                matching.free_pieces(run, min_len, |piece| heap.push(piece));
            }
            next = match heap.peek() {
                Some(r) if r.len == top.len => heap.pop(),
                _ => None,
            };
        }
        // Runs of this length sharing gold text, or sharing page text, are ambiguous.
        free.sort_unstable_by_key(|(r, _)| (r.g, r.p));
        mark_shared(&mut free, |r| r.g);
        free.sort_unstable_by_key(|(r, _)| (r.p, r.g));
        mark_shared(&mut free, |r| r.p);
        free.sort_unstable_by_key(|(r, _)| (r.g, r.p));
        ambiguous.clear();
        for &(run, shared) in &free {
            if shared {
                ambiguous.push((matching.context_distance(run.g, run.len, run.p), run));
            } else {
                settle(run, matching, min_len, &mut heap);
            }
        }
        ambiguous.sort_unstable_by_key(|&(d, r)| (d, r.g, r.p));
        for &(_, run) in &ambiguous {
            settle(run, matching, min_len, &mut heap);
        }
    }
}

/// Marks runs whose `key` equals a neighbour's (the slice is sorted by `key`).
fn mark_shared(runs: &mut [(Run, bool)], key: impl Fn(&Run) -> u32) {
    for i in 1..runs.len() {
        let same = match (runs.get(i - 1), runs.get(i)) {
            (Some((a, _)), Some((b, _))) => key(a) == key(b),
            _ => false,
        };
        if same {
            for (_, shared) in runs.iter_mut().skip(i - 1).take(2) {
                *shared = true;
            }
        }
    }
}

/// Places `run` if still free, else queues its free pieces.
fn settle(run: Run, matching: &mut Matching, min_len: u32, heap: &mut BinaryHeap<Run>) {
    if matching.run_free(run) {
        matching.place(run);
    } else {
        matching.free_pieces(run, min_len, |piece| heap.push(piece));
    }
}

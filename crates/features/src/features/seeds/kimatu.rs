//! Kimatu (seed `000`, section 3): text elements grouped into blocks of the same appearance,
//! scored by a content-relevance ratio, then completed and pruned in a bootstrapping way.
//!
//! Text elements are jusText's paragraphs ([`super::paragraph`]). Their appearance (section
//! 3.2, "all attributes and tag names related to the aspect, or class") is the tag and `class`
//! of the element's nearest paragraph-level ancestor and of that ancestor's parent. A block is
//! a set of elements of the same appearance, each within [`Params::block_gap`] elements of the
//! previous one (the seed's "not very distant").
//!
//! The ratios (section 3.3), each in [0, 1]:
//! - length ratio: the block's characters / the largest block's;
//! - average length ratio: the block's mean element length / the largest mean, that largest
//!   mean capped at [`Params::max_average`];
//! - punctuation ratio: sentence-ending marks per word / [`Params::punct_per_word`];
//! - link density ratio: links per element / [`Params::links_per_element`];
//!
//! `relevance = 0.5 length + 0.5 average - (1 - punctuation) - links` (the seed's formula).
//!
//! The steps (section 3.4), with the seed's constants where it gives them (0.32, 0.1, 0.5)
//! and this implementation's own where it does not (documented on [`Params`]):
//! 1. sure candidates: relevance > 0.32; they are the references;
//! 2. function blocks: candidates of short elements that share a high percentage of words
//!    ("posted by X") are rejected;
//! 3. quotes: a candidate after a reference, of another appearance and of a minimum size,
//!    whose longest common subsequence of words with an earlier reference covers a high share
//!    of it is a quote; when most candidates of an appearance are quotes, all are dropped;
//! 4. dispersed blocks of a reference's appearance, near a reference block of it and with a
//!    relevance above 0.1, are rescued;
//! 5. dispersed candidates: each candidate's distance to its nearest candidate, against the
//!    geometric mean of those distances; a far one whose relevance is not above 0.5 goes;
//! 6. blocks just before or after a candidate with a minimum relevance (headers, short texts)
//!    become candidates (one pass).

use std::ops::Range;

use crate::features::lexicon::word_hash;
use rustc_hash::FxHashMap;
use victor_html::Page;

use super::paragraph::{ParaStats, paragraph_tags, paragraphs};
use victor_html::within::Within;

/// References a candidate is compared with for quotes: the nearest earlier ones.
const QUOTE_REFS: usize = 8;

/// Kimatu's constants.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Params {
    /// Sure candidates have a relevance above this (seed: 0.32).
    pub sure: f64,
    /// Dispersed blocks of a reference's appearance are rescued above this relevance (seed: 0.1).
    pub dispersed: f64,
    /// Far candidates are kept above this relevance (seed: 0.5).
    pub high: f64,
    /// Elements of the same appearance at most this many elements apart form one block (ours: 3).
    pub block_gap: usize,
    /// Cap on the largest mean element length, characters (ours: 400).
    pub max_average: f64,
    /// Sentence ends per word that count as full punctuation (ours: 1 in 20 words).
    pub punct_per_word: f64,
    /// Links per element that count as full link density (ours: 1).
    pub links_per_element: f64,
    /// Function blocks: at least this many elements (ours: 3), of mean length below
    /// `function_length` characters (ours: 80), with at least `function_share` of their words
    /// (ours: 0.5) appearing in half of their elements or more.
    pub function_elements: usize,
    /// See `function_elements`.
    pub function_length: f64,
    /// See `function_elements`.
    pub function_share: f64,
    /// Quotes: candidates of at least this many words (ours: 10) whose LCS with a reference
    /// covers at least `quote_share` of their words (ours: 0.5); the first `quote_words` words
    /// of each are compared (ours: 150).
    pub quote_min_words: usize,
    /// See `quote_min_words`.
    pub quote_share: f64,
    /// See `quote_min_words`.
    pub quote_words: usize,
    /// Dispersed blocks are "near" a reference within this many elements (ours: 10).
    pub near: usize,
    /// A candidate is "far" beyond this multiple of the geometric mean distance (ours: 4).
    pub far: f64,
    /// Blocks this many elements from a candidate (ours: 2) with a relevance above
    /// `near_relevance` (ours: -1, that is, not mostly links) become candidates in step 6.
    pub header_distance: usize,
    /// See `header_distance`.
    pub near_relevance: f64,
}

impl Default for Params {
    fn default() -> Self {
        Params {
            sure: 0.32,
            dispersed: 0.1,
            high: 0.5,
            block_gap: 3,
            max_average: 400.0,
            punct_per_word: 0.05,
            links_per_element: 1.0,
            function_elements: 3,
            function_length: 80.0,
            function_share: 0.5,
            quote_min_words: 10,
            quote_share: 0.5,
            quote_words: 150,
            near: 10,
            far: 4.0,
            header_distance: 2,
            near_relevance: -1.0,
        }
    }
}

/// The four ratios and the relevance of a block.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Ratios {
    /// Length ratio.
    pub length: f64,
    /// Average length ratio.
    pub average: f64,
    /// Punctuation sign ratio.
    pub punctuation: f64,
    /// Link density ratio.
    pub links: f64,
}

impl Ratios {
    /// The content-relevance ratio of section 3.3.
    pub fn relevance(&self) -> f64 {
        0.5 * self.length + 0.5 * self.average - (1.0 - self.punctuation) - self.links
    }
}

/// A Kimatu block: elements (paragraph indices) of one appearance.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct KBlock {
    /// Appearance key.
    pub aspect: u64,
    /// Its elements, in order.
    pub elements: Vec<usize>,
    /// Sums over its elements.
    pub chars: u32,
    /// Words.
    pub words: u32,
    /// Sentence ends.
    pub punct: u32,
    /// Links.
    pub links: u32,
    /// Ratios, filled by [`ratios`].
    pub ratios: Ratios,
    /// Relevance.
    pub relevance: f64,
}

/// The appearance of every element: a hash of the tag and class of its nearest
/// paragraph-level ancestor and of that ancestor's parent.
fn aspects(page: &Page, paras: &[Range<usize>]) -> Vec<u64> {
    let tags = paragraph_tags();
    // Nearest paragraph-level ancestor (or self) of every element, root down.
    let mut nearest = vec![0u32; page.elements.len()];
    for e in crate::features::structure::top_down(page) {
        let el = page.element(e);
        let up = nearest.get(el.parent as usize).copied().unwrap_or(0);
        if let Some(n) = nearest.get_mut(e as usize) {
            *n = if tags.contains(el.tag) { e } else { up };
        }
    }
    let key = |e: u32| {
        let el = page.element(e);
        let mut h = u64::from(el.tag.0).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        for b in page.class_of(el).bytes() {
            h = (h ^ u64::from(b)).wrapping_mul(0x100_0000_01B3);
        }
        h
    };
    paras
        .iter()
        .map(|r| {
            let parent = page.blocks.get(r.start).map_or(0, |b| b.parent);
            let n = nearest.get(parent as usize).copied().unwrap_or(0);
            let up = page.element(n).parent;
            key(n).rotate_left(17) ^ key(up)
        })
        .collect()
}

/// Groups elements into blocks of the same appearance (step "Detect blocks").
pub fn blocks(aspect: &[u64], stats: &[ParaStats], gap: usize) -> Vec<KBlock> {
    let mut out: Vec<KBlock> = Vec::new();
    let mut open: FxHashMap<u64, usize> = FxHashMap::default();
    for (i, (&a, s)) in aspect.iter().zip(stats).enumerate() {
        let k = match open.get(&a) {
            Some(&k) if out[k].elements.last().is_some_and(|&l| i - l <= gap) => k,
            _ => {
                out.push(KBlock {
                    aspect: a,
                    ..KBlock::default()
                });
                open.insert(a, out.len() - 1);
                out.len() - 1
            }
        };
        let b = &mut out[k];
        b.elements.push(i);
        b.chars += s.chars;
        b.words += s.words;
        b.punct += s.punct;
        b.links += s.links;
    }
    out
}

/// Fills the ratios and relevance of every block (section 3.3).
pub fn ratios(blocks: &mut [KBlock], params: &Params) {
    let max_len = blocks.iter().map(|b| b.chars).max().unwrap_or(0).max(1);
    let avg = |b: &KBlock| f64::from(b.chars) / b.elements.len().max(1) as f64;
    let max_avg = blocks
        .iter()
        .map(avg)
        .fold(0.0, f64::max)
        .min(params.max_average)
        .max(1.0);
    for b in blocks.iter_mut() {
        let words = f64::from(b.words.max(1));
        b.ratios = Ratios {
            length: f64::from(b.chars) / f64::from(max_len),
            average: (avg(b) / max_avg).min(1.0),
            punctuation: (f64::from(b.punct) / words / params.punct_per_word).min(1.0),
            links: (f64::from(b.links) / b.elements.len().max(1) as f64 / params.links_per_element)
                .min(1.0),
        };
        b.relevance = b.ratios.relevance();
    }
}

/// Length of the longest common subsequence of two word sequences (O(|a| |b|) time, O(|b|)
/// space).
pub fn lcs(a: &[u64], b: &[u64]) -> usize {
    let mut row = vec![0usize; b.len() + 1];
    for x in a {
        let mut diag = 0;
        for (j, y) in b.iter().enumerate() {
            let up = row[j + 1];
            row[j + 1] = if x == y { diag + 1 } else { up.max(row[j]) };
            diag = up;
        }
    }
    row[b.len()]
}

/// The word hashes of a block's elements, the first `max` of them.
fn block_words(page: &Page, paras: &[Range<usize>], b: &KBlock, max: usize) -> Vec<u64> {
    let mut out = Vec::new();
    'all: for &e in &b.elements {
        for blk in page.blocks.within(paras[e].clone()) {
            for w in page.block_text(blk).split_ascii_whitespace() {
                if out.len() >= max {
                    break 'all;
                }
                out.push(word_hash(w));
            }
        }
    }
    out
}

/// Whether a block is a function block: short elements sharing many words.
fn is_function_block(page: &Page, paras: &[Range<usize>], b: &KBlock, params: &Params) -> bool {
    let n = b.elements.len();
    if n < params.function_elements || f64::from(b.chars) / n as f64 >= params.function_length {
        return false;
    }
    // In how many elements each word appears.
    let mut df: FxHashMap<u64, u32> = FxHashMap::default();
    let mut seen: Vec<u64> = Vec::new();
    let mut total = 0u32;
    for &e in &b.elements {
        seen.clear();
        for blk in page.blocks.within(paras[e].clone()) {
            for w in page.block_text(blk).split_ascii_whitespace() {
                seen.push(word_hash(w));
                total += 1;
            }
        }
        seen.sort_unstable();
        seen.dedup();
        for w in &seen {
            *df.entry(*w).or_default() += 1;
        }
    }
    // Occurrences of words that appear in at least half of the elements.
    let mut shared = 0u32;
    for &e in &b.elements {
        for blk in page.blocks.within(paras[e].clone()) {
            for w in page.block_text(blk).split_ascii_whitespace() {
                if df.get(&word_hash(w)).is_some_and(|&d| 2 * d as usize >= n) {
                    shared += 1;
                }
            }
        }
    }
    total > 0 && f64::from(shared) / f64::from(total) >= params.function_share
}

/// Kimatu's decision for every element (paragraph): kept or not.
pub fn keep_elements(page: &Page, paras: &[Range<usize>], params: &Params) -> Vec<bool> {
    let stats: Vec<ParaStats> = paras
        .iter()
        .map(|r| ParaStats::of(page, r.clone(), None))
        .collect();
    let aspect = aspects(page, paras);
    let mut kb = blocks(&aspect, &stats, params.block_gap);
    ratios(&mut kb, params);
    let n = kb.len();
    // 1. Sure candidates: the references.
    let mut cand: Vec<bool> = kb.iter().map(|b| b.relevance > params.sure).collect();
    // Blocks rejected by steps 2 and 3 are not rescued by the later steps.
    let mut rejected = vec![false; n];
    // 2. Function blocks.
    for (k, b) in kb.iter().enumerate() {
        if cand[k] && is_function_block(page, paras, b, params) {
            cand[k] = false;
            rejected[k] = true;
        }
    }
    // 3. Quotes.
    reject_quotes(page, paras, &kb, params, &mut cand, &mut rejected);
    // 4. Dispersed blocks of a reference's appearance near a reference block of it.
    rescue_near_references(&kb, params, &rejected, &mut cand);
    // 5. Dispersed candidates.
    drop_far_candidates(&kb, params, paras.len(), &mut cand);
    // 6. Blocks near a candidate with a minimum relevance.
    keep_near_candidates(&kb, params, paras.len(), &cand, &rejected)
}

/// Step 3, quotes: per appearance, how many eligible candidates after a reference (a
/// candidate so far) are quotes of it; the candidates of an appearance whose candidates are
/// mostly quotes are rejected.
fn reject_quotes(
    page: &Page,
    paras: &[Range<usize>],
    kb: &[KBlock],
    params: &Params,
    cand: &mut [bool],
    rejected: &mut [bool],
) {
    let n = kb.len();
    let refs: Vec<usize> = (0..n).filter(|&k| cand[k]).collect();
    let mut quote_votes: FxHashMap<u64, (u32, u32)> = FxHashMap::default();
    let ref_words: Vec<(usize, u64, Vec<u64>)> = refs
        .iter()
        .map(|&r| {
            (
                kb[r].elements[0],
                kb[r].aspect,
                block_words(page, paras, &kb[r], params.quote_words),
            )
        })
        .collect();
    for k in 0..n {
        if !cand[k] || (kb[k].words as usize) < params.quote_min_words {
            continue;
        }
        let first = kb[k].elements[0];
        // The nearest earlier references of another appearance (at most `quote_refs`), so
        // that a page of many sure blocks stays linear.
        let earlier: Vec<&Vec<u64>> = ref_words
            .iter()
            .filter(|(start, a, _)| *start < first && *a != kb[k].aspect)
            .map(|(_, _, w)| w)
            .rev()
            .take(QUOTE_REFS)
            .collect();
        if earlier.is_empty() {
            continue;
        }
        let words = block_words(page, paras, &kb[k], params.quote_words);
        let is_quote = earlier
            .iter()
            .any(|r| lcs(&words, r) as f64 >= params.quote_share * words.len() as f64);
        let v = quote_votes.entry(kb[k].aspect).or_default();
        v.0 += u32::from(is_quote);
        v.1 += 1;
    }
    for k in 0..n {
        if let Some(&(q, all)) = quote_votes.get(&kb[k].aspect)
            && 2 * q > all
            && cand[k]
        {
            cand[k] = false;
            rejected[k] = true;
        }
    }
}

/// Step 4: a block that is not a candidate (nor rejected) but relevant enough becomes one when
/// it has an element within `near` elements of a candidate's element of the same appearance.
fn rescue_near_references(kb: &[KBlock], params: &Params, rejected: &[bool], cand: &mut [bool]) {
    let n = kb.len();
    let mut ref_elements: FxHashMap<u64, Vec<usize>> = FxHashMap::default();
    for k in (0..n).filter(|&k| cand[k]) {
        ref_elements
            .entry(kb[k].aspect)
            .or_default()
            .extend(&kb[k].elements);
    }
    for k in 0..n {
        if cand[k] || rejected[k] || kb[k].relevance <= params.dispersed {
            continue;
        }
        if let Some(els) = ref_elements.get(&kb[k].aspect) {
            let near = kb[k].elements.iter().any(|&e| {
                let at = els.partition_point(|&x| x < e);
                let before = at.checked_sub(1).and_then(|i| els.get(i)).map(|&x| e - x);
                let after = els.get(at).map(|&x| x - e);
                before.into_iter().chain(after).any(|d| d <= params.near)
            });
            cand[k] = near;
        }
    }
}

/// Step 5, dispersed candidates: with three candidates or more, one whose distance (in
/// elements, of `elements` on the page) to the nearest other candidate exceeds `far` times the
/// geometric mean of those distances stops being one, unless its relevance is high.
fn drop_far_candidates(kb: &[KBlock], params: &Params, elements: usize, cand: &mut [bool]) {
    let n = kb.len();
    let mut owner = vec![usize::MAX; elements];
    for k in (0..n).filter(|&k| cand[k]) {
        for &e in &kb[k].elements {
            owner[e] = k;
        }
    }
    let cands: Vec<usize> = (0..n).filter(|&k| cand[k]).collect();
    if cands.len() < 3 {
        return;
    }
    // Nearest element of another candidate, for every element: two linear sweeps.
    let mut dist_to_other = vec![usize::MAX; cands.len()];
    let index: FxHashMap<usize, usize> = cands.iter().enumerate().map(|(i, &k)| (k, i)).collect();
    let mut sweep = |order: &mut dyn Iterator<Item = usize>| {
        // The last two distinct candidates seen, with their positions.
        let mut last: [(usize, usize); 2] = [(usize::MAX, 0); 2];
        for e in order {
            let k = owner[e];
            if k == usize::MAX {
                continue;
            }
            let other = if last[0].0 != k { last[0] } else { last[1] };
            if other.0 != usize::MAX
                && let Some(&i) = index.get(&k)
            {
                let d = e.abs_diff(other.1);
                dist_to_other[i] = dist_to_other[i].min(d);
            }
            if last[0].0 != k {
                last[1] = last[0];
            }
            last[0] = (k, e);
        }
    };
    sweep(&mut (0..elements));
    sweep(&mut (0..elements).rev());
    let finite: Vec<f64> = dist_to_other
        .iter()
        .filter(|&&d| d != usize::MAX)
        .map(|&d| (d.max(1)) as f64)
        .collect();
    if !finite.is_empty() {
        let geo = (finite.iter().map(|d| d.ln()).sum::<f64>() / finite.len() as f64).exp();
        for (i, &k) in cands.iter().enumerate() {
            let d = dist_to_other[i];
            if d != usize::MAX && d as f64 > params.far * geo && kb[k].relevance <= params.high {
                cand[k] = false;
            }
        }
    }
}

/// Step 6: the elements kept, of `elements` on the page: those of the candidates, and those of
/// a block neither rejected nor below `near_relevance` within `header_distance` elements of
/// one (one pass over the candidates so far).
fn keep_near_candidates(
    kb: &[KBlock],
    params: &Params,
    elements: usize,
    cand: &[bool],
    rejected: &[bool],
) -> Vec<bool> {
    let n = kb.len();
    let mut keep = vec![false; elements];
    for k in (0..n).filter(|&k| cand[k]) {
        for &e in &kb[k].elements {
            keep[e] = true;
        }
    }
    let before = keep.clone();
    let mut block_of = vec![0usize; elements];
    for (k, b) in kb.iter().enumerate() {
        for &e in &b.elements {
            block_of[e] = k;
        }
    }
    for e in 0..elements {
        if before[e] || rejected[block_of[e]] || kb[block_of[e]].relevance <= params.near_relevance
        {
            continue;
        }
        let lo = e.saturating_sub(params.header_distance);
        let hi = (e + params.header_distance).min(elements - 1);
        if (lo..=hi).any(|x| before[x]) {
            keep[e] = true;
        }
    }
    keep
}

/// For every page block, the relevance of its Kimatu block (`relevance`) and whether Kimatu
/// keeps it (`kept`).
pub fn block_signals(page: &Page, params: &Params, relevance: &mut Vec<f64>, kept: &mut Vec<bool>) {
    let mut paras = Vec::new();
    paragraphs(page, &mut paras);
    let stats: Vec<ParaStats> = paras
        .iter()
        .map(|r| ParaStats::of(page, r.clone(), None))
        .collect();
    let aspect = aspects(page, &paras);
    let mut kb = blocks(&aspect, &stats, params.block_gap);
    ratios(&mut kb, params);
    let keep = keep_elements(page, &paras, params);
    relevance.clear();
    relevance.resize(page.blocks.len(), 0.0);
    kept.clear();
    kept.resize(page.blocks.len(), false);
    for b in &kb {
        for &e in &b.elements {
            for i in paras[e].clone() {
                relevance[i] = b.relevance;
                kept[i] = keep.get(e).copied().unwrap_or(false);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    fn page(html: &str) -> victor_html::Page {
        crate::segment(html).expect("segment")
    }

    const PROSE: &str = "The council met on Tuesday to discuss the new budget. Members argued for hours \
        about the cost of the bridge, and the mayor promised a decision by spring. Residents who \
        attended said they were not convinced.";

    #[test]
    fn relevance_formula_is_the_seeds() {
        let r = Ratios {
            length: 1.0,
            average: 0.6,
            punctuation: 0.9,
            links: 0.0,
        };
        assert!((r.relevance() - (0.5 + 0.3 - 0.1)).abs() < 1e-12);
        let nav = Ratios {
            length: 0.1,
            average: 0.05,
            punctuation: 0.0,
            links: 1.0,
        };
        assert!(nav.relevance() < -1.0);
    }

    #[test]
    fn lcs_counts_common_subsequences() {
        assert_eq!(lcs(&[1, 2, 3, 4, 5], &[1, 3, 5, 7]), 3);
        assert_eq!(lcs(&[], &[1]), 0);
        assert_eq!(lcs(&[4, 4, 4], &[4, 4]), 2);
    }

    #[test]
    fn same_appearance_near_elements_form_one_block() {
        let s = ParaStats::default();
        let b = blocks(&[1, 1, 2, 1, 9, 9, 9, 9, 1], &[s; 9], 3);
        let els: Vec<Vec<usize>> = b.iter().map(|b| b.elements.clone()).collect();
        assert_eq!(els, [vec![0, 1, 3], vec![2], vec![4, 5, 6, 7], vec![8]]);
    }

    #[test]
    fn function_blocks_are_rejected() {
        let posted = "<div class=meta><p>Posted by anna on Monday.</p><p>Posted by bob on Monday.</p>\
            <p>Posted by carl on Monday.</p><p>Posted by dora on Monday.</p></div>";
        let p = page(&format!(
            "<body><div class=story><p>{PROSE}</p></div>{posted}</body>"
        ));
        let paras = {
            let mut v = Vec::new();
            paragraphs(&p, &mut v);
            v
        };
        let stats: Vec<ParaStats> = paras
            .iter()
            .map(|r| ParaStats::of(&p, r.clone(), None))
            .collect();
        let kb = blocks(&aspects(&p, &paras), &stats, 3);
        let meta = kb
            .iter()
            .find(|b| b.elements.len() == 4)
            .expect("the posted-by block");
        assert!(is_function_block(&p, &paras, meta, &Params::default()));
        let story = kb
            .iter()
            .find(|b| b.elements.len() == 1)
            .expect("the story");
        assert!(!is_function_block(&p, &paras, story, &Params::default()));
    }
}

//! Gap filling: short matches and small substitutions between two tiles that bracket them.
//!
//! After anchoring, consecutive matched gold tokens `a < b` whose page tokens are also in order
//! (`p(a) < p(b)`) bracket a gold gap and a page gap. Inside such a window a lone word is
//! trustworthy, so two passes look there:
//!
//! 1. *Local LCS.* When the two gaps have comparable sizes (neither more than twice the other
//!    plus [`GAP_SLACK`] tokens) and their product is at most [`AlignConfig::max_gap_cells`],
//!    a longest common subsequence over the free page tokens matches the words that typos,
//!    inserted bullets or numbers broke into runs too short to anchor. The result is kept only
//!    if it matches at least half of the smaller gap: two unrelated sentences share a few
//!    common words, and those must not count. The sum of all LCS tables is capped by
//!    [`AlignConfig::max_total_gap_cells`].
//! 2. *Substitution.* A gap of at most [`AlignConfig::max_substitution`] tokens on each side
//!    (twice that when a gold token there touches a `?`, L3S-GN1's mark of a lost letter:
//!    "Đoković" is "?okovi?") is taken as the same words spelt differently: its page tokens
//!    are aligned to the gold gap and its gold tokens count as found. So is a gap of up to
//!    [`MAX_RESPELT`] tokens a side whose letters are the same, only split differently
//!    (annotators' "andoccasionallyinto" for "and occasionally into"). An extra page word with
//!    no gold counterpart at all (a footnote mark) is absorbed only when both its neighbours are
//!    in its own block, never as a block of its own or a prefix before the gold text.

use super::AlignConfig;
use super::matching::Matching;
use super::streams::{NONE, Streams};

/// How many tokens two gaps may differ by, beyond a factor of two, and still be compared.
pub(crate) const GAP_SLACK: usize = 8;

/// Longest gap, in tokens on each side, checked for the same letters split differently.
pub(crate) const MAX_RESPELT: usize = 8;

/// A gap between two matched pairs: gold `a+1..b`, page `pa+1..pb`.
#[derive(Clone, Debug)]
struct Gap {
    g: std::ops::Range<usize>,
    p: (usize, usize),
}

/// Calls `f` for every gap between consecutive matched gold tokens that are also in page order
/// (either side of the gap may be empty, not both).
/// `f` may add pairs inside the gap it is given.
fn for_each_gap(matching: &mut Matching, mut f: impl FnMut(&mut Matching, Gap)) {
    let mut prev: Option<(usize, usize)> = None;
    for b in 0..matching.g2p.len() {
        let pb = match matching.g2p.get(b) {
            Some(&p) if p != NONE => p as usize,
            _ => continue,
        };
        if let Some((a, pa)) = prev
            && pb > pa
            && (b > a + 1 || pb > pa + 1)
        {
            f(
                matching,
                Gap {
                    g: a + 1..b,
                    p: (pa + 1, pb),
                },
            );
        }
        prev = Some((b, pb));
    }
}

/// Fills gaps with local LCS matches (pass 1).
pub(crate) fn fill_with_lcs(s: &Streams, matching: &mut Matching, config: &AlignConfig) {
    let mut budget = config.max_total_gap_cells;
    let mut free: Vec<usize> = Vec::new();
    let mut table: Vec<u32> = Vec::new();
    let mut pairs: Vec<(usize, usize)> = Vec::new();
    for_each_gap(matching, |m, gap| {
        let gg = gap.g.len();
        // Scan for free page tokens only where the page gap is not hopelessly larger.
        if gg == 0 || gap.p.1 - gap.p.0 > 8 * (gg + GAP_SLACK) {
            return;
        }
        free.clear();
        free.extend((gap.p.0..gap.p.1).filter(|&p| m.page_free(p)));
        let pg = free.len();
        if pg == 0 || pg > 2 * gg + GAP_SLACK || gg > 2 * pg + GAP_SLACK {
            return;
        }
        let cells = (gg + 1) * (pg + 1);
        if gg * pg > config.max_gap_cells || cells > budget {
            return;
        }
        budget -= cells;
        let gold = s.gold.get(gap.g.clone()).unwrap_or(&[]);
        lcs(gold, &free, &s.page, &mut table, &mut pairs);
        if 2 * pairs.len() >= gg.min(pg) {
            for &(gi, pj) in &pairs {
                if let Some(&p) = free.get(pj) {
                    m.pair(gap.g.start + gi, p);
                }
            }
        }
    });
}

/// Longest common subsequence of `gold` and the page tokens at positions `free`; the matched
/// index pairs (into `gold` and `free`) go to `pairs`, in order.
fn lcs(
    gold: &[u32],
    free: &[usize],
    page: &[u32],
    table: &mut Vec<u32>,
    pairs: &mut Vec<(usize, usize)>,
) {
    pairs.clear();
    let (n, m) = (gold.len(), free.len());
    let w = m + 1;
    table.clear();
    table.resize((n + 1) * w, 0);
    let tok = |j: usize| {
        free.get(j)
            .and_then(|&p| page.get(p))
            .copied()
            .unwrap_or(NONE)
    };
    let at = |t: &[u32], i: usize, j: usize| t.get(i * w + j).copied().unwrap_or(0);
    // table[i][j]: LCS of gold[i..] and free[j..].
    for i in (0..n).rev() {
        let gi = gold.get(i).copied().unwrap_or(NONE);
        for j in (0..m).rev() {
            let v = if gi != NONE && gi == tok(j) {
                at(table, i + 1, j + 1) + 1
            } else {
                at(table, i + 1, j).max(at(table, i, j + 1))
            };
            if let Some(cell) = table.get_mut(i * w + j) {
                *cell = v;
            }
        }
    }
    let (mut i, mut j) = (0, 0);
    while i < n && j < m {
        let gi = gold.get(i).copied().unwrap_or(NONE);
        if gi != NONE && gi == tok(j) {
            pairs.push((i, j));
            i += 1;
            j += 1;
        } else if at(table, i + 1, j) >= at(table, i, j + 1) {
            i += 1;
        } else {
            j += 1;
        }
    }
}

/// Bridges small gaps as substitutions (pass 2).
pub(crate) fn substitute(s: &Streams, matching: &mut Matching, config: &AlignConfig) {
    for_each_gap(matching, |m, gap| {
        let gg = gap.g.len();
        let (p0, p1) = gap.p;
        let pg = p1 - p0;
        let wild = gap.g.clone().any(|g| s.gold_wild.get(g) == Some(&true));
        let limit = if wild {
            2 * config.max_substitution
        } else {
            config.max_substitution
        };
        if pg == 0 || !(p0..p1).all(|p| m.page_free(p)) {
            return;
        }
        let respelt = gg > 0 && gg <= MAX_RESPELT && pg <= MAX_RESPELT && {
            let gold = s.gold.get(gap.g.clone()).unwrap_or(&[]);
            let page = s.page.get(p0..p1).unwrap_or(&[]);
            letters(s, gold).eq(letters(s, page))
        };
        if !respelt && (gg > limit || pg > limit) {
            return;
        }
        if gg == 0 {
            // An extra page word: only inside the block of both its neighbours.
            let block = |p: usize| s.page_block.get(p).copied();
            let left = block(p0 - 1);
            if left != block(p1) || !(p0..p1).all(|p| block(p) == left) {
                return;
            }
            let a = gap.g.start - 1;
            for p in p0..p1 {
                if let Some(x) = m.p2g.get_mut(p) {
                    *x = a as u32;
                }
            }
            return;
        }
        for (k, p) in (p0..p1).enumerate() {
            let g = gap.g.start + k.min(gg - 1);
            if let Some(x) = m.p2g.get_mut(p) {
                *x = g as u32;
            }
        }
        for (k, g) in gap.g.clone().enumerate() {
            let p = p0 + k.min(pg - 1);
            if let Some(x) = m.g2p.get_mut(g) {
                *x = p as u32;
            }
        }
    });
}

/// The letters of a token sequence, without the breaks between tokens.
fn letters<'a>(s: &'a Streams, ids: &'a [u32]) -> impl Iterator<Item = char> + 'a {
    ids.iter().flat_map(|&id| s.word(id).chars())
}

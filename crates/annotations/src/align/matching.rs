//! The alignment being built: which page token each gold token matched, and back.
//!
//! Exact matches are placed as *tiles*: diagonal runs `gold[g..g+len] == page[p..p+len]` whose
//! tokens were all unused on both sides, so no token is ever used twice. Tiles are also kept
//! ordered by gold position, which gives every later decision its context: where a gold
//! position is *expected* on the page, judging from the nearest tiles before and after it.

use std::collections::BTreeMap;

use super::streams::NONE;

/// A diagonal run of equal tokens: `gold[g..g+len] == page[p..p+len]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Run {
    /// Start in the gold stream.
    pub(crate) g: u32,
    /// Start in the page stream.
    pub(crate) p: u32,
    /// Number of tokens.
    pub(crate) len: u32,
}

impl Ord for Run {
    /// Longest first, then earliest in gold, then earliest in page (for a max-heap).
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.len
            .cmp(&other.len)
            .then(other.g.cmp(&self.g))
            .then(other.p.cmp(&self.p))
    }
}

impl PartialOrd for Run {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

/// Gold-to-page and page-to-gold maps plus the placed tiles.
#[derive(Debug)]
pub(crate) struct Matching {
    /// For each gold token, the page token it matched, or [`NONE`].
    pub(crate) g2p: Vec<u32>,
    /// For each page token, the gold token it matched, or [`NONE`].
    pub(crate) p2g: Vec<u32>,
    /// Placed tiles: gold start -> (page start, length).
    tiles: BTreeMap<u32, (u32, u32)>,
}

impl Matching {
    /// An empty matching for `gold` and `page` tokens.
    pub(crate) fn new(gold: usize, page: usize) -> Self {
        Self {
            g2p: vec![NONE; gold],
            p2g: vec![NONE; page],
            tiles: BTreeMap::new(),
        }
    }

    /// Whether gold token `g` and page token `p` are both still unused.
    pub(crate) fn pair_free(&self, g: usize, p: usize) -> bool {
        self.g2p.get(g) == Some(&NONE) && self.p2g.get(p) == Some(&NONE)
    }

    /// Whether page token `p` is still unused.
    pub(crate) fn page_free(&self, p: usize) -> bool {
        self.p2g.get(p) == Some(&NONE)
    }

    /// Whether gold token `g` is still unused.
    pub(crate) fn gold_free(&self, g: usize) -> bool {
        self.g2p.get(g) == Some(&NONE)
    }

    /// Whether every pair of `run` is still free.
    pub(crate) fn run_free(&self, run: Run) -> bool {
        (0..run.len as usize).all(|k| self.pair_free(run.g as usize + k, run.p as usize + k))
    }

    /// Calls `found` with each maximal free piece of `run` of at least `min_len` tokens.
    pub(crate) fn free_pieces(&self, run: Run, min_len: u32, mut found: impl FnMut(Run)) {
        let mut start = None;
        for k in 0..=run.len {
            let free = k < run.len && self.pair_free((run.g + k) as usize, (run.p + k) as usize);
            match (free, start) {
                (true, None) => start = Some(k),
                (false, Some(s)) => {
                    if k - s >= min_len {
                        found(Run {
                            g: run.g + s,
                            p: run.p + s,
                            len: k - s,
                        });
                    }
                    start = None;
                }
                _ => {}
            }
        }
    }

    /// Records `run` as a tile. The caller has checked that it is free.
    pub(crate) fn place(&mut self, run: Run) {
        for k in 0..run.len {
            let (g, p) = ((run.g + k) as usize, (run.p + k) as usize);
            if let (Some(gp), Some(pg)) = (self.g2p.get_mut(g), self.p2g.get_mut(p)) {
                *gp = run.p + k;
                *pg = run.g + k;
            }
        }
        self.tiles.insert(run.g, (run.p, run.len));
    }

    /// Records a single matched pair found outside tiles (gap filling).
    pub(crate) fn pair(&mut self, g: usize, p: usize) {
        if let (Some(gp), Some(pg)) = (self.g2p.get_mut(g), self.p2g.get_mut(p)) {
            *gp = p as u32;
            *pg = g as u32;
        }
    }

    /// Where the tiles around gold run `g..g+len` predict it on the page: on the diagonal of the
    /// nearest tile before it, else of the nearest tile after it; `None` without any tile.
    pub(crate) fn expected_page(&self, g: u32, len: u32) -> Option<u32> {
        let before = self
            .tiles
            .range(..g)
            .next_back()
            .map(|(&g0, &(p0, _))| i64::from(p0) + (i64::from(g) - i64::from(g0)));
        let after = || {
            self.tiles
                .range(g.saturating_add(len)..)
                .next()
                .map(|(&g1, &(p1, _))| i64::from(p1) - (i64::from(g1) - i64::from(g)))
        };
        before
            .or_else(after)
            .map(|p| p.clamp(0, i64::from(u32::MAX - 1)) as u32)
    }

    /// How far page position `p` is from where the tiles around gold run `g..g+len` predict
    /// it: the distance to the closer of the two predictions (continuing the diagonal of the
    /// nearest tile before, or of the nearest tile after). `u64::MAX` without any tile.
    pub(crate) fn context_distance(&self, g: u32, len: u32, p: u32) -> u64 {
        let mut best = u64::MAX;
        let p = i64::from(p);
        if let Some((&g0, &(p0, _))) = self.tiles.range(..g).next_back() {
            let expected = i64::from(p0) + (i64::from(g) - i64::from(g0));
            best = best.min(p.abs_diff(expected));
        }
        if let Some((&g1, &(p1, _))) = self.tiles.range(g.saturating_add(len)..).next() {
            let expected = i64::from(p1) - (i64::from(g1) - i64::from(g));
            best = best.min(p.abs_diff(expected));
        }
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pieces_and_context() {
        let mut m = Matching::new(10, 20);
        m.place(Run {
            g: 2,
            p: 10,
            len: 2,
        });
        assert!(!m.run_free(Run { g: 0, p: 0, len: 3 }));
        assert!(m.run_free(Run { g: 0, p: 0, len: 2 }));
        let mut pieces = Vec::new();
        m.free_pieces(Run { g: 0, p: 8, len: 6 }, 1, |r| pieces.push(r));
        // Gold 2..4 is used (pairs 2..4), so the pieces are gold 0..2 and 4..6.
        assert_eq!(
            pieces,
            [
                Run { g: 0, p: 8, len: 2 },
                Run {
                    g: 4,
                    p: 12,
                    len: 2
                }
            ]
        );
        pieces.clear();
        m.free_pieces(Run { g: 0, p: 8, len: 6 }, 3, |r| pieces.push(r));
        assert!(pieces.is_empty());
        // Gold 5 follows the tile at gold 2 / page 10: expected at page 13.
        assert_eq!(m.context_distance(5, 1, 13), 0);
        assert_eq!(m.context_distance(5, 1, 3), 10);
        // Before the tile: gold 0 is expected at page 8.
        assert_eq!(m.context_distance(0, 2, 8), 0);
        assert_eq!(Matching::new(3, 3).context_distance(0, 1, 5), u64::MAX);
    }
}

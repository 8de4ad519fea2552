//! Boosted trees beside the CRF: a second opinion on P(other) of each block, blended into the
//! CRF's marginals.
//!
//! The CRF sees each block through discretized features and weighs them linearly (conjunctions
//! only where the template spells them out). A gradient-boosted forest over the same blocks' raw
//! feature values learns the interactions the template leaves out ("a short block in a list
//! inside the main column"), but knows nothing of the sequence. Each is better at part of the
//! job; their blend ranks blocks better than either. Measured in 5-fold cross-validation on dev
//! pages (`victor cv`, expected-F1 decoding with the calibration chosen in the same run,
//! text-level F1): dragnet-train with folds by site, CRF 93.56, blend 94.97; CleanEval, CRF
//! 94.54, blend 94.80 (against CleanEval's own gold text .9367 and .9405). A Python prototype
//! (scikit-learn) found the forest alone a little below the blend on both sets.
//!
//! The blend is made on the log-odds of `other`:
//!
//! ```text
//! logit P'(other) = (1 - w) * logit P_crf(other) + w * F(block)
//! ```
//!
//! where `F` is the forest's log-odds and `w` the bundle's weight; header and text keep their
//! ratio and share what is left. Every decoding that reads marginals (thresholds, expected F1,
//! the sweep) sees the blend; Viterbi stays the CRF's own path.
//!
//! The forest is fitted at training time (`victor-train`'s `boost` module) and stored in
//! `victor.json` in the plain form of [`Forest`]: labeling needs no boosting library, only the
//! tree walk below, a few hundred comparisons a block.

use serde::{Deserialize, Serialize};
use victor_features::{FeatureTable, Schema};

use victor_core::Probs;
use victor_features::within::Within;

/// A forest of regression trees over the raw feature values of a block; the sum of their
/// leaves, plus `base`, is the log-odds of `other`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Forest {
    /// The feature columns the trees index, by name, in the order of the feature table; a
    /// bundle whose schema differs is refused on load.
    pub columns: Vec<String>,
    /// The starting log-odds.
    pub base: f64,
    /// The trees.
    pub trees: Vec<Tree>,
}

/// One tree, as parallel arrays over its nodes (node 0 is the root). A node whose `feature` is
/// negative is a leaf worth `value`; any other goes to `left` when the block's raw value of
/// `feature` ([`not_nan`]) is below `threshold`, else to `right`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Tree {
    /// Column split on, -1 at leaves.
    pub feature: Vec<i32>,
    /// Split value.
    pub threshold: Vec<f64>,
    /// Child when below.
    pub left: Vec<u32>,
    /// Child when at or above.
    pub right: Vec<u32>,
    /// Leaf value (log-odds).
    pub value: Vec<f64>,
}

/// A forest and the weight of its log-odds in the blend with the CRF's, as `victor.json`
/// records them.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BoostInfo {
    /// Weight `w` of the forest in the blend (0: the CRF alone, 1: the forest alone).
    pub weight: f64,
    /// Boosting rounds (trees).
    pub trees: usize,
    /// Depth limit of each tree.
    pub max_depth: usize,
    /// Shrinkage of each tree.
    pub learning_rate: f64,
    /// Wall time of the fit, seconds.
    pub seconds: f64,
    /// The fitted forest.
    pub forest: Forest,
}

impl Tree {
    /// Checks the arrays agree and every split names a column below `columns` and a child
    /// after its node (so the walk ends).
    fn check(&self, columns: usize) -> Result<(), String> {
        let n = self.feature.len();
        if n == 0
            || self.threshold.len() != n
            || self.left.len() != n
            || self.right.len() != n
            || self.value.len() != n
        {
            return Err("a tree's arrays are empty or of different lengths".into());
        }
        if n > MAX_TREE_NODES {
            return Err(format!(
                "a tree has {n} nodes, more than {MAX_TREE_NODES} (depth {MAX_DEPTH})"
            ));
        }
        let mut has_parent = vec![false; n];
        for i in 0..n {
            let f = self.feature[i];
            if f < 0 {
                continue;
            }
            if f as usize >= columns {
                return Err(format!("a tree splits on column {f} of {columns}"));
            }
            let (l, r) = (self.left[i] as usize, self.right[i] as usize);
            if l <= i || r <= i || l >= n || r >= n || l == r {
                return Err(format!("tree node {i} has a child out of order"));
            }
            // A tree: no node has two parents (the compiled layout copies each node once).
            for c in [l, r] {
                if std::mem::replace(&mut has_parent[c], true) {
                    return Err(format!("tree node {c} has two parents"));
                }
            }
        }
        Ok(())
    }
}

impl Forest {
    /// Checks the forest against the schema of the bundle's feature configuration.
    pub fn check(&self, schema: &Schema) -> Result<(), String> {
        let names: Vec<&str> = schema.columns.iter().map(|c| c.name.as_str()).collect();
        if names.len() != self.columns.len() || names.iter().zip(&self.columns).any(|(a, b)| a != b)
        {
            return Err(format!(
                "the forest was fitted on {} feature columns that are not the configuration's {}",
                self.columns.len(),
                names.len()
            ));
        }
        if !self.base.is_finite() {
            return Err("the forest's base log-odds is not finite".into());
        }
        if names.len() >= usize::from(MAX_COLUMNS) {
            return Err(format!(
                "the forest has {} feature columns, more than {}",
                names.len(),
                MAX_COLUMNS - 1
            ));
        }
        for t in &self.trees {
            t.check(names.len())?;
            if t.value.iter().any(|v| !v.is_finite()) || t.threshold.iter().any(|v| v.is_nan()) {
                return Err("a tree holds a value that is not a number".into());
            }
        }
        Ok(())
    }
}

/// Most nodes a tree may have: the compiled layout indexes a tree's nodes with 16 bits.
const MAX_TREE_NODES: usize = 1 << 16;

/// Deepest trees a forest may have: a full tree of depth 15 has 65,535 nodes, within
/// the compiled layout's limit.
pub const MAX_DEPTH: usize = 15;

/// A [`Forest`] laid out for labeling. A forest of trees no deeper than 5 (the shipped bundles'
/// are 4 deep) is evaluated column by column (QuickScorer style, see `Complete`), about twice as fast
/// as walking each block down each tree. Deeper forests are walked: every tree's nodes breadth
/// first in one array, a split's two children side by side, each node 8 bytes, on a block's raw
/// values copied into a row. Both give the same sums to the last bit.
#[derive(Clone, Debug)]
pub struct CompiledForest {
    base: f64,
    columns: usize,
    /// First node of every tree and the tree's depth (splits on its longest path).
    roots: Vec<(u32, u32)>,
    nodes: Vec<Node>,
    /// Leaf values, by node index (0 at splits).
    leaves: Vec<f64>,
    /// The same trees as complete trees of one depth, when the forest is shallow enough; the
    /// walk's layout above serves deeper forests.
    complete: Option<Complete>,
}

/// A forest of shallow trees laid out as complete binary trees of one depth `depth` (heap
/// order), evaluated column by column, as QuickScorer does (Lucchese et al., SIGIR 2015): each
/// block starts with every leaf of a tree possible (one bit a leaf, left to right); each split
/// of the tree, compared for a run of blocks at once on the feature table's column in place,
/// rules out the leaves under the child a block does not take. One bit is left: the leaf the
/// walk would reach (every other leaf parts from the walk's path at a split of that path). The
/// comparisons of a run are independent of each other and vectorize, where a walk waits on each
/// load. A leaf above the common depth becomes splits that always go left (a `NaN` threshold)
/// down to a copy of its value.
#[derive(Clone, Debug)]
struct Complete {
    depth: u32,
    /// `(feature, threshold, leaves kept when below, leaves kept when at or above)` of every
    /// split, `2^depth - 1` a tree.
    splits: Vec<Split>,
    /// `2^depth` leaf values a tree.
    leaves: Vec<f64>,
}

/// A split of a [`Complete`] tree.
#[derive(Clone, Copy, Debug)]
struct Split {
    feature: u16,
    threshold: f32,
    /// The leaves still possible after going left: all but those under the right child.
    left: u32,
    /// The leaves still possible after going right: all but those under the left child.
    right: u32,
}

/// Deepest trees that [`Complete`] lays out (32 leaves: one `u32` of possible leaves a block).
const COMPLETE_DEPTH: u32 = 5;

/// Blocks whose possible leaves [`Complete`] narrows down at once, split after split.
const RUN: usize = 256;

/// A node: a split on `feature` at `threshold`, whose children are the nodes `child` and
/// `child + 1` of its tree (below, at or above). A leaf is a node that leads to itself
/// (`child` its own place in the tree, a threshold no value reaches), so that a walk of a
/// tree's depth ends on the leaf of every path, the shorter ones included, without a test.
#[derive(Clone, Copy, Debug)]
struct Node {
    /// The smallest `f32` at or above the split value: for an `f32` raw value `v`,
    /// `v >= threshold` exactly when `f64::from(v)` is at or above the split value. `NaN` at
    /// leaves: no comparison with it holds.
    threshold: f32,
    feature: u16,
    child: u16,
}

/// Limit of the feature columns a forest may index (the compiled layout's `u16`).
const MAX_COLUMNS: u16 = u16::MAX;

/// Blocks walked down each tree together by [`CompiledForest::logits`].
const LANES: usize = 8;

/// The smallest `f32` whose value is at or above `t` (for the comparison of an `f32` with an
/// `f64` split value in `f32`).
fn f32_at_or_above(t: f64) -> f32 {
    let r = t as f32;
    if f64::from(r) >= t { r } else { r.next_up() }
}

impl CompiledForest {
    /// Lays out a forest that passed [`Forest::check`].
    pub fn new(f: &Forest) -> CompiledForest {
        let mut roots = Vec::with_capacity(f.trees.len());
        let mut nodes = Vec::new();
        let mut leaves = Vec::new();
        let mut order = Vec::new();
        let mut depth = Vec::new();
        for t in &f.trees {
            let at = nodes.len();
            // Breadth first from the root: `order[k]` is the source node at position k and
            // `depth[k]` the splits above it.
            order.clear();
            order.push(0usize);
            depth.clear();
            depth.push(0u32);
            let mut k = 0;
            while let Some(&i) = order.get(k) {
                let split = t.feature[i] >= 0;
                let child = order.len();
                if split {
                    order.push(t.left[i] as usize);
                    order.push(t.right[i] as usize);
                    let d = depth[k] + 1;
                    depth.extend([d, d]);
                }
                nodes.push(if split {
                    Node {
                        threshold: f32_at_or_above(t.threshold[i]),
                        feature: t.feature[i] as u16,
                        child: child as u16,
                    }
                } else {
                    Node {
                        threshold: f32::NAN,
                        feature: 0,
                        child: k as u16,
                    }
                });
                leaves.push(if split { 0.0 } else { t.value[i] });
                k += 1;
            }
            roots.push((at as u32, depth.iter().copied().max().unwrap_or(0)));
        }
        let deepest = roots.iter().map(|&(_, d)| d).max().unwrap_or(0);
        CompiledForest {
            base: f.base,
            columns: f.columns.len(),
            complete: (deepest <= COMPLETE_DEPTH).then(|| Complete::new(f, deepest)),
            roots,
            nodes,
            leaves,
        }
    }

    /// The log-odds of `other` of every block of a table, into `out`; `rows` is scratch.
    pub fn logits(&self, table: &FeatureTable, rows: &mut Vec<f32>, out: &mut Vec<f64>) {
        if let Some(complete) = &self.complete {
            out.clear();
            out.resize(table.blocks, self.base);
            if table.has_nan() {
                complete.add_leaves::<true>(|c| table.raw_column(c), out);
            } else {
                complete.add_leaves::<false>(|c| table.raw_column(c), out);
            }
            return;
        }
        let (n, c) = (table.blocks, self.columns);
        rows.clear();
        rows.resize(n * c, 0.0);
        for col in 0..c.min(table.columns) {
            for (b, &v) in table.raw_column(col).iter().enumerate() {
                rows[b * c + col] = not_nan(v);
            }
        }
        self.logits_of_rows(rows, n, out);
    }

    /// The log-odds of `n` blocks whose rows of raw values lie one after the other in `rows`.
    fn logits_of_rows(&self, rows: &[f32], n: usize, out: &mut Vec<f64>) {
        out.clear();
        out.resize(n, self.base);
        let c = self.columns.max(1);
        for (rows, out) in rows.chunks(c * LANES).zip(out.chunks_mut(LANES)) {
            self.eval_lanes(rows, c, out);
        }
    }

    /// Adds every tree's leaf to `sums`, for up to [`LANES`] blocks whose rows of `columns` raw
    /// values lie one after the other in `rows`.
    ///
    /// One walk down a tree is a chain of dependent loads, each waiting for the last; walking
    /// several blocks down the same tree level by level lets the processor overlap their
    /// chains, and a leaf leading to itself lets every walk take the tree's depth in steps
    /// with no test on the way. Each block's sum still adds its leaves in tree order, so the
    /// result is the same to the last bit as walking the blocks one at a time.
    #[inline]
    fn eval_lanes(&self, rows: &[f32], columns: usize, sums: &mut [f64]) {
        let lanes = sums.len().min(LANES);
        let mut at = [0usize; LANES];
        for &(root, depth) in &self.roots {
            let root = root as usize;
            at[..lanes].fill(root);
            for _ in 0..depth {
                for (k, i) in at.iter_mut().enumerate().take(lanes) {
                    let Some(node) = self.nodes.get(*i) else {
                        continue;
                    };
                    let v = rows
                        .get(k * columns + usize::from(node.feature))
                        .copied()
                        .unwrap_or(0.0);
                    *i = root + usize::from(node.child) + usize::from(v >= node.threshold);
                }
            }
            for (s, &i) in sums.iter_mut().zip(&at[..lanes]) {
                *s += self.leaves.get(i).copied().unwrap_or(0.0);
            }
        }
    }

    /// The log-odds of one block's row of raw values.
    #[cfg(test)]
    fn eval(&self, row: &[f32]) -> f64 {
        let mut sum = [self.base];
        self.eval_lanes(row, row.len(), &mut sum);
        sum[0]
    }
}

impl Complete {
    /// Lays out the trees of `f` (none deeper than `depth`) as complete trees of `depth`.
    fn new(f: &Forest, depth: u32) -> Complete {
        let inner = (1usize << depth) - 1;
        // The leaves under split `j` (at level `l`, place `p` in its level) are
        // `p * 2^(depth - l) ..` for `2^(depth - l)` leaves, the left child's the first half.
        let pass = Split {
            feature: 0,
            threshold: f32::NAN,
            left: 0,
            right: 0,
        };
        let mut template = vec![pass; inner];
        for (j, split) in template.iter_mut().enumerate() {
            let level = usize::BITS - 1 - (j + 1).leading_zeros();
            let place = j + 1 - (1 << level);
            let half = 1u32 << (depth - level - 1);
            let first = place as u32 * 2 * half;
            let span = |from: u32| ((1u64 << half) - 1) << from;
            let all = (1u64 << (inner + 1)) - 1;
            split.left = (all & !span(first + half)) as u32;
            split.right = (all & !span(first)) as u32;
        }
        let mut splits = Vec::with_capacity(inner * f.trees.len());
        let mut leaves = vec![0.0; (inner + 1) * f.trees.len()];
        for (k, t) in f.trees.iter().enumerate() {
            splits.extend_from_slice(&template);
            let splits = &mut splits[k * inner..(k + 1) * inner];
            let leaves = &mut leaves[k * (inner + 1)..(k + 1) * (inner + 1)];
            // (source node, its place in the complete tree); the places past the splits are
            // the leaves. A source leaf above the last level goes down the left children.
            let mut todo = vec![(0usize, 0usize)];
            while let Some((i, at)) = todo.pop() {
                if at >= inner {
                    leaves[at - inner] = t.value[i];
                } else if t.feature[i] >= 0 {
                    splits[at].feature = t.feature[i] as u16;
                    splits[at].threshold = f32_at_or_above(t.threshold[i]);
                    todo.push((t.left[i] as usize, 2 * at + 1));
                    todo.push((t.right[i] as usize, 2 * at + 2));
                } else {
                    todo.push((i, 2 * at + 1));
                }
            }
        }
        Complete {
            depth,
            splits,
            leaves,
        }
    }

    /// Adds every tree's leaf to each block's sum in `sums`, tree after tree, so that each sum
    /// adds its leaves in tree order; `column(c)` is the raw values of feature column `c`, one a
    /// block (a column it lacks counts as 0, as in the rows of the walk). `NAN`: some value may
    /// be not a number ([`not_nan`] then reads it as 0; a table without one skips the test).
    fn add_leaves<'t, const NAN: bool>(
        &self,
        column: impl Fn(usize) -> &'t [f32],
        sums: &mut [f64],
    ) {
        let inner = (1usize << self.depth) - 1;
        let trees = self.leaves.len() / (inner + 1);
        let zeros = [0f32; RUN];
        let mut possible = [0u32; RUN];
        let all = ((1u64 << (inner + 1)) - 1) as u32;
        for (run, sums) in sums.chunks_mut(RUN).enumerate() {
            let from = run * RUN;
            let m = sums.len();
            let possible = &mut possible[..m];
            for k in 0..trees {
                // Complete trees: `inner` splits and `inner + 1` leaves each.
                let splits = self.splits.within(k * inner..(k + 1) * inner);
                let leaves = self.leaves.within(k * (inner + 1)..(k + 1) * (inner + 1));
                possible.fill(all);
                for split in splits {
                    let values = column(usize::from(split.feature))
                        .get(from..from + m)
                        .unwrap_or(&zeros[..m]);
                    let flip = split.left ^ split.right;
                    for (p, &v) in possible.iter_mut().zip(values) {
                        let v = if NAN { not_nan(v) } else { v };
                        let right = 0u32.wrapping_sub(u32::from(v >= split.threshold));
                        *p &= split.left ^ (flip & right);
                    }
                }
                for (s, &p) in sums.iter_mut().zip(possible.iter()) {
                    *s += leaves
                        .get(p.trailing_zeros() as usize)
                        .copied()
                        .unwrap_or(0.0);
                }
            }
        }
    }
}

/// A raw value as the trees see it, in fitting and in labeling alike: one that is not a number
/// counts as 0 (victor's features give none today; this keeps a future one from taking a
/// branch at labeling that it did not take in fitting).
#[inline]
pub fn not_nan(v: f32) -> f32 {
    if v.is_nan() { 0.0 } else { v }
}

/// Blends the forest's log-odds `f` into a block's CRF marginals with weight `w` (see the module
/// docs). Header and text keep their ratio.
#[inline]
pub fn blend(p: &mut Probs, f: f64, w: f64) {
    let q = p[2].clamp(1e-9, 1.0 - 1e-9);
    let l = (1.0 - w) * (q / (1.0 - q)).ln() + w * f;
    let q2 = 1.0 / (1.0 + (-l).exp());
    let content = p[0] + p[1];
    if content > 0.0 {
        let k = (1.0 - q2) / content;
        p[0] *= k;
        p[1] *= k;
    } else {
        p[1] = 1.0 - q2;
    }
    p[2] = q2;
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A stump on column 0 at 5: -2 below, +3 at or above.
    /// A tree of one leaf worth `v`.
    fn leaf(v: f64) -> Tree {
        Tree {
            feature: vec![-1],
            threshold: vec![0.0],
            left: vec![0],
            right: vec![0],
            value: vec![v],
        }
    }

    fn stump() -> Tree {
        Tree {
            feature: vec![0, -1, -1],
            threshold: vec![5.0, 0.0, 0.0],
            left: vec![1, 0, 0],
            right: vec![2, 0, 0],
            value: vec![0.0, -2.0, 3.0],
        }
    }

    #[test]
    fn blend_moves_other_and_keeps_the_content_ratio() {
        let mut p = [0.1, 0.3, 0.6];
        // w = 0: unchanged.
        blend(&mut p, 5.0, 0.0);
        assert!((p[2] - 0.6).abs() < 1e-9 && (p[0] - 0.1).abs() < 1e-9);
        // w = 1: the forest alone: logit 0 -> 0.5; header:text stays 1:3.
        blend(&mut p, 0.0, 1.0);
        assert!((p[2] - 0.5).abs() < 1e-9, "{p:?}");
        assert!(
            (p[0] - 0.125).abs() < 1e-9 && (p[1] - 0.375).abs() < 1e-9,
            "{p:?}"
        );
        // w = 0.5 of logit(0.5) = 0 and 2: logit 1.
        blend(&mut p, 2.0, 0.5);
        assert!((p[2] - 1.0 / (1.0 + (-1.0f64).exp())).abs() < 1e-9);
        assert!((p.iter().sum::<f64>() - 1.0).abs() < 1e-9);
    }

    #[test]
    fn a_block_sure_to_be_other_gets_content_back_as_text() {
        let mut p = [0.0, 0.0, 1.0];
        blend(&mut p, -10.0, 1.0);
        assert!(p[1] > 0.99 && p[0] == 0.0, "{p:?}");
    }

    #[test]
    fn a_raw_value_that_is_not_a_number_counts_as_zero() {
        assert_eq!(not_nan(f32::NAN), 0.0);
        assert_eq!(not_nan(-2.5), -2.5);
        assert_eq!(not_nan(f32::INFINITY), f32::INFINITY);
    }

    #[test]
    fn broken_trees_are_refused() {
        let mut t = stump();
        assert!(t.check(1).is_ok());
        assert!(t.check(0).is_err(), "column out of range");
        t.left[0] = 0;
        assert!(t.check(1).is_err(), "a loop");
        let mut t = stump();
        t.value.pop();
        assert!(t.check(1).is_err(), "ragged arrays");
        // Both splits of a two-split tree sending blocks to the same leaf: a node with two
        // parents.
        let t = Tree {
            feature: vec![0, 0, -1, -1],
            threshold: vec![5.0, 2.0, 0.0, 0.0],
            left: vec![1, 2, 0, 0],
            right: vec![3, 3, 0, 0],
            value: vec![0.0, 0.0, 1.0, 2.0],
        };
        let err = t.check(1).expect_err("two parents");
        assert!(err.contains("two parents"), "{err}");
        let n = MAX_TREE_NODES + 1;
        let big = Tree {
            feature: vec![-1; n],
            threshold: vec![0.0; n],
            left: vec![0; n],
            right: vec![0; n],
            value: vec![0.0; n],
        };
        assert!(big.check(1).is_err(), "too many nodes");
    }

    /// The walk of the plain arrays, comparing in `f64`, for the compiled layout to agree with.
    fn plain(t: &Tree, row: &[f32]) -> f64 {
        let mut i = 0;
        while t.feature[i] >= 0 {
            let v = f64::from(row[t.feature[i] as usize]);
            i = if v >= t.threshold[i] {
                t.right[i]
            } else {
                t.left[i]
            } as usize;
        }
        t.value[i]
    }

    #[test]
    fn the_compiled_layout_walks_as_the_plain_trees() {
        // Nodes numbered depth first (children not side by side), splits on values that no
        // f32 holds exactly, and one at an exact f32.
        let deep = Tree {
            feature: vec![1, 0, -1, -1, 1, -1, -1],
            threshold: vec![0.1, -3.5, 0.0, 0.0, 1e30, 0.0, 0.0],
            left: vec![1, 2, 0, 0, 5, 0, 0],
            right: vec![4, 3, 0, 0, 6, 0, 0],
            value: vec![0.0, 0.0, -1.0, -0.5, 0.0, 0.25, 4.0],
        };
        let forest = Forest {
            columns: vec!["a".into(), "b".into()],
            base: 0.5,
            trees: vec![stump(), deep.clone()],
        };
        let c = CompiledForest::new(&forest);
        let tenth = 0.1f32;
        for a in [-10.0f32, -3.5, -3.4999998, 4.9999995, 5.0, 7.0] {
            for b in [
                tenth.next_down(),
                tenth,
                -1.0,
                0.5,
                1e30,
                f32::MAX,
                f32::INFINITY,
            ] {
                let row = [a, b];
                let want = 0.5 + plain(&stump(), &row) + plain(&deep, &row);
                assert_eq!(c.eval(&row), want, "{row:?}");
            }
        }
    }

    #[test]
    fn blocks_walked_together_sum_as_blocks_walked_alone() {
        // Trees of depth 0, 1 and 2 (leaves at different depths), 19 blocks: two full groups
        // of lanes and a short one.
        let deep = Tree {
            feature: vec![1, 0, -1, -1, -1],
            threshold: vec![0.5, 2.0, 0.0, 0.0, 0.0],
            left: vec![1, 2, 0, 0, 0],
            right: vec![4, 3, 0, 0, 0],
            value: vec![0.0, 0.0, -1.0, 0.125, 3.0],
        };
        let leaf = leaf(0.75);
        let forest = Forest {
            columns: vec!["a".into(), "b".into()],
            base: -0.25,
            trees: vec![deep.clone(), leaf.clone(), stump(), deep.clone()],
        };
        let c = CompiledForest::new(&forest);
        let rows: Vec<f32> = (0..38).map(|i| (i * 7 % 11) as f32 * 0.5).collect();
        let mut out = Vec::new();
        c.logits_of_rows(&rows, 19, &mut out);
        assert_eq!(out.len(), 19);
        for (b, got) in out.iter().enumerate() {
            let row = &rows[2 * b..2 * b + 2];
            let want = forest.trees.iter().fold(-0.25, |s, t| s + plain(t, row));
            assert_eq!(got.to_bits(), want.to_bits(), "block {b} {row:?}");
        }
    }

    #[test]
    fn complete_trees_sum_as_the_plain_walks() {
        // Leaves at depths 0 to 4 (the forest's deepest tree sets the common depth), splits on
        // a column the table lacks, raw values that are not numbers; 150 blocks: two full runs
        // and a short one.
        let deep = Tree {
            feature: vec![1, 0, -1, 2, -1, 0, -1, -1, -1],
            threshold: vec![0.5, 2.0, 0.0, 1.5, 0.0, 3.0, 0.0, 0.0, 0.0],
            left: vec![1, 2, 0, 5, 0, 7, 0, 0, 0],
            right: vec![4, 3, 0, 6, 0, 8, 0, 0, 0],
            value: vec![0.0, 0.0, -1.0, 0.0, 3.0, 0.0, 0.125, -0.5, 2.25],
        };
        let leaf = leaf(0.75);
        let missing = Tree {
            feature: vec![3, -1, -1],
            threshold: vec![-0.5, 0.0, 0.0],
            left: vec![1, 0, 0],
            right: vec![2, 0, 0],
            value: vec![-2.0, 5.0, 0.0],
        };
        let forest = Forest {
            columns: vec!["a".into(), "b".into(), "c".into(), "d".into()],
            base: -0.25,
            trees: vec![deep.clone(), leaf.clone(), stump(), missing.clone(), deep],
        };
        let c = CompiledForest::new(&forest);
        let complete = c
            .complete
            .as_ref()
            .expect("shallow trees are laid out complete");
        assert_eq!(complete.depth, 4);
        let n = 150;
        // Columns a, b, c; column d is missing (its values count as 0).
        let columns: Vec<Vec<f32>> = (0..3)
            .map(|col| {
                (0..n)
                    .map(|b| match (b * 7 + col * 3) % 13 {
                        0 => f32::NAN,
                        r => r as f32 * 0.25 - 0.5,
                    })
                    .collect()
            })
            .collect();
        let mut sums = vec![-0.25; n];
        complete.add_leaves::<true>(
            |col| columns.get(col).map(Vec::as_slice).unwrap_or_default(),
            &mut sums,
        );
        // Without a NaN, the loop that skips the test gives the same sums.
        let clean: Vec<Vec<f32>> = columns
            .iter()
            .map(|c| c.iter().map(|&v| not_nan(v)).collect())
            .collect();
        let mut fast = vec![-0.25; n];
        complete.add_leaves::<false>(
            |col| clean.get(col).map(Vec::as_slice).unwrap_or_default(),
            &mut fast,
        );
        assert_eq!(fast, sums);
        for (b, got) in sums.iter().enumerate() {
            let row: Vec<f32> = (0..4)
                .map(|col| columns.get(col).map_or(0.0, |c| not_nan(c[b])))
                .collect();
            let want = forest.trees.iter().fold(-0.25, |s, t| s + plain(t, &row));
            assert_eq!(got.to_bits(), want.to_bits(), "block {b} {row:?}");
        }
        // A forest of single leaves: depth 0, no splits.
        let only = Forest {
            columns: vec!["a".into()],
            base: 1.0,
            trees: vec![leaf.clone(), leaf],
        };
        let c = CompiledForest::new(&only);
        let mut sums = vec![1.0; 3];
        c.complete
            .as_ref()
            .expect("complete")
            .add_leaves::<false>(|_| &[], &mut sums);
        assert_eq!(sums, vec![2.5; 3]);
    }

    #[test]
    fn f32_thresholds_compare_as_the_f64_split_values() {
        // Values and thresholds of every magnitude, and the neighbours of each threshold.
        let mut ts = vec![
            0.0,
            -0.0,
            0.1,
            -0.1,
            1.0 / 3.0,
            5.0,
            1e-40,
            1e30,
            3.5e38,
            -3.5e38,
        ];
        ts.extend([
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::from(f32::MAX),
            f64::MIN_POSITIVE,
        ]);
        for &t in &ts {
            let c = f32_at_or_above(t);
            let r = t as f32;
            for v in [
                r.next_down(),
                r,
                r.next_up(),
                c.next_down(),
                c,
                c.next_up(),
                0.0,
                -0.0,
            ] {
                assert_eq!(v >= c, f64::from(v) >= t, "v {v:e} t {t:e}");
            }
        }
    }
}

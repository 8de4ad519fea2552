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

use crate::labeler::Probs;

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
        for i in 0..n {
            let f = self.feature[i];
            if f < 0 {
                continue;
            }
            if f as usize >= columns {
                return Err(format!("a tree splits on column {f} of {columns}"));
            }
            let (l, r) = (self.left[i] as usize, self.right[i] as usize);
            if l <= i || r <= i || l >= n || r >= n {
                return Err(format!("tree node {i} has a child out of order"));
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
        for t in &self.trees {
            t.check(names.len())?;
            if t.value.iter().any(|v| !v.is_finite()) || t.threshold.iter().any(|v| v.is_nan()) {
                return Err("a tree holds a value that is not a number".into());
            }
        }
        Ok(())
    }
}

/// A [`Forest`] laid out for labeling: every node of every tree in one array, each node one
/// small struct, evaluated on a block's raw values copied into a row.
#[derive(Clone, Debug)]
pub struct CompiledForest {
    base: f64,
    columns: usize,
    roots: Vec<u32>,
    nodes: Vec<Node>,
}

/// A node: a split on `feature` at `value`, or a leaf (`feature == LEAF`) worth `value`.
#[derive(Clone, Copy, Debug)]
struct Node {
    feature: u32,
    left: u32,
    right: u32,
    value: f64,
}

const LEAF: u32 = u32::MAX;

impl CompiledForest {
    /// Lays out a forest that passed [`Forest::check`].
    pub fn new(f: &Forest) -> CompiledForest {
        let mut roots = Vec::with_capacity(f.trees.len());
        let mut nodes = Vec::new();
        for t in &f.trees {
            let at = nodes.len() as u32;
            roots.push(at);
            for i in 0..t.feature.len() {
                nodes.push(if t.feature[i] < 0 {
                    Node {
                        feature: LEAF,
                        left: 0,
                        right: 0,
                        value: t.value[i],
                    }
                } else {
                    Node {
                        feature: t.feature[i] as u32,
                        left: at + t.left[i],
                        right: at + t.right[i],
                        value: t.threshold[i],
                    }
                });
            }
        }
        CompiledForest {
            base: f.base,
            columns: f.columns.len(),
            roots,
            nodes,
        }
    }

    /// The log-odds of `other` of every block of a table, into `out`; `rows` is scratch.
    pub fn logits(&self, table: &FeatureTable, rows: &mut Vec<f32>, out: &mut Vec<f64>) {
        let (n, c) = (table.blocks, self.columns);
        rows.clear();
        rows.resize(n * c, 0.0);
        for col in 0..c.min(table.columns) {
            for (b, &v) in table.raw_column(col).iter().enumerate() {
                rows[b * c + col] = not_nan(v);
            }
        }
        out.clear();
        out.extend(
            rows.chunks_exact(c.max(1))
                .take(n)
                .map(|row| self.eval(row)),
        );
    }

    /// The log-odds of one block's row of raw values.
    #[inline]
    fn eval(&self, row: &[f32]) -> f64 {
        let mut sum = self.base;
        for &root in &self.roots {
            let mut node = self.nodes[root as usize];
            while node.feature != LEAF {
                let v = row.get(node.feature as usize).copied().unwrap_or(0.0);
                let next = if f64::from(v) >= node.value {
                    node.right
                } else {
                    node.left
                };
                node = self.nodes[next as usize];
            }
            sum += node.value;
        }
        sum
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
    }
}

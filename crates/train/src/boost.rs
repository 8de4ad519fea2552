//! Fitting the boosted trees a bundle may blend into its CRF's marginals
//! ([`victor_label::boost`] explains the blend and why).
//!
//! Every training block is one example: its raw feature values (all columns of the
//! configuration, undiscretized) and whether it is `other`. The forest is fitted by forust
//! (histogram gradient boosting with log loss, depth-wise trees, no sampling: the same data
//! gives the same forest) and converted to [`Forest`], the plain form a bundle stores, so that
//! labeling needs no boosting library. Memory: 8 bytes per block and column while fitting
//! (about 70 MB for CleanEval's 112,000 dev blocks).

use forust_ml::GradientBooster;
use forust_ml::data::Matrix;
use serde::{Deserialize, Serialize};
use victor_annotations::Label;
use victor_features::{FeatureTable, Schema};
use victor_label::boost::{BoostInfo, Forest, MAX_DEPTH, Tree, not_nan};

/// How the forest is fitted and blended.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BoostOptions {
    /// Boosting rounds (trees).
    pub trees: usize,
    /// Depth limit of each tree.
    pub max_depth: usize,
    /// Shrinkage of each tree.
    pub learning_rate: f64,
    /// Weight of the forest's log-odds in the blend with the CRF's (0 to 1).
    pub weight: f64,
}

impl Default for BoostOptions {
    /// 100 trees of depth 4 at learning rate 0.1, blended half and half: the setting measured
    /// best on CleanEval and dragnet-train dev pages (a larger forest did not score higher).
    fn default() -> Self {
        BoostOptions {
            trees: 100,
            max_depth: 4,
            learning_rate: 0.1,
            weight: 0.5,
        }
    }
}

/// Training blocks gathered for the forest, column after column.
#[derive(Debug, Default)]
pub(crate) struct BoostData {
    columns: Vec<Vec<f64>>,
    other: Vec<f64>,
    /// The log-odds a base forest gives each block, when boosting goes on from it
    /// ([`BoostData::add_with_margins`]).
    margin: Vec<f64>,
}

impl BoostData {
    /// Empty, for tables of `columns` columns.
    pub(crate) fn new(columns: usize) -> Self {
        BoostData {
            columns: vec![Vec::new(); columns],
            other: Vec::new(),
            margin: Vec::new(),
        }
    }

    /// [`BoostData::add`], with the log-odds a base forest gives each block (`margins`, one a
    /// block of `table`), from which [`fit_further`] goes on.
    pub(crate) fn add_with_margins(
        &mut self,
        table: &FeatureTable,
        labels: &[Label],
        margins: &[f64],
    ) {
        let n = table.blocks.min(labels.len()).min(margins.len());
        self.add(table, &labels[..n]);
        self.margin.extend_from_slice(&margins[..n]);
    }

    /// Adds the blocks of a page (its feature table and gold labels).
    pub(crate) fn add(&mut self, table: &FeatureTable, labels: &[Label]) {
        let n = table.blocks.min(labels.len());
        for (c, col) in self.columns.iter_mut().enumerate() {
            col.extend((0..n).map(|b| f64::from(not_nan(table.raw(b, c)))));
        }
        self.other.extend(
            labels[..n]
                .iter()
                .map(|&l| f64::from(u8::from(l == Label::Other))),
        );
    }

    /// Blocks gathered.
    pub(crate) fn len(&self) -> usize {
        self.other.len()
    }
}

/// Why the forest could not be fitted.
#[derive(Debug, thiserror::Error)]
#[error("boosted trees: {0}")]
pub struct BoostError(String);

/// Fits the forest on the gathered blocks of a schema's columns.
pub(crate) fn fit(
    data: BoostData,
    schema: &Schema,
    opts: &BoostOptions,
) -> Result<BoostInfo, BoostError> {
    let t = std::time::Instant::now();
    if opts.max_depth == 0 || opts.max_depth > MAX_DEPTH {
        return Err(BoostError(format!(
            "tree depth {} is not between 1 and {MAX_DEPTH}",
            opts.max_depth
        )));
    }
    let rows = data.len();
    if rows == 0 {
        return Err(BoostError("no training blocks".into()));
    }
    let cols = data.columns.len();
    let mut matrix = Vec::with_capacity(rows * cols);
    for col in data.columns {
        matrix.extend(col);
    }
    let x = Matrix::new(&matrix, rows, cols);
    let mut booster = GradientBooster::default()
        .set_iterations(opts.trees)
        .set_learning_rate(opts.learning_rate as f32)
        .set_max_depth(opts.max_depth);
    booster.missing = f64::NAN;
    booster.initialize_base_score = true;
    let weights = vec![1.0; rows];
    booster
        .fit(&x, &data.other, &weights, None)
        .map_err(|e| BoostError(e.to_string()))?;
    let forest = convert(&booster, schema)?;
    Ok(BoostInfo {
        weight: opts.weight,
        trees: opts.trees,
        max_depth: opts.max_depth,
        learning_rate: opts.learning_rate,
        seconds: t.elapsed().as_secs_f64(),
        forest,
    })
}

/// A base forest with `trees` more trees fitted on the gathered blocks (added with
/// [`BoostData::add_with_margins`]): boosting with log loss goes on from the base forest's
/// log-odds, at its depth and learning rate, so the new trees correct what it gets wrong on
/// these blocks and leave the rest of its function alone.
///
/// forust starts every fit from one score for all rows, not from a score per row, so each
/// round is one tree of its own: the Newton step of log loss at the current log-odds `F`
/// (gradient `g = p - y`, hessian `h = p (1 - p)`, `p = sigmoid(F)`) is what a squared-loss
/// tree fits to the working response `-g / h` with row weights `h`, from a score of 0; its
/// leaves (learning rate included) are added to `F` and the tree to the forest.
///
/// A leaf's value is the Newton step `-sum(g) / (sum(h) + leaf_prior)`: `leaf_prior` is the
/// precision of a Gaussian prior at 0 on it, in the units of the blocks' summed hessians, so
/// that a leaf moves the base's log-odds only where many new blocks agree (forust's `l2`; a
/// fit from zero uses 1).
pub(crate) fn fit_further(
    data: BoostData,
    schema: &Schema,
    base: &BoostInfo,
    trees: usize,
    leaf_prior: f64,
) -> Result<BoostInfo, BoostError> {
    let t = std::time::Instant::now();
    let rows = data.len();
    if rows == 0 || data.margin.len() != rows {
        return Err(BoostError(
            "no training blocks with the base forest's log-odds".into(),
        ));
    }
    base.forest.check(schema).map_err(BoostError)?;
    let cols = data.columns.len();
    let mut matrix = Vec::with_capacity(rows * cols);
    for col in &data.columns {
        matrix.extend_from_slice(col);
    }
    let x = Matrix::new(&matrix, rows, cols);
    let mut f = data.margin;
    let mut forest = base.forest.clone();
    let (mut z, mut h) = (vec![0.0; rows], vec![0.0; rows]);
    for _ in 0..trees {
        for i in 0..rows {
            let p = 1.0 / (1.0 + (-f[i]).exp());
            // A floor on the hessian keeps the response finite where the forest is sure.
            h[i] = (p * (1.0 - p)).max(1e-6);
            z[i] = (data.other[i] - p) / h[i];
        }
        let mut booster = GradientBooster::default()
            .set_objective_type(forust_ml::objective::ObjectiveType::SquaredLoss)
            .set_iterations(1)
            .set_learning_rate(base.learning_rate as f32)
            .set_max_depth(base.max_depth)
            .set_l2(leaf_prior as f32);
        booster.missing = f64::NAN;
        booster.initialize_base_score = false;
        booster.base_score = 0.0;
        booster
            .fit(&x, &z, &h, None)
            .map_err(|e| BoostError(e.to_string()))?;
        let step = booster.predict(&x, true);
        f.iter_mut().zip(&step).for_each(|(a, b)| *a += b);
        forest.trees.extend(convert(&booster, schema)?.trees);
    }
    forest.check(schema).map_err(BoostError)?;
    Ok(BoostInfo {
        weight: base.weight,
        trees: forest.trees.len(),
        max_depth: base.max_depth,
        learning_rate: base.learning_rate,
        seconds: t.elapsed().as_secs_f64(),
        forest,
    })
}

/// forust's trees in victor's plain form, nodes renumbered breadth-first (children after their
/// parent). forust's separate branch for missing values is never taken: [`BoostData::add`] gives
/// it no NaN.
fn convert(b: &GradientBooster, schema: &Schema) -> Result<Forest, BoostError> {
    let mut trees = Vec::with_capacity(b.trees.len());
    for t in &b.trees {
        let nodes = &t.nodes;
        let mut out = Tree::default();
        let mut order = vec![0usize];
        let mut k = 0;
        while k < order.len() {
            let i = order[k];
            let node = nodes
                .get(i)
                .ok_or_else(|| BoostError(format!("tree node {i} out of range")))?;
            out.threshold.push(node.split_value);
            out.value.push(f64::from(node.weight_value));
            if node.is_leaf {
                out.feature.push(-1);
                out.left.push(0);
                out.right.push(0);
            } else {
                let f = i32::try_from(node.split_feature)
                    .map_err(|_| BoostError("split column out of range".into()))?;
                out.feature.push(f);
                out.left.push((order.len()) as u32);
                order.push(node.left_child);
                out.right.push((order.len()) as u32);
                order.push(node.right_child);
            }
            k += 1;
            if order.len() > nodes.len() {
                return Err(BoostError("a tree is not a tree".into()));
            }
        }
        trees.push(out);
    }
    let forest = Forest {
        columns: schema.columns.iter().map(|c| c.name.clone()).collect(),
        base: b.base_score,
        trees,
    };
    forest.check(schema).map_err(BoostError)?;
    Ok(forest)
}

#[cfg(test)]
mod tests {
    use super::*;
    use victor_features::{Extractor, FeatureConfig, Segmenter};

    /// A page of blocks, the odd ones long prose, the even ones short links.
    fn page_html(n: usize) -> String {
        let mut h = String::from("<html><body>");
        for i in 0..n {
            if i % 2 == 0 {
                h.push_str(&format!("<div><a href='/x{i}'>Link {i}</a></div>"));
            } else {
                h.push_str(&format!(
                    "<p>This is a sentence of running text number {i}, which goes on for a while and ends.</p>"
                ));
            }
        }
        h.push_str("</body></html>");
        h
    }

    #[test]
    fn the_converted_forest_predicts_what_forust_predicts_and_learns_the_pattern() {
        let ex = Extractor::new(&FeatureConfig::default()).expect("config");
        let mut seg = Segmenter::new();
        let mut data = BoostData::new(ex.schema().len());
        let mut tables = Vec::new();
        for n in [10, 14, 20] {
            let page = seg.segment(&page_html(n)).expect("segments");
            let table = ex.extract(&page);
            let labels: Vec<Label> = (0..table.blocks)
                .map(|b| {
                    if page.block_text(&page.blocks[b]).starts_with("Link") {
                        Label::Other
                    } else {
                        Label::Text
                    }
                })
                .collect();
            data.add(&table, &labels);
            tables.push((table, labels));
        }
        let opts = BoostOptions {
            trees: 5,
            max_depth: 2,
            ..BoostOptions::default()
        };
        let rows = data.len();
        let cols = ex.schema().len();
        let mut flat = Vec::new();
        for c in &data.columns {
            flat.extend_from_slice(c);
        }
        let info = fit(data, ex.schema(), &opts).expect("fits");
        assert_eq!(info.forest.trees.len(), 5);
        assert_eq!(info.weight, 0.5);
        // Same predictions as forust's own, block by block.
        let mut booster = GradientBooster::default()
            .set_iterations(5)
            .set_learning_rate(0.1)
            .set_max_depth(2);
        booster.initialize_base_score = true;
        let y: Vec<f64> = tables
            .iter()
            .flat_map(|(_, l)| l.iter().map(|&l| f64::from(u8::from(l == Label::Other))))
            .collect();
        booster
            .fit(&Matrix::new(&flat, rows, cols), &y, &vec![1.0; rows], None)
            .expect("fits");
        let theirs = booster.predict(&Matrix::new(&flat, rows, cols), false);
        let compiled = victor_label::boost::CompiledForest::new(&info.forest);
        let (mut scratch, mut logits) = (Vec::new(), Vec::new());
        let mut r = 0;
        for (table, labels) in &tables {
            compiled.logits(table, &mut scratch, &mut logits);
            assert_eq!(logits.len(), labels.len());
            for (b, l) in labels.iter().enumerate() {
                let ours = logits[b];
                assert!(
                    (ours - theirs[r]).abs() < 1e-6,
                    "block {r}: {ours} vs {}",
                    theirs[r]
                );
                // And it separates links from prose.
                assert_eq!(ours > 0.0, *l == Label::Other, "block {r}");
                r += 1;
            }
        }
    }

    #[test]
    fn further_trees_keep_the_base_forest_and_correct_it_on_the_new_blocks() {
        let ex = Extractor::new(&FeatureConfig::default()).expect("config");
        let mut seg = Segmenter::new();
        let page = seg.segment(&page_html(16)).expect("segments");
        let table = ex.extract(&page);
        let prose_is_other: Vec<Label> = (0..table.blocks)
            .map(|b| {
                if page.block_text(&page.blocks[b]).starts_with("Link") {
                    Label::Text
                } else {
                    Label::Other
                }
            })
            .collect();
        // A base that learnt the opposite guideline: links are other, prose text.
        let mut data = BoostData::new(ex.schema().len());
        let opposite: Vec<Label> = prose_is_other
            .iter()
            .map(|&l| {
                if l == Label::Other {
                    Label::Text
                } else {
                    Label::Other
                }
            })
            .collect();
        data.add(&table, &opposite);
        let opts = BoostOptions {
            trees: 5,
            max_depth: 2,
            ..BoostOptions::default()
        };
        let base = fit(data, ex.schema(), &opts).expect("fits");
        let compiled = victor_label::boost::CompiledForest::new(&base.forest);
        let (mut rows, mut before) = (Vec::new(), Vec::new());
        compiled.logits(&table, &mut rows, &mut before);
        let further = |trees: usize, leaf_prior: f64| {
            let mut d = BoostData::new(ex.schema().len());
            d.add_with_margins(&table, &prose_is_other, &before);
            fit_further(d, ex.schema(), &base, trees, leaf_prior).expect("fits further")
        };
        // No further trees: the base as it is.
        assert_eq!(further(0, 1.0).forest, base.forest);
        let more = further(20, 1.0);
        assert_eq!(more.forest.trees.len(), 25);
        assert_eq!(more.forest.trees[..5], base.forest.trees[..]);
        assert_eq!((more.max_depth, more.weight), (base.max_depth, base.weight));
        let mut after = Vec::new();
        victor_label::boost::CompiledForest::new(&more.forest)
            .logits(&table, &mut rows, &mut after);
        // The new guideline is learnt: every block's log-odds moved toward its new label.
        for (b, l) in prose_is_other.iter().enumerate() {
            let toward = if *l == Label::Other { 1.0 } else { -1.0 };
            assert!(
                (after[b] - before[b]) * toward > 0.0,
                "block {b}: {} -> {}",
                before[b],
                after[b]
            );
        }
        // A strong prior on the leaves moves them less.
        let mut held = Vec::new();
        victor_label::boost::CompiledForest::new(&further(20, 1e6).forest)
            .logits(&table, &mut rows, &mut held);
        let moved = |v: &[f64]| {
            v.iter()
                .zip(&before)
                .map(|(a, b)| (a - b).abs())
                .sum::<f64>()
        };
        assert!(
            moved(&held) < 0.1 * moved(&after),
            "{} vs {}",
            moved(&held),
            moved(&after)
        );
    }

    #[test]
    fn no_blocks_is_an_error() {
        let ex = Extractor::new(&FeatureConfig::default()).expect("config");
        let data = BoostData::new(ex.schema().len());
        assert!(fit(data, ex.schema(), &BoostOptions::default()).is_err());
    }

    #[test]
    fn a_depth_the_labeler_cannot_hold_is_refused_before_fitting() {
        let ex = Extractor::new(&FeatureConfig::default()).expect("config");
        for depth in [0, MAX_DEPTH + 1] {
            let opts = BoostOptions {
                max_depth: depth,
                ..BoostOptions::default()
            };
            let err = fit(BoostData::new(ex.schema().len()), ex.schema(), &opts)
                .expect_err("depth out of range");
            assert!(err.to_string().contains("tree depth"), "{err}");
        }
    }
}

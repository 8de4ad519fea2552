//! The template compiled against a model: attribute lookup by value, not by string.
//!
//! Building an attribute string per block and template line, and looking it up in the model's
//! dictionary, would cost microseconds per block. Instead, at load time every attribute of the
//! model is parsed back into its template line and macro values
//! ([`Template::parse_attribute`]), and stored in a table per line indexed by those values:
//! a dense array when the value space is small (the usual case: bins of one or two features),
//! a hash map otherwise. Scoring a block is then one index computation and one array read per
//! template line. Blocks whose window of rows lies inside the page (at least the template's
//! reach from both page ends: 2 blocks for the shipped templates, at most 8, `BOUND`; most
//! blocks) are scored line by line: a line reads its column of the feature table (stored column after
//! column) as one slice over all those blocks, with its table and bounds held in registers,
//! and adds its weights to each block's row. Every block's sum still takes the lines in template
//! order, so the scores are bit for bit those of a block-by-block loop. The blocks near the
//! page's ends go block by block and take the boundary slots where a row lies beyond the page.
//!
//! Inner blocks read compact copies of the tables, without the boundary slots they never use:
//! 36 KB for the shipped `article` bundle instead of 293 KB. A line of one macro (three of four
//! in the shipped templates) costs about 16 instructions a block (one cell, one comparison, one
//! index, three additions); it cost about 33 block by block (eval/SPEED.md, issue 63).

use ndarray::Array2;
use rustc_hash::FxHashMap;
use victor_features::{Extractor, FeatureTable, Schema, Template};
use victor_features::{Macro, boundary_offset};

use crate::crf::CrfModel;

/// Boundary offsets (`_B-8` .. `_B+8`) with their own slots; farther ones are never in a model
/// trained with row offsets up to 8.
const BOUND: i32 = 8;
/// Largest dense table per line (entries).
const DENSE_LIMIT: usize = 1 << 16;

/// Weights of one attribute for the model's labels (at most three: header, text, other).
type Weights = [f64; 3];

enum Table {
    /// Entries `base..base + len` of the template's weight arena, indexed by key; zero
    /// weights where the model has no attribute.
    Dense {
        base: usize,
        len: usize,
    },
    Hash(FxHashMap<u64, Weights>),
}

impl std::fmt::Debug for Table {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Table::Dense { base, len } => write!(f, "Dense({base}..+{len})"),
            Table::Hash(h) => write!(f, "Hash({})", h.len()),
        }
    }
}

/// A line of one or two macros within BOUND rows and a dense table, as inner blocks read it:
/// everything the hot loop needs in 24 bytes, and a table of its own without the boundary
/// slots that inner blocks never use (a fifth of the size for a line of two macros), so that
/// the weights inner blocks read stay in the fastest cache.
#[derive(Clone, Copy, Debug)]
struct InnerLine {
    /// First entry of the line's table in the inner arena.
    base: u32,
    /// Each macro's column and row offset.
    col: [u32; 2],
    row: [i32; 2],
    /// Number of real values per macro (its table: value pair (a, b) at a * values[1] + b).
    values: [u16; 2],
}

/// The compact form of a line of one macro: its cell and its table, without the work of the
/// unused second macro of an [`InnerLine`] (most of a template's lines are of one macro).
#[derive(Clone, Copy, Debug)]
struct InnerOne {
    /// First entry of the line's table in the inner arena.
    base: u32,
    /// The macro's column and row offset.
    col: u32,
    row: i32,
    /// Number of real values of the macro.
    values: u16,
}

/// How inner blocks read one template line.
#[derive(Clone, Copy, Debug)]
enum InnerStep {
    /// Through the compact form of a line of one macro.
    One(InnerOne),
    /// Two consecutive lines of one macro, read together block by block: a block's row is
    /// loaded and stored once for both (its sum still takes them in order). Four at a time
    /// were no faster: their pointers no longer fit in registers.
    Pair(InnerOne, InnerOne),
    /// Through its compact form (two macros).
    Compact(InnerLine),
    /// Through the general line (its index in `lines`): three or more macros, a row beyond
    /// the window, or a hashed table.
    General(u32),
}

/// A macro of a line, prepared for the hot loop.
#[derive(Clone, Copy, Debug, Default)]
struct Spec {
    /// Whether the macro's row is at most BOUND blocks away (else it takes the slow path).
    near: bool,
    col: usize,
    /// Number of real values of the column.
    values: usize,
    /// Multiplier of this macro's slot in the key.
    stride: u64,
    /// Row offset of the macro from the current block.
    row: isize,
}

#[derive(Debug)]
struct Line {
    specs: [Spec; victor_features::MAX_MACROS],
    /// Number of macros.
    n: usize,
    /// Whether every macro's row is within the window (the fast path of inner blocks).
    near: bool,
    macros: Vec<Macro>,
    /// Values per macro (feature values + boundary slots).
    dims: Vec<usize>,
    /// Number of real values per macro.
    values: Vec<usize>,
    table: Table,
}

impl Line {
    /// A line of the template: its macros prepared for the hot loop, and its table of
    /// weights (dense, in `arena`, when its keys are few enough; else hashed), zero so far.
    fn of(macros: Vec<Macro>, schema: &Schema, arena: &mut Vec<Weights>) -> Line {
        let values: Vec<usize> = macros
            .iter()
            .map(|m| schema.columns.get(m.col).map_or(0, |c| c.labels.len()))
            .collect();
        let dims: Vec<usize> = values.iter().map(|v| v + 2 * BOUND as usize + 1).collect();
        let size = dims.iter().try_fold(1usize, |a, d| a.checked_mul(*d));
        let table = match size {
            Some(len) if len <= DENSE_LIMIT => {
                let base = arena.len();
                arena.resize(base + len, [0.0; 3]);
                Table::Dense { base, len }
            }
            _ => Table::Hash(FxHashMap::default()),
        };
        let mut specs = [Spec::default(); victor_features::MAX_MACROS];
        let mut stride = 1u64;
        for k in (0..macros.len().min(specs.len())).rev() {
            let m = macros[k];
            specs[k] = Spec {
                near: m.row.abs() <= BOUND,
                col: m.col,
                values: values[k],
                stride,
                row: m.row as isize,
            };
            stride = stride.saturating_mul(dims[k] as u64);
        }
        Line {
            specs,
            n: macros.len(),
            near: macros.iter().all(|m| m.row.abs() <= BOUND) && macros.len() <= specs.len(),
            macros,
            dims,
            values,
            table,
        }
    }
}

/// Writes the state weights of every attribute of `crf` into the table of its template line
/// (an attribute whose key no table holds is left out). Fails for an attribute the template
/// does not produce.
fn set_weights(
    template: &Template,
    crf: &CrfModel,
    lines: &mut [Line],
    arena: &mut [Weights],
) -> Result<(), String> {
    let weights = crf.state_weights();
    for (aid, name) in crf.attrs() {
        let p = template.parse_attribute(name).ok_or_else(|| {
            format!("model attribute {name:?} does not come from the bundle's template")
        })?;
        let line = &mut lines[p.line];
        let Some(key) = key_of(line, &p.values[..p.n]) else {
            continue;
        };
        let mut w: Weights = [0.0; 3];
        for (k, x) in w.iter_mut().enumerate().take(crf.num_labels()) {
            *x = weights.get((aid as usize, k)).copied().unwrap_or(0.0);
        }
        match &mut line.table {
            Table::Dense { base, len } => {
                if (key as usize) < *len
                    && let Some(s) = arena.get_mut(*base + key as usize)
                {
                    *s = w;
                }
            }
            Table::Hash(h) => {
                h.insert(key, w);
            }
        }
    }
    Ok(())
}

/// See the module docs.
#[derive(Debug)]
pub(crate) struct CompiledTemplate {
    lines: Vec<Line>,
    /// How inner blocks read each line, in template order (so the sums keep the template's
    /// order): through an [`InnerOne`] or an [`InnerLine`] where the line has one, else
    /// through the line itself.
    inner: Vec<InnerStep>,
    /// The dense tables, one after the other.
    arena: Vec<Weights>,
    /// The tables of the inner lines (real values only), one after the other.
    inner_arena: Vec<Weights>,
    labels: usize,
    /// The farthest row offset of a line within BOUND rows (the lines beyond take the general
    /// path everywhere): blocks at least this far from both page ends are inner blocks.
    reach: usize,
}

/// Slot of an encoded value (feature value or boundary code) in a macro's dimension.
#[inline]
fn slot(v: u16, values: usize) -> Option<usize> {
    match boundary_offset(v) {
        Some(off) => (off.abs() <= BOUND).then(|| values + (off + BOUND) as usize),
        None => ((v as usize) < values).then_some(v as usize),
    }
}

impl CompiledTemplate {
    /// Compiles `template` for `crf`. Fails when a model attribute does not come from the
    /// template (the bundle mixes a model and a template that do not belong together).
    pub(crate) fn new(
        template: &Template,
        extractor: &Extractor,
        crf: &CrfModel,
    ) -> Result<CompiledTemplate, String> {
        let schema = extractor.schema();
        let mut arena: Vec<Weights> = Vec::new();
        let mut lines: Vec<Line> = template
            .lines()
            .iter()
            .map(|l| Line::of(l.macros().to_vec(), schema, &mut arena))
            .collect();
        if crf.num_labels() > 3 {
            return Err(format!(
                "the model has {} labels; victor's have at most 3",
                crf.num_labels()
            ));
        }
        set_weights(template, crf, &mut lines, &mut arena)?;
        let mut inner_arena = Vec::new();
        let inner = lines
            .iter()
            .enumerate()
            .map(
                |(k, line)| match InnerLine::of(line, &arena, &mut inner_arena) {
                    Some(il) if line.n == 1 => InnerStep::One(InnerOne {
                        base: il.base,
                        col: il.col[0],
                        row: il.row[0],
                        values: il.values[0],
                    }),
                    Some(il) => InnerStep::Compact(il),
                    None => InnerStep::General(k as u32),
                },
            )
            .collect();
        let inner = pair_ones(inner);
        let reach = lines
            .iter()
            .flat_map(|l| &l.macros)
            .map(|m| m.row.unsigned_abs() as usize)
            .filter(|&r| r <= BOUND as usize)
            .max()
            .unwrap_or(0);
        Ok(CompiledTemplate {
            lines,
            inner,
            arena,
            inner_arena,
            labels: crf.num_labels(),
            reach,
        })
    }

    /// Fills `scores` (blocks x model labels) with the state scores of every block of a page.
    pub(crate) fn state_scores(&self, table: &FeatureTable, scores: &mut Array2<f64>) {
        let n = table.blocks;
        let l = self.labels;
        if scores.dim() != (n, l) {
            *scores = Array2::zeros((n, l));
        } else {
            scores.fill(0.0);
        }
        let Some(out) = scores.as_slice_mut() else {
            return;
        };
        // Blocks whose window of rows lies inside the page (none for a page of 2 * reach + 1
        // blocks or fewer; every row of a near line is then on the page, so no boundary slot
        // is read, and the general path of far lines is the same for every block).
        let b = self.reach;
        let inner = b.min(n)..n.saturating_sub(b).max(b.min(n));
        // The inner blocks, line by line: each block's sum still takes the lines in template
        // order (the same additions in the same order as block by block, so the same bits),
        // and a line's cell, table and bounds stay in registers over all the blocks.
        match l {
            3 => self.inner_scores::<3>(table, inner.clone(), out),
            2 => self.inner_scores::<2>(table, inner.clone(), out),
            1 => self.inner_scores::<1>(table, inner.clone(), out),
            // `new` refuses models of more than three labels.
            _ => return,
        }
        // The blocks near the page's ends: a macro's row may lie beyond them.
        for t in (0..inner.start).chain(inner.end..n) {
            let mut acc: Weights = [0.0; 3];
            'lines: for line in &self.lines {
                let mut key: u64 = 0;
                for (k, sp) in line.specs.iter().take(line.n).enumerate() {
                    let slot = if !sp.near {
                        // Offsets beyond the boundary slots take the slow path.
                        match slot(Template::value_at(table, t, line.macros[k]), sp.values) {
                            Some(s) => s,
                            None => continue 'lines,
                        }
                    } else {
                        let r = t as isize + sp.row;
                        if (0..n as isize).contains(&r) {
                            match table.column(sp.col).get(r as usize) {
                                Some(&v) if (v as usize) < sp.values => v as usize,
                                _ => continue 'lines,
                            }
                        } else {
                            // Beyond the page's ends: the boundary slot of that distance.
                            let dist = if r < 0 { r } else { r - (n as isize - 1) };
                            sp.values
                                + (dist.clamp(-(BOUND as isize), BOUND as isize) + BOUND as isize)
                                    as usize
                        }
                    };
                    key += slot as u64 * sp.stride;
                }
                if let Some(w) = self.weights(line, key) {
                    add_weights(&mut acc, w);
                }
            }
            if let Some(row) = out.get_mut(t * l..(t + 1) * l) {
                row.copy_from_slice(&acc[..l]);
            }
        }
    }
}

impl CompiledTemplate {
    /// Adds every line's weights to the rows of the inner blocks `inner` (blocks whose window
    /// of 2 * reach + 1 rows lies inside the page) in `out` (blocks x `L` labels, zeros at
    /// first), one line after the other in template order.
    fn inner_scores<const L: usize>(
        &self,
        table: &FeatureTable,
        inner: std::ops::Range<usize>,
        out: &mut [f64],
    ) {
        let (rows, _) = out.as_chunks_mut::<L>();
        let Some(rows) = rows.get_mut(inner.clone()) else {
            return;
        };
        // The cells of column `col` at row offset `row` from every inner block, in block order
        // (`|row| <= reach <= inner.start` for a near line, so the start is inside the column).
        let count = rows.len();
        let column = |col: u32, row: i32| {
            let start = inner.start.wrapping_add_signed(row as isize);
            table
                .column(col as usize)
                .get(start..start + count)
                .unwrap_or_default()
        };
        let arena = self.inner_arena.as_slice();
        // A line of one macro: its table (one entry per real value: a value beyond it, one the
        // model never saw, reads nothing) and its cells.
        let one_line = |one: &InnerOne| {
            let base = one.base as usize;
            let table = arena
                .get(base..base + usize::from(one.values))
                .unwrap_or_default();
            (table, column(one.col, one.row))
        };
        for step in &self.inner {
            match step {
                InnerStep::One(one) => add_line(rows, one_line(one)),
                InnerStep::Pair(a, b) => add_pair(rows, one_line(a), one_line(b)),
                InnerStep::Compact(il) => {
                    // The line's description in registers, its table as a slice of its own.
                    let [n0, n1] = il.values;
                    let base = il.base as usize;
                    let Some(w) = arena.get(base..base + usize::from(n0) * usize::from(n1)) else {
                        continue;
                    };
                    let cells = column(il.col[0], il.row[0])
                        .iter()
                        .zip(column(il.col[1], il.row[1]));
                    for (row, (&v0, &v1)) in rows.iter_mut().zip(cells) {
                        if v0 < n0 && v1 < n1 {
                            // Row-major over the real values: (a, b) at a * n1 + b.
                            let key = usize::from(v0) * usize::from(n1) + usize::from(v1);
                            if let Some(w) = w.get(key) {
                                add_weights(row, w);
                            }
                        }
                    }
                }
                InnerStep::General(k) => {
                    let Some(line) = self.lines.get(*k as usize) else {
                        continue;
                    };
                    for (t, row) in inner.clone().zip(rows.iter_mut()) {
                        let key = if line.near {
                            Self::near_key(line, table, t)
                        } else {
                            Self::far_key(line, table, t)
                        };
                        if let Some(w) = key.and_then(|key| self.weights(line, key)) {
                            add_weights(row, w);
                        }
                    }
                }
            }
        }
    }
}

/// A line of one macro as inner blocks read it: its table, and its cells (one per row).
type OneLine<'a> = (&'a [Weights], &'a [u16]);

/// Adds the weights of a line of one macro to the rows (zipped slices: no bounds check on the
/// cells; a line whose cells are fewer than the rows adds to the first rows only, which cannot
/// happen: its cells are a slice of the column as long as the rows).
#[inline(always)]
fn add_line<const L: usize>(rows: &mut [[f64; L]], (table, cells): OneLine) {
    for (row, &v) in rows.iter_mut().zip(cells) {
        if let Some(w) = table.get(usize::from(v)) {
            add_weights(row, w);
        }
    }
}

/// [`add_line`] for two lines, the first then the second for each row, the row in registers
/// between them.
#[inline(always)]
fn add_pair<const L: usize>(rows: &mut [[f64; L]], (t0, c0): OneLine, (t1, c1): OneLine) {
    for (row, (&v0, &v1)) in rows.iter_mut().zip(c0.iter().zip(c1)) {
        let mut r = *row;
        if let Some(w) = t0.get(usize::from(v0)) {
            add_weights(&mut r, w);
        }
        if let Some(w) = t1.get(usize::from(v1)) {
            add_weights(&mut r, w);
        }
        *row = r;
    }
}

/// The inner steps with each run of consecutive lines of one macro read two at a time
/// ([`InnerStep::Pair`]; an odd one left stays alone), in the same order.
fn pair_ones(steps: Vec<InnerStep>) -> Vec<InnerStep> {
    let mut out: Vec<InnerStep> = Vec::with_capacity(steps.len());
    for step in steps {
        match (out.last_mut(), step) {
            (Some(last @ InnerStep::One(_)), InnerStep::One(b)) => {
                if let InnerStep::One(a) = *last {
                    *last = InnerStep::Pair(a, b);
                }
            }
            (_, step) => out.push(step),
        }
    }
    out
}

/// Adds the first `L` of a line's weights to a block's row of scores.
#[inline(always)]
fn add_weights<const L: usize>(row: &mut [f64; L], w: &Weights) {
    for (o, x) in row.iter_mut().zip(w) {
        *o += x;
    }
}

impl CompiledTemplate {
    /// Key of a line whose rows are all within the window, for a block `t` whose window lies
    /// inside the page; `None` for a value the model never saw.
    #[inline]
    fn near_key(line: &Line, table: &FeatureTable, t: usize) -> Option<u64> {
        let mut key: u64 = 0;
        for sp in &line.specs[..line.n] {
            let v = *table.column(sp.col).get(t.checked_add_signed(sp.row)?)? as usize;
            if v >= sp.values {
                return None;
            }
            key += v as u64 * sp.stride;
        }
        Some(key)
    }

    /// Key of a line with a row beyond the window (the general path).
    fn far_key(line: &Line, table: &FeatureTable, t: usize) -> Option<u64> {
        let mut key: u64 = 0;
        for (sp, m) in line.specs.iter().zip(&line.macros) {
            key += slot(Template::value_at(table, t, *m), sp.values)? as u64 * sp.stride;
        }
        Some(key)
    }
}

impl CompiledTemplate {
    /// The weights a line stores under a key.
    #[inline]
    fn weights<'a>(&'a self, line: &'a Line, key: u64) -> Option<&'a Weights> {
        match &line.table {
            Table::Dense { base, len } => {
                if key as usize >= *len {
                    return None;
                }
                self.arena.get(base + key as usize)
            }
            Table::Hash(h) => h.get(&key),
        }
    }
}

impl InnerLine {
    /// The compact form of a line, when it has one or two macros within the window and a
    /// dense table; its table (copied from the line's in `arena`) goes to `inner_arena`.
    fn of(line: &Line, arena: &[Weights], inner_arena: &mut Vec<Weights>) -> Option<InnerLine> {
        let Table::Dense { base, .. } = line.table else {
            return None;
        };
        if !line.near || line.n == 0 || line.n > 2 {
            return None;
        }
        let specs = &line.specs[..line.n];
        let v0 = specs[0].values;
        let v1 = specs.get(1).map_or(1, |sp| sp.values);
        let mut il = InnerLine {
            base: u32::try_from(inner_arena.len()).ok()?,
            col: [0; 2],
            row: [0; 2],
            // A line of one macro reads its table as one of (a, 0) pairs.
            values: [0, 1],
        };
        for (k, sp) in specs.iter().enumerate() {
            il.col[k] = u32::try_from(sp.col).ok()?;
            il.row[k] = i32::try_from(sp.row).ok()?;
            il.values[k] = u16::try_from(sp.values).ok()?;
        }
        // Row-major over the real values: (a, b) at a * v1 + b.
        for a in 0..v0 {
            for b in 0..v1 {
                let key =
                    a as u64 * specs[0].stride + specs.get(1).map_or(0, |sp| b as u64 * sp.stride);
                let w = arena.get(base + key as usize).copied().unwrap_or([0.0; 3]);
                inner_arena.push(w);
            }
        }
        Some(il)
    }
}

/// Mixed-radix index of a value tuple (the dense slot, or the hash key).
#[inline]
fn key_of(line: &Line, vals: &[u16]) -> Option<u64> {
    let mut key: u64 = 0;
    for ((v, d), nv) in vals.iter().zip(&line.dims).zip(&line.values) {
        key = key * (*d as u64) + slot(*v, *nv)? as u64;
    }
    Some(key)
}

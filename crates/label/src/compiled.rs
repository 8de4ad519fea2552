//! The template compiled against a model: attribute lookup by value, not by string.
//!
//! Building an attribute string per block and template line, and looking it up in the model's
//! dictionary, would cost microseconds per block. Instead, at load time every attribute of the
//! model is parsed back into its template line and macro values
//! ([`Template::parse_attribute`]), and stored in a table per line indexed by those values:
//! a dense array when the value space is small (the usual case: bins of one or two features),
//! a hash map otherwise. Scoring a block is then one index computation and one array read per
//! template line. Blocks at least 8 blocks (`BOUND`) from both page ends (most of them) read their
//! macros' cells straight from the feature table at precomputed offsets; the others go through a
//! window of rows that knows the page's ends.
//!
//! Reading the weights is what costs (the sums wait on the loads), so inner blocks read compact
//! copies of the tables, without the boundary slots they never use: 36 KB for the shipped
//! `article` bundle instead of 293 KB, and 32 bytes of line description each instead of ~280.
//! A line of one macro (three of four in the shipped templates) has a smaller form still: one
//! cell read, one comparison, one index (16 % fewer instructions in the state scores).

use ndarray::Array2;
use rustc_hash::FxHashMap;
use victor_features::{Extractor, FeatureTable, Template};
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

/// A line of one or two macros within the window and a dense table, as inner blocks read it:
/// everything the hot loop needs in 32 bytes, and a table of its own without the boundary
/// slots that inner blocks never use (a fifth of the size for a line of two macros), so that
/// the weights inner blocks read stay in the fastest cache.
#[derive(Clone, Copy, Debug)]
struct InnerLine {
    /// First entry of the line's table in the inner arena.
    base: u32,
    /// Cell offsets from the first cell of the block's window (row `t - BOUND`, column 0);
    /// the second is unused for a line of one macro.
    at: [u32; 2],
    /// Number of real values per macro (`u16::MAX` for the unused second one, whose cell is
    /// read at offset 0 and multiplied by a stride of 0).
    values: [u16; 2],
    stride: [u32; 2],
}

/// The compact form of a line of one macro: its cell and its table, without the work of the
/// unused second macro of an [`InnerLine`] (most of a template's lines are of one macro).
#[derive(Clone, Copy, Debug)]
struct InnerOne {
    /// First entry of the line's table in the inner arena.
    base: u32,
    /// Cell offset from the first cell of the block's window (row `t - BOUND`, column 0).
    at: u32,
    /// Number of real values of the macro.
    values: u16,
}

/// How inner blocks read one template line.
#[derive(Clone, Copy, Debug)]
enum InnerStep {
    /// Through the compact form of a line of one macro.
    One(InnerOne),
    /// Through its compact form (two macros).
    Compact(InnerLine),
    /// Through the general line (its index in `lines`): three or more macros, a row beyond
    /// the window, or a hashed table.
    General(u32),
}

/// A macro of a line, prepared for the hot loop.
#[derive(Clone, Copy, Debug, Default)]
struct Spec {
    /// Index in the window of rows (`row + BOUND`), or usize::MAX beyond it.
    window: usize,
    col: usize,
    /// Number of real values of the column.
    values: usize,
    /// Multiplier of this macro's slot in the key.
    stride: u64,
    /// Offset of the macro's cell from the current block's first cell (`row * columns + col`),
    /// for blocks whose window lies inside the page.
    delta: isize,
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
        let columns = schema.columns.len() as isize;
        let mut arena: Vec<Weights> = Vec::new();
        let mut lines: Vec<Line> = template
            .lines()
            .iter()
            .map(|l| {
                let macros = l.macros().to_vec();
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
                        window: if m.row.abs() <= BOUND {
                            (m.row + BOUND) as usize
                        } else {
                            usize::MAX
                        },
                        col: m.col,
                        values: values[k],
                        stride,
                        delta: m.row as isize * columns + m.col as isize,
                    };
                    stride = stride.saturating_mul(dims[k] as u64);
                }
                Line {
                    specs,
                    n: macros.len(),
                    near: macros.iter().all(|m| m.row.abs() <= BOUND)
                        && macros.len() <= specs.len(),
                    macros,
                    dims,
                    values,
                    table,
                }
            })
            .collect();
        if crf.num_labels() > 3 {
            return Err(format!(
                "the model has {} labels; victor's have at most 3",
                crf.num_labels()
            ));
        }
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
        let mut inner_arena = Vec::new();
        let inner = lines
            .iter()
            .enumerate()
            .map(
                |(k, line)| match InnerLine::of(line, columns, &arena, &mut inner_arena) {
                    Some(il) if line.n == 1 => InnerStep::One(InnerOne {
                        base: il.base,
                        at: il.at[0],
                        values: il.values[0],
                    }),
                    Some(il) => InnerStep::Compact(il),
                    None => InnerStep::General(k as u32),
                },
            )
            .collect();
        Ok(CompiledTemplate {
            lines,
            inner,
            arena,
            inner_arena,
            labels: crf.num_labels(),
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
        // The rows of the blocks at offsets -BOUND..=BOUND around the current block.
        let mut window: [Option<&[u16]>; (2 * BOUND + 1) as usize] =
            [None; (2 * BOUND + 1) as usize];
        let cells = table.values();
        let inner = BOUND as usize..n.saturating_sub(BOUND as usize);
        for t in 0..n {
            // The cells of the rows t - BOUND ..= t + BOUND, when every one of them exists: the
            // inner lines read their cells at fixed non-negative offsets into it.
            let win = if inner.contains(&t) {
                let lo = (t - BOUND as usize) * table.columns;
                cells.get(lo..lo + (2 * BOUND as usize + 1) * table.columns)
            } else {
                None
            };
            if let Some(win) = win {
                let at = (t * table.columns) as isize;
                let arena = self.inner_arena.as_slice();
                // The sums stay in registers (an array that is copied out whole is kept in
                // memory and stored at every line), and are written out once at the end.
                let (mut a0, mut a1, mut a2) = (0.0, 0.0, 0.0);
                for step in &self.inner {
                    let w = match step {
                        InnerStep::One(one) => match win.get(one.at as usize) {
                            Some(&v) if v < one.values => {
                                arena.get(one.base as usize + usize::from(v))
                            }
                            _ => None,
                        },
                        InnerStep::Compact(il) => {
                            match (win.get(il.at[0] as usize), win.get(il.at[1] as usize)) {
                                (Some(&v0), Some(&v1))
                                    if v0 < il.values[0] && v1 < il.values[1] =>
                                {
                                    let key =
                                        u32::from(v0) * il.stride[0] + u32::from(v1) * il.stride[1];
                                    arena.get(il.base as usize + key as usize)
                                }
                                _ => None,
                            }
                        }
                        InnerStep::General(k) => self.lines.get(*k as usize).and_then(|line| {
                            let key = if line.near {
                                self.near_key(line, cells, at)
                            } else {
                                Self::far_key(line, table, t)
                            };
                            key.and_then(|key| self.weights(line, key))
                        }),
                    };
                    if let Some(w) = w {
                        a0 += w[0];
                        a1 += w[1];
                        a2 += w[2];
                    }
                }
                if let Some(row) = out.get_mut(t * l..(t + 1) * l) {
                    for (o, a) in row.iter_mut().zip([a0, a1, a2]) {
                        *o = a;
                    }
                }
                continue;
            }
            for (k, slot) in window.iter_mut().enumerate() {
                let r = t as i64 + k as i64 - i64::from(BOUND);
                *slot = (r >= 0 && (r as usize) < n).then(|| table.row(r as usize));
            }
            let mut acc: Weights = [0.0; 3];
            'lines: for line in &self.lines {
                let mut key: u64 = 0;
                for (k, sp) in line.specs.iter().take(line.n).enumerate() {
                    let slot = match window.get(sp.window) {
                        Some(Some(r)) => match r.get(sp.col) {
                            Some(&v) if (v as usize) < sp.values => v as usize,
                            _ => continue 'lines,
                        },
                        Some(None) => {
                            // Beyond the page's ends: the boundary slot of that distance.
                            let off = sp.window as i32 - BOUND;
                            let dist = if off < 0 {
                                t as i32 + off
                            } else {
                                t as i32 + off - (n as i32 - 1)
                            };
                            sp.values + (dist.clamp(-BOUND, BOUND) + BOUND) as usize
                        }
                        None => match slot(Template::value_at(table, t, line.macros[k]), sp.values)
                        {
                            // Offsets beyond the window take the slow path.
                            Some(s) => s,
                            None => continue 'lines,
                        },
                    };
                    key += slot as u64 * sp.stride;
                }
                if let Some(w) = self.weights(line, key) {
                    add(&mut acc, w);
                }
            }
            if let Some(row) = out.get_mut(t * l..(t + 1) * l) {
                row.copy_from_slice(&acc[..l]);
            }
        }
    }
}

impl CompiledTemplate {
    /// Key of a line whose rows are all within the window, for a block whose window lies
    /// inside the page (`at`: the block's first cell); `None` for a value the model never saw.
    #[inline]
    fn near_key(&self, line: &Line, cells: &[u16], at: isize) -> Option<u64> {
        let mut key: u64 = 0;
        for sp in &line.specs[..line.n] {
            let v = *cells.get((at + sp.delta) as usize)? as usize;
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
    fn of(
        line: &Line,
        columns: isize,
        arena: &[Weights],
        inner_arena: &mut Vec<Weights>,
    ) -> Option<InnerLine> {
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
            at: [0; 2],
            values: [u16::MAX; 2],
            // Row-major over the real values: (a, b) at a * v1 + b.
            stride: [u32::try_from(v1).ok()?, 1],
        };
        for (k, sp) in specs.iter().enumerate() {
            // The block's own row is BOUND rows into its window.
            il.at[k] = u32::try_from(sp.delta + BOUND as isize * columns).ok()?;
            il.values[k] = u16::try_from(sp.values).ok()?;
        }
        if line.n == 1 {
            il.stride = [1, 0];
        }
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

/// Adds a line's weights to a block's scores.
#[inline]
fn add(acc: &mut Weights, w: &Weights) {
    acc[0] += w[0];
    acc[1] += w[1];
    acc[2] += w[2];
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

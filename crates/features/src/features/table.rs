//! The columns a configuration produces ([`Schema`]) and the values of a page's blocks in them
//! ([`FeatureTable`]): raw values, and the discrete values that templates turn into attributes.

use super::data::PageData;
use victor_html::within::Within;

/// What computes a column: fills one value per block from the page's measurements; the `u8`
/// picks the member of a configured family (container class, split, character class,
/// expression key, class level, outer group), 0 for the fixed columns.
pub(super) type Fill = fn(&PageData<'_>, u8, &mut [f32]);

/// How a column's raw values become discrete values.
#[derive(Clone, Debug, PartialEq)]
pub enum Kind {
    /// 0 or 1.
    Flag,
    /// Bin `i` holds values with `i` thresholds at or below them.
    Numeric(Vec<f64>),
    /// The raw value is the index of a name.
    Categorical,
}

/// One feature column.
#[derive(Clone, Debug)]
pub struct Column {
    /// The feature's name, as in the Victor paper where it has one (`char.alpha-rel`).
    pub name: String,
    /// How values are discretized.
    pub kind: Kind,
    /// Label of every discrete value (bin numbers, `0`/`1`, or names).
    pub labels: Vec<String>,
    /// What computes its values: the extractor of its registry entry, and the argument that
    /// picks one of a configured family (a container class, a split, an expression key, ...).
    pub(super) fill: Fill,
    pub(super) arg: u8,
    /// The bins of a numeric column, as compared with raw values (f32), in groups of eight
    /// padded with NaN (never `<=` a value): counting them is a fixed-width loop the compiler
    /// vectorizes, where a loop over a short slice of varying length would not.
    pub(super) bins: Vec<[f32; 8]>,
}

impl Column {
    /// Discretizes a column of raw values, appending one bin per value to `out` (the table's
    /// cells, column after column), deciding the kind once per column rather than once per
    /// cell.
    /// `counts` is scratch space, reused from column to column.
    pub(super) fn discretize_column(
        &self,
        raws: &[f32],
        out: &mut Vec<u16>,
        counts: &mut Vec<u32>,
    ) {
        match &self.kind {
            Kind::Flag => out.extend(raws.iter().map(|&raw| u16::from(raw > 0.5))),
            Kind::Categorical => {
                let last = self.labels.len().saturating_sub(1);
                out.extend(
                    raws.iter()
                        .map(|&raw| (raw.max(0.0) as usize).min(last) as u16),
                );
            }
            Kind::Numeric(_) => {
                // A value's bin is the number of thresholds at or below it. Counted threshold
                // by threshold over the whole column, the comparisons run four or eight blocks
                // at a time (the loop over one block's eight thresholds needed a horizontal sum
                // a cell); the NaN padding is never `<=` a value and is skipped.
                counts.clear();
                counts.resize(raws.len(), 0);
                for &t in self.bins.iter().flatten().filter(|t| !t.is_nan()) {
                    for (c, &raw) in counts.iter_mut().zip(raws) {
                        *c += u32::from(t <= raw);
                    }
                }
                out.extend(counts.iter().map(|&below| below as u16));
            }
        }
    }
}

/// The columns a configuration produces, in order.
#[derive(Clone, Debug)]
pub struct Schema {
    /// The columns.
    pub columns: Vec<Column>,
}

impl Schema {
    /// Index of the column with this name.
    pub fn index(&self, name: &str) -> Option<usize> {
        self.columns.iter().position(|c| c.name == name)
    }

    /// Number of columns.
    pub fn len(&self) -> usize {
        self.columns.len()
    }

    /// Whether there are no columns.
    pub fn is_empty(&self) -> bool {
        self.columns.is_empty()
    }
}

/// Raw and discretized feature values of a page's blocks, column after column: each column is
/// computed whole, and the labeler reads a template line's column over all the blocks.
#[derive(Clone, Debug, Default)]
pub struct FeatureTable {
    /// The page's language (ISO 639-3), when the langid or stopwords module detected one.
    pub language: Option<&'static str>,
    /// Number of blocks (rows).
    pub blocks: usize,
    /// Number of columns.
    pub columns: usize,
    /// Raw values, column after column (`columns x blocks`): each column is computed whole.
    pub(super) raw: Vec<f32>,
    /// Discretized values, column after column (`columns x blocks`).
    pub(super) values: Vec<u16>,
    /// Whether a raw value is not a number (victor's features give none; the boosted trees
    /// read such a value as 0, and skip that test when there is none).
    pub(super) nan: bool,
}

impl FeatureTable {
    /// The raw value of a cell.
    #[inline]
    pub fn raw(&self, block: usize, col: usize) -> f32 {
        if block >= self.blocks {
            return 0.0;
        }
        self.raw
            .get(col * self.blocks + block)
            .copied()
            .unwrap_or(0.0)
    }

    /// Whether any raw value is not a number.
    #[inline]
    pub fn has_nan(&self) -> bool {
        self.nan
    }

    /// The raw values of one column, one per block.
    #[inline]
    pub fn raw_column(&self, col: usize) -> &[f32] {
        self.raw.within(col * self.blocks..(col + 1) * self.blocks)
    }

    /// The discretized value of a cell.
    #[inline]
    pub fn value(&self, block: usize, col: usize) -> u16 {
        if block >= self.blocks {
            return 0;
        }
        self.values
            .get(col * self.blocks + block)
            .copied()
            .unwrap_or(0)
    }

    /// The discretized values of one column, one per block.
    #[inline]
    pub fn column(&self, col: usize) -> &[u16] {
        self.values
            .within(col * self.blocks..(col + 1) * self.blocks)
    }

    /// The discretized values of every block, column after column (`columns x blocks`).
    #[inline]
    pub fn values(&self) -> &[u16] {
        &self.values
    }
}

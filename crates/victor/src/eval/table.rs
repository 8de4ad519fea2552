//! Aligned plain-text tables for the terminal (the first column left-aligned, the others
//! right-aligned: they hold figures; columns two spaces apart), and the cells of the figures
//! that `eval`'s and `sweep`'s tables and CSV files share, in one order.

use std::fmt::Write as _;

use victor_eval::{BlockMetrics, TextSummary};

/// A table of strings with a header row.
#[derive(Debug, Default)]
pub(crate) struct Table {
    header: Vec<String>,
    rows: Vec<Vec<String>>,
}

impl Table {
    /// A table with these column names.
    pub(crate) fn new<S: AsRef<str>>(header: &[S]) -> Table {
        Table {
            header: header.iter().map(|s| s.as_ref().to_string()).collect(),
            rows: Vec::new(),
        }
    }

    /// Adds a row (missing cells print empty, extra cells are dropped).
    pub(crate) fn row(&mut self, cells: Vec<String>) {
        self.rows.push(cells);
    }

    /// The table as lines of text, each ending with a newline.
    pub(crate) fn render(&self) -> String {
        let n = self.header.len();
        let mut widths: Vec<usize> = self.header.iter().map(|h| h.chars().count()).collect();
        for row in &self.rows {
            for (w, cell) in widths.iter_mut().zip(row) {
                *w = (*w).max(cell.chars().count());
            }
        }
        let mut out = String::new();
        let mut line = |cells: &[String]| {
            let mut s = String::new();
            for (i, w) in widths.iter().enumerate().take(n) {
                let cell = cells.get(i).map_or("", String::as_str);
                if i > 0 {
                    s.push_str("  ");
                }
                let _ = if i == 0 {
                    write!(s, "{cell:<w$}")
                } else {
                    write!(s, "{cell:>w$}")
                };
            }
            out.push_str(s.trim_end());
            out.push('\n');
        };
        line(&self.header);
        for row in &self.rows {
            line(row);
        }
        out
    }
}

/// Formats a figure in `0..=1` with four decimals (`-` when absent).
pub(crate) fn fig(x: Option<f64>) -> String {
    x.map_or_else(|| "-".to_string(), |v| format!("{v:.4}"))
}

/// Formats a figure for CSV: its shortest exact form, empty when absent.
pub(crate) fn num(x: Option<f64>) -> String {
    x.map_or_else(String::new, |v| v.to_string())
}

/// Block-level figures, each formatted by `cell` ([`fig`] or [`num`]; empty where `some` is
/// false, when no page had block labels), in the order of `victor eval`'s table and CSV file:
/// accuracy, unlabelled accuracy, precision, recall, F1.
pub(crate) fn block_cells(
    m: &BlockMetrics,
    some: bool,
    cell: fn(Option<f64>) -> String,
) -> [String; 5] {
    [
        m.accuracy,
        m.unlabelled_accuracy,
        m.precision,
        m.recall,
        m.f1,
    ]
    .map(|x| cell(some.then_some(x)))
}

/// The CSV columns of [`text_cells`], in its order.
pub(crate) const TEXT_COLUMNS: [&str; 7] = [
    "text_precision",
    "text_recall",
    "text_f1",
    "text_median_f1",
    "text_micro_precision",
    "text_micro_recall",
    "text_micro_f1",
];

/// A text-level summary's figures, each formatted by `cell` ([`fig`] or [`num`]), in the order
/// of victor's tables and CSV files: macro precision, recall and F1, median F1, then micro
/// precision, recall and F1.
pub(crate) fn text_cells(s: Option<TextSummary>, cell: fn(Option<f64>) -> String) -> [String; 7] {
    [
        s.map(|s| s.macro_avg.precision),
        s.map(|s| s.macro_avg.recall),
        s.map(|s| s.macro_avg.f1),
        s.map(|s| s.median_f1),
        s.map(|s| s.micro.precision),
        s.map(|s| s.micro.recall),
        s.map(|s| s.micro.f1),
    ]
    .map(cell)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn aligns_columns() {
        let mut t = Table::new(&["set", "F1"]);
        t.row(vec!["l3s-gn1".into(), "0.9600".into()]);
        t.row(vec!["all".into(), "1".into()]);
        assert_eq!(
            t.render(),
            "set          F1\nl3s-gn1  0.9600\nall           1\n"
        );
    }
}

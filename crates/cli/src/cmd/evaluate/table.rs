//! Aligned plain-text tables for the terminal: the first column left-aligned, the others
//! right-aligned (they hold figures), columns two spaces apart.

use std::fmt::Write as _;

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

//! CRF++-style templates: turning a page's feature table into per-block CRF attributes.
//!
//! A template is a text file of lines:
//!
//! ```text
//! # comment
//! U01:%x[0,char.alpha-rel]          one attribute per block: the current block's value
//! U02:%x[-1,text.end]/%x[0,sentence-begin]   a combination with the previous block
//! U03:%x[1,3]                       columns by number work too (0-based, schema order)
//! B                                 label bigrams (transitions; CRFsuite always has them)
//! ```
//!
//! `%x[row,col]` is replaced by the discretized value label of column `col` of the block at
//! offset `row`; beyond the page's ends it becomes `_B-1`, `_B-2`, ... and `_B+1`, ... as in
//! CRF++. CRFsuite has no observation-dependent transition features, so `B` lines may not
//! contain macros.
//!
//! Value labels never contain `/`, `:` or white space, and a template must separate two macros
//! with a literal holding such a character. That makes every attribute string parse back into
//! (line, values) unambiguously ([`Template::parse_attribute`]), which the labeler uses to
//! look attributes up by value instead of by string on its hot path.

use std::fmt::Write;

use crate::features::{FeatureTable, Schema};

/// The default template, `templates/default.tpl`.
pub const DEFAULT_TEMPLATE: &str = include_str!("../../../templates/default.tpl");

/// Most macros in one template line.
pub const MAX_MACROS: usize = 4;

/// Encoded value of a row beyond the page's ends: `BOUNDARY + 128 + offset` (offset < 0 before
/// the first block, > 0 after the last).
pub const BOUNDARY: u16 = 0xff00;

/// The encoded value of a row `off` blocks beyond the page's ends (clamped to -127..=127; see
/// [`BOUNDARY`]).
#[inline]
pub fn boundary_code(off: i64) -> u16 {
    BOUNDARY + (128 + off.clamp(-127, 127)) as u16
}

/// The offset beyond the page's ends that an encoded value stands for, or `None` for a feature
/// value (the inverse of [`boundary_code`]).
#[inline]
pub fn boundary_offset(v: u16) -> Option<i32> {
    (v >= BOUNDARY).then(|| i32::from(v - BOUNDARY) - 128)
}

/// Why a template cannot be used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TemplateError {
    /// A line is not `#...`, `U...`, `B...` or blank.
    #[error("template line {line}: expected a U or B line, got {text:?}")]
    BadLine {
        /// 1-based line number.
        line: usize,
        /// The line.
        text: String,
    },
    /// A `%x[...]` macro is malformed.
    #[error("template line {line}: bad macro {text:?} (expected %x[row,column])")]
    BadMacro {
        /// 1-based line number.
        line: usize,
        /// The macro text.
        text: String,
    },
    /// The column is not in the feature schema.
    #[error(
        "template line {line}: unknown column {column:?} (not produced by the feature configuration)"
    )]
    UnknownColumn {
        /// 1-based line number.
        line: usize,
        /// The column as written.
        column: String,
    },
    /// Two macros are not separated by a literal that value labels cannot contain.
    #[error("template line {line}: separate macros with a literal containing '/', ':' or a space")]
    Ambiguous {
        /// 1-based line number.
        line: usize,
    },
    /// Lines whose fixed prefixes are ambiguous (one a prefix of another).
    #[error(
        "template lines {a} and {b}: the text before the first macro must differ and neither may start the other"
    )]
    DuplicatePrefix {
        /// 1-based line number.
        a: usize,
        /// 1-based line number.
        b: usize,
    },
    /// Too many macros on a line, or a row offset out of range.
    #[error("template line {line}: {what}")]
    Limit {
        /// 1-based line number.
        line: usize,
        /// What limit.
        what: String,
    },
    /// A `B` line with macros.
    #[error(
        "template line {line}: B lines with macros are not supported by CRFsuite (use U lines)"
    )]
    BigramMacro {
        /// 1-based line number.
        line: usize,
    },
}

/// A `%x[row,col]` reference.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Macro {
    /// Block offset.
    pub row: i32,
    /// Column index in the schema.
    pub col: usize,
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Part {
    Lit(String),
    Macro(Macro),
}

/// One `U` line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    prefix: String,
    parts: Vec<Part>,
    macros: Vec<Macro>,
}

impl Line {
    /// The macros of the line, in order.
    pub fn macros(&self) -> &[Macro] {
        &self.macros
    }

    /// The fixed text before the first macro (e.g. `U01:`).
    pub fn prefix(&self) -> &str {
        &self.prefix
    }
}

/// An attribute string parsed back into its line and values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ParsedAttr {
    /// Index of the template line.
    pub line: usize,
    /// Values of the line's macros (only the first `n` are used).
    pub values: [u16; MAX_MACROS],
    /// Number of macros.
    pub n: usize,
}

/// A compiled template.
#[derive(Clone, Debug)]
pub struct Template {
    lines: Vec<Line>,
    text: String,
    /// Value label -> value id, per column (for parsing attributes back).
    lookup: Vec<rustc_hash::FxHashMap<String, u16>>,
    labels: Vec<Vec<String>>,
    /// Line index by fixed prefix, and the prefixes' lengths (a few): no prefix is another's
    /// prefix, so an attribute's line is the one whose prefix is among its own first bytes.
    by_prefix: rustc_hash::FxHashMap<String, usize>,
    prefix_lens: Vec<usize>,
}

fn is_label_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.' | '+')
}

impl Template {
    /// Parses a template against a feature schema.
    pub fn parse(text: &str, schema: &Schema) -> Result<Template, TemplateError> {
        let mut lines: Vec<(usize, Line)> = Vec::new();
        for (no, raw) in text.lines().enumerate() {
            let no = no + 1;
            let l = raw.trim();
            if l.is_empty() || l.starts_with('#') {
                continue;
            }
            let kind = l.as_bytes()[0];
            if kind != b'U' && kind != b'B' {
                return Err(TemplateError::BadLine {
                    line: no,
                    text: raw.to_string(),
                });
            }
            let line = Self::parse_line(l, no, schema)?;
            if kind == b'B' {
                if !line.macros.is_empty() {
                    return Err(TemplateError::BigramMacro { line: no });
                }
                continue;
            }
            lines.push((no, line));
        }
        for (i, (na, a)) in lines.iter().enumerate() {
            for (nb, b) in lines.iter().skip(i + 1) {
                // Lines without macros are constants; only their full text must differ.
                if a.prefix.starts_with(&b.prefix) || b.prefix.starts_with(&a.prefix) {
                    return Err(TemplateError::DuplicatePrefix { a: *na, b: *nb });
                }
            }
        }
        let labels: Vec<Vec<String>> = schema.columns.iter().map(|c| c.labels.clone()).collect();
        let lookup = labels
            .iter()
            .map(|ls| {
                ls.iter()
                    .enumerate()
                    .map(|(i, l)| (l.clone(), i as u16))
                    .collect()
            })
            .collect();
        let lines: Vec<Line> = lines.into_iter().map(|(_, l)| l).collect();
        let by_prefix = lines
            .iter()
            .enumerate()
            .map(|(i, l)| (l.prefix.clone(), i))
            .collect();
        let mut prefix_lens: Vec<usize> = lines.iter().map(|l| l.prefix.len()).collect();
        prefix_lens.sort_unstable();
        prefix_lens.dedup();
        Ok(Template {
            lines,
            text: text.to_string(),
            lookup,
            labels,
            by_prefix,
            prefix_lens,
        })
    }

    fn parse_line(l: &str, no: usize, schema: &Schema) -> Result<Line, TemplateError> {
        let mut parts = Vec::new();
        let mut macros = Vec::new();
        let mut rest = l;
        let mut lit = String::new();
        while let Some(at) = rest.find("%x[") {
            lit.push_str(&rest[..at]);
            let after = &rest[at + 3..];
            let close = after.find(']').ok_or_else(|| TemplateError::BadMacro {
                line: no,
                text: rest[at..].to_string(),
            })?;
            let inner = &after[..close];
            let bad = || TemplateError::BadMacro {
                line: no,
                text: format!("%x[{inner}]"),
            };
            let (r, c) = inner.split_once(',').ok_or_else(bad)?;
            let row: i32 = r.trim().parse().map_err(|_| bad())?;
            if !(-100..=100).contains(&row) {
                return Err(TemplateError::Limit {
                    line: no,
                    what: format!("row offset {row} outside -100..100"),
                });
            }
            let c = c.trim();
            let col = match c.parse::<usize>() {
                Ok(i) if i < schema.columns.len() => i,
                _ => schema
                    .index(c)
                    .ok_or_else(|| TemplateError::UnknownColumn {
                        line: no,
                        column: c.to_string(),
                    })?,
            };
            if !macros.is_empty() && !lit.chars().any(|ch| !is_label_char(ch)) {
                return Err(TemplateError::Ambiguous { line: no });
            }
            parts.push(Part::Lit(std::mem::take(&mut lit)));
            let m = Macro { row, col };
            parts.push(Part::Macro(m));
            macros.push(m);
            rest = &after[close + 1..];
        }
        lit.push_str(rest);
        if !lit.is_empty() {
            parts.push(Part::Lit(lit));
        }
        if macros.len() > MAX_MACROS {
            return Err(TemplateError::Limit {
                line: no,
                what: format!("at most {MAX_MACROS} macros per line"),
            });
        }
        let prefix = match parts.first() {
            Some(Part::Lit(s)) => s.clone(),
            _ => String::new(),
        };
        Ok(Line {
            prefix,
            parts,
            macros,
        })
    }

    /// The template's text, as given.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The `U` lines.
    pub fn lines(&self) -> &[Line] {
        &self.lines
    }

    /// The encoded value a macro reads for block `t` (a value id, or a boundary code).
    #[inline]
    pub fn value_at(table: &FeatureTable, t: usize, m: Macro) -> u16 {
        let r = t as i64 + i64::from(m.row);
        if r < 0 || r >= table.blocks as i64 {
            return boundary_code(r - if r < 0 { 0 } else { table.blocks as i64 - 1 });
        }
        table.value(r as usize, m.col)
    }

    fn push_value(&self, out: &mut String, col: usize, v: u16) {
        if let Some(off) = boundary_offset(v) {
            out.push_str("_B");
            if off > 0 {
                out.push('+');
            }
            let _ = write!(out, "{off}");
        } else if let Some(l) = self.labels.get(col).and_then(|ls| ls.get(v as usize)) {
            out.push_str(l);
        }
    }

    /// Calls `f` with every attribute string of block `t`, built in `buf` (reused, so no string
    /// is allocated per attribute).
    pub fn for_each_attribute(
        &self,
        table: &FeatureTable,
        t: usize,
        buf: &mut String,
        mut f: impl FnMut(&str),
    ) {
        for line in &self.lines {
            buf.clear();
            for p in &line.parts {
                match p {
                    Part::Lit(s) => buf.push_str(s),
                    Part::Macro(m) => {
                        let v = Self::value_at(table, t, *m);
                        self.push_value(buf, m.col, v);
                    }
                }
            }
            f(buf);
        }
    }

    /// Parses an attribute string made by this template back into its line and values.
    pub fn parse_attribute(&self, attr: &str) -> Option<ParsedAttr> {
        // The one line whose prefix starts the attribute (prefixes are prefix-free), found by
        // length: loading a model parses every attribute it holds.
        let li = self
            .prefix_lens
            .iter()
            .find_map(|&n| self.by_prefix.get(attr.get(..n)?).copied())?;
        let line = self.lines.get(li)?;
        let mut rest = &attr[line.prefix.len()..];
        let mut out = ParsedAttr {
            line: li,
            values: [0; MAX_MACROS],
            n: line.macros.len(),
        };
        let mut k = 0;
        let mut parts = line.parts.iter().skip(1).peekable();
        while let Some(p) = parts.next() {
            match p {
                Part::Lit(s) => rest = rest.strip_prefix(s.as_str())?,
                Part::Macro(m) => {
                    let end = match parts.peek() {
                        Some(Part::Lit(next)) => rest.find(next.as_str())?,
                        _ => rest.len(),
                    };
                    let v = &rest[..end];
                    out.values[k] = self.parse_value(m.col, v)?;
                    k += 1;
                    rest = &rest[end..];
                }
            }
        }
        rest.is_empty().then_some(out)
    }

    fn parse_value(&self, col: usize, v: &str) -> Option<u16> {
        if let Some(off) = v.strip_prefix("_B") {
            let off: i32 = off.trim_start_matches('+').parse().ok()?;
            return Some(boundary_code(i64::from(off)));
        }
        self.lookup.get(col)?.get(v).copied()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::FeatureConfig;
    use crate::features::Extractor;

    #[test]
    fn boundary_codes_round_trip_and_clamp() {
        for off in -127..=127i64 {
            let v = boundary_code(off);
            assert!(v >= BOUNDARY);
            assert_eq!(boundary_offset(v), Some(off as i32));
        }
        assert_eq!(boundary_offset(boundary_code(-1000)), Some(-127));
        assert_eq!(boundary_offset(boundary_code(1000)), Some(127));
        assert_eq!(boundary_offset(BOUNDARY - 1), None);
        assert_eq!(boundary_offset(0), None);
    }

    fn schema() -> Schema {
        Extractor::new(&FeatureConfig::default())
            .expect("default config")
            .schema()
            .clone()
    }

    #[test]
    fn shipped_template_parses() {
        let s = schema();
        let t = Template::parse(DEFAULT_TEMPLATE, &s).expect("templates/default.tpl parses");
        assert!(t.lines().len() > 50);
    }

    #[test]
    fn expands_and_parses_back() {
        let s = schema();
        let tpl = "# test\nU00:%x[0,sentence-end]\nU01:%x[-1,text.end]/%x[0,sentence-begin]\nU02:%x[2,0]\nB\n";
        let t = Template::parse(tpl, &s).expect("parses");
        let doc = crate::decode(b"<p>One. Two</p><p>three</p>").expect("decodes");
        let page = crate::segment(&doc.text).expect("segments");
        let table = Extractor::new(&FeatureConfig::default())
            .expect("config")
            .extract(&page);
        let mut buf = String::new();
        let mut got = Vec::new();
        t.for_each_attribute(&table, 0, &mut buf, |a| got.push(a.to_string()));
        assert_eq!(got[0], "U00:0");
        assert_eq!(got[1], "U01:_B-1/1");
        assert_eq!(got[2], "U02:_B+1");
        for a in &got {
            let p = t.parse_attribute(a).expect("parses back");
            let mut again = String::new();
            t.for_each_attribute(&table, 0, &mut buf, |x| {
                if x.starts_with(t.lines()[p.line].prefix()) {
                    again = x.to_string();
                }
            });
            assert_eq!(&again, a);
        }
        assert_eq!(t.parse_attribute("U01:_B-1/7"), None);
        assert_eq!(t.parse_attribute("U09:1"), None);
    }

    #[test]
    fn attributes_find_their_line_among_prefixes_of_any_length() {
        let s = schema();
        let tpl = "U1:%x[0,sentence-end]\nU022:at %x[0,sentence-begin]\nU3:%x[0,sentence-end]\n";
        let t = Template::parse(tpl, &s).expect("parses");
        assert_eq!(t.parse_attribute("U1:0").map(|p| p.line), Some(0));
        assert_eq!(
            t.parse_attribute("U022:at 1")
                .map(|p| (p.line, p.values[0])),
            Some((1, 1))
        );
        assert_eq!(t.parse_attribute("U3:_B+2").map(|p| p.line), Some(2));
        for bad in ["U02", "U022:a", "U022:1", "U2:0", "", "U1"] {
            assert_eq!(t.parse_attribute(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn rejects_bad_templates() {
        let s = schema();
        assert!(matches!(
            Template::parse("X01:%x[0,0]", &s),
            Err(TemplateError::BadLine { .. })
        ));
        assert!(matches!(
            Template::parse("U01:%x[0,nope]", &s),
            Err(TemplateError::UnknownColumn { .. })
        ));
        assert!(matches!(
            Template::parse("U01:%x[0,0]%x[0,1]", &s),
            Err(TemplateError::Ambiguous { .. })
        ));
        assert!(matches!(
            Template::parse("U1:%x[0,0]\nU1:%x[0,1]", &s),
            Err(TemplateError::DuplicatePrefix { .. })
        ));
        assert!(matches!(
            Template::parse("B01:%x[0,0]", &s),
            Err(TemplateError::BigramMacro { .. })
        ));
        assert!(matches!(
            Template::parse("U01:%x[a,0]", &s),
            Err(TemplateError::BadMacro { .. })
        ));
    }
}

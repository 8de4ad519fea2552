//! Label statistics of annotated pages: the Victor paper's Table 1 (label, block count, share)
//! for a set, and the counts of every page.
//!
//! Counting is separate from loading: feed [`SetStats::add`] the labels of each loaded page
//! (in any order; [`SetStats::sort`] puts the pages in id order), then read the totals.

use std::fmt;

use serde::Serialize;

use crate::Label;

/// Block counts per label.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct LabelCounts {
    /// Blocks labelled header.
    pub header: u64,
    /// Blocks labelled text.
    pub text: u64,
    /// Blocks labelled other.
    pub other: u64,
}

impl LabelCounts {
    /// The counts of a sequence of labels.
    pub fn of(labels: &[Label]) -> Self {
        let mut c = Self::default();
        for &l in labels {
            c.add_one(l);
        }
        c
    }

    /// Counts one more block with label `l`.
    pub fn add_one(&mut self, l: Label) {
        match l {
            Label::Header => self.header += 1,
            Label::Text => self.text += 1,
            Label::Other => self.other += 1,
        }
    }

    /// Adds another set of counts.
    pub fn add(&mut self, other: &LabelCounts) {
        self.header += other.header;
        self.text += other.text;
        self.other += other.other;
    }

    /// The count of one label.
    pub fn get(&self, l: Label) -> u64 {
        match l {
            Label::Header => self.header,
            Label::Text => self.text,
            Label::Other => self.other,
        }
    }

    /// All blocks.
    pub fn total(&self) -> u64 {
        self.header + self.text + self.other
    }

    /// Content blocks (header and text).
    pub fn content(&self) -> u64 {
        self.header + self.text
    }

    /// Share of label `l` among all blocks, in percent (0 when there is no block).
    pub fn percent(&self, l: Label) -> f64 {
        match self.total() {
            0 => 0.0,
            t => 100.0 * self.get(l) as f64 / t as f64,
        }
    }
}

/// The counts of one page.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PageCounts {
    /// The page id.
    pub id: String,
    /// Its split, if recorded.
    pub split: Option<String>,
    /// Its label counts.
    pub counts: LabelCounts,
}

impl PageCounts {
    /// The counts of a page with these labels.
    pub fn new(id: impl Into<String>, split: Option<String>, labels: &[Label]) -> Self {
        Self {
            id: id.into(),
            split,
            counts: LabelCounts::of(labels),
        }
    }
}

/// Label statistics of one annotated set.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct SetStats {
    /// The set's name.
    pub set: String,
    /// Totals over all pages added.
    pub counts: LabelCounts,
    /// Pages with at least one content block.
    pub pages_with_content: u64,
    /// Every page added.
    pub pages: Vec<PageCounts>,
}

impl SetStats {
    /// Empty statistics for set `set`.
    pub fn new(set: impl Into<String>) -> Self {
        Self {
            set: set.into(),
            ..Self::default()
        }
    }

    /// Adds a page with these labels.
    pub fn add(&mut self, id: impl Into<String>, split: Option<String>, labels: &[Label]) {
        self.add_page(PageCounts::new(id, split, labels));
    }

    /// Adds a page counted already.
    pub fn add_page(&mut self, page: PageCounts) {
        self.counts.add(&page.counts);
        if page.counts.content() > 0 {
            self.pages_with_content += 1;
        }
        self.pages.push(page);
    }

    /// Puts the pages in id order.
    pub fn sort(&mut self) {
        self.pages.sort_by(|a, b| a.id.cmp(&b.id));
    }

    /// The set's Table 1 (see its `Display`).
    pub fn table(&self) -> Table1<'_> {
        Table1(self)
    }
}

/// Table 1 of the Victor paper for a set: one line per label and a total, with block counts
/// (thousands separated by spaces, as in the paper) and percentages.
#[derive(Clone, Copy, Debug)]
pub struct Table1<'a>(&'a SetStats);

impl fmt::Display for Table1<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = self.0;
        let c = &s.counts;
        writeln!(
            f,
            "{}: {} pages, {} with content blocks",
            s.set,
            s.pages.len(),
            s.pages_with_content
        )?;
        writeln!(f, "| label  | count      | %      |")?;
        writeln!(f, "|--------|------------|--------|")?;
        for l in Label::ALL {
            writeln!(
                f,
                "| {:<6} | {:>10} | {:>6.2} |",
                l.as_str(),
                spaced(c.get(l)),
                c.percent(l)
            )?;
        }
        let total = if c.total() == 0 { 0.0 } else { 100.0 };
        writeln!(
            f,
            "| {:<6} | {:>10} | {:>6.2} |",
            "total",
            spaced(c.total()),
            total
        )
    }
}

/// `n` with a space between groups of three digits (`81 528`).
pub(crate) fn spaced(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(' ');
        }
        out.push(c);
    }
    out
}

impl SetStats {
    /// The statistics of the pages of `corpus`, set `name`: every page loaded for real
    /// (segmented again, every label checked against its block), in parallel on the current
    /// rayon pool, so that the figures are those training will see; `on_page` is called as
    /// each page is done. Returns the pages that failed to load apart.
    pub fn count(
        corpus: &crate::Corpus,
        name: impl Into<String>,
        on_page: &(dyn Fn() + Sync),
    ) -> (SetStats, Vec<crate::LoadError>) {
        use rayon::prelude::*;
        let loaded: Vec<Result<PageCounts, crate::LoadError>> = corpus
            .pages()
            .par_iter()
            .map_init(victor_features::Segmenter::new, |segmenter, p| {
                let r = p
                    .load(segmenter)
                    .map(|a| PageCounts::new(a.id, a.record.split, &a.labels));
                on_page();
                r
            })
            .collect();
        let mut stats = SetStats::new(name);
        let mut errors = Vec::new();
        for r in loaded {
            match r {
                Ok(p) => stats.add_page(p),
                Err(e) => errors.push(e),
            }
        }
        stats.sort();
        (stats, errors)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use Label::{Header as H, Other as O, Text as T};

    #[test]
    fn table_one_like_the_paper() {
        let mut s = SetStats::new("dev");
        s.add("b", Some("dev".into()), &[H, T, T, O, O, O, O, O]);
        s.add("a", None, &[O, O]);
        s.sort();
        assert_eq!(s.pages[0].id, "a");
        assert_eq!(
            s.counts,
            LabelCounts {
                header: 1,
                text: 2,
                other: 7
            }
        );
        assert_eq!(s.pages_with_content, 1);
        assert_eq!(
            s.table().to_string(),
            "dev: 2 pages, 1 with content blocks\n\
             | label  | count      | %      |\n\
             |--------|------------|--------|\n\
             | header |          1 |  10.00 |\n\
             | text   |          2 |  20.00 |\n\
             | other  |          7 |  70.00 |\n\
             | total  |         10 | 100.00 |\n"
        );
    }

    #[test]
    fn thousands() {
        assert_eq!(spaced(0), "0");
        assert_eq!(spaced(999), "999");
        assert_eq!(spaced(1009), "1 009");
        assert_eq!(spaced(88108), "88 108");
        assert_eq!(spaced(1234567), "1 234 567");
        assert_eq!(LabelCounts::default().percent(H), 0.0);
    }
}

//! What the records of a WARC file gave: pages labelled and failed, records passed over by
//! kind, broken records. One tally for every reader of WARC files (`victor label` and the
//! Python package's `Cleaner.clean_warc`), so that they count, and name, the same things.

use std::fmt;
use std::ops::AddAssign;

use super::Skip;

/// What the records of a WARC file gave so far.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// HTML pages labelled.
    pub pages: usize,
    /// HTML pages that could not be labelled.
    pub failed: usize,
    /// Responses and resources that are not HTML ([`Skip::NotHtml`]).
    pub not_html: usize,
    /// Records that hold no page: requests, `warcinfo`, `metadata`, ... ([`Skip::NotPage`]).
    pub other: usize,
    /// Broken records: a malformed header, a wrong length, a gzip member or body that does not
    /// decode, the file cut short.
    pub broken: usize,
}

impl Counts {
    /// Counts a record passed over, by why it holds no page.
    pub fn skipped(&mut self, why: Skip) {
        match why {
            Skip::NotHtml => self.not_html += 1,
            Skip::NotPage => self.other += 1,
        }
    }

    /// Whether every page was labelled and no record was broken.
    pub fn all_ok(&self) -> bool {
        self.failed == 0 && self.broken == 0
    }
}

impl AddAssign for Counts {
    fn add_assign(&mut self, o: Counts) {
        self.pages += o.pages;
        self.failed += o.failed;
        self.not_html += o.not_html;
        self.other += o.other;
        self.broken += o.broken;
    }
}

/// The summary `victor label` prints for a WARC file: `3 pages labelled, 0 failed; skipped 2
/// non-HTML responses, 1 other records; 0 broken records`.
impl fmt::Display for Counts {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} pages labelled, {} failed; skipped {} non-HTML responses, {} other records; {} broken records",
            self.pages, self.failed, self.not_html, self.other, self.broken
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_add_up_and_say_what_they_count() {
        let mut a = Counts::default();
        a.skipped(Skip::NotHtml);
        a.skipped(Skip::NotPage);
        a.skipped(Skip::NotPage);
        a.pages = 3;
        assert!(a.all_ok());
        let mut b = Counts {
            broken: 1,
            ..Counts::default()
        };
        b += a;
        assert!(!b.all_ok());
        assert_eq!(
            b.to_string(),
            "3 pages labelled, 0 failed; skipped 1 non-HTML responses, 2 other records; 1 broken records"
        );
    }
}

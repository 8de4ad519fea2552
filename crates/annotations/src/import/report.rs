//! The import report: what was imported, what was skipped and why, and how faithfully the
//! block labels reproduce the gold.
//!
//! Fidelity is measured in word tokens (the aligner's), two ways:
//! - *gold covered*: the share of content gold tokens that lie in blocks labelled content
//!   (recall of the labelling against the gold);
//! - *content in gold*: the share of the tokens of content-labelled blocks that are aligned to
//!   content gold (precision).
//!
//! Both are given micro-averaged (token sums over the set) and macro-averaged (mean over
//! pages; pages without content gold are left out of the first, pages without content blocks
//! out of the second), with quantiles over pages. *Gold in page* is the share of content gold
//! tokens found in the page at all: it separates gold that is not in the page (a data
//! problem) from gold that is in the page but in blocks left `other` (a labelling loss).

use std::collections::BTreeMap;
use std::fmt;
use std::path::PathBuf;

use serde::Serialize;

use crate::Label;
use crate::stats::{LabelCounts, spaced};

/// Pages listed as worst in the report.
pub(crate) const WORST_PAGES: usize = 12;

/// How one page was imported.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct PageReport {
    /// The page id.
    pub id: String,
    /// Its split.
    pub split: Option<String>,
    /// Its kind of page, where the manifest says (wcxb's `page_type`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub page_type: Option<String>,
    /// Label counts of its blocks.
    pub labels: LabelCounts,
    /// Tokens of content gold.
    pub gold_tokens: u64,
    /// Of those, tokens found in the page.
    pub gold_in_page: u64,
    /// Of those, tokens in blocks labelled content.
    pub gold_covered: u64,
    /// Tokens of blocks labelled content.
    pub content_tokens: u64,
    /// Of those, tokens aligned to content gold.
    pub content_in_gold: u64,
}

impl PageReport {
    /// Share of content gold covered by content blocks (`None` without content gold).
    pub fn gold_covered_share(&self) -> Option<f64> {
        share(self.gold_covered, self.gold_tokens)
    }

    /// Share of content-block tokens found in content gold (`None` without content blocks).
    pub fn content_in_gold_share(&self) -> Option<f64> {
        share(self.content_in_gold, self.content_tokens)
    }

    /// Share of content gold found in the page at all (`None` without content gold).
    pub fn gold_in_page_share(&self) -> Option<f64> {
        share(self.gold_in_page, self.gold_tokens)
    }

    /// The lower of the two fidelity shares (1 when neither applies): how the page ranks.
    pub fn worst_share(&self) -> f64 {
        self.gold_covered_share()
            .unwrap_or(1.0)
            .min(self.content_in_gold_share().unwrap_or(1.0))
    }
}

fn share(part: u64, whole: u64) -> Option<f64> {
    (whole > 0).then(|| part as f64 / whole as f64)
}

/// A page that could not be imported.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Skipped {
    /// The page id.
    pub id: String,
    /// Why.
    pub reason: String,
}

/// Quantiles of a per-page share.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct Quantiles {
    /// Pages measured.
    pub pages: usize,
    /// Lowest.
    pub min: f64,
    /// 5th percentile.
    pub p5: f64,
    /// 25th percentile.
    pub p25: f64,
    /// Median.
    pub median: f64,
    /// Mean (the macro average).
    pub mean: f64,
    /// Pages below 95 %.
    pub below_95: usize,
}

impl Quantiles {
    /// Quantiles of `values` (nearest rank; all 1 when empty).
    pub fn of(mut values: Vec<f64>) -> Self {
        if values.is_empty() {
            return Self {
                pages: 0,
                min: 1.0,
                p5: 1.0,
                p25: 1.0,
                median: 1.0,
                mean: 1.0,
                below_95: 0,
            };
        }
        values.sort_by(f64::total_cmp);
        let at = |q: f64| {
            let i = ((values.len() - 1) as f64 * q).round() as usize;
            values.get(i).copied().unwrap_or(1.0)
        };
        Self {
            pages: values.len(),
            min: at(0.0),
            p5: at(0.05),
            p25: at(0.25),
            median: at(0.5),
            mean: values.iter().sum::<f64>() / values.len() as f64,
            below_95: values.iter().filter(|&&v| v < 0.95).count(),
        }
    }
}

/// Fidelity of a whole import.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct FidelitySummary {
    /// Content gold tokens.
    pub gold_tokens: u64,
    /// Of those, found in the pages.
    pub gold_in_page: u64,
    /// Of those, covered by content blocks.
    pub gold_covered: u64,
    /// Tokens of content blocks.
    pub content_tokens: u64,
    /// Of those, aligned to content gold.
    pub content_in_gold: u64,
    /// Micro average: `gold_covered / gold_tokens`.
    pub gold_covered_micro: f64,
    /// Micro average: `content_in_gold / content_tokens`.
    pub content_in_gold_micro: f64,
    /// Micro average: `gold_in_page / gold_tokens`.
    pub gold_in_page_micro: f64,
    /// Per-page distribution of gold covered (its mean is the macro average).
    pub gold_covered_pages: Quantiles,
    /// Per-page distribution of content in gold (its mean is the macro average).
    pub content_in_gold_pages: Quantiles,
}

impl FidelitySummary {
    /// Sums and distributions over the pages.
    pub fn of(pages: &[PageReport]) -> Self {
        let mut s = Self::default();
        for p in pages {
            s.gold_tokens += p.gold_tokens;
            s.gold_in_page += p.gold_in_page;
            s.gold_covered += p.gold_covered;
            s.content_tokens += p.content_tokens;
            s.content_in_gold += p.content_in_gold;
        }
        s.gold_covered_micro = share(s.gold_covered, s.gold_tokens).unwrap_or(1.0);
        s.content_in_gold_micro = share(s.content_in_gold, s.content_tokens).unwrap_or(1.0);
        s.gold_in_page_micro = share(s.gold_in_page, s.gold_tokens).unwrap_or(1.0);
        s.gold_covered_pages = Quantiles::of(
            pages
                .iter()
                .filter_map(PageReport::gold_covered_share)
                .collect(),
        );
        s.content_in_gold_pages = Quantiles::of(
            pages
                .iter()
                .filter_map(PageReport::content_in_gold_share)
                .collect(),
        );
        s
    }
}

/// The report of one import, written as `import-report.json`; its `Display` is the human
/// summary.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct ImportReport {
    /// The importer (`l3s-gn1`, `cleaneval`, `text`).
    pub importer: String,
    /// The set's name.
    pub set: String,
    /// The data-set folder read.
    pub from: PathBuf,
    /// The annotated set written.
    pub out: PathBuf,
    /// Options that shaped the labels.
    pub options: BTreeMap<String, String>,
    /// Pages in the manifest.
    pub manifest_pages: usize,
    /// Pages selected (split, sample).
    pub selected: usize,
    /// Pages imported.
    pub imported: usize,
    /// Pages skipped, with the reason.
    pub skipped: Vec<Skipped>,
    /// Imported pages whose gold has no content at all (all their blocks are `other`).
    pub empty_gold: Vec<String>,
    /// Fidelity of the labels to the gold.
    pub fidelity: FidelitySummary,
    /// Label counts over the imported pages (Table 1).
    pub labels: LabelCounts,
    /// Wall time of the import, in seconds.
    pub seconds: f64,
    /// Fidelity per kind of page, where the manifest gives a `page_type`.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub by_page_type: BTreeMap<String, FidelitySummary>,
    /// The worst pages by the lower of their two fidelity shares, worst first.
    pub worst: Vec<PageReport>,
    /// Every imported page, in manifest order.
    pub pages: Vec<PageReport>,
}

impl ImportReport {
    /// Fills the summary fields (fidelity, labels, empty gold, worst pages) from `pages`.
    pub fn summarize(&mut self) {
        self.imported = self.pages.len();
        self.fidelity = FidelitySummary::of(&self.pages);
        let mut kinds: BTreeMap<String, Vec<PageReport>> = BTreeMap::new();
        for p in &self.pages {
            if let Some(t) = &p.page_type {
                kinds.entry(t.clone()).or_default().push(p.clone());
            }
        }
        self.by_page_type = kinds
            .into_iter()
            .map(|(t, pages)| (t, FidelitySummary::of(&pages)))
            .collect();
        self.labels = LabelCounts::default();
        for p in &self.pages {
            self.labels.add(&p.labels);
        }
        self.empty_gold = self
            .pages
            .iter()
            .filter(|p| p.gold_tokens == 0)
            .map(|p| p.id.clone())
            .collect();
        let mut worst: Vec<&PageReport> = self
            .pages
            .iter()
            .filter(|p| p.worst_share() < 1.0)
            .collect();
        worst.sort_by(|a, b| a.worst_share().total_cmp(&b.worst_share()));
        self.worst = worst.into_iter().take(WORST_PAGES).cloned().collect();
    }
}

fn pct(x: f64) -> String {
    format!("{:.1}%", 100.0 * x)
}

fn opt_pct(x: Option<f64>) -> String {
    x.map_or_else(|| "-".to_string(), pct)
}

impl fmt::Display for ImportReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let fi = &self.fidelity;
        writeln!(
            f,
            "imported {} of {} pages ({} in the manifest) from {} as {} in {:.1} s; skipped {}",
            self.imported,
            self.selected,
            self.manifest_pages,
            self.from.display(),
            self.importer,
            self.seconds,
            self.skipped.len()
        )?;
        writeln!(
            f,
            "fidelity: gold covered {}, content in gold {} (micro, over {} gold tokens); \
             page means {} and {}",
            pct(fi.gold_covered_micro),
            pct(fi.content_in_gold_micro),
            spaced(fi.gold_tokens),
            pct(fi.gold_covered_pages.mean),
            pct(fi.content_in_gold_pages.mean)
        )?;
        writeln!(
            f,
            "  gold found in the page at all: {} (the rest is gold text the page does not have)",
            pct(fi.gold_in_page_micro)
        )?;
        for (name, q) in [
            ("gold covered", &fi.gold_covered_pages),
            ("content in gold", &fi.content_in_gold_pages),
        ] {
            writeln!(
                f,
                "  per page, {name}: min {}, 5th pct {}, 25th pct {}, median {}; {} of {} pages \
                 below 95%",
                pct(q.min),
                pct(q.p5),
                pct(q.p25),
                pct(q.median),
                q.below_95,
                q.pages
            )?;
        }
        for (kind, s) in &self.by_page_type {
            writeln!(
                f,
                "  {kind}: gold covered {}, content in gold {} (micro); {} of {} pages below 95%",
                pct(s.gold_covered_micro),
                pct(s.content_in_gold_micro),
                s.gold_covered_pages.below_95,
                s.gold_covered_pages.pages
            )?;
        }
        write!(f, "labels:")?;
        for l in Label::ALL {
            write!(
                f,
                " {} {} ({:.2}%)",
                l,
                spaced(self.labels.get(l)),
                self.labels.percent(l)
            )?;
        }
        writeln!(f, "; {} blocks", spaced(self.labels.total()))?;
        if !self.empty_gold.is_empty() {
            writeln!(
                f,
                "pages whose gold has no content ({}): {}",
                self.empty_gold.len(),
                self.empty_gold.join(", ")
            )?;
        }
        for s in &self.skipped {
            writeln!(f, "skipped {}: {}", s.id, s.reason)?;
        }
        if !self.worst.is_empty() {
            writeln!(
                f,
                "worst pages (gold covered / content in gold / gold in page, gold tokens):"
            )?;
            for p in &self.worst {
                writeln!(
                    f,
                    "  {:<40} {:>6} {:>6} {:>6} {:>7}",
                    p.id,
                    opt_pct(p.gold_covered_share()),
                    opt_pct(p.content_in_gold_share()),
                    opt_pct(p.gold_in_page_share()),
                    p.gold_tokens
                )?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn page(id: &str, gold: (u64, u64, u64), content: (u64, u64)) -> PageReport {
        PageReport {
            id: id.into(),
            gold_tokens: gold.0,
            gold_in_page: gold.1,
            gold_covered: gold.2,
            content_tokens: content.0,
            content_in_gold: content.1,
            ..PageReport::default()
        }
    }

    #[test]
    fn micro_macro_and_worst() {
        let mut r = ImportReport {
            pages: vec![
                page("a", (100, 100, 100), (100, 100)),
                page("b", (100, 60, 50), (50, 50)),
                page("c", (0, 0, 0), (0, 0)),
                page("d", (200, 200, 190), (200, 180)),
            ],
            ..ImportReport::default()
        };
        r.summarize();
        let fi = r.fidelity;
        assert_eq!(fi.gold_tokens, 400);
        assert_eq!(fi.gold_covered_micro, 340.0 / 400.0);
        assert_eq!(fi.content_in_gold_micro, 330.0 / 350.0);
        assert_eq!(fi.gold_in_page_micro, 360.0 / 400.0);
        assert_eq!(fi.gold_covered_pages.pages, 3);
        assert!((fi.gold_covered_pages.mean - (1.0 + 0.5 + 0.95) / 3.0).abs() < 1e-12);
        assert_eq!(fi.gold_covered_pages.min, 0.5);
        assert_eq!(fi.gold_covered_pages.median, 0.95);
        assert_eq!(fi.gold_covered_pages.below_95, 1);
        assert_eq!(r.empty_gold, ["c"]);
        let worst: Vec<&str> = r.worst.iter().map(|p| p.id.as_str()).collect();
        assert_eq!(worst, ["b", "d"]);
        let text = r.to_string();
        assert!(
            text.contains("fidelity: gold covered 85.0%, content in gold 94.3% (micro"),
            "{text}"
        );
    }
}

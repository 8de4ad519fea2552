//! Annotated sets (the `annotations` feature): importing a gold standard into one
//! (`victor import`, [`import_set`]), reading one ([`Corpus`], [`PageRef`]), writing one
//! ([`SetWriter`]), and its label statistics (`victor annotations stats`, [`SetStats`],
//! written by [`write_stats_table`] and [`write_stats_csv`]). The format is described in
//! `annotations/README.md`.

use std::io::Write;

pub use victor_annotations::{
    AnnotatedPage, Corpus, ImportError, ImportEvent, ImportOptions, ImportReport, Label,
    LabelCounts, LoadError, ManifestEntry, PAGES_DIR, PageCounts, PageRef, REPORT_FILE, SET_FILE,
    SetInfo, SetStats, SetWriter, SourceKind, StoreError, Supplemental, Table1, import_set,
    read_manifest,
};

/// Writes the statistics of `sets` as `victor annotations stats` prints them: with `pages`,
/// every page's counts first (set, page, split, header, text, other, total), a set a block;
/// then each set's Table 1.
///
/// # Errors
///
/// The writer's.
pub fn write_stats_table(
    out: &mut impl Write,
    sets: &[SetStats],
    pages: bool,
) -> std::io::Result<()> {
    if pages {
        for s in sets {
            writeln!(
                out,
                "{:<16} {:<40} {:<5} {:>6} {:>6} {:>6} {:>6}",
                "set", "page", "split", "header", "text", "other", "total"
            )?;
            for p in &s.pages {
                let c = &p.counts;
                writeln!(
                    out,
                    "{:<16} {:<40} {:<5} {:>6} {:>6} {:>6} {:>6}",
                    s.set,
                    p.id,
                    p.split.as_deref().unwrap_or("-"),
                    c.header,
                    c.text,
                    c.other,
                    c.total()
                )?;
            }
            writeln!(out)?;
        }
    }
    for (i, s) in sets.iter().enumerate() {
        if i > 0 {
            writeln!(out)?;
        }
        write!(out, "{}", s.table())?;
    }
    Ok(())
}

/// Writes the statistics of `sets` as CSV rows `scope,set,page,split,label,blocks,percent`:
/// scope `set` for each set's totals (labels header, text, other, and `total`), then `page` for
/// each page's counts.
///
/// # Errors
///
/// The writer's.
pub fn write_stats_csv(out: impl Write, sets: &[SetStats]) -> csv::Result<()> {
    let mut w = csv::Writer::from_writer(out);
    w.write_record([
        "scope", "set", "page", "split", "label", "blocks", "percent",
    ])?;
    for s in sets {
        let c = &s.counts;
        for l in Label::ALL {
            w.write_record([
                "set",
                &s.set,
                "",
                "",
                l.as_str(),
                &c.get(l).to_string(),
                &format!("{:.2}", c.percent(l)),
            ])?;
        }
        let total = if c.total() == 0 { "0.00" } else { "100.00" };
        w.write_record([
            "set",
            &s.set,
            "",
            "",
            "total",
            &c.total().to_string(),
            total,
        ])?;
    }
    for s in sets {
        for p in &s.pages {
            let c = &p.counts;
            for l in Label::ALL {
                w.write_record([
                    "page",
                    &s.set,
                    &p.id,
                    p.split.as_deref().unwrap_or(""),
                    l.as_str(),
                    &c.get(l).to_string(),
                    &format!("{:.2}", c.percent(l)),
                ])?;
            }
        }
    }
    w.flush()?;
    Ok(())
}

/// Which pages of a data set's manifest to import (`victor import --split`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
pub enum SplitChoice {
    /// The `dev` split.
    Dev,
    /// The `test` split.
    Test,
    /// Every page.
    All,
}

impl SplitChoice {
    /// The split's name as the manifest gives it ([`ImportOptions::split`]); `None`: every page.
    pub fn split(self) -> Option<String> {
        match self {
            SplitChoice::Dev => Some("dev".to_string()),
            SplitChoice::Test => Some("test".to_string()),
            SplitChoice::All => None,
        }
    }
}

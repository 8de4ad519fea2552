//! Importers: gold standards in the shared data-set layout -> annotated sets.
//!
//! A data set is a folder with `manifest.jsonl` (one page a line: id, files, split, language,
//! URL), the pages under `html/`, and gold under `gold/` (and for L3S-GN1 the annotators' DOM
//! under `blocks/`). Three importers read it ([`SourceKind`]):
//! - `l3s-gn1`: gold segments are the labelled runs of the annotated DOM (`l3s` module),
//!   boilerplate runs included;
//! - `cleaneval`: gold lines with `<h>`/`<p>`/`<l>` markers (`gold` module);
//! - `text`: plain gold lines, headers taken from heading markup; a line starting with
//!   `!@#$%^&*()` (Dragnet's separator before the user comments) ends the gold text.
//!
//! Each page is imported on its own (`page` module: read, decode, segment, align, label,
//! anchor) and written at once; pages run in parallel on rayon's current pool (the caller
//! chooses its size). A page that fails is reported with its reason and skipped; only a
//! problem with the whole set (no manifest, output not writable) stops the import. The
//! [`ImportReport`] (`report` module) sums up fidelity and is written next to the pages.

mod gold;
mod l3s;
mod manifest;
mod page;
mod report;

use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::time::Instant;

use rayon::prelude::*;
use victor_features::{DecodeError, SegmentError, Segmenter};

use crate::align::{AlignConfig, AlignError, DEFAULT_CONTENT_THRESHOLD};
use crate::format::{AnchorError, REPORT_FILE, SetInfo, SetWriter, StoreError, check_page_id};

pub use l3s::Supplemental;
pub use manifest::{ManifestEntry, read_manifest};
pub use page::{ImportedPage, import_page};
pub use report::{FidelitySummary, ImportReport, PageReport, Quantiles, Skipped};

/// Which importer reads the data set.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
pub enum SourceKind {
    /// L3S-GN1: labels from the annotated DOM in `blocks/` (sel1 header, sel2 text, sel3 by
    /// --supplemental, the rest other).
    #[cfg_attr(feature = "clap", value(name = "l3s-gn1"))]
    L3sGn1,
    /// CleanEval: gold paragraphs marked `<h>` (header), `<p>` and `<l>` (text).
    #[cfg_attr(feature = "clap", value(name = "cleaneval"))]
    CleanEval,
    /// Plain-text gold, one paragraph a line (e.g. dragnet-train); headers from `h1`-`h6`. A line
    /// starting with `!@#$%^&*()` (Dragnet's separator before user comments) ends the gold.
    Text,
}

impl SourceKind {
    /// The importer's name on the command line.
    pub const fn as_str(self) -> &'static str {
        match self {
            SourceKind::L3sGn1 => "l3s-gn1",
            SourceKind::CleanEval => "cleaneval",
            SourceKind::Text => "text",
        }
    }
}

impl fmt::Display for SourceKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Error for a string that names no importer.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown importer {0:?} (expected l3s-gn1, cleaneval or text)")]
pub struct UnknownSource(pub String);

impl FromStr for SourceKind {
    type Err = UnknownSource;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "l3s-gn1" => Ok(SourceKind::L3sGn1),
            "cleaneval" => Ok(SourceKind::CleanEval),
            "text" => Ok(SourceKind::Text),
            _ => Err(UnknownSource(s.to_string())),
        }
    }
}

/// What to import and how.
#[derive(Clone, Debug, PartialEq)]
pub struct ImportOptions {
    /// The importer.
    pub source: SourceKind,
    /// How L3S-GN1 supplemental runs count (default: text).
    pub supplemental: Supplemental,
    /// Only pages of this split (`None`: all).
    pub split: Option<String>,
    /// At most this many pages, spread evenly over the selection (`None`: all).
    pub sample: Option<usize>,
    /// Share of a block's tokens that must align to content for it to be content.
    pub threshold: f64,
    /// The aligner's settings.
    pub align: AlignConfig,
    /// The set's name (`None`: the data-set folder's name).
    pub name: Option<String>,
    /// Leave out a page whose labelled content covers less than this share of its gold text
    /// (`None`: keep every page). A page whose gold is not in its blocks (a JavaScript forum
    /// that ships its posts inside a JSON attribute) would teach that everything is boilerplate.
    pub min_coverage: Option<f64>,
}

impl ImportOptions {
    /// Default options for `source`.
    pub fn new(source: SourceKind) -> Self {
        Self {
            source,
            supplemental: Supplemental::default(),
            split: None,
            sample: None,
            threshold: DEFAULT_CONTENT_THRESHOLD,
            align: AlignConfig::default(),
            name: None,
            min_coverage: None,
        }
    }

    /// The options that shape labels, as recorded in each page's provenance.
    pub fn describe(&self) -> BTreeMap<String, String> {
        let mut m = BTreeMap::new();
        m.insert("threshold".to_string(), self.threshold.to_string());
        m.insert("min_run".to_string(), self.align.min_run.to_string());
        if let Some(c) = self.min_coverage {
            m.insert("min_coverage".to_string(), c.to_string());
        }
        if self.source == SourceKind::L3sGn1 {
            let s = match self.supplemental {
                Supplemental::Text => "text",
                Supplemental::Other => "other",
            };
            m.insert("supplemental".to_string(), s.to_string());
        }
        m
    }
}

/// Why a data set or one of its pages could not be imported.
#[derive(Debug, thiserror::Error)]
pub enum ImportError {
    /// A file could not be read.
    #[error("cannot read {path}: {source}")]
    Read {
        /// The file.
        path: PathBuf,
        /// The cause.
        source: std::io::Error,
    },
    /// A manifest line is not a valid entry.
    #[error("{path}, line {line}: not a manifest entry: {source}")]
    Manifest {
        /// The manifest.
        path: PathBuf,
        /// The line number, from 1.
        line: usize,
        /// The cause.
        source: serde_json::Error,
    },
    /// The manifest entry names no gold file for this importer.
    #[error("page {id}: the manifest gives no `{field}` file")]
    NoGold {
        /// The page id.
        id: String,
        /// The missing field.
        field: &'static str,
    },
    /// A page (or annotated DOM) cannot be decoded.
    #[error("{path}: {source}")]
    Decode {
        /// The file.
        path: PathBuf,
        /// The cause.
        source: DecodeError,
    },
    /// A page (or annotated DOM) cannot be segmented.
    #[error("{path}: {source}")]
    Segment {
        /// The file.
        path: PathBuf,
        /// The cause.
        source: SegmentError,
    },
    /// The labelled content covers too little of the page's gold text
    /// ([`ImportOptions::min_coverage`]).
    #[error(
        "page {id}: its blocks cover {covered:.1}% of its gold text, below the minimum {min:.1}%"
    )]
    LowCoverage {
        /// The page id.
        id: String,
        /// The share covered, in percent.
        covered: f64,
        /// The minimum, in percent.
        min: f64,
    },
    /// The alignment failed.
    #[error("alignment failed: {0}")]
    Align(#[from] AlignError),
    /// The labels could not be anchored.
    #[error(transparent)]
    Anchor(#[from] AnchorError),
    /// The set or a page could not be written.
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// What [`import_set`] reports while it works, for a progress display.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ImportEvent<'a> {
    /// The pages are selected; this many will be imported.
    Started {
        /// Pages to import.
        pages: usize,
    },
    /// A page was imported and written.
    Imported {
        /// The page id.
        id: &'a str,
    },
    /// A page was skipped.
    Skipped {
        /// The page id.
        id: &'a str,
        /// Why.
        reason: &'a str,
    },
}

/// Imports the data set in `from` into the annotated set `out`, and writes
/// `out/import-report.json`. `progress` hears of every page as it is done (from any thread).
///
/// # Errors
///
/// Only for the whole set: an unreadable manifest, an output folder that cannot be written.
/// Page failures are in the report's `skipped`.
pub fn import_set(
    from: &Path,
    out: &Path,
    options: &ImportOptions,
    progress: &(dyn Fn(ImportEvent<'_>) + Sync),
) -> Result<ImportReport, ImportError> {
    let start = Instant::now();
    let manifest = read_manifest(from)?;
    let name = options.name.clone().unwrap_or_else(|| {
        from.file_name()
            .and_then(|n| n.to_str())
            .unwrap_or("imported")
            .to_string()
    });
    let selected = select(&manifest, options);
    let info = SetInfo::new(
        name.clone(),
        Some(format!(
            "{} imported from {} by victor import --from {}",
            name,
            from.display(),
            options.source
        )),
    );
    let writer = SetWriter::create(out, &info)?;
    progress(ImportEvent::Started {
        pages: selected.len(),
    });

    let outcomes: Vec<Result<PageReport, Skipped>> = selected
        .par_iter()
        .map_init(Segmenter::new, |segmenter, entry| {
            let result = check_page_id(&entry.id)
                .map_err(ImportError::from)
                .and_then(|()| import_page(from, &name, entry, options, segmenter))
                .and_then(|page| {
                    writer.write_page(&page.record, &page.bytes)?;
                    Ok(page.report)
                });
            match result {
                Ok(report) => {
                    progress(ImportEvent::Imported { id: &entry.id });
                    Ok(report)
                }
                Err(e) => {
                    let reason = e.to_string();
                    progress(ImportEvent::Skipped {
                        id: &entry.id,
                        reason: &reason,
                    });
                    Err(Skipped {
                        id: entry.id.clone(),
                        reason,
                    })
                }
            }
        })
        .collect();

    let mut report = ImportReport {
        importer: options.source.to_string(),
        set: name,
        from: from.to_path_buf(),
        out: out.to_path_buf(),
        options: options.describe(),
        manifest_pages: manifest.len(),
        selected: selected.len(),
        ..ImportReport::default()
    };
    for o in outcomes {
        match o {
            Ok(p) => report.pages.push(p),
            Err(s) => report.skipped.push(s),
        }
    }
    report.summarize();
    report.seconds = start.elapsed().as_secs_f64();
    let json = crate::format::to_json_layout(&report).map_err(|source| StoreError::Json {
        path: out.join(REPORT_FILE),
        source,
    })?;
    crate::format::write_atomic(&out.join(REPORT_FILE), json.as_bytes())?;
    Ok(report)
}

/// The manifest entries of the wanted split, thinned to the sample size.
fn select<'a>(manifest: &'a [ManifestEntry], options: &ImportOptions) -> Vec<&'a ManifestEntry> {
    let in_split: Vec<&ManifestEntry> = manifest
        .iter()
        .filter(|e| {
            options
                .split
                .as_deref()
                .is_none_or(|s| e.split.as_deref() == Some(s))
        })
        .collect();
    match options.sample {
        Some(n) if n < in_split.len() => (0..n)
            .filter_map(|i| in_split.get(i * in_split.len() / n).copied())
            .collect(),
        _ => in_split,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_selection() {
        for k in [SourceKind::L3sGn1, SourceKind::CleanEval, SourceKind::Text] {
            assert_eq!(k.as_str().parse::<SourceKind>(), Ok(k));
        }
        assert!("dragnet".parse::<SourceKind>().is_err());
        let manifest: Vec<ManifestEntry> = (0..10)
            .map(|i| ManifestEntry {
                id: i.to_string(),
                split: Some(if i % 5 == 4 { "test" } else { "dev" }.to_string()),
                ..ManifestEntry::default()
            })
            .collect();
        let mut o = ImportOptions::new(SourceKind::Text);
        assert_eq!(select(&manifest, &o).len(), 10);
        o.split = Some("test".into());
        let ids: Vec<&str> = select(&manifest, &o)
            .iter()
            .map(|e| e.id.as_str())
            .collect();
        assert_eq!(ids, ["4", "9"]);
        o.split = None;
        o.sample = Some(3);
        let ids: Vec<&str> = select(&manifest, &o)
            .iter()
            .map(|e| e.id.as_str())
            .collect();
        assert_eq!(ids, ["0", "3", "6"]);
    }
}

//! Importing one page: read it and its gold, segment, align, label, anchor.
//!
//! The page is decoded and segmented exactly as loading will do it later, so the anchors fit.
//! Gold segments come from the source (see the `gold` and `l3s` modules) and are aligned to
//! the page's block texts; a block is content when at least the threshold share of its tokens
//! align to content gold ([`Alignment::labels`](crate::align::Alignment::labels)). The text
//! importer has no header marks in its gold: a content block inside `h1`–`h6` becomes a header.

use std::path::Path;

use victor_features::{Page, Segmenter};

use super::gold::{gold_text, marked_segments, plain_segments};
use super::l3s::annotated_segments;
use super::manifest::ManifestEntry;
use super::report::PageReport;
use super::{ImportError, ImportOptions, SourceKind};
use crate::Label;
use crate::align::{Alignment, SegmentKind, align};
use crate::format::{Annotator, PageInfo, PageRecord, Source, anchor_labels};
use crate::stats::LabelCounts;

/// A page ready to be written, with its import figures.
#[derive(Clone, Debug)]
pub struct ImportedPage {
    /// The page's exact bytes.
    pub bytes: Vec<u8>,
    /// Its labels and provenance.
    pub record: PageRecord,
    /// How faithful its labels are to the gold.
    pub report: PageReport,
}

/// Imports one page of the data set in `dir`.
///
/// `set` names the set in the record's provenance; `segmenter` is reused between pages.
///
/// # Errors
///
/// An [`ImportError`] naming the file that could not be read, decoded or segmented, or the
/// alignment failure.
pub fn import_page(
    dir: &Path,
    set: &str,
    entry: &ManifestEntry,
    options: &ImportOptions,
    segmenter: &mut Segmenter,
) -> Result<ImportedPage, ImportError> {
    let html_path = dir.join(&entry.html);
    let bytes = read(&html_path)?;
    let decoded = victor_features::decode(&bytes).map_err(|source| ImportError::Decode {
        path: html_path.clone(),
        source,
    })?;
    let page = segmenter
        .segment(&decoded.text)
        .map_err(|source| ImportError::Segment {
            path: html_path.clone(),
            source,
        })?;
    let alignment = align_gold(dir, entry, options, &page, segmenter)?;
    let mut labels = alignment.labels(options.threshold);
    if options.source == SourceKind::Text {
        promote_headings(&page, &mut labels);
    }
    let fidelity = alignment.fidelity(&labels)?;
    if let Some(min) = options.min_coverage
        && fidelity.gold_content_tokens > 0
    {
        let covered = fidelity.gold_content_covered as f64 / fidelity.gold_content_tokens as f64;
        if covered < min {
            return Err(ImportError::LowCoverage {
                id: entry.id.clone(),
                covered: covered * 100.0,
                min: min * 100.0,
            });
        }
    }
    let totals = alignment.totals();
    let anchors = anchor_labels(&page, &labels)?;
    let counts = LabelCounts::of(&labels);

    let mut annotator = Annotator::new(format!("victor import --from {}", options.source));
    annotator.options = options.describe();
    let record = PageRecord {
        format: crate::format::FORMAT_VERSION,
        id: entry.id.clone(),
        split: entry.split.clone(),
        lang: entry.lang.clone(),
        url: entry.url.clone(),
        page: PageInfo::of(&bytes, decoded.encoding.name(), page.blocks.len()),
        source: Source {
            set: set.to_string(),
            source_set: entry.source_set.clone().or(entry.source_split.clone()),
            html: Some(entry.html.clone()),
            gold: entry.gold.clone(),
            annotated: entry.blocks.clone(),
        },
        annotated_by: annotator,
        labels: anchors,
        unlabelled: Default::default(),
    };
    let report = PageReport {
        id: entry.id.clone(),
        split: entry.split.clone(),
        labels: counts,
        gold_tokens: fidelity.gold_content_tokens,
        gold_in_page: totals.content_gold_found,
        gold_covered: fidelity.gold_content_covered,
        content_tokens: fidelity.labelled_content_tokens,
        content_in_gold: fidelity.labelled_content_in_gold,
    };
    drop(decoded);
    Ok(ImportedPage {
        bytes,
        record,
        report,
    })
}

/// Reads the page's gold in the source's form and aligns it to the page's blocks.
fn align_gold(
    dir: &Path,
    entry: &ManifestEntry,
    options: &ImportOptions,
    page: &Page,
    segmenter: &mut Segmenter,
) -> Result<Alignment<SegmentKind>, ImportError> {
    let blocks = page.blocks.iter().map(|b| page.block_text(b));
    let aligned = match options.source {
        SourceKind::L3sGn1 => {
            let rel = entry.blocks.as_deref().ok_or_else(|| ImportError::NoGold {
                id: entry.id.clone(),
                field: "blocks",
            })?;
            let path = dir.join(rel);
            let annotated_bytes = read(&path)?;
            let annotated_text = victor_features::decode(&annotated_bytes).map_err(|source| {
                ImportError::Decode {
                    path: path.clone(),
                    source,
                }
            })?;
            let annotated = segmenter
                .segment(&annotated_text.text)
                .map_err(|source| ImportError::Segment { path, source })?;
            let segments = annotated_segments(&annotated, options.supplemental);
            align(blocks, segments, &options.align)
        }
        SourceKind::CleanEval | SourceKind::Text => {
            let rel = entry.gold.as_deref().ok_or_else(|| ImportError::NoGold {
                id: entry.id.clone(),
                field: "gold",
            })?;
            let gold = gold_text(&read(&dir.join(rel))?);
            let segments = if options.source == SourceKind::CleanEval {
                marked_segments(&gold)
            } else {
                plain_segments(&gold)
            };
            align(blocks, segments, &options.align)
        }
    };
    Ok(aligned?)
}

/// Content blocks inside heading markup (`h1`–`h6`) become headers.
fn promote_headings(page: &Page, labels: &mut [Label]) {
    for (b, l) in page.blocks.iter().zip(labels.iter_mut()) {
        if l.is_content() && page.ancestors(b.parent).any(|(_, e)| e.tag.is_heading()) {
            *l = Label::Header;
        }
    }
}

fn read(path: &Path) -> Result<Vec<u8>, ImportError> {
    victor_features::file::read_page_file(path).map_err(|source| ImportError::Read {
        path: path.to_path_buf(),
        source,
    })
}

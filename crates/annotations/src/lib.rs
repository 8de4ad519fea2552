//! # victor-annotations: annotated pages, the importers that make them, and their statistics
//!
//! An *annotated page* is a page's exact original bytes plus one [`Label`] per block (header,
//! text, other), as victor's segmenter (`victor-features`) cuts the page into blocks. This
//! crate holds everything about them, one stage per module; the modules' public items are
//! re-exported here:
//!
//! - `format`: the on-disk format of annotated sets (a folder of page files and small JSON label
//!   files, labels anchored to the text they cover), writing it atomically ([`SetWriter`]) and
//!   loading it back for training and evaluation ([`Corpus`]);
//! - `align`: aligning gold *text* to a page's blocks, independent of HTML ([`align()`]);
//! - `import`: turning the project's gold standards (L3S-GN1, CleanEval, plain-text gold such
//!   as dragnet) into annotated sets, with a fidelity report ([`import_set`]);
//! - `stats`: label distributions (the Victor paper's Table 1) and per-page counts
//!   ([`SetStats`]).
//!
//! The library neither prints nor keeps global state; progress is reported through callbacks,
//! failures through typed errors.

#![forbid(unsafe_code)]
#![warn(missing_docs)]
#![deny(unreachable_pub)]
#![warn(unnameable_types)]

mod align;
mod format;
mod import;
mod stats;

pub use align::{
    AlignConfig, AlignError, Alignment, BlockAlignment, DEFAULT_CONTENT_THRESHOLD, Fidelity,
    GoldSegment, GoldTag, SegmentAlignment, SegmentKind, Totals, align,
};
pub use format::{
    AnchorError, AnnotatedPage, Annotator, BlockLabel, Corpus, FORMAT_VERSION, JsonLayout,
    LoadError, PAGES_DIR, PageInfo, PageRecord, PageRef, REPORT_FILE, SEGMENTER, SET_FILE, SetInfo,
    SetWriter, Source, StoreError, Unlabelled, anchor_labels, check_page_id, resolve_labels,
};
pub use import::{
    FidelitySummary, ImportError, ImportEvent, ImportOptions, ImportReport, ImportedPage,
    ManifestEntry, PageReport, Quantiles, Skipped, SourceKind, Supplemental, UnknownSource,
    import_page, import_set, read_manifest,
};
pub use stats::{LabelCounts, PageCounts, SetStats, Table1};

/// The block labels, from `victor-core`, re-exported because the annotation format is written in them.
pub use victor_core::{Label, UnknownLabel};

//! The on-disk format of annotated pages (documented for users in `annotations/README.md`).
//!
//! An *annotated set* is a folder:
//!
//! ```text
//! set.json              what the set is (format version, name, description)
//! pages/<id>.html       the page, its exact original bytes
//! labels/<id>.json      its labels and provenance: one small JSON file per page
//! import-report.json    (importers only) how faithful the import was
//! ```
//!
//! One file per page, each written atomically (temporary file, then rename), so a tool that
//! annotates one page at a time never rewrites a shared manifest and a reader never sees half a
//! page. The page file is written before its labels: a `labels/<id>.json` that exists always has
//! its page.
//!
//! Labels are *anchored* to the text they cover: each labelled block is stored with its byte
//! range in the decoded document, its text, and its index as a hint. Loading segments the page
//! again and requires every anchor to fit a block exactly (same range, same text); a label that
//! no longer fits is an [`AnchorError`] naming page and block, never moved elsewhere. The one
//! tolerance is for a decoder that now reads a few characters differently (a `�` become `’`):
//! see [`resolve_labels`]'s module, `anchor`. Blocks without a label are
//! [`Label::Other`](crate::Label::Other), unless the record says `"unlabelled": "unknown"`
//! ([`Unlabelled`]): the page is then partially labelled, and only its anchored blocks (of any
//! label, `other` included) are known.
//!
//! Submodules, one job each: `record` (the JSON records), `anchor` (labels to anchors and
//! back), `layout` (the JSON layout: one label a line), `store` (writing a set atomically), `load` (reading sets for training and evaluation).

mod anchor;
mod layout;
mod load;
mod record;
mod site;
mod store;

pub use anchor::{AnchorError, BlockLabel, anchor_labels, resolve_labels};
pub use layout::JsonLayout;
pub use load::{AnnotatedPage, Corpus, LoadError, PageRef};
pub use record::{
    Annotator, FORMAT_VERSION, PageInfo, PageRecord, SEGMENTER, SetInfo, Source, Unlabelled,
};
pub(crate) use site::site_key;
pub(crate) use store::write_atomic;
pub use store::{SetWriter, StoreError, check_page_id};

/// Serializes `value` in the layout of label files: the top-level object one field a line,
/// arrays directly inside it one element a line, everything deeper compact.
///
/// # Errors
///
/// When `value`'s `Serialize` implementation fails.
pub(crate) fn to_json_layout<T: serde::Serialize>(value: &T) -> Result<String, serde_json::Error> {
    layout::to_string(value)
}

/// Name of the set description file in an annotated set.
pub const SET_FILE: &str = "set.json";
/// Folder of the page files (exact original bytes).
pub const PAGES_DIR: &str = "pages";
/// Folder of the label files.
pub(crate) const LABELS_DIR: &str = "labels";
/// Name of the import report an importer leaves in the set.
pub const REPORT_FILE: &str = "import-report.json";

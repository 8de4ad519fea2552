//! The JSON records of an annotated set: `set.json` ([`SetInfo`]) and `labels/<id>.json`
//! ([`PageRecord`]).
//!
//! Unknown fields are ignored when reading, so later versions (an annotation tool adding who
//! annotated and when) stay readable; [`FORMAT_VERSION`] changes only when a reader of this
//! version would misread a file.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use victor_features::Page;

use super::anchor::{AnchorError, BlockLabel, anchor_labels, anchor_labels_where};
use super::layout;
use crate::Label;

/// Version of the format written, and the only one read.
pub const FORMAT_VERSION: u32 = 1;

/// Version of victor writing the files (the workspace version).
pub(crate) const VICTOR_VERSION: &str = env!("CARGO_PKG_VERSION");

/// Name and version of the segmenter whose blocks the labels refer to. `victor-features`
/// shares the workspace version; a change to its block rules must bump it.
pub const SEGMENTER: &str = concat!("victor-features ", env!("CARGO_PKG_VERSION"));

/// `set.json`: what an annotated set is.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SetInfo {
    /// Format version ([`FORMAT_VERSION`]).
    pub format: u32,
    /// Short name of the set (`l3s-gn1`, `examples`), shown in statistics.
    pub name: String,
    /// What the set holds and where it came from.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
}

impl SetInfo {
    /// A set description of the current format version.
    pub fn new(name: impl Into<String>, description: Option<String>) -> Self {
        Self {
            format: FORMAT_VERSION,
            name: name.into(),
            description,
        }
    }
}

/// `labels/<id>.json`: the labels of one page, with its provenance.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PageRecord {
    /// Format version ([`FORMAT_VERSION`]).
    pub format: u32,
    /// The page id: also the file names `pages/<id>.html` and `labels/<id>.json`.
    pub id: String,
    /// Split of the page (`dev`, `test`), as the source's manifest gives it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub split: Option<String>,
    /// Language of the page (ISO 639-1), if known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lang: Option<String>,
    /// Where the page was fetched from, if known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    /// Facts about the page file the labels were made on.
    pub page: PageInfo,
    /// Where the page and its gold standard came from.
    pub source: Source,
    /// What produced the labels.
    pub annotated_by: Annotator,
    /// The labelled blocks, in page order; every other block is `other`, or unknown when
    /// [`PageRecord::unlabelled`] says so.
    pub labels: Vec<BlockLabel>,
    /// What the blocks missing from `labels` are: `other` (the default, omitted from files) or
    /// `unknown` (partial labels: only the listed blocks are known, `other` ones included;
    /// the trainer sums over every labeling of the others).
    #[serde(default, skip_serializing_if = "Unlabelled::is_other")]
    pub unlabelled: Unlabelled,
}

/// What the blocks without an anchor in a page record are.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Unlabelled {
    /// Noise, like every block the annotation does not mark (the Victor paper's convention).
    #[default]
    Other,
    /// Unknown: the page is partially labelled.
    Unknown,
}

impl Unlabelled {
    /// Whether this is the default, [`Unlabelled::Other`].
    pub fn is_other(&self) -> bool {
        *self == Unlabelled::Other
    }
}

/// Facts about the page file, checked when it is loaded.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PageInfo {
    /// SHA-256 of the page's bytes, lowercase hex.
    pub sha256: String,
    /// Size of the page in bytes.
    pub bytes: u64,
    /// The encoding the page was decoded with (informational: loading decodes again).
    pub encoding: String,
    /// Number of blocks the segmenter gave when the labels were made.
    pub blocks: u32,
}

impl PageInfo {
    /// The facts of a page: hash and size of `bytes`, `encoding`, and `blocks`.
    pub fn of(bytes: &[u8], encoding: &str, blocks: usize) -> Self {
        Self {
            sha256: sha256_hex(bytes),
            bytes: bytes.len() as u64,
            encoding: encoding.to_string(),
            blocks: u32::try_from(blocks).unwrap_or(u32::MAX),
        }
    }
}

/// Where a page and its gold standard came from.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Source {
    /// The gold standard or collection (`l3s-gn1`, `cleaneval`, `dragnet-train`, `examples`).
    pub set: String,
    /// A finer origin the source records (CleanEval's `cleaneval-dev`, dragnet's `train`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source_set: Option<String>,
    /// The page file within the source.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub html: Option<String>,
    /// The gold file within the source.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gold: Option<String>,
    /// The annotated DOM within the source (L3S-GN1's `blocks/` file).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub annotated: Option<String>,
}

/// What produced a page's labels.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Annotator {
    /// The tool (`victor import --from cleaneval`, `hand`, the annotation tool's name).
    pub tool: String,
    /// Version of victor (`VICTOR_VERSION`).
    pub victor: String,
    /// Segmenter the block anchors refer to ([`SEGMENTER`]).
    pub segmenter: String,
    /// Options that shaped the labels (`supplemental`, `threshold`, ...).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub options: BTreeMap<String, String>,
}

impl Annotator {
    /// `tool` at the current victor and segmenter versions, without options.
    pub fn new(tool: impl Into<String>) -> Self {
        Self {
            tool: tool.into(),
            victor: VICTOR_VERSION.to_string(),
            segmenter: SEGMENTER.to_string(),
            options: BTreeMap::new(),
        }
    }
}

impl PageRecord {
    /// Replaces the labels with `labels` (one per block of `page`, the page as segmented from
    /// this record's page file), re-anchored; the recorded block count follows `page`.
    ///
    /// # Errors
    ///
    /// [`AnchorError::LabelCount`] unless there is one label per block; the record is then
    /// unchanged.
    pub fn set_labels(&mut self, page: &Page, labels: &[Label]) -> Result<(), AnchorError> {
        self.labels = anchor_labels(page, labels)?;
        self.page.blocks = u32::try_from(page.blocks.len()).unwrap_or(u32::MAX);
        self.unlabelled = Unlabelled::Other;
        Ok(())
    }

    /// Replaces the labels with partial ones: one entry per block of `page`, `None` for a block
    /// whose label is unknown. Every known block is anchored (`other` ones too) and the record
    /// says `"unlabelled": "unknown"`.
    ///
    /// # Errors
    ///
    /// [`AnchorError::LabelCount`] unless there is one entry per block; the record is then
    /// unchanged.
    pub fn set_partial_labels(
        &mut self,
        page: &Page,
        labels: &[Option<Label>],
    ) -> Result<(), AnchorError> {
        let full: Vec<Label> = labels.iter().map(|l| l.unwrap_or(Label::Text)).collect();
        let anchors = anchor_labels_where(page, &full, |i| labels[i].is_some())?;
        self.labels = anchors;
        self.page.blocks = u32::try_from(page.blocks.len()).unwrap_or(u32::MAX);
        self.unlabelled = Unlabelled::Unknown;
        Ok(())
    }

    /// The record as written to `labels/<id>.json`: indented at the top level, one label a line.
    ///
    /// # Errors
    ///
    /// Only if serialization fails, which these types do not make happen.
    pub fn to_json(&self) -> Result<String, serde_json::Error> {
        layout::to_string(self)
    }
}

/// Lowercase hex SHA-256 of `bytes`.
pub(crate) fn sha256_hex(bytes: &[u8]) -> String {
    hex::encode(Sha256::digest(bytes))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sha256_of_known_input() {
        assert_eq!(
            sha256_hex(b"abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }
}

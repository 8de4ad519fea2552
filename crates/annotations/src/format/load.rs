//! Reading annotated sets for training and evaluation.
//!
//! [`Corpus::open`] lists the pages of one or more set folders (optionally one split only)
//! without segmenting anything; [`PageRef::load`] then reads one page: its record, its bytes
//! (checked against the recorded SHA-256), the decoded text, the segmented [`Page`], and one
//! [`Label`] per block from the anchors. Every failure is a [`LoadError`] for that page alone,
//! so a caller can report it and go on.
//!
//! Loading in parallel is the caller's choice: [`Corpus::pages`] is a slice, and each thread
//! keeps one [`Segmenter`], e.g. with rayon's `map_init(Segmenter::new, |s, p| p.load(s))`.

use std::path::{Path, PathBuf};

use serde::Deserialize;
use victor_features::{DecodeError, Page, SegmentError, Segmenter};

use super::anchor::{AnchorError, resolve_anchored};
use super::record::{FORMAT_VERSION, PageRecord, SetInfo, sha256_hex};
use super::store::{labels_path, page_path};
use super::{LABELS_DIR, SET_FILE};
use crate::Label;

/// Why a set or a page could not be loaded.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    /// A file or folder could not be read.
    #[error("cannot read {path}: {source}")]
    Io {
        /// The file or folder.
        path: PathBuf,
        /// The cause.
        source: std::io::Error,
    },
    /// A folder named as an annotated set holds no `set.json` (or is no folder).
    #[error(
        "{dir} is not an annotated set: {why}. An annotated set is a folder of pages and their \
         block labels ({SET_FILE}, pages/, labels/; annotations/README.md): make one from a gold \
         standard with `victor import`, or by labelling pages in a browser with `victor \
         annotate PAGES --out SET`"
    )]
    NotASet {
        /// The folder.
        dir: PathBuf,
        /// What it is instead (`it has no set.json`, `there is no such folder`).
        why: String,
    },
    /// A JSON file is not a valid record.
    #[error("{path} is not a valid record: {source}")]
    Json {
        /// The file.
        path: PathBuf,
        /// The cause.
        source: serde_json::Error,
    },
    /// A file has a format version this victor cannot read.
    #[error("{path} has format {found}; this victor reads format {FORMAT_VERSION}")]
    Format {
        /// The file.
        path: PathBuf,
        /// Its format version.
        found: u32,
    },
    /// A label file names another page than its file name.
    #[error("{path} holds the labels of page {found:?}, not of {id:?}")]
    IdMismatch {
        /// The labels file.
        path: PathBuf,
        /// The id from the file name.
        id: String,
        /// The id in the record.
        found: String,
    },
    /// The page file is not the one the labels were made on.
    #[error(
        "page {id}: {path} changed since it was annotated (SHA-256 {found}, labels made on \
         {recorded})"
    )]
    PageChanged {
        /// The page id.
        id: String,
        /// The page file.
        path: PathBuf,
        /// SHA-256 of the file now.
        found: String,
        /// SHA-256 recorded with the labels.
        recorded: String,
    },
    /// The page bytes cannot be decoded.
    #[error("page {id}: {source}")]
    Decode {
        /// The page id.
        id: String,
        /// The cause.
        source: DecodeError,
    },
    /// The page cannot be segmented.
    #[error("page {id}: {source}")]
    Segment {
        /// The page id.
        id: String,
        /// The cause.
        source: SegmentError,
    },
    /// The labels do not fit the page's blocks.
    #[error(transparent)]
    Anchor(#[from] AnchorError),
}

/// A page of an annotated set, not loaded yet.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PageRef {
    /// The set folder.
    pub dir: PathBuf,
    /// The set's name (from its `set.json`).
    pub set: String,
    /// The page id.
    pub id: String,
}

/// A loaded annotated page: what training and evaluation work on.
#[derive(Clone, Debug)]
pub struct AnnotatedPage {
    /// The page id.
    pub id: String,
    /// The name of the set it belongs to.
    pub set: String,
    /// The decoded document; block ranges refer to it.
    pub text: String,
    /// The page segmented by the current segmenter.
    pub page: Page,
    /// One label per block of `page`.
    pub labels: Vec<Label>,
    /// Per block, whether its label is known: empty when every label is (the usual case);
    /// otherwise one flag per block, false for the blocks of a partially labelled page
    /// (`"unlabelled": "unknown"`) that have no anchor (their entry in `labels` is `other`).
    pub known: Vec<bool>,
    /// The page's record: split, language, URL, provenance, anchors.
    pub record: PageRecord,
}

/// The pages of one or more annotated sets.
#[derive(Clone, Debug, Default)]
pub struct Corpus {
    pages: Vec<PageRef>,
}

impl Corpus {
    /// Lists the pages of the sets in `dirs`, in folder order then id order; with `split`, only
    /// the pages of that split (pages whose record cannot be read are kept, so that loading
    /// them reports the error).
    ///
    /// # Errors
    ///
    /// A [`LoadError`] when a folder is not an annotated set (its `set.json` is missing,
    /// invalid or of another format) or its `labels/` folder cannot be listed.
    pub fn open<I, P>(dirs: I, split: Option<&str>) -> Result<Self, LoadError>
    where
        I: IntoIterator<Item = P>,
        P: AsRef<Path>,
    {
        let mut pages = Vec::new();
        for dir in dirs {
            let dir = dir.as_ref();
            let set_file = dir.join(SET_FILE);
            // Not there at all (a folder of pages, a typo): what an annotated set is, and how
            // one is made. A set.json that cannot be read says why.
            if std::fs::symlink_metadata(&set_file).is_err() {
                let why = match std::fs::metadata(dir) {
                    Ok(m) if m.is_dir() => format!("it has no {SET_FILE}"),
                    Ok(_) => "it is not a folder".to_string(),
                    Err(_) => "there is no such folder".to_string(),
                };
                return Err(LoadError::NotASet {
                    dir: dir.to_path_buf(),
                    why,
                });
            }
            let info: SetInfo = read_json(&set_file)?;
            if info.format != FORMAT_VERSION {
                return Err(LoadError::Format {
                    path: dir.join(SET_FILE),
                    found: info.format,
                });
            }
            for id in list_ids(&dir.join(LABELS_DIR))? {
                if let Some(want) = split
                    && let Ok(s) = read_json::<SplitOnly>(&labels_path(dir, &id))
                    && s.split.as_deref() != Some(want)
                {
                    continue;
                }
                pages.push(PageRef {
                    dir: dir.to_path_buf(),
                    set: info.name.clone(),
                    id,
                });
            }
        }
        Ok(Self { pages })
    }

    /// The pages, in order.
    pub fn pages(&self) -> &[PageRef] {
        &self.pages
    }

    /// Number of pages.
    pub fn len(&self) -> usize {
        self.pages.len()
    }

    /// Whether there is no page.
    pub fn is_empty(&self) -> bool {
        self.pages.is_empty()
    }

    /// Loads the pages one after the other with one segmenter.
    pub fn iter(&self) -> impl Iterator<Item = Result<AnnotatedPage, LoadError>> + '_ {
        let mut segmenter = Segmenter::new();
        self.pages.iter().map(move |p| p.load(&mut segmenter))
    }
}

impl PageRef {
    /// Reads the page's record only (no page bytes, no segmentation).
    ///
    /// # Errors
    ///
    /// [`LoadError::Io`], [`LoadError::Json`], [`LoadError::Format`] or
    /// [`LoadError::IdMismatch`] for an unreadable or foreign record.
    pub fn record(&self) -> Result<PageRecord, LoadError> {
        let path = labels_path(&self.dir, &self.id);
        let record: PageRecord = read_json(&path)?;
        if record.format != FORMAT_VERSION {
            return Err(LoadError::Format {
                path,
                found: record.format,
            });
        }
        if record.id != self.id {
            return Err(LoadError::IdMismatch {
                path,
                id: self.id.clone(),
                found: record.id,
            });
        }
        Ok(record)
    }

    /// The page's site: the host of its record's URL, else of the URL the page declares for
    /// itself (`super::site_key`); `None` when neither gives one.
    ///
    /// # Errors
    ///
    /// As [`PageRef::record`] and [`PageRef::bytes`].
    pub fn site(&self) -> Result<Option<String>, LoadError> {
        let record = self.record()?;
        let bytes = self.bytes()?;
        Ok(super::site_key(record.url.as_deref(), &bytes))
    }

    /// The page's original bytes.
    ///
    /// # Errors
    ///
    /// [`LoadError::Io`] if the page file cannot be read.
    pub fn bytes(&self) -> Result<Vec<u8>, LoadError> {
        let path = page_path(&self.dir, &self.id);
        std::fs::read(&path).map_err(|source| LoadError::Io { path, source })
    }

    /// Loads the page: record, bytes (checked against the recorded hash), decoded text,
    /// segmentation, and labels resolved from the anchors.
    ///
    /// # Errors
    ///
    /// Any [`LoadError`]; [`LoadError::Anchor`] when a label no longer fits its block.
    pub fn load(&self, segmenter: &mut Segmenter) -> Result<AnnotatedPage, LoadError> {
        let record = self.record()?;
        let bytes = self.bytes()?;
        let found = sha256_hex(&bytes);
        if found != record.page.sha256 {
            return Err(LoadError::PageChanged {
                id: self.id.clone(),
                path: page_path(&self.dir, &self.id),
                found,
                recorded: record.page.sha256,
            });
        }
        let text = victor_features::decode(&bytes)
            .map_err(|source| LoadError::Decode {
                id: self.id.clone(),
                source,
            })?
            .text
            .into_owned();
        let page = segmenter
            .segment(&text)
            .map_err(|source| LoadError::Segment {
                id: self.id.clone(),
                source,
            })?;
        let (labels, anchored) =
            resolve_anchored(&self.id, &page, &record.labels, record.page.blocks as usize)?;
        let known = match record.unlabelled {
            super::record::Unlabelled::Other => Vec::new(),
            super::record::Unlabelled::Unknown => anchored,
        };
        Ok(AnnotatedPage {
            id: self.id.clone(),
            set: self.set.clone(),
            text,
            page,
            labels,
            known,
            record,
        })
    }
}

/// Just the split of a record, to filter without reading the rest.
#[derive(Deserialize)]
struct SplitOnly {
    #[serde(default)]
    split: Option<String>,
}

fn read_json<T: serde::de::DeserializeOwned>(path: &Path) -> Result<T, LoadError> {
    let bytes = std::fs::read(path).map_err(|source| LoadError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    serde_json::from_slice(&bytes).map_err(|source| LoadError::Json {
        path: path.to_path_buf(),
        source,
    })
}

/// Ids of the `<id>.json` files in a labels folder, sorted (hidden and temporary files skipped).
fn list_ids(dir: &Path) -> Result<Vec<String>, LoadError> {
    let io = |source| LoadError::Io {
        path: dir.to_path_buf(),
        source,
    };
    let mut ids = Vec::new();
    for entry in std::fs::read_dir(dir).map_err(io)? {
        let name = entry.map_err(io)?.file_name();
        if let Some(id) = name.to_str().and_then(|n| n.strip_suffix(".json"))
            && !id.is_empty()
            && !id.starts_with('.')
        {
            ids.push(id.to_string());
        }
    }
    ids.sort_unstable();
    Ok(ids)
}

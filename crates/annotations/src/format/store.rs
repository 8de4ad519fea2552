//! Writing an annotated set: every file by the one writer rule (`victor_features::file::write`),
//! the page before its labels.
//!
//! A file is written to a temporary file in its destination folder and renamed into place, so
//! readers (and a crash) see either the old file or the new one. [`SetWriter`] is shared
//! between threads: it only holds the folder, and pages are independent files.

use std::path::{Path, PathBuf};

use super::record::{FORMAT_VERSION, PageRecord, SetInfo};
use super::{LABELS_DIR, PAGES_DIR, SET_FILE};

/// Longest page id accepted, in bytes.
const MAX_ID_LEN: usize = 200;

/// Why a set or a page could not be written.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// A file or folder could not be created or written.
    #[error("cannot write {path}: {source}")]
    Io {
        /// The file or folder.
        path: PathBuf,
        /// The cause.
        source: std::io::Error,
    },
    /// A record could not be serialized.
    #[error("cannot serialize {path}: {source}")]
    Json {
        /// The file it was meant for.
        path: PathBuf,
        /// The cause.
        source: serde_json::Error,
    },
    /// The page id cannot be a file name.
    #[error(
        "invalid page id {0:?}: use 1 to 200 ASCII letters, digits, '.', '_' or '-', not \
         starting with '.'"
    )]
    BadId(String),
    /// The folder is not an annotated set (no readable `set.json`).
    #[error("{0} is not an annotated set (no readable set.json)")]
    NotASet(PathBuf),
    /// The folder to write a set into holds files and is not an annotated set: writing there
    /// could replace files victor did not write.
    #[error(
        "{0} holds files and is not an annotated set (no set.json of victor's): write the set \
         into a new or empty folder, or into an existing set"
    )]
    NotEmpty(PathBuf),
    /// The path to write a set into is a file, a FIFO, a device or anything else but a folder
    /// (what it is follows the path).
    #[error("{0} is {1}, not a folder")]
    NotAFolder(PathBuf, &'static str),
    /// Labels were written for a page that is not in the set.
    #[error("no page file {0}: write the page with its labels first")]
    NoPage(PathBuf),
    /// The folder holds a set of another format version.
    #[error("{path} is a set of format {found}; this victor writes format {FORMAT_VERSION}")]
    OtherFormat {
        /// The set file.
        path: PathBuf,
        /// Its format version.
        found: u32,
    },
}

/// Checks that `id` can name the page's files: 1 to 200 ASCII letters, digits, `.`, `_`, `-`,
/// not starting with `.`.
///
/// # Errors
///
/// [`StoreError::BadId`] otherwise.
pub fn check_page_id(id: &str) -> Result<(), StoreError> {
    let ok = !id.is_empty()
        && id.len() <= MAX_ID_LEN
        && !id.starts_with('.')
        && id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'-'));
    if ok {
        Ok(())
    } else {
        Err(StoreError::BadId(id.to_string()))
    }
}

/// Writes `bytes` to `path` by the one writer rule ([`victor_features::file::write_file`]:
/// atomically for a regular file, a link followed to its target, a FIFO or a device as a
/// stream, anything else refused). The folder must exist.
///
/// # Errors
///
/// [`StoreError::Io`] naming `path`.
pub(crate) fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), StoreError> {
    victor_features::file::write_file(path, bytes).map_err(|source| StoreError::Io {
        path: path.to_path_buf(),
        source,
    })
}

/// Checks that a set may be written into `dir`: it does not exist, is an empty folder, or holds
/// a `set.json` that reads as a set's (of any format version: [`SetWriter::create`] names a
/// version it does not write).
fn check_set_folder(dir: &Path) -> Result<(), StoreError> {
    let io = |source| StoreError::Io {
        path: dir.to_path_buf(),
        source,
    };
    let meta = match std::fs::metadata(dir) {
        Ok(m) => m,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(io(e)),
    };
    if !meta.is_dir() {
        let what = victor_features::file::kind_of(meta.file_type());
        return Err(StoreError::NotAFolder(dir.to_path_buf(), what));
    }
    let is_set = std::fs::read(dir.join(SET_FILE))
        .ok()
        .is_some_and(|b| serde_json::from_slice::<SetInfo>(&b).is_ok());
    if is_set {
        return Ok(());
    }
    match std::fs::read_dir(dir).map_err(io)?.next() {
        None => Ok(()),
        Some(_) => Err(StoreError::NotEmpty(dir.to_path_buf())),
    }
}

/// Writes pages into an annotated set folder.
#[derive(Clone, Debug)]
pub struct SetWriter {
    dir: PathBuf,
}

impl SetWriter {
    /// Creates the set folder (or opens an existing set) and writes its `set.json`.
    ///
    /// Pages already in the folder stay; writing a page with the same id replaces it. Only a
    /// new folder, an empty one or an annotated set is written into: a folder holding other
    /// files is refused, since its `pages/`, `labels/` or `set.json` could be files victor did
    /// not write.
    ///
    /// # Errors
    ///
    /// [`StoreError::NotAFolder`] for a file (or a FIFO, a device), [`StoreError::NotEmpty`] for a folder of other
    /// files, [`StoreError::Io`] if the folders or `set.json` cannot be written,
    /// [`StoreError::OtherFormat`] if the folder holds a set of another format version.
    pub fn create(dir: impl Into<PathBuf>, info: &SetInfo) -> Result<Self, StoreError> {
        let dir = dir.into();
        check_set_folder(&dir)?;
        for sub in [PAGES_DIR, LABELS_DIR] {
            let path = dir.join(sub);
            std::fs::create_dir_all(&path).map_err(|source| StoreError::Io { path, source })?;
        }
        let set_file = dir.join(SET_FILE);
        if let Ok(old) = std::fs::read(&set_file)
            && let Ok(old) = serde_json::from_slice::<SetInfo>(&old)
            && old.format != FORMAT_VERSION
        {
            return Err(StoreError::OtherFormat {
                path: set_file,
                found: old.format,
            });
        }
        let mut json = serde_json::to_vec_pretty(info).map_err(|source| StoreError::Json {
            path: set_file.clone(),
            source,
        })?;
        json.push(b'\n');
        write_atomic(&set_file, &json)?;
        Ok(Self { dir })
    }

    /// Opens an existing set for writing, leaving its `set.json` as it is.
    ///
    /// # Errors
    ///
    /// [`StoreError::NotASet`] if the folder has no readable `set.json`,
    /// [`StoreError::OtherFormat`] if its format version is not this victor's.
    pub fn open(dir: impl Into<PathBuf>) -> Result<Self, StoreError> {
        let dir = dir.into();
        let set_file = dir.join(SET_FILE);
        let info = std::fs::read(&set_file)
            .ok()
            .and_then(|b| serde_json::from_slice::<SetInfo>(&b).ok())
            .ok_or_else(|| StoreError::NotASet(dir.clone()))?;
        if info.format != FORMAT_VERSION {
            return Err(StoreError::OtherFormat {
                path: set_file,
                found: info.format,
            });
        }
        Ok(Self { dir })
    }

    /// The set folder.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Writes one page: its bytes to `pages/<id>.html`, then `record` to `labels/<id>.json`.
    ///
    /// # Errors
    ///
    /// [`StoreError::BadId`] for an id that cannot be a file name, [`StoreError::Io`] or
    /// [`StoreError::Json`] when a file cannot be written.
    pub fn write_page(&self, record: &PageRecord, bytes: &[u8]) -> Result<(), StoreError> {
        check_page_id(&record.id)?;
        let labels_path = self.labels_path(&record.id);
        let json = record.to_json().map_err(|source| StoreError::Json {
            path: labels_path.clone(),
            source,
        })?;
        write_atomic(&self.page_path(&record.id), bytes)?;
        write_atomic(&labels_path, json.as_bytes())
    }

    /// Rewrites the labels of a page already in the set (its page file stays as it is).
    ///
    /// # Errors
    ///
    /// [`StoreError::BadId`], [`StoreError::NoPage`] if the set has no page file for the
    /// record's id, [`StoreError::Io`] or [`StoreError::Json`] when the file cannot be written.
    pub fn write_labels(&self, record: &PageRecord) -> Result<(), StoreError> {
        check_page_id(&record.id)?;
        let page = self.page_path(&record.id);
        if !page.is_file() {
            return Err(StoreError::NoPage(page));
        }
        let labels_path = self.labels_path(&record.id);
        let json = record.to_json().map_err(|source| StoreError::Json {
            path: labels_path.clone(),
            source,
        })?;
        write_atomic(&labels_path, json.as_bytes())
    }

    /// Where page `id`'s bytes go.
    pub fn page_path(&self, id: &str) -> PathBuf {
        page_path(&self.dir, id)
    }

    /// Where page `id`'s labels go.
    pub fn labels_path(&self, id: &str) -> PathBuf {
        labels_path(&self.dir, id)
    }
}

/// `dir/pages/<id>.html`.
pub(crate) fn page_path(dir: &Path, id: &str) -> PathBuf {
    dir.join(PAGES_DIR).join(format!("{id}.html"))
}

/// `dir/labels/<id>.json`.
pub(crate) fn labels_path(dir: &Path, id: &str) -> PathBuf {
    dir.join(LABELS_DIR).join(format!("{id}.json"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn page_ids() {
        for ok in ["dev-1", "01ccc7c5-a1d1-46e1", "100", "a.b_c"] {
            assert!(check_page_id(ok).is_ok(), "{ok}");
        }
        for bad in ["", ".hidden", "a/b", "..", "a b", "é", &"x".repeat(201)] {
            assert!(
                matches!(check_page_id(bad), Err(StoreError::BadId(_))),
                "{bad}"
            );
        }
    }
}

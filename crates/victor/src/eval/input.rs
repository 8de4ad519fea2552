//! Evaluation inputs: an annotated set or a data set in the manifest format, and its pages.
//!
//! A folder with `set.json` is an annotated set (pages with block labels, see
//! `annotations/README.md`); a folder with `manifest.jsonl` is a data set in the shared
//! layout (pages, gold text, for L3S-GN1 the annotated DOM). For a data set, the importer that
//! turns the gold into block labels is the one given, or else inferred from the data: a
//! `blocks` file in the manifest (or a `blocks/` folder) means L3S-GN1; gold lines that start
//! with CleanEval's `<h>`, `<p>` or `<l>` markers mean CleanEval; anything else is plain text.

use std::io::BufRead;
use std::path::{Path, PathBuf};

use victor_annotations::{Corpus, PageRef, SET_FILE};
use victor_annotations::{
    ImportError, ImportOptions, LoadError, ManifestEntry, SourceKind, Supplemental, read_manifest,
};

/// How many gold files are looked at to tell CleanEval gold from plain text.
const SNIFF_FILES: usize = 50;

/// Lines per gold file looked at for markers.
const SNIFF_LINES: usize = 200;

/// Which pages of the inputs to evaluate, and how the gold of a manifest set is imported.
#[derive(Clone, Copy, Debug, Default)]
pub struct Selection<'a> {
    /// Only pages of this split (`None`: every page).
    pub split: Option<&'a str>,
    /// The importer of manifest sets (`None`: inferred from each set's gold).
    pub importer: Option<SourceKind>,
    /// How L3S-GN1 supplemental runs count when importing a manifest set.
    pub supplemental: Supplemental,
}

/// Why an input could not be opened.
#[derive(Debug, thiserror::Error)]
pub enum InputError {
    /// The folder has `set.json` but the set does not load.
    #[error("cannot open the annotated set {}", dir.display())]
    Set {
        /// The folder.
        dir: PathBuf,
        /// Why.
        #[source]
        source: LoadError,
    },
    /// The folder has `manifest.jsonl` but it cannot be read.
    #[error("cannot read the data set {}", dir.display())]
    Manifest {
        /// The folder.
        dir: PathBuf,
        /// Why.
        #[source]
        source: ImportError,
    },
    /// The folder is neither.
    #[error(
        "{} is neither an annotated set (no {SET_FILE}: pages with block labels, made by \
         `victor import` from a gold standard or by `victor annotate PAGES --out SET` in a \
         browser) nor a data set (no manifest.jsonl: pages with gold files; \
         annotations/README.md)",
        dir.display()
    )]
    Neither {
        /// The folder.
        dir: PathBuf,
    },
}

/// The pages of an input and where their gold comes from.
#[derive(Debug)]
pub(crate) enum Source {
    /// An annotated set: gold labels stored with the pages, gold text from them.
    Annotated(Vec<PageRef>),
    /// A data set in the manifest format: gold files, labels imported in memory.
    Manifest {
        /// The data-set folder.
        dir: PathBuf,
        /// The selected pages.
        entries: Vec<ManifestEntry>,
        /// How to import them.
        options: ImportOptions,
    },
}

/// One folder to evaluate on: an annotated set or a manifest set, its selected pages.
#[derive(Debug)]
pub struct Input {
    /// The name shown in tables: the set's name, or the folder's (`name#2` for a repeat).
    pub name: String,
    /// Its pages and gold.
    pub(crate) source: Source,
}

impl Input {
    /// Opens a folder: an annotated set or a manifest set, the pages `selection` selects.
    ///
    /// # Errors
    ///
    /// [`InputError`] when the folder is neither, or its set or manifest does not load.
    pub fn open(dir: &Path, selection: &Selection<'_>) -> Result<Input, InputError> {
        let split = selection.split;
        let folder_name = dir.file_name().map_or_else(
            || dir.display().to_string(),
            |n| n.to_string_lossy().into_owned(),
        );
        if dir.join(SET_FILE).is_file() {
            let corpus = Corpus::open([dir], split).map_err(|source| InputError::Set {
                dir: dir.to_path_buf(),
                source,
            })?;
            let pages = corpus.pages().to_vec();
            let name = pages.first().map_or(folder_name, |p| p.set.clone());
            return Ok(Input {
                name,
                source: Source::Annotated(pages),
            });
        }
        if dir.join("manifest.jsonl").is_file() {
            let entries: Vec<ManifestEntry> = read_manifest(dir)
                .map_err(|source| InputError::Manifest {
                    dir: dir.to_path_buf(),
                    source,
                })?
                .into_iter()
                .filter(|e| split.is_none_or(|s| e.split.as_deref() == Some(s)))
                .collect();
            let kind = match selection.importer {
                Some(k) => k,
                None => infer_importer(dir, &entries),
            };
            // The other import settings come from the selection; the importer is per input.
            let mut options = ImportOptions::new(kind);
            options.supplemental = selection.supplemental;
            options.split = split.map(str::to_string);
            return Ok(Input {
                name: folder_name,
                source: Source::Manifest {
                    dir: dir.to_path_buf(),
                    entries,
                    options,
                },
            });
        }
        Err(InputError::Neither {
            dir: dir.to_path_buf(),
        })
    }

    /// Number of selected pages.
    pub fn len(&self) -> usize {
        match &self.source {
            Source::Annotated(pages) => pages.len(),
            Source::Manifest { entries, .. } => entries.len(),
        }
    }

    /// Whether no page was selected.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The id of page `i`.
    pub fn page_id(&self, i: usize) -> &str {
        match &self.source {
            Source::Annotated(pages) => pages.get(i).map_or("", |p| p.id.as_str()),
            Source::Manifest { entries, .. } => entries.get(i).map_or("", |e| e.id.as_str()),
        }
    }

    /// A manifest field of page `i` as text (`None` for an annotated set, or a page whose line
    /// lacks the field).
    pub fn page_field(&self, i: usize, field: &str) -> Option<String> {
        match &self.source {
            Source::Annotated(_) => None,
            Source::Manifest { entries, .. } => entries.get(i).and_then(|e| e.field(field)),
        }
    }

    /// How the gold is read, for tables: `annotated` or `manifest, --from IMPORTER`.
    pub fn describe(&self) -> String {
        match &self.source {
            Source::Annotated(_) => "annotated".to_string(),
            Source::Manifest { options, .. } => format!("manifest, --from {}", options.source),
        }
    }

    /// What the text-level scores compare with: gold files (`file`) or the gold-labelled
    /// blocks (`blocks`).
    pub fn text_gold(&self) -> &'static str {
        match &self.source {
            Source::Annotated(_) => "blocks",
            Source::Manifest { .. } => "file",
        }
    }
}

/// Opens every folder ([`Input::open`]), renaming inputs whose names repeat (`name`, `name#2`,
/// ...); `empty` hears of each folder that holds no selected page, as it is opened.
///
/// # Errors
///
/// The first folder that cannot be opened.
pub fn open_all(
    dirs: &[PathBuf],
    selection: &Selection<'_>,
    mut empty: impl FnMut(&Path),
) -> Result<Vec<Input>, InputError> {
    let mut inputs: Vec<Input> = Vec::with_capacity(dirs.len());
    for d in dirs {
        let mut input = Input::open(d, selection)?;
        if input.is_empty() {
            empty(d);
        }
        let base = input.name.clone();
        let mut n = 1;
        while inputs.iter().any(|i| i.name == input.name) {
            n += 1;
            input.name = format!("{base}#{n}");
        }
        inputs.push(input);
    }
    Ok(inputs)
}

/// The importer a data set's gold calls for (see the module documentation).
pub(crate) fn infer_importer(dir: &Path, entries: &[ManifestEntry]) -> SourceKind {
    if entries.iter().any(|e| e.blocks.is_some()) || dir.join("blocks").is_dir() {
        return SourceKind::L3sGn1;
    }
    let marked = entries
        .iter()
        .filter_map(|e| e.gold.as_deref())
        .take(SNIFF_FILES)
        .any(|g| has_markers(&dir.join(g)));
    if marked {
        SourceKind::CleanEval
    } else {
        SourceKind::Text
    }
}

/// Whether a gold file has a line starting with `<h>`, `<p>` or `<l>`.
fn has_markers(path: &Path) -> bool {
    let Ok(file) = std::fs::File::open(path) else {
        return false;
    };
    std::io::BufReader::new(file)
        .split(b'\n')
        .take(SNIFF_LINES)
        .map_while(Result::ok)
        .any(|line| {
            let t = line.trim_ascii_start();
            t.len() >= 3
                && t.first() == Some(&b'<')
                && t.get(2) == Some(&b'>')
                && t.get(1)
                    .is_some_and(|c| matches!(c.to_ascii_lowercase(), b'h' | b'p' | b'l'))
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(id: &str, gold: Option<&str>, blocks: Option<&str>) -> ManifestEntry {
        ManifestEntry {
            id: id.to_string(),
            html: format!("html/{id}.html"),
            gold: gold.map(str::to_string),
            blocks: blocks.map(str::to_string),
            ..ManifestEntry::default()
        }
    }

    #[test]
    fn infers_the_importer_from_the_gold() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        std::fs::create_dir_all(d.join("gold")).unwrap();
        std::fs::write(d.join("gold/a.txt"), "Title\nA paragraph\n").unwrap();
        std::fs::write(d.join("gold/b.txt"), "URL: x\n  <P> Marked paragraph\n").unwrap();
        let plain = [entry("a", Some("gold/a.txt"), None)];
        assert_eq!(infer_importer(d, &plain), SourceKind::Text);
        let marked = [
            entry("a", Some("gold/a.txt"), None),
            entry("b", Some("gold/b.txt"), None),
        ];
        assert_eq!(infer_importer(d, &marked), SourceKind::CleanEval);
        let l3s = [entry("a", Some("gold/a.txt"), Some("blocks/a.html"))];
        assert_eq!(infer_importer(d, &l3s), SourceKind::L3sGn1);
        // a missing gold file is no evidence either way
        let missing = [entry("c", Some("gold/c.txt"), None)];
        assert_eq!(infer_importer(d, &missing), SourceKind::Text);
    }
}

//! The data-set manifest: `DIR/manifest.jsonl`, one page a line.
//!
//! Each line is a JSON object with the page id, its files relative to `DIR` (`html`, `gold`,
//! L3S-GN1's `blocks`) and facts about it (`lang`, `split`, `url`, `source_set` or
//! `source_split`). Other fields are kept as they are ([`ManifestEntry::fields`]). Blank lines
//! are skipped.

use std::path::{Path, PathBuf};

use serde::Deserialize;

use super::ImportError;

/// One page of a data-set manifest.
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
pub struct ManifestEntry {
    /// The page id.
    pub id: String,
    /// The page file, relative to the data-set folder.
    pub html: String,
    /// The gold file, relative to the data-set folder.
    #[serde(default)]
    pub gold: Option<String>,
    /// The annotated DOM (L3S-GN1), relative to the data-set folder.
    #[serde(default)]
    pub blocks: Option<String>,
    /// Language code.
    #[serde(default)]
    pub lang: Option<String>,
    /// Split (`dev`, `test`).
    #[serde(default)]
    pub split: Option<String>,
    /// Where the page came from.
    #[serde(default)]
    pub url: Option<String>,
    /// The original sub-set (CleanEval's `cleaneval-dev`, `cleaneval-final`).
    #[serde(default)]
    pub source_set: Option<String>,
    /// The original split (dragnet's `train`).
    #[serde(default)]
    pub source_split: Option<String>,
    /// The line's other fields (wcxb's `page_type`, `domain`, `title`, ...), for grouping
    /// figures (`victor eval --group-by`) and reports.
    #[serde(flatten)]
    pub fields: std::collections::BTreeMap<String, serde_json::Value>,
}

impl ManifestEntry {
    /// A field of the line as text: a string as it is, a number or a boolean written out;
    /// `None` when the line lacks it or it is null. The named fields (`id`, `split`, `lang`,
    /// ...) are found too.
    pub fn field(&self, name: &str) -> Option<String> {
        let named = match name {
            "id" => Some(&self.id),
            "html" => Some(&self.html),
            "gold" => self.gold.as_ref(),
            "lang" => self.lang.as_ref(),
            "split" => self.split.as_ref(),
            "url" => self.url.as_ref(),
            "source_set" => self.source_set.as_ref(),
            "source_split" => self.source_split.as_ref(),
            _ => None,
        };
        if let Some(v) = named {
            return Some(v.clone());
        }
        match self.fields.get(name)? {
            serde_json::Value::Null => None,
            serde_json::Value::String(s) => Some(s.clone()),
            other => Some(other.to_string()),
        }
    }
}

/// Reads `dir/manifest.jsonl`.
///
/// # Errors
///
/// [`ImportError::Read`] if the file cannot be read, [`ImportError::Manifest`] naming the
/// line of an entry that is not valid.
pub fn read_manifest(dir: &Path) -> Result<Vec<ManifestEntry>, ImportError> {
    let path: PathBuf = dir.join("manifest.jsonl");
    let text = std::fs::read_to_string(&path).map_err(|source| ImportError::Read {
        path: path.clone(),
        source,
    })?;
    let mut entries = Vec::new();
    for (n, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let entry = serde_json::from_str(line).map_err(|source| ImportError::Manifest {
            path: path.clone(),
            line: n + 1,
            source,
        })?;
        entries.push(entry);
    }
    Ok(entries)
}

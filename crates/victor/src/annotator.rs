//! The annotation tool (the `annotator` feature): a web server that shows pages, takes their
//! labels and saves them to an annotated set (`victor annotate`). [`Server::bind`] opens it on
//! [`Options`]; with an [`AdaptLoop`] it adapts its model to the pages saved so far, by the one
//! assembly of [`crate::train`] ([`adapt_to_set`]).

pub use victor_annotator::{
    AdaptError, AdaptLoop, Adapted, AnnotateError, DEFAULT_ADAPT_EVERY, Options, Order, PageSource,
    Server, adapt_to_set,
};

use crate::models::{self, ModelError};
use crate::train::AdaptSettings;

/// The loop that adapts the bundle `name` (a folder or a name, as [`models::open`] takes it)
/// every `every` saved pages with the default settings (`victor annotate --model M --adapt`,
/// as `victor train OUT --adapt M` adapts), and the model it starts from (which pre-labels).
///
/// # Errors
///
/// [`ModelError`]: the bundle cannot be found or loaded.
pub fn adapt_loop(
    name: &std::path::Path,
    every: usize,
) -> Result<(victor_label::Model, AdaptLoop), ModelError> {
    let (model, image) = models::open_with_image(name)?;
    // The digest names the base bundle in the adapted models' lineage.
    let adapt = AdaptSettings::default().adapt(&model, name.display().to_string(), image);
    Ok((model, AdaptLoop { adapt, every }))
}

/// The pages of the data set in `dir` (its `manifest.jsonl`: ids made safe, URLs, splits and
/// languages), only those of `split` when one is given.
///
/// # Errors
///
/// [`crate::annotations::ImportError`]: the manifest cannot be read.
pub fn manifest_pages(
    dir: &std::path::Path,
    split: Option<&str>,
) -> Result<Vec<PageSource>, crate::annotations::ImportError> {
    Ok(crate::annotations::read_manifest(dir)?
        .into_iter()
        .filter(|e| split.is_none() || e.split.as_deref() == split)
        .map(|e| PageSource {
            id: safe_id(&e.id),
            path: dir.join(&e.html),
            url: e.url,
            split: e.split,
            lang: e.lang,
        })
        .collect())
}

/// A page id the annotated set accepts: ASCII letters, digits, `.`, `_`, `-` (others become
/// `_`), not starting with `.`, at most 180 characters.
pub fn safe_id(stem: &str) -> String {
    let mut id: String = stem
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-') {
                c
            } else {
                '_'
            }
        })
        .take(180)
        .collect();
    if id.is_empty() || id.starts_with('.') {
        id.insert(0, 'p');
    }
    id
}

/// Makes the pages' ids unique, in order: a repeated id gets `-2`, `-3`, ... appended.
pub fn unique_ids(pages: &mut [PageSource]) {
    let mut seen = std::collections::HashSet::new();
    for page in pages {
        let base = page.id.clone();
        let mut k = 2;
        while !seen.insert(page.id.clone()) {
            page.id = format!("{base}-{k}");
            k += 1;
        }
    }
}

/// The folder of an annotated set's pages that cannot be listed.
#[derive(Debug, thiserror::Error)]
#[error("cannot read {}", .0.display())]
pub struct ListError(pub std::path::PathBuf, #[source] pub std::io::Error);

/// The HTML files of the annotated set in `dir` (its `pages/`), sorted: the pages it holds,
/// which the tool offers again with their saved labels.
///
/// # Errors
///
/// [`ListError`]: the folder cannot be read.
pub fn set_pages(dir: &std::path::Path) -> Result<Vec<std::path::PathBuf>, ListError> {
    let dir = dir.join(crate::annotations::PAGES_DIR);
    let mut files: Vec<std::path::PathBuf> = std::fs::read_dir(&dir)
        .map_err(|e| ListError(dir.clone(), e))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|f| f.extension().is_some_and(|e| e == "html"))
        .collect();
    files.sort();
    Ok(files)
}

//! The annotation loop: the model that pre-labels pages, adapted to the pages saved so far.
//!
//! With [`AdaptLoop`] in the options (`victor annotate --model M --adapt`), every
//! [`AdaptLoop::every`] saved pages the tool adapts M to all the pages of the output set, in a
//! thread of its own while the server goes on answering, and pre-labels the pages opened
//! afterwards with the adapted model. An adaptation is [`adapt_to_set`]: the same assembly as
//! `victor train SET --adapt M` ([`victor_train::Recipe::adapting`]: a Gaussian prior centred
//! on M's weights and M's forest extended, [`victor_train::Adapt`]), without the decoding's
//! cross-validation (M's decoding is kept, as `victor train --adapt` keeps it by default), on a
//! copy of the set taken when it starts ([`snapshot`]), so that pages saved meanwhile neither
//! change under the trainer nor are half read; they wait for the next adaptation. It always
//! starts from M, never from the previous adaptation, so that no page counts twice.
//!
//! The session ([`crate::session`]) decides when: when a page is opened and the set holds at
//! least `every` more pages than the last adaptation started on (so the page just left is
//! complete), none running.

use std::path::{Path, PathBuf};

use victor_annotations::{Corpus, LoadError};
use victor_label::{BundleError, Model};
use victor_train::{Plan, Recipe, Replace, TrainError};

/// Saved pages between two adaptations when none is said (`victor annotate --adapt-every`):
/// small, so that the first adapted pre-labels come early; an adaptation on 50 pages took 1 to
/// 2 s on two quiet cores, less than a page takes to check (eval/annotate-adapt.md).
pub const DEFAULT_ADAPT_EVERY: usize = 5;

/// How the tool adapts its model as pages are saved.
#[derive(Clone, Debug)]
pub struct AdaptLoop {
    /// The adaptation's settings; its base is the model that pre-labels
    /// ([`crate::Options::model`]).
    pub adapt: victor_train::Adapt,
    /// Saved pages between two adaptations (at least 1).
    pub every: usize,
}

/// Why an adaptation failed.
#[derive(Debug, thiserror::Error)]
pub enum AdaptError {
    /// No page of the set can be used (each bad one with its reason).
    #[error("no saved page can be used{}", describe(.0))]
    NoPages(Vec<(String, String)>),
    /// The saved set cannot be listed.
    #[error("cannot read the saved pages: {0}")]
    Load(#[from] LoadError),
    /// A file of the copy could not be written or read.
    #[error("cannot copy {path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The reason.
        source: std::io::Error,
    },
    /// The copy cannot be made.
    #[error(transparent)]
    Store(#[from] victor_annotations::StoreError),
    /// Training failed.
    #[error(transparent)]
    Train(#[from] TrainError),
    /// The adapted bundle does not load.
    #[error("cannot load the adapted bundle: {0}")]
    Bundle(#[from] BundleError),
}

/// The first bad pages, for a message.
fn describe(bad: &[(String, String)]) -> String {
    match bad.first() {
        None => String::new(),
        Some((id, why)) if bad.len() == 1 => format!(" ({id}: {why})"),
        Some((id, why)) => format!(" ({id}: {why}; and {} more)", bad.len() - 1),
    }
}

/// The ids of bad pages, with why.
fn named(bad: &[victor_train::BadPage]) -> Vec<(String, String)> {
    bad.iter()
        .map(|(p, why)| (p.id.clone(), why.clone()))
        .collect()
}

/// A model adapted to a set's pages.
pub struct Adapted {
    /// The adapted model (named as the base).
    pub model: Model,
    /// The pages it was adapted on.
    pub pages: usize,
    /// Pages of the set left out, with the reason (a page changed since it was saved).
    pub skipped: Vec<(String, String)>,
}

/// Adapts `base` (the model `adapt.base` describes) to every page of the annotated set `set`
/// and writes the bundle to `dir` (a new folder, or a bundle, which is replaced); pages that
/// cannot be used are left out and listed. The bundle keeps `base`'s decoding.
///
/// # Errors
///
/// [`AdaptError`]: no usable page, a set that does not list, a failed training, a bundle that
/// does not load back.
pub fn adapt_to_set(
    base: &Model,
    adapt: &victor_train::Adapt,
    set: &Path,
    dir: &Path,
) -> Result<Adapted, AdaptError> {
    let corpus = Corpus::open([set], None)?;
    // Bad pages are left out (a page changed since it was saved) and listed.
    let (pages, bad) = match victor_train::usable_pages(corpus.pages(), true) {
        Ok(sorted) => sorted,
        Err(e) => return Err(AdaptError::NoPages(named(&e.bad))),
    };
    let skipped = named(&bad);
    let plan = Plan {
        // No cross-validation: the base's decoding is kept (what `victor train --adapt` keeps
        // by default, and below 10 pages always), and the loop stays quick.
        threshold_folds: 0,
        parallel_folds: 1,
        folders: vec![set.to_path_buf()],
        split: None,
        left_out: bad,
        notes: format!(
            "{} adapted by victor annotate to the {} pages saved so far",
            adapt.base.name,
            pages.len()
        ),
        replace: Replace::OnlyBundle,
    };
    Recipe::adapting(base, adapt.clone()).make(&pages, &plan, dir, &|_| {})?;
    let model = Model::load(dir)?.with_name(base.name());
    Ok(Adapted {
        model,
        pages: pages.len(),
        skipped,
    })
}

/// Copies the annotated set `from` (its description, and each page whose labels are saved,
/// page and labels) into the new folder `to`; returns the pages copied. A page whose file is
/// missing is copied without it (loading it then says so).
pub(crate) fn snapshot(from: &Path, to: &Path) -> Result<usize, AdaptError> {
    use victor_annotations::{SET_FILE, SetInfo, SetWriter};
    let io = |path: &Path| {
        let path = path.to_path_buf();
        move |source| AdaptError::Io { path, source }
    };
    let pages = Corpus::open([from], None)?;
    let set_file = from.join(SET_FILE);
    let info: SetInfo = serde_json::from_slice(&std::fs::read(&set_file).map_err(io(&set_file))?)
        .map_err(|e| AdaptError::Io {
        path: set_file.clone(),
        source: std::io::Error::other(e),
    })?;
    let (src, dst) = (SetWriter::open(from)?, SetWriter::create(to, &info)?);
    for p in pages.pages() {
        let page = src.page_path(&p.id);
        if page.is_file() {
            std::fs::copy(&page, dst.page_path(&p.id)).map_err(io(&page))?;
        }
        let labels = src.labels_path(&p.id);
        std::fs::copy(&labels, dst.labels_path(&p.id)).map_err(io(&labels))?;
    }
    Ok(pages.len())
}

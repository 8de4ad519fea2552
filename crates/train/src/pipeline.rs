//! Annotated pages -> CRF attributes -> trainer, streamed.
//!
//! Pages are loaded and turned into attributes in parallel (all cores), a chunk at a time, and
//! appended to the trainer in page order as they are produced: memory stays near what the
//! trainer itself holds (its interned attribute ids), whatever the number of pages.

use std::path::Path;

use crfs::Attribute;
use rayon::prelude::*;
use sha2::{Digest, Sha256};
use victor_annotations::Label;
use victor_annotations::format::{LoadError, PageRef};
use victor_features::{Extractor, FeatureTable, Segmenter, Template};

use crate::crf::{CrfError, CrfTrainer, TrainOptions};

/// Pages loaded and converted in parallel per chunk.
const CHUNK: usize = 64;

/// A page converted for the trainer, or (id, reason) when it could not be loaded.
type Converted = Result<(Prepared, Vec<Vec<Attribute>>), (String, String)>;

/// Feature extraction as a model will do it: the extractor (configuration) and the template.
#[derive(Clone, Copy, Debug)]
pub struct Setup<'a> {
    /// Computes feature tables.
    pub extractor: &'a Extractor,
    /// Expands them into attributes.
    pub template: &'a Template,
}

/// Progress of a training run.
#[derive(Clone, Debug)]
pub enum Event {
    /// Pages loaded and converted so far.
    Extracted {
        /// Pages done.
        done: usize,
        /// Pages in all.
        total: usize,
    },
    /// A page that could not be loaded (it is left out).
    Skipped {
        /// The page id.
        id: String,
        /// Why.
        reason: String,
    },
    /// All pages are in; the optimisation starts.
    Optimising {
        /// Pages appended.
        pages: usize,
        /// Blocks appended.
        blocks: usize,
    },
}

/// What a training run was fed.
#[derive(Clone, Debug, Default)]
pub struct DataSummary {
    /// Pages appended.
    pub pages: usize,
    /// Blocks appended.
    pub blocks: usize,
    /// Blocks per label (header, text, other).
    pub label_counts: [usize; 3],
    /// SHA-256 (hex) over page ids, page hashes and labels, in order.
    pub digest: String,
    /// Pages left out, with the reason.
    pub skipped: Vec<(String, String)>,
    /// Optimisation wall time, seconds.
    pub seconds: f64,
}

/// Why training failed.
#[derive(Debug, thiserror::Error)]
pub enum TrainError {
    /// The CRF trainer failed.
    #[error(transparent)]
    Crf(#[from] CrfError),
    /// No page could be used.
    #[error("no usable training pages ({0} skipped)")]
    NoPages(usize),
    /// Writing the bundle failed.
    #[error("cannot write {path}: {source}")]
    Io {
        /// The file or folder.
        path: std::path::PathBuf,
        /// The error.
        source: std::io::Error,
    },
    /// A trained fold model could not be loaded back.
    #[error("fold model: {0}")]
    Bundle(#[from] victor_label::BundleError),
}

/// A page ready for training or evaluation.
pub struct Prepared {
    /// The page id.
    pub id: String,
    /// SHA-256 of the page bytes (from its record).
    pub sha256: String,
    /// The page's blocks.
    pub page: victor_features::Page,
    /// Their features.
    pub table: FeatureTable,
    /// Gold labels.
    pub labels: Vec<Label>,
}

/// Loads an annotated page and computes its features.
pub fn prepare(
    r: &PageRef,
    seg: &mut Segmenter,
    extractor: &Extractor,
) -> Result<Prepared, LoadError> {
    let a = r.load(seg)?;
    let table = extractor.extract(&a.page);
    Ok(Prepared {
        id: a.id,
        sha256: a.record.page.sha256,
        page: a.page,
        table,
        labels: a.labels,
    })
}

/// The CRF attributes of every block of a page.
pub fn attributes(table: &FeatureTable, template: &Template) -> Vec<Vec<Attribute>> {
    let mut buf = String::new();
    (0..table.blocks)
        .map(|t| {
            let mut v = Vec::with_capacity(template.lines().len());
            template.for_each_attribute(table, t, &mut buf, |a| v.push(Attribute::new(a, 1.0)));
            v
        })
        .collect()
}

/// Trains a CRF on `pages` and writes the CRFsuite model to `model_path`.
pub fn train_crf(
    pages: &[PageRef],
    setup: Setup<'_>,
    opts: &TrainOptions,
    model_path: &Path,
    on: &(dyn Fn(Event) + Sync),
) -> Result<DataSummary, TrainError> {
    let mut trainer = CrfTrainer::new(opts)?;
    let mut sum = DataSummary::default();
    let mut digest = Sha256::new();
    let total = pages.len();
    let mut done = 0;
    for chunk in pages.chunks(CHUNK) {
        let converted: Vec<Converted> = chunk
            .par_iter()
            .map_init(Segmenter::new, |seg, r| {
                let p =
                    prepare(r, seg, setup.extractor).map_err(|e| (r.id.clone(), e.to_string()))?;
                let x = attributes(&p.table, setup.template);
                Ok((p, x))
            })
            .collect();
        for item in converted {
            done += 1;
            match item {
                Ok((p, x)) => {
                    if p.labels.is_empty() {
                        continue;
                    }
                    let y: Vec<&str> = p.labels.iter().map(|l| l.as_str()).collect();
                    trainer.append(&x, &y)?;
                    digest.update(p.id.as_bytes());
                    digest.update([0]);
                    digest.update(p.sha256.as_bytes());
                    for l in &p.labels {
                        digest.update([l.index() as u8]);
                        sum.label_counts[l.index()] += 1;
                    }
                    sum.pages += 1;
                    sum.blocks += p.labels.len();
                }
                Err((id, reason)) => {
                    on(Event::Skipped {
                        id: id.clone(),
                        reason: reason.clone(),
                    });
                    sum.skipped.push((id, reason));
                }
            }
        }
        on(Event::Extracted { done, total });
    }
    if sum.pages == 0 {
        return Err(TrainError::NoPages(sum.skipped.len()));
    }
    sum.digest = digest
        .finalize()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    on(Event::Optimising {
        pages: sum.pages,
        blocks: sum.blocks,
    });
    let t = std::time::Instant::now();
    trainer.train(model_path)?;
    sum.seconds = t.elapsed().as_secs_f64();
    Ok(sum)
}

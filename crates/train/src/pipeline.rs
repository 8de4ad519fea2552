//! Annotated pages -> CRF attributes -> trainer, streamed.
//!
//! Pages are loaded and turned into attributes in parallel (all cores), a chunk at a time, and
//! appended to the trainer in page order as they are produced: memory stays near what the
//! trainer itself holds (its interned attribute ids), whatever the number of pages.
//!
//! [`export_crfsuite`] streams the same data to a file in CRFsuite's text format instead, so
//! that CRFsuite's own tools (or python-crfsuite) can train on exactly what the trainer gets.

use std::io::Write;
use std::path::Path;

use crfs::Attribute;
use rayon::prelude::*;
use sha2::{Digest, Sha256};
use victor_annotations::Label;
use victor_annotations::{LoadError, PageRef};
use victor_features::{Extractor, FeatureTable, Segmenter, Template};

use crate::boost::BoostData;
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
    /// The CRF is trained; the boosted trees are being fitted.
    Boosting {
        /// Blocks they are fitted on.
        blocks: usize,
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
    /// Blocks whose label is unknown (partially labelled pages).
    pub unknown: usize,
    /// SHA-256 (hex) over page ids, page hashes and labels, in order.
    pub digest: String,
    /// Pages left out, with the reason.
    pub skipped: Vec<crate::BadPage>,
    /// Optimisation wall time, seconds.
    pub seconds: f64,
    /// Attributes in the trained model file (those with a non-zero weight for some label).
    pub attributes: usize,
    /// The boosted trees, when the options asked for them.
    pub boost: Option<victor_label::boost::BoostInfo>,
    /// Each page's profile with its set's name, in page order ([`victor_features::PageProfile`]):
    /// what the bundle's page sample and an adapted bundle's gate are made of.
    pub profiles: Vec<(String, victor_features::PageProfile)>,
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
    /// A cross-validation of one fold was asked for ([`crate::check_threshold_folds`]).
    #[error("cross-validation needs at least 2 folds, got {0} (0: no cross-validation)")]
    Folds(usize),
    /// Writing the bundle failed.
    #[error("cannot write {path}: {source}")]
    Io {
        /// The file or folder.
        path: std::path::PathBuf,
        /// The error.
        source: std::io::Error,
    },
    /// The destination of a bundle holds something that is not a bundle.
    #[error("will not replace {path}: {reason}")]
    NotABundle {
        /// The destination.
        path: std::path::PathBuf,
        /// What it is.
        reason: String,
    },
    /// The destination of a bundle is a file (or anything else but a folder).
    #[error("will not write a bundle at {path}: it is a file, not a folder")]
    NotAFolder {
        /// The destination.
        path: std::path::PathBuf,
    },
    /// The boosted trees could not be fitted.
    #[error(transparent)]
    Boost(#[from] crate::boost::BoostError),
    /// The threads of the cross-validation could not be started.
    #[error("cannot start the cross-validation's threads: {0}")]
    ThreadPool(String),
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
    /// The name of the set the page comes from.
    pub set: String,
    /// Per block, whether its label is known; empty when all are (see
    /// [`victor_annotations::AnnotatedPage::known`]).
    pub known: Vec<bool>,
}

impl Prepared {
    /// Whether block `i`'s label is known.
    pub fn is_known(&self, i: usize) -> bool {
        self.known.get(i).copied().unwrap_or(true)
    }

    /// Whether some block's label is unknown.
    pub fn is_partial(&self) -> bool {
        self.known.contains(&false)
    }
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
        set: r.set.clone(),
        known: a.known,
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

/// Converts `pages` in parallel, a chunk at a time, and hands each usable page (loaded, with
/// labels) with its attributes to `sink` in page order. Pages that cannot be loaded are
/// reported and left out. The summary's pages, blocks, label counts and digest cover exactly
/// the pages given to `sink`; `seconds` is left at 0.
fn stream_pages(
    pages: &[PageRef],
    setup: Setup<'_>,
    on: &(dyn Fn(Event) + Sync),
    mut sink: impl FnMut(&Prepared, &[Vec<Attribute>]) -> Result<(), TrainError>,
) -> Result<DataSummary, TrainError> {
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
        for (r, item) in chunk.iter().zip(converted) {
            done += 1;
            match item {
                // A page without a block has nothing to train on: left out, and said so (the
                // bundle records its pages as the pages trained on).
                Ok((p, _)) if p.labels.is_empty() => {
                    let reason = "the page has no text block".to_string();
                    on(Event::Skipped {
                        id: p.id.clone(),
                        reason: reason.clone(),
                    });
                    sum.skipped.push((r.clone(), reason));
                }
                Ok((p, x)) => {
                    sink(&p, &x)?;
                    sum.profiles
                        .push((p.set.clone(), victor_features::PageProfile::of(&p.page)));
                    digest.update(p.id.as_bytes());
                    digest.update([0]);
                    digest.update(p.sha256.as_bytes());
                    for (i, l) in p.labels.iter().enumerate() {
                        if p.is_known(i) {
                            digest.update([l.index() as u8]);
                            sum.label_counts[l.index()] += 1;
                        } else {
                            digest.update([u8::MAX]);
                            sum.unknown += 1;
                        }
                    }
                    sum.pages += 1;
                    sum.blocks += p.labels.len();
                }
                Err((id, reason)) => {
                    on(Event::Skipped {
                        id,
                        reason: reason.clone(),
                    });
                    sum.skipped.push((r.clone(), reason));
                }
            }
        }
        on(Event::Extracted { done, total });
    }
    if sum.pages == 0 {
        return Err(TrainError::NoPages(sum.skipped.len()));
    }
    sum.digest = hex::encode(digest.finalize());
    Ok(sum)
}

/// Trains a CRF on `pages` and writes the CRFsuite model to `model_path`; with
/// [`TrainOptions::boost`], also fits the boosted trees (returned in the summary).
pub fn train_crf(
    pages: &[PageRef],
    setup: Setup<'_>,
    opts: &TrainOptions,
    model_path: &Path,
    on: &(dyn Fn(Event) + Sync),
) -> Result<DataSummary, TrainError> {
    let mut trainer = CrfTrainer::new(opts)?;
    // Adapting, the forest is the base's, extended on the new pages when trees are asked for
    // (from its log-odds on their blocks); otherwise the options say whether to fit one.
    let further = opts
        .adapt
        .as_ref()
        .filter(|a| a.trees > 0)
        .and_then(|a| a.base.boost.as_ref())
        .map(|b| victor_label::boost::CompiledForest::new(&b.forest));
    let fit_new = opts.adapt.is_none() && opts.boost.is_some();
    let mut boost =
        (fit_new || further.is_some()).then(|| BoostData::new(setup.extractor.schema().len()));
    let (mut rows, mut margins) = (Vec::new(), Vec::new());
    let mut sum = stream_pages(pages, setup, on, |p, x| {
        let w = opts.weight_of(&p.set);
        if p.is_partial() {
            // The boosted trees need a label on every block: partial pages train the CRF only.
            let y: Vec<Option<&str>> = (0..p.labels.len())
                .map(|i| p.is_known(i).then(|| p.labels[i].as_str()))
                .collect();
            return Ok(trainer.append_partial_weighted(x, &y, w)?);
        }
        let y: Vec<&str> = p.labels.iter().map(|l| l.as_str()).collect();
        match (boost.as_mut(), &further) {
            (Some(b), Some(forest)) => {
                forest.logits(&p.table, &mut rows, &mut margins);
                b.add_with_margins(&p.table, &p.labels, &margins);
            }
            (Some(b), None) => b.add(&p.table, &p.labels),
            (None, _) => {}
        }
        Ok(trainer.append_weighted(x, &y, w)?)
    })?;
    on(Event::Optimising {
        pages: sum.pages,
        blocks: sum.blocks,
    });
    let t = std::time::Instant::now();
    trainer.train(model_path)?;
    sum.seconds = t.elapsed().as_secs_f64();
    let written = std::fs::read(model_path).map_err(|source| TrainError::Io {
        path: model_path.to_path_buf(),
        source,
    })?;
    sum.attributes = victor_label::CrfModel::from_bytes(&written)
        .map_err(|source| {
            TrainError::Bundle(victor_label::BundleError::Model {
                path: model_path.to_path_buf(),
                source,
            })
        })?
        .num_attrs();
    let schema = setup.extractor.schema();
    sum.boost = if let Some(a) = &opts.adapt {
        match (a.base.boost.as_ref(), boost) {
            (Some(b), Some(data)) if data.len() > 0 => {
                on(Event::Boosting { blocks: data.len() });
                Some(crate::boost::fit_further(
                    data,
                    schema,
                    b,
                    a.trees,
                    a.leaf_prior,
                )?)
            }
            // No further trees (or no page whose every block is labelled, which the trees
            // need): the base's forest as it is.
            (b, _) => b.cloned(),
        }
    } else {
        match (boost, &opts.boost) {
            (Some(data), Some(o)) => {
                on(Event::Boosting { blocks: data.len() });
                Some(crate::boost::fit(data, schema, o)?)
            }
            _ => None,
        }
    };
    Ok(sum)
}

/// Writes the data [`train_crf`] would give the trainer to `out`, in CRFsuite's text format.
///
/// Pages are converted in parallel a chunk at a time and written in page order, so memory stays
/// at one chunk. One line per block: the label, then its attributes, tab-separated; in attribute
/// names `\` and `:` are escaped with a backslash, and a value of 1 is omitted (`name:value`
/// otherwise). An empty line ends each page. Pages are skipped exactly as [`train_crf`] skips
/// them (unloadable, or no labels), so the summary (pages, blocks, digest) is the one a bundle
/// trained on the same pages records; `seconds` is 0.
pub fn export_crfsuite(
    pages: &[PageRef],
    setup: Setup<'_>,
    out: &Path,
    on: &(dyn Fn(Event) + Sync),
) -> Result<DataSummary, TrainError> {
    let io_err = |source| TrainError::Io {
        path: out.to_path_buf(),
        source,
    };
    // The one writer rule (`victor_features::file::write`): a regular file is staged and
    // renamed into place once whole, a FIFO, a device or `-` written as a stream.
    let mut file = victor_features::file::Output::create(out).map_err(io_err)?;
    let mut w = std::io::BufWriter::with_capacity(1 << 20, &mut file);
    let sum = stream_pages(pages, setup, on, |p, x| {
        write_page(&mut w, p, x).map_err(io_err)
    })?;
    w.flush().map_err(io_err)?;
    drop(w);
    file.commit().map_err(io_err)?;
    Ok(sum)
}

/// One page in CRFsuite's text format, followed by the empty line that ends it.
fn write_page(w: &mut impl Write, p: &Prepared, x: &[Vec<Attribute>]) -> std::io::Result<()> {
    if p.is_partial() {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            format!(
                "page {}: some blocks are unknown (partial labels), which CRFsuite's format cannot hold",
                p.id
            ),
        ));
    }
    if x.len() != p.labels.len() {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            format!(
                "page {}: {} labels for {} blocks",
                p.id,
                p.labels.len(),
                x.len()
            ),
        ));
    }
    for (label, attrs) in p.labels.iter().zip(x) {
        w.write_all(label.as_str().as_bytes())?;
        for a in attrs {
            w.write_all(b"\t")?;
            write_escaped(w, &a.name)?;
            if a.value != 1.0 {
                write!(w, ":{}", a.value)?;
            }
        }
        w.write_all(b"\n")?;
    }
    w.write_all(b"\n")
}

/// An attribute name with `\` and `:` escaped; tabs and line breaks cannot be represented.
fn write_escaped(w: &mut impl Write, name: &str) -> std::io::Result<()> {
    if name.contains(['\t', '\n', '\r']) {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            format!(
                "attribute {name:?} has a tab or line break (not representable in CRFsuite's format)"
            ),
        ));
    }
    let mut rest = name;
    while let Some(i) = rest.find(['\\', ':']) {
        let (head, tail) = rest.split_at(i);
        w.write_all(head.as_bytes())?;
        w.write_all(b"\\")?;
        let (c, tail) = tail.split_at(1);
        w.write_all(c.as_bytes())?;
        rest = tail;
    }
    w.write_all(rest.as_bytes())
}

#[cfg(test)]
mod tests {
    use super::write_escaped;

    fn escaped(name: &str) -> Result<String, std::io::Error> {
        let mut v = Vec::new();
        write_escaped(&mut v, name)?;
        Ok(String::from_utf8_lossy(&v).into_owned())
    }

    #[test]
    fn colons_and_backslashes_are_escaped() {
        assert_eq!(escaped("U000:0").ok().as_deref(), Some("U000\\:0"));
        assert_eq!(escaped("a\\b:c:").ok().as_deref(), Some("a\\\\b\\:c\\:"));
        assert_eq!(escaped("é:ü").ok().as_deref(), Some("é\\:ü"));
        assert_eq!(escaped("plain").ok().as_deref(), Some("plain"));
        assert_eq!(escaped("").ok().as_deref(), Some(""));
    }

    #[test]
    fn tabs_and_line_breaks_are_refused() {
        for bad in ["a\tb", "a\nb", "a\rb"] {
            assert!(escaped(bad).is_err(), "{bad:?}");
        }
    }
}

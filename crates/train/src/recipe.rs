//! The one assembly of a training or an adaptation, shared by every front end: `victor train`
//! (with or without `--adapt`), `victor cv`, the Python package's `victor.train` and
//! `victor.adapt` (through the facade's `victor::train`), and the annotation tool's adaptation
//! loop (`victor annotate --adapt`, in `victor-annotator`).
//!
//! - [`AdaptSettings`]: the settings of an adaptation (prior, trees, leaf prior, decoding,
//!   gate) with their defaults, turned into an [`Adapt`] of a loaded bundle by
//!   [`AdaptSettings::adapt`];
//! - [`Recipe`]: the feature extraction and the training options a bundle is made with;
//!   [`Recipe::adapting`] adapts a loaded bundle with its own extraction, and [`Recipe::make`]
//!   writes the bundle ([`train_bundle`]);
//! - [`usable_pages`]: every page checked before any work, the bad ones an error or left out;
//! - [`like_boost`]: the boosted trees' settings a bundle passes on (`--like`).
//!
//! It lives here, not in the facade, because the annotator (which the facade depends on) needs
//! it too: the arrow runs one way, facade -> annotator -> train.

use std::path::Path;
use std::sync::Arc;

use victor_annotations::PageRef;
use victor_label::{BundleImage, BundleMeta, Model};

use crate::adapt::{Adapt, AdaptDecoding, Base, DEFAULT_LEAF_PRIOR, DEFAULT_PRIOR, DEFAULT_TREES};
use crate::boost::BoostOptions;
use crate::bundle::Replace;
use crate::crf::TrainOptions;
use crate::make::{BadPage, Made, MakeEvent, Plan, sort_out_pages, train_bundle};
use crate::pipeline::{Setup, TrainError};

/// How a bundle is adapted: `victor train --adapt`'s `--prior`, `--adapt-trees`,
/// `--adapt-leaf-prior`, `--adapt-decoding` and `--no-gate`. The default is what every front
/// end adapts with when nothing is said ([`DEFAULT_PRIOR`], [`DEFAULT_TREES`],
/// [`DEFAULT_LEAF_PRIOR`], the base's decoding, a gate).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AdaptSettings {
    /// Strength of the prior centred on the base's weights ([`Adapt::prior`]).
    pub prior: f64,
    /// Trees fitted after the base's forest ([`Adapt::trees`]).
    pub trees: usize,
    /// Precision of the prior at 0 on the further trees' leaves ([`Adapt::leaf_prior`]).
    pub leaf_prior: f64,
    /// Which decoding the new bundle recommends ([`Adapt::decoding`]).
    pub decoding: AdaptDecoding,
    /// Whether the new bundle gets a gate ([`Adapt::gate`]).
    pub gate: bool,
}

impl Default for AdaptSettings {
    fn default() -> Self {
        AdaptSettings {
            prior: DEFAULT_PRIOR,
            trees: DEFAULT_TREES,
            leaf_prior: DEFAULT_LEAF_PRIOR,
            decoding: AdaptDecoding::Base,
            gate: true,
        }
    }
}

impl AdaptSettings {
    /// The adaptation of the loaded bundle `model` with these settings; `name` is the bundle as
    /// the user named it (`web`, a folder), `image` its files (the digest in the new bundle's
    /// lineage says which bundle it was).
    pub fn adapt(&self, model: &Model, name: impl Into<String>, image: BundleImage) -> Adapt {
        Adapt {
            base: Arc::new(Base::new(model, name, image)),
            prior: self.prior,
            trees: self.trees,
            leaf_prior: self.leaf_prior,
            decoding: self.decoding,
            gate: self.gate,
        }
    }
}

/// What a bundle is made with: the feature extraction and the training options.
#[derive(Clone, Debug)]
pub struct Recipe<'a> {
    /// The feature extractor and the template.
    pub setup: Setup<'a>,
    /// The training options (with [`TrainOptions::adapt`] when adapting).
    pub opts: TrainOptions,
}

impl<'a> Recipe<'a> {
    /// Adapting the loaded bundle `base` as `adapt` says (made from it by
    /// [`AdaptSettings::adapt`]): its feature extraction and template, the other training
    /// options their defaults.
    pub fn adapting(base: &'a Model, adapt: Adapt) -> Recipe<'a> {
        Recipe {
            setup: Setup {
                extractor: &base.extractor,
                template: &base.template,
            },
            opts: TrainOptions {
                adapt: Some(adapt),
                ..TrainOptions::default()
            },
        }
    }

    /// Trains on `pages` as `plan` says and writes the bundle to `out` atomically
    /// ([`train_bundle`]), its progress reported to `on`.
    ///
    /// # Errors
    ///
    /// [`TrainError`]: a failed training, or a destination the plan may not replace.
    pub fn make(
        &self,
        pages: &[PageRef],
        plan: &Plan,
        out: &Path,
        on: &(dyn Fn(MakeEvent) + Sync),
    ) -> Result<Made, TrainError> {
        train_bundle(pages, self.setup, &self.opts, plan, out, on)
    }
}

/// The boosted trees' settings that a bundle passes on to one trained like it (`--like`), if
/// it has trees.
pub fn like_boost(meta: &BundleMeta) -> Option<BoostOptions> {
    meta.boost.as_ref().map(|b| BoostOptions {
        trees: b.trees,
        max_depth: b.max_depth,
        learning_rate: b.learning_rate,
        weight: b.weight,
    })
}

impl Replace {
    /// [`Replace::Anything`] when the user forced it (`--force`), else [`Replace::OnlyBundle`].
    pub fn forced(force: bool) -> Replace {
        if force {
            Replace::Anything
        } else {
            Replace::OnlyBundle
        }
    }
}

/// Why the pages of a training cannot be used ([`usable_pages`]).
#[derive(Clone, Debug)]
pub struct Unusable {
    /// The pages that cannot be used, with why.
    pub bad: Vec<BadPage>,
    /// Every page given.
    pub of: usize,
    /// Why they cannot.
    pub why: UnusableWhy,
}

/// Why the pages of a training cannot be used.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnusableWhy {
    /// Some are bad and were not to be left out.
    BadPages,
    /// No page is left once the bad ones are left out.
    NoneLeft,
}

impl std::fmt::Display for Unusable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.why == UnusableWhy::BadPages {
            write!(
                f,
                "{} of {} annotated pages cannot be used",
                self.bad.len(),
                self.of
            )
        } else {
            write!(f, "no usable annotated page ({} bad)", self.bad.len())
        }
    }
}

impl std::error::Error for Unusable {}

/// The pages of `all` a training can use, and apart those that cannot, with why: every page is
/// loaded once before any work ([`sort_out_pages`]), so that a malformed annotation is reported
/// first. Bad pages are an error unless `skip` leaves them out; no usable page is an error
/// either way.
///
/// # Errors
///
/// [`Unusable`], with every bad page.
pub fn usable_pages(all: &[PageRef], skip: bool) -> Result<(Vec<PageRef>, Vec<BadPage>), Unusable> {
    let (pages, bad) = sort_out_pages(all);
    if (!bad.is_empty() && !skip) || pages.is_empty() {
        return Err(Unusable {
            why: if !bad.is_empty() && !skip {
                UnusableWhy::BadPages
            } else {
                UnusableWhy::NoneLeft
            },
            bad,
            of: all.len(),
        });
    }
    Ok((pages, bad))
}

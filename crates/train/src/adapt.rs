//! Adapting a trained bundle to a user's pages, without forgetting the rest of the web.
//!
//! A bundle trained on thousands of pages knows the web; fifty annotated pages know the user's
//! guideline (headline in or out, comments in or out). Training from scratch on the fifty
//! forgets the first; the shipped bundle ignores the second. Adaptation keeps both:
//!
//! - **The CRF** is fitted by MAP with a Gaussian prior centred on the bundle's weights
//!   ([`Prior`]): the penalty `c2 * |w - w0|^2` instead of `c2 * |w|^2`, `c2` the strength of the
//!   prior ([`Adapt::prior`]). The bundle's features, bins, template and labels are kept; a
//!   feature of the new pages the bundle never had starts at 0. What the new pages say nothing
//!   about keeps the bundle's weight exactly; what they contradict moves as far as their
//!   evidence outweighs the prior, so a few pages move little and many move much.
//! - **The boosted trees**: the bundle's forest is kept and boosting goes on on the new pages
//!   ([`crate::boost`]): further trees fitted to the residuals of the bundle's forest on the new
//!   blocks, at the bundle's depth and learning rate ([`Adapt::trees`]).
//! - **The decoding** is the bundle's own, measured by a cross-validation on the new pages
//!   (each fold adapted from the bundle on the others); [`AdaptDecoding::Pages`] chooses it
//!   again by that cross-validation, as `victor train` chooses; with too few pages the
//!   bundle's own recommendation stands ([`MIN_CV_PAGES`]).
//! - **The gate** ([`crate::gate`], [`victor_label::gate`]): a page-level model of "like the
//!   new pages" against the bundle's stored sample of its own training pages decides, page by
//!   page, how much of the adapted model applies; the bundle adapted from is kept whole as the
//!   new bundle's `base/`, and labels the rest.
//!
//! The new bundle records where it came from ([`victor_label::Origin`]): the base bundle's
//! name and digest, the prior, the trees added, and the base's own origin when it was adapted
//! too; its data summary names the new pages.

use std::sync::Arc;

use victor_label::boost::BoostInfo;
use victor_label::gate::PageSample;
use victor_label::{BundleImage, DecodingRecommendation, Model, Origin};

use crate::parallel::Prior;

/// Fewest pages on which adapting cross-validates the decoding: below, each fold would adapt on
/// a handful of pages and score fewer still, and the base bundle's recommendation is kept.
pub const MIN_CV_PAGES: usize = 10;

/// The strength of the prior when none is given. With the gate ([`victor_label::gate`])
/// keeping the base on pages unlike the user's, the adaptation may follow the pages further
/// than it could when it applied everywhere (1000 before the gate): chosen with
/// [`DEFAULT_TREES`] and [`DEFAULT_LEAF_PRIOR`] on held-out dev pages of three guidelines other
/// than the base's (CleanEval's all running text, Dragnet's, and L3S-GN1's article body alone),
/// the best mean gain of the six settings tried, none of which cost wcxb's held-out pages of
/// other kinds more than .003 (eval/adapt-gate.md).
pub const DEFAULT_PRIOR: f64 = 30.0;

/// Further trees fitted on the new pages when none is said (eval/adapt-gate.md).
pub const DEFAULT_TREES: usize = 20;

/// The precision of the prior on the further trees' leaves (eval/adapt-gate.md): a fit from
/// zero uses 1; larger keeps the further trees' leaves small.
pub const DEFAULT_LEAF_PRIOR: f64 = 30.0;

/// A trained bundle to adapt: what of it adaptation keeps and starts from.
#[derive(Debug)]
pub struct Base {
    /// The bundle's name as it was asked for (`web`, or a folder).
    pub name: String,
    /// [`victor_label::bundle_digest`] of its `victor.json` and `model.crfsuite`.
    pub digest: String,
    /// Its files, which a gated bundle keeps as its `base/`.
    pub image: BundleImage,
    /// The sample of its training pages' profiles that it stores, checked (`None` for a bundle
    /// made before they were stored: it is adapted without a gate).
    pub sample: Option<PageSample>,
    /// Its CRF weights, the centre of the prior.
    pub prior: Prior,
    /// Its forest, which adaptation extends.
    pub boost: Option<BoostInfo>,
    /// Its recommended decoding, kept when there are too few pages to choose again.
    pub recommendation: Option<DecodingRecommendation>,
    /// How the base came to be when it was itself adapted.
    pub origin: Option<Origin>,
    /// Pages the base was trained on.
    pub pages: usize,
    /// The base's notes.
    pub notes: String,
}

impl Base {
    /// What adaptation needs of a loaded bundle; `name` says which it is, `image` holds its
    /// files (from which its digest is computed).
    ///
    /// (Its page sample was checked as the model was loaded.)
    pub fn new(model: &Model, name: impl Into<String>, image: BundleImage) -> Base {
        let crf = &model.crf;
        let labels = crf.labels().to_vec();
        let state_w = crf.state_weights();
        let state = crf
            .attrs()
            .filter_map(|(id, name)| {
                let row: Vec<f64> = state_w.row(id as usize).to_vec();
                row.iter()
                    .any(|&w| w != 0.0)
                    .then(|| (name.to_string(), row))
            })
            .collect();
        let trans = crf.transitions().iter().copied().collect();
        Base {
            name: name.into(),
            digest: image.digest(),
            image,
            sample: model.meta.pages.clone(),
            prior: Prior {
                labels,
                state,
                trans,
            },
            boost: model.meta.boost.clone(),
            recommendation: model.meta.recommendation.clone(),
            origin: model.meta.origin.clone(),
            pages: model.meta.data.pages,
            notes: model.meta.notes.clone(),
        }
    }
}

/// Which decoding an adapted bundle recommends.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
pub enum AdaptDecoding {
    /// The base's (the default): chosen on the thousands of pages the base was trained on, it
    /// holds on kinds of page the new ones do not show. On dev pages, the decoding a
    /// cross-validation chose on 50 pages of one guideline scored lower on other pages of that
    /// same guideline and much lower on other kinds of page (eval/adapt.md).
    #[default]
    Base,
    /// The one a cross-validation on the new pages scores best, as `victor train` chooses.
    Pages,
}

/// Adapting a [`Base`]: the settings [`crate::TrainOptions::adapt`] carries.
#[derive(Clone, Debug)]
pub struct Adapt {
    /// The bundle adapted.
    pub base: Arc<Base>,
    /// Strength of the prior: the `c2` of `c2 * |w - w0|^2` (infinity: the base's CRF as it is;
    /// 0: no prior, the likelihood alone).
    pub prior: f64,
    /// Trees fitted on the new pages after the base's (0: the base's forest as it is).
    pub trees: usize,
    /// Precision of the prior at 0 on each new tree's leaves ([`DEFAULT_LEAF_PRIOR`]).
    pub leaf_prior: f64,
    /// Which decoding the adapted bundle recommends.
    pub decoding: AdaptDecoding,
    /// Whether the adapted bundle gets a gate ([`victor_label::gate`]): the adaptation applies
    /// where pages are like the adapted ones, the base elsewhere. Without a page sample in the
    /// base there is none either way.
    pub gate: bool,
}

impl PartialEq for Adapt {
    fn eq(&self, other: &Adapt) -> bool {
        self.base.digest == other.base.digest
            && self.prior.to_bits() == other.prior.to_bits()
            && self.trees == other.trees
            && self.leaf_prior.to_bits() == other.leaf_prior.to_bits()
            && self.decoding == other.decoding
            && self.gate == other.gate
    }
}

impl Adapt {
    /// The origin the adapted bundle records.
    pub fn origin(&self) -> Origin {
        Origin {
            bundle: self.base.name.clone(),
            digest: self.base.digest.clone(),
            prior: self.prior,
            trees: self.trees,
            base_pages: self.base.pages,
            from: self.base.origin.clone().map(Box::new),
        }
    }
}

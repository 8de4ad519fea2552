//! Model bundles: one folder holding the CRFsuite model file (`model.crfsuite`) and
//! `victor.json`, everything needed to reproduce the features exactly (feature configuration and
//! bins, template, labels), the training parameters, the provenance of the training data, and the
//! recommended decoding ([`DecodingRecommendation`]).
//!
//! Loading checks that the bundle was made for the features this victor computes
//! ([`FEATURE_VERSION`]) and that the model's labels and
//! attributes agree with its template; a mismatch is a [`BundleError`], never a silent change of
//! behaviour.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use victor_core::Label;
use victor_features::{Extractor, FEATURE_VERSION, FeatureConfig, Template};

use crate::boost::{BoostInfo, CompiledForest};
use crate::compiled::CompiledTemplate;
use crate::crf::{CrfModel, ModelError};
use crate::gate::{BASE_DIR, Gate, PageSample};
use victor_core::{Calibration, Decoding, DecodingChoice, ExpectedOptions, Threshold};

/// Name of the CRFsuite model file in a bundle.
pub const MODEL_FILE: &str = "model.crfsuite";
/// Name of the metadata file in a bundle.
pub const META_FILE: &str = "victor.json";
/// Format tag of `victor.json`.
pub const BUNDLE_FORMAT: &str = "victor-bundle-1";

/// `victor.json`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BundleMeta {
    /// Always [`BUNDLE_FORMAT`].
    pub format: String,
    /// Version of victor that trained the model.
    pub victor_version: String,
    /// [`FEATURE_VERSION`] of the features the model was trained on.
    pub feature_version: String,
    /// Labels of the model.
    pub labels: Vec<String>,
    /// The feature configuration.
    pub features: FeatureConfig,
    /// The CRF++ template, verbatim.
    pub template: String,
    /// How the model was trained.
    pub training: TrainingInfo,
    /// What it was trained on.
    pub data: DataInfo,
    /// The decoding recommended by the bundle's cross-validation (None: decode with Viterbi).
    /// `victor.json` names it `threshold`, as every bundle has since the first.
    #[serde(rename = "threshold")]
    pub recommendation: Option<DecodingRecommendation>,
    /// Boosted trees blended into the CRF's marginals ([`crate::boost`]; absent: the CRF alone).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub boost: Option<BoostInfo>,
    /// Free-form notes (recipe, intended use).
    #[serde(default)]
    pub notes: String,
    /// Where the bundle came from when it was adapted from another (`victor train --adapt`);
    /// absent for a bundle trained from scratch.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub origin: Option<Origin>,
    /// Profiles of a sample of the pages the bundle was trained on ([`crate::gate`]): what the
    /// gate of a bundle adapted from this one is fitted against. Absent in bundles made before
    /// it was recorded: those adapt without a gate.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pages: Option<PageSample>,
    /// The gate of an adapted bundle ([`crate::gate`]): how much of it applies to a page, the
    /// rest being the bundle it was adapted from, kept in its folder `base/`. Absent: the
    /// bundle applies to every page in full.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gate: Option<Gate>,
}

/// The lineage of an adapted bundle: the bundle it was adapted from and how. The pages it was
/// adapted on are the bundle's own [`DataInfo`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Origin {
    /// The bundle adapted, as it was named (`web`, or a folder).
    pub bundle: String,
    /// Its [`bundle_digest`]: which bundle of that name it was.
    pub digest: String,
    /// Strength of the prior centred on its CRF weights (`"inf"`: its weights kept as they
    /// were).
    #[serde(with = "number_or_inf")]
    pub prior: f64,
    /// Trees fitted on the new pages after its forest's.
    pub trees: usize,
    /// Pages it had been trained on.
    pub base_pages: usize,
    /// Its own origin, when it was adapted too.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from: Option<Box<Origin>>,
}

impl Origin {
    /// One line a person reads: `web (sha256 1a2b3c4d5e6f, trained on 2000 pages), prior 10,
    /// 10 trees added`, then `; it was adapted from ...` down the chain.
    pub fn describe(&self) -> String {
        let mut s = format!(
            "{} (sha256 {}, trained on {} page{}), prior {}, {} tree{} added",
            self.bundle,
            self.digest.get(..12).unwrap_or(&self.digest),
            self.base_pages,
            if self.base_pages == 1 { "" } else { "s" },
            self.prior,
            self.trees,
            if self.trees == 1 { "" } else { "s" },
        );
        if let Some(from) = &self.from {
            s.push_str("; it was adapted from ");
            s.push_str(&from.describe());
        }
        s
    }
}

/// A number that may be infinite: JSON has no infinity, so `f64::INFINITY` is written as the
/// string `"inf"` (and read back from it); every other value is a JSON number.
mod number_or_inf {
    use serde::{Deserialize, Deserializer, Serializer};

    pub(super) fn serialize<S: Serializer>(v: &f64, s: S) -> Result<S::Ok, S::Error> {
        if *v == f64::INFINITY {
            s.serialize_str("inf")
        } else {
            s.serialize_f64(*v)
        }
    }

    #[derive(Deserialize)]
    #[serde(untagged)]
    enum NumberOrText {
        Number(f64),
        Text(String),
    }

    pub(super) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<f64, D::Error> {
        match NumberOrText::deserialize(d)? {
            NumberOrText::Number(v) => Ok(v),
            NumberOrText::Text(t) if t == "inf" => Ok(f64::INFINITY),
            NumberOrText::Text(t) => Err(serde::de::Error::custom(format!(
                "{t:?} is neither a number nor \"inf\""
            ))),
        }
    }
}

/// The digest that names a bundle: SHA-256 (hex) over its `victor.json`'s bytes, one NUL byte,
/// and its `model.crfsuite`'s bytes. Two bundles with the same digest label alike.
pub fn bundle_digest(meta_json: &[u8], model: &[u8]) -> String {
    use sha2::{Digest, Sha256};
    let mut h = Sha256::new();
    h.update(meta_json);
    h.update([0u8]);
    h.update(model);
    hex::encode(h.finalize())
}

/// Training parameters and figures.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct TrainingInfo {
    /// `lbfgs`, `l2sgd`, `ap`, `pa` or `arow`.
    pub algorithm: String,
    /// L1 coefficient (L-BFGS only).
    pub c1: f64,
    /// L2 coefficient (L-BFGS, L2-SGD); when adapting, the prior's (`"inf"` for an infinite
    /// one).
    #[serde(with = "number_or_inf")]
    pub c2: f64,
    /// Iteration limit.
    pub max_iterations: usize,
    /// Minimum feature frequency.
    pub min_freq: f64,
    /// Attributes the trainer saw.
    pub attributes: usize,
    /// Wall time of the optimisation, seconds.
    pub seconds: f64,
    /// The weights some training sets had in the CRF's objective (none: every page 1).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub set_weights: Vec<SetWeight>,
}

/// The weight of one training set's pages in the CRF's objective: each of its pages' negative
/// log-likelihood counts `weight` times (`victor train --set-weight NAME=W`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SetWeight {
    /// The set's name, as its `set.json` gives it.
    pub set: String,
    /// A positive, finite factor.
    pub weight: f64,
}

impl std::str::FromStr for SetWeight {
    type Err = String;

    /// Parses `NAME=W`, `W` a positive, finite number.
    fn from_str(s: &str) -> Result<SetWeight, String> {
        let (set, w) = s
            .rsplit_once('=')
            .ok_or_else(|| format!("{s:?} is not NAME=WEIGHT"))?;
        let weight: f64 = w
            .trim()
            .parse()
            .map_err(|_| format!("{w:?} in {s:?} is not a number"))?;
        if !(weight.is_finite() && weight > 0.0) {
            return Err(format!("the weight in {s:?} must be a positive number"));
        }
        let set = set.trim();
        if set.is_empty() {
            return Err(format!("{s:?} names no set"));
        }
        Ok(SetWeight {
            set: set.to_string(),
            weight,
        })
    }
}

/// Provenance of the training data.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct DataInfo {
    /// Annotated folders used, with the pages trained on and those left out.
    pub sets: Vec<TrainingSet>,
    /// Pages trained on, in all (the sum of the sets' [`TrainingSet::pages`]).
    pub pages: usize,
    /// Blocks in all.
    pub blocks: usize,
    /// Blocks per label (header, text, other).
    pub label_counts: [usize; 3],
    /// SHA-256 over the pages' ids, bytes and labels, in order.
    pub digest: String,
}

/// One annotated folder in the training data, as `victor.json` records it (not an annotated
/// set's own `set.json`, which is `victor_annotations::SetInfo`).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct TrainingSet {
    /// The folder as given.
    pub path: String,
    /// Source data set, when the annotations record one.
    pub source: String,
    /// Split filter applied (`dev`, or empty for all).
    pub split: String,
    /// Pages trained on: the folder's pages (of the split) but those of [`left_out`](Self::left_out).
    pub pages: usize,
    /// Its pages left out of the training, each with why (a malformed annotation left out by
    /// `--skip-bad-pages`, a page that no longer reads); absent when none was.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub left_out: Vec<LeftOut>,
}

/// A page of a training set left out of the training.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct LeftOut {
    /// The page's id in its set.
    pub id: String,
    /// Why it could not be used.
    pub reason: String,
}

/// The decoding a bundle recommends, how it was chosen and what it scored: an other-threshold,
/// and the settings of expected-F1 decoding (used when that is recommended, or asked for).
/// `victor.json` holds it under `threshold`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DecodingRecommendation {
    /// A block is `other` where P(other) >= this (checked within 0 and 1 when read).
    pub value: Threshold,
    /// How it was chosen.
    pub method: String,
    /// Text-level F1 (macro) at this threshold in that cross-validation.
    pub f1: f64,
    /// The same with Viterbi decoding, for comparison.
    pub viterbi_f1: f64,
    /// The same with expected-F1 decoding (a threshold per page), if it was measured.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expected_f1: Option<f64>,
    /// The decoding recommended by default: `threshold` (this threshold for every page) or
    /// `expected-f1` (when it scored better in that cross-validation). Bundles without the field
    /// use the threshold.
    #[serde(default)]
    pub decoding: RecommendedDecoding,
    /// The recalibration of the marginals that expected-F1 decoding applies, chosen in the same
    /// cross-validation (absent: the identity).
    #[serde(default, skip_serializing_if = "Calibration::is_identity")]
    pub calibration: Calibration,
    /// Under expected-F1 decoding, a page whose kept blocks hold fewer words keeps nothing
    /// (chosen in the same cross-validation; absent: 0).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub min_words: u32,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

/// Which decoding a bundle recommends.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum RecommendedDecoding {
    /// The recommended threshold on every page.
    #[default]
    Threshold,
    /// The threshold of each page that maximises its expected F1.
    ExpectedF1,
}

/// Why a bundle cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum BundleError {
    /// A file of the bundle cannot be read.
    #[error("cannot read {path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The error.
        source: std::io::Error,
    },
    /// `victor.json` does not parse, or holds a value out of its type's range (a threshold
    /// outside [0, 1]).
    #[error("{path}: not a victor bundle description: {}", readable(&error.to_string()))]
    Meta {
        /// The file.
        path: PathBuf,
        /// The parser's error. Not the error's `source`: its message may quote a corrupt
        /// bundle's bytes at length, and the message above quotes it cut short.
        error: serde_json::Error,
    },
    /// Made for other features or another bundle format.
    #[error(
        "model bundle made for {found}, but this victor computes {expected}: retrain the model with this victor"
    )]
    Version {
        /// What the bundle says.
        found: String,
        /// What this victor has.
        expected: String,
    },
    /// The CRFsuite file is broken.
    #[error("{path}: {source}")]
    Model {
        /// The file.
        path: PathBuf,
        /// The error.
        source: ModelError,
    },
    /// The configuration, template or labels do not fit.
    #[error("model bundle is inconsistent: {}", readable(.0))]
    Inconsistent(String),
    /// `victor.json` parses but holds a value serde does not check (a label other than
    /// header, text and other, or one listed twice).
    #[error("{path}: {reason}")]
    BadValue {
        /// The file.
        path: PathBuf,
        /// What is wrong, with the value.
        reason: String,
    },
}

/// Longest piece of a bundle's own text a message quotes, in characters.
const EXCERPT_CHARS: usize = 40;

/// Longest message made from a bundle's content (a parser's, quoting it), in characters.
const MESSAGE_CHARS: usize = 240;

/// A value read from a bundle, quoted for a message: control characters escaped, cut after
/// [`EXCERPT_CHARS`] characters with how long it is (`"\u{14}mHh..."... (580 characters)`), so
/// that a corrupt bundle's message stays readable instead of dumping its bytes.
pub(crate) fn excerpt(value: &str) -> String {
    let n = value.chars().count();
    let head: String = value.chars().take(EXCERPT_CHARS).collect();
    if n <= EXCERPT_CHARS {
        format!("{head:?}")
    } else {
        format!("{head:?}... ({n} characters)")
    }
}

/// A message that quotes a bundle's content (a parser's error, a template's line), readable:
/// each quoted string in it (`"..."`) longer than [`EXCERPT_CHARS`] cut to that with its
/// length, control characters escaped, and the whole cut after [`MESSAGE_CHARS`] characters
/// with how much was left out.
fn readable(message: &str) -> String {
    let mut out = String::new();
    let mut chars = message.chars();
    while let Some(c) = chars.next() {
        if c != '"' {
            push_escaped(&mut out, c);
            continue;
        }
        // A quoted string, to its closing quote (a backslash escapes the next character).
        let mut quoted = String::new();
        let mut closed = false;
        while let Some(q) = chars.next() {
            match q {
                '\\' => {
                    quoted.push(q);
                    if let Some(e) = chars.next() {
                        quoted.push(e);
                    }
                }
                '"' => {
                    closed = true;
                    break;
                }
                _ => quoted.push(q),
            }
        }
        let n = quoted.chars().count();
        out.push('"');
        for q in quoted.chars().take(EXCERPT_CHARS) {
            push_escaped(&mut out, q);
        }
        if closed {
            out.push('"');
        }
        if n > EXCERPT_CHARS {
            out.push_str(&format!("... ({n} characters)"));
        }
    }
    let n = out.chars().count();
    if n > MESSAGE_CHARS {
        let cut: String = out.chars().take(MESSAGE_CHARS).collect();
        return format!("{cut}... ({} more characters)", n - MESSAGE_CHARS);
    }
    out
}

/// `c`, or its escape if it is a control character.
fn push_escaped(out: &mut String, c: char) {
    if c.is_control() {
        out.extend(c.escape_debug());
    } else {
        out.push(c);
    }
}

/// Checks the values of `victor.json` that serde cannot: the labels are header, text and other
/// (each at most once). (The recommended threshold is a [`Threshold`], checked as it is read.)
fn check_meta(meta: &BundleMeta) -> Result<(), String> {
    let mut seen: Vec<&str> = Vec::new();
    for l in &meta.labels {
        if l.parse::<Label>().is_err() {
            return Err(format!(
                "label {} is not one of \"header\", \"text\", \"other\"",
                excerpt(l)
            ));
        }
        if seen.contains(&l.as_str()) {
            return Err(format!("label {} is listed twice", excerpt(l)));
        }
        seen.push(l);
    }
    Ok(())
}

impl BundleMeta {
    /// Reads the description `victor.json` of the bundle folder `dir`, without the model (to
    /// retrain its recipe, say).
    pub fn read(dir: &Path) -> Result<BundleMeta, BundleError> {
        let path = dir.join(META_FILE);
        let json = std::fs::read_to_string(&path).map_err(|source| BundleError::Io {
            path: path.clone(),
            source,
        })?;
        Self::parse(&json, dir)
    }

    /// Parses the contents of `victor.json` (of the bundle folder `origin`, named in errors).
    pub fn parse(json: &str, origin: &Path) -> Result<BundleMeta, BundleError> {
        serde_json::from_str(json).map_err(|error| BundleError::Meta {
            path: origin.join(META_FILE),
            error,
        })
    }
}

/// A bundle's files as bytes: its `victor.json` and `model.crfsuite`, and, for a gated bundle,
/// its base's in turn (the folder `base/`). What adapting copies of the bundle it adapts into
/// the new bundle's `base/`, whether the bundle was a folder or built in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BundleImage {
    /// The text of `victor.json`.
    pub meta: String,
    /// The bytes of `model.crfsuite`.
    pub model: Vec<u8>,
    /// A gated bundle's base.
    pub base: Option<Box<BundleImage>>,
}

impl BundleImage {
    /// Reads a bundle folder's files (a gated bundle's `base/` too, as deep as it goes).
    pub fn read(dir: &Path) -> Result<BundleImage, BundleError> {
        Self::read_at_depth(dir, 0)
    }

    fn read_at_depth(dir: &Path, depth: usize) -> Result<BundleImage, BundleError> {
        let (meta, model) = Model::read_files(dir)?;
        let gated = BundleMeta::parse(&meta, dir)?.gate.is_some();
        let base = if gated {
            if depth + 1 >= MAX_GATED_DEPTH {
                return Err(BundleError::Inconsistent(format!(
                    "{}: gated bundles nested more than {MAX_GATED_DEPTH} deep",
                    dir.display()
                )));
            }
            Some(Box::new(Self::read_at_depth(
                &dir.join(BASE_DIR),
                depth + 1,
            )?))
        } else {
            None
        };
        Ok(BundleImage { meta, model, base })
    }

    /// [`bundle_digest`] of its two files.
    pub fn digest(&self) -> String {
        bundle_digest(self.meta.as_bytes(), &self.model)
    }
}

/// A loaded bundle, ready to label pages. Share it across threads.
#[derive(Debug)]
pub struct Model {
    /// The bundle's description.
    pub meta: BundleMeta,
    /// The CRF weights.
    pub crf: CrfModel,
    /// Feature extraction as configured for the model.
    pub extractor: Extractor,
    /// The template.
    pub template: Template,
    pub(crate) compiled: CompiledTemplate,
    /// Model label id of header, text, other (in [`Label::ALL`] order), if the model has it.
    pub(crate) label_ids: [Option<usize>; 3],
    /// The boosted trees laid out for labeling, with their blend weight.
    pub(crate) forest: Option<(CompiledForest, f64)>,
    /// Which bundle this is, as it was asked for ([`Model::name`]).
    pub(crate) name: String,
    /// A gated bundle's base (its folder `base/`), with the gate: how much of this bundle
    /// applies to a page, the base taking the rest ([`crate::gate`]).
    pub(crate) gated: Option<(Gate, Box<Model>)>,
}

/// How deep gated bundles may nest (a base that is itself gated, and so on): a bundle adapted
/// from an adapted one adapted from ..., within reason, and no endless chain of links.
const MAX_GATED_DEPTH: usize = 8;

impl Model {
    /// Loads a bundle folder; a gated bundle with its base (its folder `base/`), which must be
    /// the bundle its `origin` names by digest.
    pub fn load(dir: &Path) -> Result<Model, BundleError> {
        Self::from_image(&BundleImage::read(dir)?, dir)
    }

    /// Builds a model from a bundle's files held in memory (`origin` names them in errors); a
    /// gated bundle's base from its image's `base`, checked as [`Model::load`] checks it.
    pub fn from_image(image: &BundleImage, origin: &Path) -> Result<Model, BundleError> {
        let model = Self::build(&image.meta, &image.model, origin, true)?;
        let Some(gate) = model.meta.gate.clone() else {
            return Ok(model);
        };
        let base_dir = origin.join(BASE_DIR);
        let Some(base_image) = &image.base else {
            return Err(BundleError::Inconsistent(format!(
                "{}: a gated bundle without the bundle it was adapted from",
                base_dir.display()
            )));
        };
        let digest = base_image.digest();
        let named = model.meta.origin.as_ref().map(|o| o.digest.as_str());
        if named != Some(digest.as_str()) {
            return Err(BundleError::Inconsistent(format!(
                "{} is not the bundle it was adapted from (sha256 {}, where victor.json's origin names {})",
                base_dir.display(),
                digest.get(..12).unwrap_or(&digest),
                named.map_or("none".to_string(), |d| excerpt(d.get(..12).unwrap_or(d)))
            )));
        }
        let base = Self::from_image(base_image, &base_dir)?;
        model.with_gate(gate, base)
    }

    /// This model gated ([`crate::gate`]): `gate` decides how much of it applies to a page,
    /// `base` labels the rest. The two must compute the same features (the same configuration
    /// and template), as an adapted bundle and its base do.
    pub fn with_gate(mut self, gate: Gate, base: Model) -> Result<Model, BundleError> {
        gate.check().map_err(BundleError::Inconsistent)?;
        if base.meta.features != self.meta.features || base.meta.template != self.meta.template {
            return Err(BundleError::Inconsistent(format!(
                "{}: the base's features or template differ from the adapted bundle's",
                base.name
            )));
        }
        self.meta.gate = Some(gate.clone());
        self.gated = Some((gate, Box::new(base)));
        Ok(self)
    }

    /// The contents of a bundle folder's `victor.json` and `model.crfsuite`.
    pub(crate) fn read_files(dir: &Path) -> Result<(String, Vec<u8>), BundleError> {
        let meta_path = dir.join(META_FILE);
        let model_path = dir.join(MODEL_FILE);
        let meta = std::fs::read_to_string(&meta_path).map_err(|source| BundleError::Io {
            path: meta_path.clone(),
            source,
        })?;
        let bytes = std::fs::read(&model_path).map_err(|source| BundleError::Io {
            path: model_path.clone(),
            source,
        })?;
        Ok((meta, bytes))
    }

    /// Builds a model from the contents of `victor.json` and `model.crfsuite` (`origin` names
    /// them in errors). A gated bundle needs its base, which only [`Model::load`] reads: its
    /// description is refused here.
    pub fn from_parts(
        meta_json: &str,
        model_bytes: &[u8],
        origin: &Path,
    ) -> Result<Model, BundleError> {
        Self::build(meta_json, model_bytes, origin, false)
    }

    /// [`Model::from_parts`]; `gated_ok`: a gated description is accepted (its base attached
    /// by the caller).
    fn build(
        meta_json: &str,
        model_bytes: &[u8],
        origin: &Path,
        gated_ok: bool,
    ) -> Result<Model, BundleError> {
        let meta = BundleMeta::parse(meta_json, origin)?;
        check_meta(&meta).map_err(|reason| BundleError::BadValue {
            path: origin.join(META_FILE),
            reason,
        })?;
        if meta.format != BUNDLE_FORMAT {
            return Err(BundleError::Version {
                found: excerpt(&meta.format),
                expected: BUNDLE_FORMAT.to_string(),
            });
        }
        if meta.feature_version != FEATURE_VERSION {
            return Err(BundleError::Version {
                found: excerpt(&meta.feature_version),
                expected: FEATURE_VERSION.to_string(),
            });
        }
        let crf = CrfModel::from_bytes(model_bytes).map_err(|source| BundleError::Model {
            path: origin.join(MODEL_FILE),
            source,
        })?;
        let extractor = Extractor::new(&meta.features)
            .map_err(|e| BundleError::Inconsistent(format!("feature configuration: {e}")))?;
        let template = Template::parse(&meta.template, extractor.schema())
            .map_err(|e| BundleError::Inconsistent(format!("template: {e}")))?;
        // A model trained on pages without headers has no `header` label: its probability is 0.
        let label_ids = Label::ALL.map(|l| crf.label_id(l.as_str()));
        if label_ids[Label::Other.index()].is_none() || label_ids.iter().all(Option::is_none) {
            return Err(BundleError::Inconsistent(format!(
                "the CRF model has no label \"other\" (labels: {:?})",
                crf.labels()
            )));
        }
        if let Some(extra) = crf.labels().iter().find(|l| l.parse::<Label>().is_err()) {
            return Err(BundleError::Inconsistent(format!(
                "the CRF model has an unknown label {extra:?}"
            )));
        }
        let compiled = CompiledTemplate::new(&template, &extractor, &crf)
            .map_err(BundleError::Inconsistent)?;
        let forest = match &meta.boost {
            None => None,
            Some(b) => {
                b.forest
                    .check(extractor.schema())
                    .map_err(|e| BundleError::Inconsistent(format!("boosted trees: {e}")))?;
                if !(0.0..=1.0).contains(&b.weight) {
                    return Err(BundleError::Inconsistent(format!(
                        "boosted trees: blend weight {} is not between 0 and 1",
                        b.weight
                    )));
                }
                Some((CompiledForest::new(&b.forest), b.weight))
            }
        };
        if let Some(gate) = &meta.gate {
            if !gated_ok {
                return Err(BundleError::Inconsistent(format!(
                    "{} is an adapted bundle with a gate: load it from its folder, which holds the bundle it was adapted from in {BASE_DIR}/",
                    origin.display()
                )));
            }
            gate.check().map_err(BundleError::Inconsistent)?;
        }
        if let Some(pages) = &meta.pages {
            // Decoded only to be checked: adapting decodes it again when it needs it.
            pages.profiles().map_err(BundleError::Inconsistent)?;
        }
        Ok(Model {
            meta,
            crf,
            extractor,
            template,
            compiled,
            label_ids,
            forest,
            name: origin.display().to_string(),
            gated: None,
        })
    }

    /// A gated bundle's gate and base ([`crate::gate`]); `None` for a bundle that applies to
    /// every page in full.
    pub fn gated(&self) -> Option<(&Gate, &Model)> {
        self.gated.as_ref().map(|(g, b)| (g, b.as_ref()))
    }

    /// Which bundle this is: the folder it was loaded from, or the name of a built-in bundle
    /// (`web`) as model lookup resolved it; outputs that say which model labelled a page print
    /// it.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The same model called `name` (model lookup names a built-in bundle by its name rather
    /// than by the placeholder path it was built from).
    #[must_use]
    pub fn with_name(mut self, name: impl Into<String>) -> Model {
        self.name = name.into();
        self
    }

    /// The recommended other-threshold, if the bundle has one.
    pub fn recommended_threshold(&self) -> Option<Threshold> {
        self.meta.recommendation.as_ref().map(|r| r.value)
    }

    /// The settings of expected-F1 decoding the bundle records (the identity calibration and
    /// no minimum when it records none).
    pub fn expected_options(&self) -> ExpectedOptions {
        self.meta.recommendation.as_ref().map_or(
            ExpectedOptions::default(),
            DecodingRecommendation::expected_options,
        )
    }

    /// The decoding the bundle recommends: expected-F1 decoding with its settings where its
    /// cross-validation chose it, else its threshold, else Viterbi (a bundle without a
    /// threshold).
    pub fn recommended_decoding(&self) -> Decoding {
        self.meta
            .recommendation
            .as_ref()
            .map_or(Decoding::Viterbi, DecodingRecommendation::decoding)
    }

    /// The decoding a person chose, completed by the bundle: expected-F1 decoding gets the
    /// bundle's settings, a threshold without a value the bundle's threshold; `None` is the
    /// bundle's recommended decoding.
    ///
    /// # Errors
    ///
    /// [`NoThreshold`] for a threshold without a value, from a bundle that recommends none.
    pub fn decoding(&self, choice: Option<DecodingChoice>) -> Result<Decoding, NoThreshold> {
        Ok(match choice {
            None => self.recommended_decoding(),
            Some(DecodingChoice::Viterbi) => Decoding::Viterbi,
            Some(DecodingChoice::ExpectedF1) => Decoding::ExpectedF1(self.expected_options()),
            Some(DecodingChoice::Threshold(Some(t))) => Decoding::Threshold(t),
            Some(DecodingChoice::Threshold(None)) => {
                Decoding::Threshold(self.recommended_threshold().ok_or(NoThreshold)?)
            }
        })
    }
}

/// A threshold decoding asked of a bundle that recommends no threshold (it decodes with
/// Viterbi): the threshold must be given.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("this model recommends no threshold (it decodes with Viterbi): give one")]
pub struct NoThreshold;

impl DecodingRecommendation {
    /// The settings of expected-F1 decoding chosen with this recommendation.
    pub fn expected_options(&self) -> ExpectedOptions {
        ExpectedOptions {
            calibration: self.calibration,
            min_words: self.min_words,
        }
    }

    /// The recommended decoding as a complete value: expected-F1 decoding with its settings, or
    /// the threshold.
    pub fn decoding(&self) -> Decoding {
        match self.decoding {
            RecommendedDecoding::ExpectedF1 => Decoding::ExpectedF1(self.expected_options()),
            RecommendedDecoding::Threshold => Decoding::Threshold(self.value),
        }
    }
}

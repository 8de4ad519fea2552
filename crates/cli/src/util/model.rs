//! Finding the model bundle to use: a folder given with `--model`, a name looked up on the
//! search path and among the bundles built into the binary, or the built-in default.
//!
//! `--model NAME` (a bare name, no `/`) is looked up, in order, as `$VICTOR_MODELS/NAME`,
//! `./models/NAME`, `$XDG_DATA_HOME/victor/models/NAME` (`~/.local/share/victor/models/NAME`),
//! and the bundles built into the binary (the shipped models/*: see build.rs), so that an
//! installed `victor` knows them from any directory. A path (or a name that is a folder with
//! `victor.json` where the command runs) is used as it is.

use std::path::{Path, PathBuf};

use anyhow::Context;
use victor_label::META_FILE;
use victor_label::{Decoding, Model};

include!(concat!(env!("OUT_DIR"), "/built_in_models.rs"));

/// The environment variable naming a folder of model bundles searched first.
pub(crate) const MODELS_ENV: &str = "VICTOR_MODELS";

/// Loads `--model M` (see the module docs for the lookup), or, without `--model`, the
/// built-in default.
pub(crate) fn load(arg: Option<&Path>) -> anyhow::Result<Model> {
    let Some(p) = arg else {
        return builtin("default").unwrap_or_else(|| {
            anyhow::bail!(
                "this victor was built without a default model (models/default was missing at build time); pass --model"
            )
        });
    };
    if p.join(META_FILE).is_file() {
        return Model::load(p).with_context(|| format!("cannot load model bundle {}", p.display()));
    }
    let Some(name) = bare_name(p) else {
        anyhow::bail!(
            "no model bundle at {} (expected a folder with {META_FILE} and model.crfsuite)",
            p.display()
        );
    };
    let places = search_path(name);
    for dir in &places {
        if dir.join(META_FILE).is_file() {
            return Model::load(dir)
                .with_context(|| format!("cannot load model bundle {}", dir.display()));
        }
    }
    if let Some(model) = builtin(name) {
        return model;
    }
    let mut looked: Vec<String> = places.iter().map(|d| d.display().to_string()).collect();
    looked.push(format!(
        "the built-in bundles ({})",
        builtin_names().join(", ")
    ));
    anyhow::bail!(
        "no model bundle named {name:?} (a folder with {META_FILE} and model.crfsuite); looked in {}",
        looked.join(", ")
    )
}

/// The name, when `p` is one bare name (no folder separators, not `.` or `..`).
fn bare_name(p: &Path) -> Option<&str> {
    let mut parts = p.components();
    match (parts.next(), parts.next()) {
        (Some(std::path::Component::Normal(n)), None) => n.to_str(),
        _ => None,
    }
}

/// Where a bundle called `name` is looked for on disk, in order.
fn search_path(name: &str) -> Vec<PathBuf> {
    let mut out = Vec::new();
    if let Some(dir) = std::env::var_os(MODELS_ENV).filter(|d| !d.is_empty()) {
        out.push(PathBuf::from(dir).join(name));
    }
    out.push(Path::new("models").join(name));
    let data = std::env::var_os("XDG_DATA_HOME")
        .filter(|d| !d.is_empty())
        .map(PathBuf::from)
        .or_else(|| {
            std::env::var_os("HOME")
                .filter(|d| !d.is_empty())
                .map(|h| PathBuf::from(h).join(".local/share"))
        });
    if let Some(data) = data {
        out.push(data.join("victor/models").join(name));
    }
    out
}

/// The names of the built-in bundles, aliases too (`default`).
pub(crate) fn builtin_names() -> Vec<&'static str> {
    let mut names: Vec<&str> = BUILT_IN_BUNDLES.iter().map(|&(n, _, _)| n).collect();
    names.extend(BUILT_IN_ALIASES.iter().map(|&(a, _)| a));
    names.sort_unstable();
    names
}

/// The built-in bundle called `name` (or an alias of one), loaded; `None` if there is none.
fn builtin(name: &str) -> Option<anyhow::Result<Model>> {
    let real = BUILT_IN_ALIASES
        .iter()
        .find(|&&(alias, _)| alias == name)
        .map_or(name, |&(_, real)| real);
    let &(_, meta, model) = BUILT_IN_BUNDLES.iter().find(|&&(n, _, _)| n == real)?;
    let origin = PathBuf::from(format!("<built-in models/{real}>"));
    Some(
        Model::from_parts(meta, model, &origin)
            .with_context(|| format!("the built-in model {name} does not load")),
    )
}

/// The decoding options shared by `label` and `eval`.
#[derive(Clone, Debug, clap::Args)]
pub(crate) struct DecodingArgs {
    /// Other-threshold T in [0, 1]: a block is other where P(other) >= T (default: the model's
    /// recommended decoding, or Viterbi if it has none).
    #[arg(long, value_name = "T", conflicts_with = "viterbi", allow_negative_numbers = true, value_parser = crate::util::values::unit)]
    pub threshold: Option<f64>,
    /// Decode the most likely label sequence instead of thresholding.
    #[arg(long)]
    pub viterbi: bool,
    /// Expected-F1 decoding: each page gets the threshold that maximises its expected
    /// text-level F1 under the marginals, recalibrated as the bundle says, and keeps nothing if
    /// that is fewer words than the bundle's minimum (the default of bundles whose
    /// cross-validation chose it).
    #[arg(long, conflicts_with_all = ["viterbi", "threshold"])]
    pub expected_f1: bool,
}

impl DecodingArgs {
    /// The decoding asked for: `--viterbi`, `--expected-f1`, `--threshold T` (within 0 and 1),
    /// or else the bundle's recommended decoding (Viterbi for a bundle without a threshold).
    pub(crate) fn decoding(&self, model: &Model) -> anyhow::Result<Decoding> {
        if self.viterbi {
            return Ok(Decoding::Viterbi);
        }
        if self.expected_f1 {
            return Ok(Decoding::ExpectedF1);
        }
        match self.threshold {
            Some(t) if (0.0..=1.0).contains(&t) => Ok(Decoding::Threshold(t)),
            Some(t) => anyhow::bail!("--threshold must be within 0 and 1, got {t}"),
            None => Ok(model.recommended_decoding()),
        }
    }

    /// Refuses a decoding option given with a rule-based `--method`: such a method labels by
    /// its own rules, with one-hot probabilities, so `--threshold`, `--viterbi` and
    /// `--expected-f1` would be ignored without a word (`None` is the CRF, which takes them).
    pub(crate) fn check_method(
        &self,
        method: Option<victor_methods::Method>,
    ) -> anyhow::Result<()> {
        let Some(method) = method else {
            return Ok(());
        };
        let given = if self.threshold.is_some() {
            Some("--threshold")
        } else if self.viterbi {
            Some("--viterbi")
        } else if self.expected_f1 {
            Some("--expected-f1")
        } else {
            None
        };
        match given {
            Some(option) => anyhow::bail!(
                "{option} applies to the CRF only: --method {} labels by its own rules, without probabilities to decode",
                method.name()
            ),
            None => Ok(()),
        }
    }
}

//! Finding the model bundle to use: a folder given with `--model`, a name under `models/`, or
//! the default built into the binary.

use std::path::{Path, PathBuf};

use anyhow::Context;
use victor_label::{Decoding, Model};

/// Loads `--model M`: a bundle folder; or a bare name looked up as `models/M` (in the working
/// directory, then next to the executable's project); or, without `--model`, the built-in default.
pub fn load(arg: Option<&Path>) -> anyhow::Result<Model> {
    match arg {
        Some(p) => {
            let dir = resolve(p).with_context(|| format!("no model bundle at {} (expected a folder with victor.json and model.crfsuite, or a name under models/)", p.display()))?;
            Model::load(&dir).with_context(|| format!("cannot load model bundle {}", dir.display()))
        }
        None => builtin(),
    }
}

fn resolve(p: &Path) -> Option<PathBuf> {
    if p.join(victor_label::bundle::META_FILE).is_file() {
        return Some(p.to_path_buf());
    }
    let named = Path::new("models").join(p);
    if named.join(victor_label::bundle::META_FILE).is_file() {
        return Some(named);
    }
    None
}

#[cfg(victor_default_model)]
fn builtin() -> anyhow::Result<Model> {
    const META: &str = include_str!(env!("VICTOR_DEFAULT_META"));
    const MODEL: &[u8] = include_bytes!(env!("VICTOR_DEFAULT_MODEL"));
    Model::from_parts(META, MODEL, Path::new("<built-in models/default>"))
        .context("the built-in default model does not load")
}

#[cfg(not(victor_default_model))]
fn builtin() -> anyhow::Result<Model> {
    anyhow::bail!(
        "this victor was built without a default model (models/default was missing at build time); pass --model"
    )
}

/// The decoding asked for: `--viterbi`, `--expected-f1`, `--threshold T` (within 0 and 1), or
/// else the bundle's recommended decoding (Viterbi for a bundle without a threshold).
pub fn decoding(
    viterbi: bool,
    expected_f1: bool,
    threshold: Option<f64>,
    model: &Model,
) -> anyhow::Result<Decoding> {
    if viterbi {
        return Ok(Decoding::Viterbi);
    }
    if expected_f1 {
        return Ok(Decoding::ExpectedF1);
    }
    match threshold {
        Some(t) if (0.0..=1.0).contains(&t) => Ok(Decoding::Threshold(t)),
        Some(t) => anyhow::bail!("--threshold must be within 0 and 1, got {t}"),
        None => Ok(model.recommended_decoding()),
    }
}

/// A short name of a decoding, for tables, CSV and JSON (`viterbi`, `threshold 0.75`).
pub fn decoding_name(d: Decoding) -> String {
    match d {
        Decoding::Viterbi => "viterbi".to_string(),
        Decoding::ExpectedF1 => "expected-f1".to_string(),
        // Six decimals at most: bundles trained before the grid was exact hold values such as
        // 0.7000000000000001.
        Decoding::Threshold(t) => format!("threshold {}", (t * 1e6).round() / 1e6),
    }
}

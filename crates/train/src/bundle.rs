//! Writing model bundles: `model.crfsuite` + `victor.json`, into place atomically.

use std::path::Path;

use victor_label::bundle::{
    BUNDLE_FORMAT, BundleMeta, DataInfo, META_FILE, MODEL_FILE, SetInfo, ThresholdInfo,
    TrainingInfo,
};

use crate::crf::TrainOptions;
use crate::pipeline::{DataSummary, Setup, TrainError};

/// The description of a bundle trained with these settings on this data.
pub fn make_meta(
    setup: Setup<'_>,
    opts: &TrainOptions,
    data: &DataSummary,
    sets: Vec<SetInfo>,
    threshold: Option<ThresholdInfo>,
    notes: String,
) -> BundleMeta {
    BundleMeta {
        format: BUNDLE_FORMAT.to_string(),
        victor_version: env!("CARGO_PKG_VERSION").to_string(),
        feature_version: victor_features::FEATURE_VERSION.to_string(),
        labels: victor_annotations::Label::ALL
            .iter()
            .map(|l| l.as_str().to_string())
            .collect(),
        features: setup.extractor.config().clone(),
        template: setup.template.text().to_string(),
        training: TrainingInfo {
            algorithm: opts.algorithm.as_str().to_string(),
            c1: opts.c1,
            c2: opts.c2,
            max_iterations: opts.max_iterations,
            min_freq: opts.min_freq,
            attributes: 0,
            seconds: data.seconds,
        },
        data: DataInfo {
            sets,
            pages: data.pages,
            blocks: data.blocks,
            label_counts: data.label_counts,
            digest: data.digest.clone(),
        },
        threshold,
        notes,
    }
}

fn io(path: &Path) -> impl FnOnce(std::io::Error) -> TrainError + '_ {
    move |source| TrainError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// Writes a bundle folder: the model file (moved from `model_file`) and `victor.json`, built in
/// a temporary folder next to `dir` and renamed into place, so `dir` is never half-written.
pub fn write_bundle(dir: &Path, meta: &BundleMeta, model_file: &Path) -> Result<(), TrainError> {
    let parent = match dir.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => std::path::PathBuf::from("."),
    };
    std::fs::create_dir_all(&parent).map_err(io(&parent))?;
    let tmp = tempfile::Builder::new()
        .prefix(".victor-bundle-")
        .tempdir_in(&parent)
        .map_err(io(&parent))?;
    let json = serde_json::to_string_pretty(meta).map_err(|e| TrainError::Io {
        path: dir.join(META_FILE),
        source: std::io::Error::other(e),
    })?;
    std::fs::write(tmp.path().join(META_FILE), json + "\n").map_err(io(tmp.path()))?;
    std::fs::copy(model_file, tmp.path().join(MODEL_FILE)).map_err(io(model_file))?;
    let staged = tmp.keep();
    if dir.exists() {
        let old = parent.join(format!(".victor-old-{}", std::process::id()));
        std::fs::rename(dir, &old).map_err(io(dir))?;
        std::fs::rename(&staged, dir).map_err(io(dir))?;
        let _ = std::fs::remove_dir_all(&old);
    } else {
        std::fs::rename(&staged, dir).map_err(io(dir))?;
    }
    Ok(())
}

//! Writing model bundles: `model.crfsuite` + `victor.json`, into place atomically.
//!
//! `victor.json` is indented down to four levels and compact below ([`to_json`]): the feature
//! configuration stays readable and a boosted forest takes a line per tree, not a line per
//! number.

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
        boost: data.boost.clone(),
        notes,
    }
}

/// Nesting depth up to which `victor.json` is indented; deeper arrays and objects (a container's
/// tag list, a tree of the boosted forest) are written on one line.
const PRETTY_DEPTH: usize = 4;

/// `victor.json` text: indented like `serde_json::to_string_pretty` down to depth 4,
/// compact below, so that a forest of thousands of numbers takes a line per tree.
pub fn to_json(meta: &BundleMeta) -> Result<String, serde_json::Error> {
    let mut out = Vec::new();
    let mut ser = serde_json::Serializer::with_formatter(&mut out, Layout::default());
    serde::Serialize::serialize(meta, &mut ser)?;
    Ok(String::from_utf8_lossy(&out).into_owned())
}

/// The formatter of [`to_json`].
#[derive(Default)]
struct Layout {
    depth: usize,
    has_value: bool,
}

impl Layout {
    fn open<W: ?Sized + std::io::Write>(&mut self, w: &mut W, c: &[u8]) -> std::io::Result<()> {
        self.depth += 1;
        self.has_value = false;
        w.write_all(c)
    }

    fn close<W: ?Sized + std::io::Write>(&mut self, w: &mut W, c: &[u8]) -> std::io::Result<()> {
        let pretty = self.depth <= PRETTY_DEPTH;
        self.depth -= 1;
        if pretty && self.has_value {
            self.newline(w)?;
        }
        w.write_all(c)
    }

    fn newline<W: ?Sized + std::io::Write>(&self, w: &mut W) -> std::io::Result<()> {
        w.write_all(b"\n")?;
        for _ in 0..self.depth {
            w.write_all(b"  ")?;
        }
        Ok(())
    }

    fn item<W: ?Sized + std::io::Write>(&self, w: &mut W, first: bool) -> std::io::Result<()> {
        if !first {
            w.write_all(b",")?;
        }
        if self.depth <= PRETTY_DEPTH {
            self.newline(w)?;
        }
        Ok(())
    }
}

impl serde_json::ser::Formatter for Layout {
    fn begin_array<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.open(w, b"[")
    }
    fn end_array<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.close(w, b"]")
    }
    fn begin_array_value<W: ?Sized + std::io::Write>(
        &mut self,
        w: &mut W,
        first: bool,
    ) -> std::io::Result<()> {
        self.item(w, first)
    }
    fn end_array_value<W: ?Sized + std::io::Write>(&mut self, _: &mut W) -> std::io::Result<()> {
        self.has_value = true;
        Ok(())
    }
    fn begin_object<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.open(w, b"{")
    }
    fn end_object<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.close(w, b"}")
    }
    fn begin_object_key<W: ?Sized + std::io::Write>(
        &mut self,
        w: &mut W,
        first: bool,
    ) -> std::io::Result<()> {
        self.item(w, first)
    }
    fn begin_object_value<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        w.write_all(if self.depth <= PRETTY_DEPTH {
            b": "
        } else {
            b":"
        })
    }
    fn end_object_value<W: ?Sized + std::io::Write>(&mut self, _: &mut W) -> std::io::Result<()> {
        self.has_value = true;
        Ok(())
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
    let json = to_json(meta).map_err(|e| TrainError::Io {
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

#[cfg(test)]
mod tests {
    use super::*;
    use victor_label::boost::{BoostInfo, Forest, Tree};

    fn meta() -> BundleMeta {
        let tree = Tree {
            feature: vec![0, -1, -1],
            threshold: vec![0.5, 0.0, 0.0],
            left: vec![1, 0, 0],
            right: vec![2, 0, 0],
            value: vec![0.0, -1.25, 2.5],
        };
        BundleMeta {
            format: BUNDLE_FORMAT.into(),
            victor_version: "test".into(),
            feature_version: victor_features::FEATURE_VERSION.into(),
            labels: vec!["header".into(), "text".into(), "other".into()],
            features: victor_features::FeatureConfig::default(),
            template: victor_features::DEFAULT_TEMPLATE.into(),
            training: TrainingInfo::default(),
            data: DataInfo {
                sets: vec![SetInfo::default(), SetInfo::default()],
                ..DataInfo::default()
            },
            threshold: None,
            boost: Some(BoostInfo {
                weight: 0.5,
                trees: 2,
                max_depth: 1,
                learning_rate: 0.1,
                seconds: 0.0,
                forest: Forest {
                    columns: vec!["a".into(), "b".into()],
                    base: -0.3,
                    trees: vec![tree.clone(), tree],
                },
            }),
            notes: "x".into(),
        }
    }

    #[test]
    fn victor_json_reads_back_and_puts_a_tree_on_a_line() {
        let m = meta();
        let text = to_json(&m).expect("serializes");
        let back: BundleMeta = serde_json::from_str(&text).expect("parses");
        assert_eq!(back, m);
        // Top levels indented as before...
        assert!(
            text.starts_with("{\n  \"format\": \"victor-bundle-1\",\n"),
            "{text}"
        );
        assert!(
            text.contains("\n    \"forest\": {\n      \"columns\": "),
            "{text}"
        );
        // ...a tree whole on its line, key order kept.
        let tree_line = r#"        {"feature":[0,-1,-1],"threshold":[0.5,0.0,0.0],"left":[1,0,0],"right":[2,0,0],"value":[0.0,-1.25,2.5]}"#;
        assert_eq!(
            text.lines()
                .filter(|l| l.trim_end_matches(',') == tree_line)
                .count(),
            2,
            "{text}"
        );
        assert!(text.ends_with('}'));
    }
}

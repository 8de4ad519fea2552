//! Writing model bundles: `model.crfsuite` + `victor.json`, into place atomically.
//!
//! `victor.json` is indented down to four levels and compact below ([`to_json`]): the feature
//! configuration stays readable and a boosted forest takes a line per tree, not a line per
//! number.

use std::io::Write;
use std::path::{Path, PathBuf};

use victor_annotations::JsonLayout;
use victor_label::gate::BASE_DIR;
use victor_label::{
    BUNDLE_FORMAT, BundleImage, BundleMeta, DataInfo, DecodingRecommendation, META_FILE,
    MODEL_FILE, TrainingInfo, TrainingSet,
};

use crate::crf::TrainOptions;
use crate::pipeline::{DataSummary, Setup, TrainError};

/// The description of a bundle trained with these settings on this data.
pub fn make_meta(
    setup: Setup<'_>,
    opts: &TrainOptions,
    data: &DataSummary,
    sets: Vec<TrainingSet>,
    recommendation: Option<DecodingRecommendation>,
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
            c2: opts.penalty(),
            max_iterations: opts.max_iterations,
            min_freq: opts.min_freq,
            attributes: data.attributes,
            seconds: data.seconds,
            set_weights: opts.set_weights.clone(),
        },
        data: DataInfo {
            sets,
            pages: data.pages,
            blocks: data.blocks,
            label_counts: data.label_counts,
            digest: data.digest.clone(),
        },
        recommendation,
        boost: data.boost.clone(),
        notes: match &opts.adapt {
            // The lineage where people read first, besides `origin`. The pages adapted on come
            // first: after the base's description they would read as the base's.
            Some(a) => {
                let line = format!(
                    "Adapted on {} from {}.",
                    match data.pages {
                        1 => "1 page".to_string(),
                        n => format!("{n} pages"),
                    },
                    a.origin().describe()
                );
                if notes.is_empty() {
                    line
                } else {
                    format!("{notes} {line}")
                }
            }
            None => notes,
        },
        origin: opts.adapt.as_ref().map(|a| a.origin()),
        pages: Some(page_sample(opts, data)),
        gate: None,
    }
}

/// The page sample a bundle stores ([`crate::gate::sample_pages`]): its training pages'; an
/// adapted bundle's adds them to its base's, so that adapting it again tells new pages from
/// both.
fn page_sample(opts: &TrainOptions, data: &DataSummary) -> victor_label::gate::PageSample {
    let own = crate::gate::sample_pages(&data.profiles);
    let Some(base) = opts.adapt.as_ref().and_then(|a| a.base.sample.as_ref()) else {
        return own;
    };
    // Both decode: the base's was checked as it was loaded, and `own` was just made.
    let (Ok(mine), Ok(theirs)) = (own.profiles(), base.profiles()) else {
        return own;
    };
    let mut sets = base.sets.clone();
    sets.extend(own.sets);
    let all: Vec<_> = theirs.into_iter().chain(mine).collect();
    victor_label::gate::PageSample::new(sets, &all)
}

/// `victor.json` text: indented like `serde_json::to_string_pretty` down to depth 4,
/// compact below, so that a forest of thousands of numbers takes a line per tree.
pub(crate) fn to_json(meta: &BundleMeta) -> Result<String, serde_json::Error> {
    JsonLayout::BUNDLE.to_string(meta)
}

fn io(path: &Path) -> impl FnOnce(std::io::Error) -> TrainError + '_ {
    move |source| TrainError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// The file that `victor cv --keep-models` writes next to a fold's bundle: the ids of the pages
/// the fold was not trained on.
pub(crate) const HELD_OUT_FILE: &str = "held-out.txt";

/// The names a bundle folder may hold: a folder holding only these (with a `victor.json` of
/// format [`BUNDLE_FORMAT`]) is a bundle that [`write_bundle`] may replace.
pub(crate) const BUNDLE_FILES: &[&str] = &[META_FILE, MODEL_FILE, HELD_OUT_FILE];

/// What [`write_bundle_replacing`] may write into at the destination.
///
/// Whatever the choice, a bundle writer replaces only a bundle's own files (`BUNDLE_FILES`)
/// and never removes anything else: the choice says only whether a folder that holds other
/// things may receive a bundle's files beside them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Replace {
    /// Only into a new folder, an empty one or a victor bundle (the default): a folder holding
    /// anything else is refused with [`TrainError::NotABundle`].
    #[default]
    OnlyBundle,
    /// Into any folder (`--force`): the bundle's files replace files of the same names, and
    /// everything else in the folder stays as it is.
    Anything,
}

/// Checks that a bundle may be written at `dir`: it does not exist, or it is a folder (reached
/// through links too) that is empty or a victor bundle (a `victor.json` of format
/// [`BUNDLE_FORMAT`] and only `BUNDLE_FILES`); with [`Replace::Anything`], any folder. A file
/// is refused whatever `replace` says.
pub fn check_replaceable(dir: &Path, replace: Replace) -> Result<(), TrainError> {
    let refuse = |reason: String| TrainError::NotABundle {
        path: dir.to_path_buf(),
        reason,
    };
    if dir == Path::new(victor_features::file::STDOUT) {
        return Err(refuse(
            "`-` stands for standard output, and a bundle is a folder".into(),
        ));
    }
    let meta = match std::fs::metadata(dir) {
        Ok(m) => m,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return match std::fs::symlink_metadata(dir) {
                Ok(_) => Err(refuse("it is a symbolic link to nothing".into())),
                Err(_) => Ok(()),
            };
        }
        Err(e) => return Err(io(dir)(e)),
    };
    if meta.is_file() {
        return Err(TrainError::NotAFolder {
            path: dir.to_path_buf(),
        });
    }
    if !meta.is_dir() {
        let what = victor_features::file::kind_of(meta.file_type());
        return Err(refuse(format!("it is {what}, not a folder")));
    }
    if replace == Replace::Anything {
        return Ok(());
    }
    let mut foreign = Vec::new();
    let mut has_meta = false;
    for entry in std::fs::read_dir(dir).map_err(io(dir))? {
        let entry = entry.map_err(io(dir))?;
        let name = entry.file_name().to_string_lossy().into_owned();
        let is_file = entry.file_type().is_ok_and(|t| t.is_file());
        let is_dir = entry.file_type().is_ok_and(|t| t.is_dir());
        if is_file && BUNDLE_FILES.contains(&name.as_str()) {
            has_meta |= name == META_FILE;
        } else if is_dir && name == BASE_DIR && is_base_folder(&entry.path()) {
            // A gated bundle's base, a bundle folder itself.
        } else if is_dir {
            foreign.push(format!("{name}/"));
        } else {
            // A file of another name, or a link, a FIFO or a device of any name.
            foreign.push(name);
        }
    }
    if !foreign.is_empty() {
        foreign.sort();
        let more = foreign.len().saturating_sub(5);
        foreign.truncate(5);
        return Err(refuse(format!(
            "it holds what is not a victor bundle's ({}{})",
            foreign.join(", "),
            if more > 0 {
                format!(" and {more} more")
            } else {
                String::new()
            }
        )));
    }
    if !has_meta {
        // Only bundle file names and no victor.json: empty, or a model without its description.
        return match std::fs::read_dir(dir).map_err(io(dir))?.next() {
            None => Ok(()),
            Some(_) => Err(refuse(format!("it has no {META_FILE}"))),
        };
    }
    let path = dir.join(META_FILE);
    let text = std::fs::read_to_string(&path).map_err(io(&path))?;
    let format = serde_json::from_str::<serde_json::Value>(&text)
        .ok()
        .and_then(|v| v.get("format").and_then(|f| f.as_str()).map(str::to_owned));
    match format {
        Some(f) if f == BUNDLE_FORMAT => Ok(()),
        Some(f) => Err(refuse(format!(
            "its {META_FILE} is of format {f:?}, not {BUNDLE_FORMAT:?}"
        ))),
        None => Err(refuse(format!(
            "its {META_FILE} is not a victor bundle description"
        ))),
    }
}

/// Whether `path` is a real folder (not a link) holding a victor bundle and nothing else: a
/// gated bundle's `base/` that a bundle writer may replace.
fn is_base_folder(path: &Path) -> bool {
    std::fs::symlink_metadata(path).is_ok_and(|m| m.is_dir())
        && path.join(META_FILE).is_file()
        && check_replaceable(path, Replace::OnlyBundle).is_ok()
}

/// Writes a bundle's files (and its base's, in `base/`, as deep as they go) into the new
/// folder `dir`.
fn write_image(dir: &Path, image: &BundleImage) -> Result<(), TrainError> {
    std::fs::create_dir(dir).map_err(io(dir))?;
    std::fs::write(dir.join(META_FILE), &image.meta).map_err(io(dir))?;
    std::fs::write(dir.join(MODEL_FILE), &image.model).map_err(io(dir))?;
    if let Some(base) = &image.base {
        write_image(&dir.join(BASE_DIR), base)?;
    }
    Ok(())
}

/// `path` made absolute with its folder resolved (`.`, `..` and links in the folders above), so
/// that `--out .` names a folder that can be renamed. The folder above is created if missing.
fn absolute(path: &Path) -> Result<PathBuf, TrainError> {
    match path.file_name() {
        Some(name) => {
            let parent = match path.parent() {
                Some(p) if !p.as_os_str().is_empty() => p,
                _ => Path::new("."),
            };
            std::fs::create_dir_all(parent).map_err(io(parent))?;
            let parent = std::fs::canonicalize(parent).map_err(io(parent))?;
            Ok(parent.join(name))
        }
        None => std::fs::canonicalize(path).map_err(io(path)),
    }
}

// A temporary folder builder with the permissions any new folder gets, and the one writer rule.
use victor_features::file::{Output, temp_builder as builder};

/// Writes a bundle folder: the model file (copied from `model_file`) and `victor.json`.
/// Writes only into a new folder, an empty one or a victor bundle (see [`check_replaceable`]);
/// never half-written, and leaves no temporary file behind, also when it fails.
pub fn write_bundle(dir: &Path, meta: &BundleMeta, model_file: &Path) -> Result<(), TrainError> {
    write_bundle_replacing(dir, meta, model_file, None, Replace::OnlyBundle)
}

/// [`write_bundle`], into what `replace` allows; a gated bundle (`meta.gate`) with the bundle
/// it was adapted from, `base`, written whole as its folder `base/`.
///
/// A new folder is staged whole next to its place and renamed into it. In a folder that exists
/// each of the bundle's files is written by the one writer rule
/// ([`victor_features::file::write`]): staged and renamed over its name (a link's target in its
/// target's folder), the model before the description, once both are written, so a failure
/// before the renames leaves the old bundle as it was. Nothing but the bundle's own files (`BUNDLE_FILES`) is ever replaced or
/// removed: a `held-out.txt` of an earlier `cv --keep-models` is removed only from a folder
/// that was a bundle and nothing else.
pub fn write_bundle_replacing(
    dir: &Path,
    meta: &BundleMeta,
    model_file: &Path,
    base: Option<&BundleImage>,
    replace: Replace,
) -> Result<(), TrainError> {
    check_replaceable(dir, replace)?;
    let json = to_json(meta).map_err(|e| TrainError::Io {
        path: dir.join(META_FILE),
        source: std::io::Error::other(e),
    })? + "\n";
    if std::fs::symlink_metadata(dir).is_err() {
        let target = absolute(dir)?;
        let parent = target.parent().unwrap_or(Path::new("/")).to_path_buf();
        // Dropped (and removed, with what it holds) on every early return below.
        let tmp = builder(".victor-bundle-", 0o777)
            .tempdir_in(&parent)
            .map_err(io(&parent))?;
        std::fs::write(tmp.path().join(META_FILE), &json).map_err(io(tmp.path()))?;
        std::fs::copy(model_file, tmp.path().join(MODEL_FILE)).map_err(io(model_file))?;
        if let Some(base) = base {
            write_image(&tmp.path().join(BASE_DIR), base)?;
        }
        // Never renamed over what has appeared at the path meanwhile (a rename of a folder
        // replaces an empty folder).
        if std::fs::symlink_metadata(&target).is_ok() {
            return Err(TrainError::NotABundle {
                path: dir.to_path_buf(),
                reason: "it appeared while the bundle was being written".into(),
            });
        }
        std::fs::rename(tmp.path(), &target).map_err(io(dir))?;
        // The staged folder is now `dir`: nothing left to remove.
        let _ = tmp.keep();
        return Ok(());
    }
    let was_bundle = check_replaceable(dir, Replace::OnlyBundle).is_ok();
    // A `base/` that is there must be a bundle folder this writer made, whatever `replace`
    // says: anything else of that name (a link, a file, a folder of the user's) is refused,
    // never replaced.
    let old_base = dir.join(BASE_DIR);
    let has_base = std::fs::symlink_metadata(&old_base).is_ok();
    if has_base && (base.is_some() || was_bundle) && !is_base_folder(&old_base) {
        return Err(TrainError::NotABundle {
            path: dir.to_path_buf(),
            reason: format!(
                "its {BASE_DIR} is not a victor bundle folder, and a gated bundle keeps its base there"
            ),
        });
    }
    // The new base staged whole in the folder, swapped in before the model and description.
    let staged_base = match base {
        Some(b) => {
            let tmp = builder(".victor-base-", 0o777)
                .tempdir_in(dir)
                .map_err(io(dir))?;
            write_image(&tmp.path().join(BASE_DIR), b)?;
            Some(tmp)
        }
        None => None,
    };
    // Both files by the one writer rule (`victor_features::file::write`): staged in the folder
    // (a rename within a folder is atomic; a file that is a link, in its target's folder) and
    // dropped, and so removed, on every early return; a FIFO or a device (with --force) is
    // written as a stream. The model is committed before the description.
    let model_path = dir.join(MODEL_FILE);
    let meta_path = dir.join(META_FILE);
    let mut staged_meta = Output::create(&meta_path).map_err(io(&meta_path))?;
    staged_meta
        .write_all(json.as_bytes())
        .map_err(io(&meta_path))?;
    let mut staged_model = Output::create(&model_path).map_err(io(&model_path))?;
    let mut source = std::fs::File::open(model_file).map_err(io(model_file))?;
    std::io::copy(&mut source, &mut staged_model).map_err(io(model_file))?;
    if let Some(tmp) = &staged_base {
        if has_base {
            // The old base moved into the staging folder (removed with it), the new one in.
            std::fs::rename(&old_base, tmp.path().join("old")).map_err(io(&old_base))?;
        }
        std::fs::rename(tmp.path().join(BASE_DIR), &old_base).map_err(io(&old_base))?;
    }
    staged_model.commit().map_err(io(&model_path))?;
    staged_meta.commit().map_err(io(&meta_path))?;
    if staged_base.is_none() && has_base && was_bundle {
        // A gated bundle replaced by one without a gate: its base is this writer's.
        std::fs::remove_dir_all(&old_base).map_err(io(&old_base))?;
    }
    if was_bundle {
        let held_out = dir.join(HELD_OUT_FILE);
        match std::fs::remove_file(&held_out) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => return Err(io(&held_out)(e)),
            _ => {}
        }
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
                sets: vec![TrainingSet::default(), TrainingSet::default()],
                ..DataInfo::default()
            },
            recommendation: None,
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
            origin: None,
            pages: None,
            gate: None,
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

    #[test]
    fn a_failed_write_leaves_no_temporary_folder_and_the_old_bundle_in_place() {
        let tmp = tempfile::tempdir().expect("tempdir");
        let model = tmp.path().join("model");
        std::fs::write(&model, b"model").expect("write");
        let out = tmp.path().join("out");
        write_bundle(&out, &meta(), &model).expect("written");
        assert_eq!(check_replaceable(&out, Replace::OnlyBundle).ok(), Some(()));
        let err = write_bundle(&out, &meta(), &tmp.path().join("missing")).expect_err("no model");
        assert!(matches!(err, TrainError::Io { .. }), "{err}");
        assert!(out.join(META_FILE).is_file() && out.join(MODEL_FILE).is_file());
        let names: Vec<String> = std::fs::read_dir(tmp.path())
            .expect("read_dir")
            .filter_map(Result::ok)
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect();
        assert!(
            names.iter().all(|n| !n.starts_with(".victor-")),
            "{names:?}"
        );
        // A victor.json of another format is no bundle.
        std::fs::write(out.join(META_FILE), r#"{"format": "other"}"#).expect("write");
        let err = check_replaceable(&out, Replace::OnlyBundle).expect_err("other format");
        assert!(err.to_string().contains("format \"other\""), "{err}");
        assert_eq!(check_replaceable(&out, Replace::Anything).ok(), Some(()));
    }

    #[cfg(unix)]
    #[test]
    fn bundle_files_follow_the_writer_rule_and_a_path_that_is_no_folder_is_refused() {
        let tmp = tempfile::tempdir().expect("tempdir");
        let model = tmp.path().join("model");
        std::fs::write(&model, b"model").expect("write");
        let out = tmp.path().join("out");
        write_bundle(&out, &meta(), &model).expect("written");
        // A model file that is a link: refused as a bundle's file without Anything; with it,
        // the link's target is written and the link stays.
        let target = tmp.path().join("kept.crfsuite");
        std::fs::write(&target, b"old").expect("write");
        std::fs::remove_file(out.join(MODEL_FILE)).expect("rm");
        std::os::unix::fs::symlink(&target, out.join(MODEL_FILE)).expect("link");
        let err = write_bundle(&out, &meta(), &model).expect_err("a link is not a bundle file");
        assert!(err.to_string().contains(MODEL_FILE), "{err}");
        write_bundle_replacing(&out, &meta(), &model, None, Replace::Anything).expect("forced");
        assert_eq!(std::fs::read(&target).expect("read"), b"model");
        assert!(
            std::fs::symlink_metadata(out.join(MODEL_FILE))
                .expect("meta")
                .is_symlink()
        );
        // `-`, a FIFO and a device are no bundle folders, whatever `replace` says.
        let fifo = tmp.path().join("fifo");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        assert!(made.expect("mkfifo runs").success());
        for (path, says) in [
            (Path::new("-"), "standard output"),
            (fifo.as_path(), "a FIFO (named pipe), not a folder"),
            (Path::new("/dev/null"), "a character device, not a folder"),
        ] {
            let err = check_replaceable(path, Replace::Anything).expect_err("refused");
            assert!(err.to_string().contains(says), "{path:?}: {err}");
        }
    }
}

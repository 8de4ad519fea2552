//! Finding a model bundle: a folder, a name looked up on the search path, or one of the bundles
//! built into the library.
//!
//! A bare name (no `/`) is looked up, in order, as `$VICTOR_MODELS/NAME` ([`MODELS_ENV`]),
//! `./models/NAME`, `$XDG_DATA_HOME/victor/models/NAME` (`~/.local/share/victor/models/NAME`),
//! and among the bundles built into the library (the shipped `models/*`, embedded by `build.rs`
//! when the `builtin` feature is on), so that an installed `victor`, the Python package and any
//! program embedding the crate know them from any directory. A path (or a name that is a folder
//! with `victor.json` where the program runs) is used as it is. The `victor` command's
//! `--model`, `train --like`, and Python's `Cleaner("news")` all go through [`open`].

use std::path::{Path, PathBuf};

use victor_label::{BundleError, BundleImage, META_FILE, Model};

include!(concat!(env!("OUT_DIR"), "/built_in_models.rs"));

/// The environment variable naming a folder of model bundles searched first.
pub const MODELS_ENV: &str = "VICTOR_MODELS";

/// A model bundle that cannot be found or loaded.
#[derive(Debug, thiserror::Error)]
pub enum ModelError {
    /// No bundle by that name anywhere on the search path nor built in.
    #[error(
        "no model bundle named {name:?} (a folder with {META_FILE} and model.crfsuite); looked in {}",
        looked.join(", ")
    )]
    NotFound {
        /// The name asked for.
        name: String,
        /// Where it was looked for, in order.
        looked: Vec<String>,
    },
    /// A path (not a bare name) that holds no bundle.
    #[error("no model bundle at {} (expected a folder with {META_FILE} and model.crfsuite)", .0.display())]
    NotABundle(PathBuf),
    /// The bundle was found and does not load.
    #[error("cannot load model bundle {place}: {source}")]
    Load {
        /// The folder, or `<built-in models/NAME>`.
        place: String,
        /// Why.
        #[source]
        source: BundleError,
    },
    /// The library was built without the built-in bundles (feature `builtin`).
    #[error(
        "this victor was built without its default model (feature `builtin`, or models/default missing at build time); name a bundle folder"
    )]
    NoDefault,
}

/// The bundle `name_or_dir` names: a folder holding a bundle, or a bare name looked up as the
/// module docs say.
///
/// # Errors
///
/// [`ModelError`]: nothing found (naming every place looked in), or a bundle that does not load.
pub fn open(name_or_dir: &Path) -> Result<Model, ModelError> {
    if name_or_dir.join(META_FILE).is_file() {
        return load_dir(name_or_dir);
    }
    let Some(name) = bare_name(name_or_dir) else {
        return Err(ModelError::NotABundle(name_or_dir.to_path_buf()));
    };
    let places = search_path(name);
    if let Some(dir) = places.iter().find(|d| d.join(META_FILE).is_file()) {
        return load_dir(dir);
    }
    if let Some(model) = builtin(name) {
        return model;
    }
    let mut looked: Vec<String> = places.iter().map(|d| d.display().to_string()).collect();
    looked.push(format!(
        "the built-in bundles ({})",
        builtin_names().join(", ")
    ));
    Err(ModelError::NotFound {
        name: name.to_string(),
        looked,
    })
}

/// The two files of a bundle, as [`bundle_files`] finds them.
#[derive(Clone, Debug)]
pub struct BundleFiles {
    /// The text of its `victor.json`.
    pub meta: String,
    /// The bytes of its `model.crfsuite`.
    pub model: Vec<u8>,
    /// Where they were found: a folder, or `<built-in models/NAME>`.
    pub place: PathBuf,
    /// The bundle's name as [`Model::name`] gives it: the folder, or a built-in bundle's own
    /// name (`web` for `default`).
    pub name: String,
}

/// The two files of the bundle `name_or_dir` names, looked up as [`open`] looks.
///
/// # Errors
///
/// As [`open`] (a file that cannot be read, or a `victor.json` that is not UTF-8, is a
/// [`ModelError::Load`]).
pub fn bundle_files(name_or_dir: &Path) -> Result<BundleFiles, ModelError> {
    let from_dir = |dir: &Path| -> Result<BundleFiles, ModelError> {
        let load = |source| ModelError::Load {
            place: dir.display().to_string(),
            source,
        };
        let read = |file: &str| {
            let path = dir.join(file);
            std::fs::read(&path).map_err(|source| load(BundleError::Io { path, source }))
        };
        let (meta, model) = (read(META_FILE)?, read(victor_label::MODEL_FILE)?);
        let text = String::from_utf8(meta).map_err(|e| {
            load(BundleError::Inconsistent(format!(
                "{META_FILE} is not UTF-8 text: {e}"
            )))
        })?;
        Ok(BundleFiles {
            meta: text,
            model,
            place: dir.to_path_buf(),
            name: dir.display().to_string(),
        })
    };
    if name_or_dir.join(META_FILE).is_file() {
        return from_dir(name_or_dir);
    }
    let Some(name) = bare_name(name_or_dir) else {
        return Err(ModelError::NotABundle(name_or_dir.to_path_buf()));
    };
    if let Some(dir) = search_path(name)
        .iter()
        .find(|d| d.join(META_FILE).is_file())
    {
        return from_dir(dir);
    }
    let real = BUILT_IN_ALIASES
        .iter()
        .find(|&&(alias, _)| alias == name)
        .map_or(name, |&(_, real)| real);
    match BUILT_IN_BUNDLES.iter().find(|&&(n, _, _)| n == real) {
        Some(&(_, meta, bytes)) => Ok(BundleFiles {
            meta: meta.to_string(),
            model: bytes.to_vec(),
            place: PathBuf::from(format!("<built-in models/{real}>")),
            name: real.to_string(),
        }),
        // Not built in either: `open` says where it looked.
        None => open(name_or_dir).and(Err(ModelError::NotABundle(name_or_dir.to_path_buf()))),
    }
}

/// [`open`], and the bundle's [`digest`](victor_label::bundle_digest) (of the bytes it was
/// loaded from): what adapting a bundle records of its base. The model is named as [`open`]
/// names it (a built-in bundle by its own name, a folder by its path).
///
/// # Errors
///
/// As [`bundle_files`], or a bundle that does not load.
pub fn open_with_digest(name_or_dir: &Path) -> Result<(Model, String), ModelError> {
    let (m, image) = open_with_image(name_or_dir)?;
    Ok((m, image.digest()))
}

/// [`open`], and the bundle's files as they were read ([`BundleImage`], a gated bundle's base
/// too): what adapting keeps of the bundle it adapts. The model is named as [`open`] names it.
///
/// # Errors
///
/// As [`bundle_files`], or a bundle that does not load.
pub fn open_with_image(name_or_dir: &Path) -> Result<(Model, BundleImage), ModelError> {
    let f = bundle_files(name_or_dir)?;
    let load = |source| ModelError::Load {
        place: f.place.display().to_string(),
        source,
    };
    if f.place.join(META_FILE).is_file() {
        // A folder: a gated bundle loads with its base, and its image holds the base's files.
        let image = BundleImage::read(&f.place).map_err(load)?;
        let m = Model::load(&f.place).map_err(load)?;
        return Ok((m.with_name(f.name), image));
    }
    let m = Model::from_parts(&f.meta, &f.model, &f.place).map_err(load)?;
    let image = BundleImage {
        meta: f.meta,
        model: f.model,
        base: None,
    };
    Ok((m.with_name(f.name), image))
}

/// The built-in default bundle (`models/default`).
///
/// # Errors
///
/// [`ModelError::NoDefault`] when the library was built without it.
pub fn default_model() -> Result<Model, ModelError> {
    builtin("default").unwrap_or(Err(ModelError::NoDefault))
}

/// The names of the built-in bundles, aliases too (`default`), sorted.
pub fn builtin_names() -> Vec<&'static str> {
    let mut names: Vec<&str> = BUILT_IN_BUNDLES.iter().map(|&(n, _, _)| n).collect();
    names.extend(BUILT_IN_ALIASES.iter().map(|&(a, _)| a));
    names.sort_unstable();
    names
}

/// The built-in bundle called `name` (or an alias of one), loaded; `None` if there is none. The
/// model's [`Model::name`] is the bundle's own name (`web` for the alias `default`).
pub fn builtin(name: &str) -> Option<Result<Model, ModelError>> {
    let real = BUILT_IN_ALIASES
        .iter()
        .find(|&&(alias, _)| alias == name)
        .map_or(name, |&(_, real)| real);
    let &(_, meta, model) = BUILT_IN_BUNDLES.iter().find(|&&(n, _, _)| n == real)?;
    let origin = PathBuf::from(format!("<built-in models/{real}>"));
    Some(
        Model::from_parts(meta, model, &origin)
            .map(|m| m.with_name(real))
            .map_err(|source| ModelError::Load {
                place: origin.display().to_string(),
                source,
            }),
    )
}

fn load_dir(dir: &Path) -> Result<Model, ModelError> {
    Model::load(dir).map_err(|source| ModelError::Load {
        place: dir.display().to_string(),
        source,
    })
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
    search_dirs()
        .into_iter()
        .map(|d| d.dir.join(name))
        .collect()
}

/// A folder that [`open`] looks in for a bundle named by a bare name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchDir {
    /// How people name it: `$VICTOR_MODELS`, `./models`, `$XDG_DATA_HOME/victor/models` or
    /// `~/.local/share/victor/models`.
    pub label: &'static str,
    /// The folder (relative for `./models`: the working directory's).
    pub dir: PathBuf,
}

/// The folders a bare name is looked up in, in the order [`open`] looks (the built-in bundles
/// come after them): `$VICTOR_MODELS` when it is set, `./models`, and the user's data folder
/// when `$XDG_DATA_HOME` or `$HOME` names one.
pub fn search_dirs() -> Vec<SearchDir> {
    let mut out = Vec::new();
    if let Some(dir) = std::env::var_os(MODELS_ENV).filter(|d| !d.is_empty()) {
        out.push(SearchDir {
            label: "$VICTOR_MODELS",
            dir: PathBuf::from(dir),
        });
    }
    out.push(SearchDir {
        label: "./models",
        dir: PathBuf::from("models"),
    });
    let xdg = std::env::var_os("XDG_DATA_HOME")
        .filter(|d| !d.is_empty())
        .map(|d| ("$XDG_DATA_HOME/victor/models", PathBuf::from(d)));
    let home = || {
        std::env::var_os("HOME").filter(|d| !d.is_empty()).map(|h| {
            (
                "~/.local/share/victor/models",
                PathBuf::from(h).join(".local/share"),
            )
        })
    };
    if let Some((label, data)) = xdg.or_else(home) {
        out.push(SearchDir {
            label,
            dir: data.join("victor/models"),
        });
    }
    out
}

/// The bundles in folder `dir` as [`open`] finds them by name: the names of its folders that
/// hold a `victor.json`, sorted (none when `dir` is missing or cannot be listed).
pub fn bundles_in(dir: &Path) -> Vec<String> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut names: Vec<String> = entries
        .flatten()
        .filter(|e| e.path().join(META_FILE).is_file())
        .filter_map(|e| e.file_name().to_str().map(str::to_string))
        .collect();
    names.sort_unstable();
    names
}

/// The built-in bundle that the built-in name `alias` stands for (`default` -> `web`), or
/// `None` when `alias` is no alias.
pub fn builtin_alias(alias: &str) -> Option<&'static str> {
    BUILT_IN_ALIASES
        .iter()
        .find(|&&(a, _)| a == alias)
        .map(|&(_, real)| real)
}

#[cfg(all(test, feature = "builtin"))]
mod tests {
    use super::*;

    #[test]
    fn a_name_finds_the_built_in_bundle_and_the_default_is_web() {
        let names = builtin_names();
        for n in ["article", "corpus", "default", "general", "news", "web"] {
            assert!(names.contains(&n), "{n} not built in: {names:?}");
        }
        assert_eq!(builtin_alias("default"), Some("web"));
        assert_eq!(builtin_alias("web"), None);
        let web = builtin("web").expect("built in").expect("loads");
        let default = default_model().expect("loads");
        assert_eq!(default.meta.template, web.meta.template);
        assert_eq!((web.name(), default.name()), ("web", "web"));
        assert!(builtin("no-such-bundle").is_none());
    }

    #[test]
    fn a_folder_is_used_as_it_is_and_an_unknown_name_says_where_it_looked() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../models/news");
        let by_dir = open(&dir).expect("a bundle folder loads");
        let by_name = builtin("news").expect("built in").expect("loads");
        assert_eq!(by_dir.meta.template, by_name.meta.template);
        assert_eq!(by_dir.name(), dir.display().to_string());
        assert_eq!(by_name.name(), "news");
        match open(Path::new("no-such-bundle")) {
            Err(ModelError::NotFound { name, looked }) => {
                assert_eq!(name, "no-such-bundle");
                assert!(
                    looked.iter().any(|l| l.ends_with("models/no-such-bundle")),
                    "{looked:?}"
                );
                assert!(
                    looked.last().is_some_and(|l| l.contains("built-in")),
                    "{looked:?}"
                );
            }
            other => panic!("not NotFound: {other:?}"),
        }
        assert!(matches!(
            open(Path::new("/nonexistent/bundle")),
            Err(ModelError::NotABundle(_))
        ));
    }
}

/// `n` and the noun in the number the count asks for (`1 page`, `2 pages`).
fn count(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// The first sentence of a bundle's notes, as the catalog shows it.
fn first_sentence(notes: &str) -> &str {
    notes.split(". ").next().unwrap_or("").trim_end_matches('.')
}

/// The catalog `victor models` prints: every bundle [`open`] finds by name, place by place in
/// the order it looks (a name an earlier place holds too is marked as hidden by it), then the
/// bundles built in.
///
/// # Errors
///
/// [`crate::Error`]: a built-in bundle that does not load.
pub fn catalog() -> Result<String, crate::Error> {
    use std::fmt::Write;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "The bundles --model NAME finds, where it looks, in order (the first place holding NAME wins):"
    );
    // Each name with the place that first holds it.
    let mut seen: Vec<(String, &'static str)> = Vec::new();
    let mut line = |out: &mut String, name: &str, what: &str, place: &'static str| {
        let _ = match seen.iter().find(|(n, _)| n == name) {
            Some((_, first)) => writeln!(out, "  {name:<8} {what} (hidden by {first}/{name})"),
            None => {
                seen.push((name.to_string(), place));
                writeln!(out, "  {name:<8} {what}")
            }
        };
    };
    let dirs = search_dirs();
    if !dirs.iter().any(|d| d.label == "$VICTOR_MODELS") {
        let _ = writeln!(out, "$VICTOR_MODELS: not set");
    }
    for place in &dirs {
        let names = bundles_in(&place.dir);
        let shown = if place.label == "./models" {
            place.label.to_string()
        } else {
            format!("{} ({})", place.label, place.dir.display())
        };
        if names.is_empty() {
            let _ = writeln!(out, "{shown}: none");
            continue;
        }
        let _ = writeln!(out, "{shown}:");
        for name in names {
            let what = match victor_label::BundleMeta::read(&place.dir.join(&name)) {
                Ok(meta) => first_sentence(&meta.notes).to_string(),
                Err(e) => format!("(does not load: {e})"),
            };
            line(&mut out, &name, &what, place.label);
        }
    }
    let _ = writeln!(out, "built into victor:");
    for name in builtin_names() {
        let what = match builtin_alias(name) {
            Some(real) => format!("is {real}: the bundle victor uses without --model"),
            None => {
                let files = bundle_files(Path::new(name))?;
                first_sentence(&files.meta()?.notes).to_string()
            }
        };
        line(&mut out, name, &what, "built in");
    }
    let _ = writeln!(
        out,
        "(victor models NAME describes one; --model and --like also take a bundle folder)"
    );
    Ok(out)
}

impl BundleFiles {
    /// Its `victor.json`, parsed.
    ///
    /// # Errors
    ///
    /// [`BundleError::Meta`]: a `victor.json` that does not parse.
    pub fn meta(&self) -> Result<victor_label::BundleMeta, BundleError> {
        victor_label::BundleMeta::parse(&self.meta, &self.place)
    }

    /// What `victor models NAME` says of the bundle, asked for as `name`: where it was found,
    /// its digest, what it was trained on, how it decodes, its lineage when it was adapted, its
    /// gate, its profiles and its notes.
    ///
    /// # Errors
    ///
    /// As [`BundleFiles::meta`].
    pub fn describe(&self, name: &Path) -> Result<String, BundleError> {
        use std::fmt::Write;
        let meta = self.meta()?;
        let mut out = String::new();
        let _ = writeln!(out, "{}", name.display());
        let _ = writeln!(out, "  found:    {}", self.place.display());
        let _ = writeln!(
            out,
            "  digest:   {}",
            victor_label::bundle_digest(self.meta.as_bytes(), &self.model)
        );
        let sets: Vec<String> = meta.data.sets.iter().map(training_set).collect();
        let _ = writeln!(
            out,
            "  trained:  {}, {} blocks{}",
            count(meta.data.pages, "page", "pages"),
            meta.data.blocks,
            if sets.is_empty() {
                String::new()
            } else {
                format!(": {}", sets.join(", "))
            }
        );
        let _ = match &meta.recommendation {
            Some(r) => writeln!(
                out,
                "  decoding: {} (threshold {}; {})",
                match r.decoding {
                    victor_label::RecommendedDecoding::ExpectedF1 => "expected-f1",
                    victor_label::RecommendedDecoding::Threshold => "threshold",
                },
                r.value,
                r.method
            ),
            None => writeln!(out, "  decoding: viterbi"),
        };
        let mut origin = meta.origin.as_ref();
        let mut depth = 0;
        while let Some(o) = origin {
            let _ = writeln!(
                out,
                "  {} {} (sha256 {}, trained on {}), prior {}, {} added",
                if depth == 0 {
                    "adapted from:"
                } else {
                    "  which was adapted from:"
                },
                o.bundle,
                o.digest.get(..12).unwrap_or(&o.digest),
                count(o.base_pages, "page", "pages"),
                o.prior,
                count(o.trees, "tree", "trees")
            );
            origin = o.from.as_deref();
            depth += 1;
        }
        if let Some(g) = &meta.gate {
            let _ = writeln!(out, "  gate:     {}", g.describe());
        }
        if let Some(p) = &meta.pages {
            let _ = writeln!(
                out,
                "  profiles: {} (what an adapted bundle's gate is fitted against)",
                p.describe()
            );
        }
        if !meta.notes.is_empty() {
            let _ = writeln!(out, "  notes:    {}", meta.notes);
        }
        Ok(out)
    }
}

/// A training set as `trained:` shows it: its name, the pages trained on, and those left out
/// with why.
fn training_set(s: &victor_label::TrainingSet) -> String {
    let what = if s.source.is_empty() {
        &s.path
    } else {
        &s.source
    };
    let mut text = format!("{what} ({}", count(s.pages, "page", "pages"));
    if !s.left_out.is_empty() {
        let why: Vec<String> = s
            .left_out
            .iter()
            .map(|l| format!("{}: {}", l.id, l.reason))
            .collect();
        text.push_str(&format!(
            "; {} left out: {}",
            count(s.left_out.len(), "page", "pages"),
            why.join("; ")
        ));
    }
    text.push(')');
    text
}

//! Embeds the shipped model bundles (models/NAME: victor.json and model.crfsuite) into the
//! library when its `builtin` feature is on (the default), so that `victor::models` finds a
//! bundle by name (and the default model) from any directory: in the `victor` command, in the
//! Python package and in any program that embeds the crate. Without the feature nothing is
//! embedded and only bundle folders load.
//!
//! [`BUILT_IN`] lists the bundles to embed: add a name there to ship a new bundle. A listed
//! bundle that is missing at build time is left out with a warning; a bundle folder that is a
//! symbolic link to another listed one (models/default -> web) is embedded once and known
//! by both names. The files are included with `include_str!`/`include_bytes!` from where they
//! are, and cargo rebuilds when one of them changes.
//!
//! Writes `$OUT_DIR/built_in_models.rs`: `BUILT_IN_BUNDLES`, `(name, victor.json,
//! model.crfsuite)` for each embedded bundle, and `BUILT_IN_ALIASES`, `(alias, name)`.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// The bundles under models/ that are built into the binary, by folder name.
const BUILT_IN: &[&str] = &["default", "web", "article", "news", "corpus", "general"];

fn main() {
    let models = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../models");
    println!("cargo::rerun-if-changed={}", models.display());
    // Cargo tells a build script the features it is built with.
    let embed = std::env::var_os("CARGO_FEATURE_BUILTIN").is_some();
    let mut bundles: Vec<(String, PathBuf)> = Vec::new();
    let mut aliases: Vec<(String, String)> = Vec::new();
    let mut pending_aliases: Vec<(String, PathBuf)> = Vec::new();
    for name in BUILT_IN.iter().filter(|_| embed) {
        let dir = models.join(name);
        let meta = dir.join("victor.json");
        let model = dir.join("model.crfsuite");
        println!("cargo::rerun-if-changed={}", dir.display());
        println!("cargo::rerun-if-changed={}", meta.display());
        println!("cargo::rerun-if-changed={}", model.display());
        if !(meta.is_file() && model.is_file()) {
            println!(
                "cargo::warning=models/{name} is not a bundle (victor.json and model.crfsuite): not built in"
            );
            continue;
        }
        let real = std::fs::canonicalize(&dir).unwrap_or_else(|_| dir.clone());
        let is_link = std::fs::symlink_metadata(&dir).is_ok_and(|m| m.file_type().is_symlink());
        if is_link {
            pending_aliases.push(((*name).to_string(), real));
        } else {
            bundles.push(((*name).to_string(), real));
        }
    }
    for (alias, real) in pending_aliases {
        match bundles.iter().find(|(_, dir)| *dir == real) {
            Some((name, _)) => aliases.push((alias, name.clone())),
            // A link to a folder that is not built in under its own name: embed it as is.
            None => bundles.push((alias, real)),
        }
    }
    let mut out = String::from(
        "/// The bundles built into the binary: (name, victor.json, model.crfsuite).\n\
         pub(crate) static BUILT_IN_BUNDLES: &[(&str, &str, &[u8])] = &[\n",
    );
    for (name, dir) in &bundles {
        let _ = writeln!(
            out,
            "    ({name:?}, include_str!({:?}), include_bytes!({:?})),",
            dir.join("victor.json").display().to_string(),
            dir.join("model.crfsuite").display().to_string(),
        );
    }
    out.push_str(
        "];\n\n/// Other names of built-in bundles: (alias, name).\n\
         pub(crate) static BUILT_IN_ALIASES: &[(&str, &str)] = &[\n",
    );
    for (alias, name) in &aliases {
        let _ = writeln!(out, "    ({alias:?}, {name:?}),");
    }
    out.push_str("];\n");
    let Some(out_dir) = std::env::var_os("OUT_DIR") else {
        panic!("cargo sets OUT_DIR for build scripts");
    };
    let path = Path::new(&out_dir).join("built_in_models.rs");
    if let Err(e) = std::fs::write(&path, out) {
        panic!("cannot write {}: {e}", path.display());
    }
}

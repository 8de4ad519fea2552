//! Embeds the shipped default model (models/default) into the binary when it exists, so an
//! installed `victor` labels pages from any directory without `--model`.

use std::path::Path;

fn main() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../models/default");
    let model = dir.join("model.crfsuite");
    let meta = dir.join("victor.json");
    println!("cargo::rustc-check-cfg=cfg(victor_default_model)");
    println!("cargo::rerun-if-changed={}", model.display());
    println!("cargo::rerun-if-changed={}", meta.display());
    if model.is_file() && meta.is_file() {
        println!("cargo::rustc-cfg=victor_default_model");
        println!("cargo::rustc-env=VICTOR_DEFAULT_MODEL={}", model.display());
        println!("cargo::rustc-env=VICTOR_DEFAULT_META={}", meta.display());
    }
}

//! Helpers shared by the end-to-end tests of the `victor` binary (each test file includes this
//! module; not every file uses every helper).
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The built binary.
pub const VICTOR: &str = env!("CARGO_BIN_EXE_victor");

/// The workspace root.
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The hand-labelled example set, `annotations/examples`.
pub fn examples() -> PathBuf {
    root().join("annotations/examples")
}

/// Runs `victor ARGS`, whatever its exit status.
pub fn run(args: &[&str]) -> Output {
    Command::new(VICTOR)
        .args(args)
        .output()
        .expect("victor runs")
}

/// Runs `victor ARGS` and fails the test, with its output, unless it succeeds.
pub fn run_ok(args: &[&str]) -> Output {
    let out = run(args);
    assert!(
        out.status.success(),
        "victor {args:?} failed:\n{}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// A path as a command-line argument.
pub fn s(p: &Path) -> &str {
    p.to_str().expect("utf-8 path")
}

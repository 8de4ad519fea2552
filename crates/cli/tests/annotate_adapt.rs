//! `victor annotate --adapt`: the flags as the command line takes them. The loop itself is
//! tested in crates/annotator (tests/api.rs, tests/browser.rs).

mod common;

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};

use common::{VICTOR, examples, root, run, s};

fn stderr(o: &std::process::Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[test]
fn adapt_needs_a_model_and_at_least_one_page_between_adaptations() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let out = tmp.path().join("ann");
    let pages = examples().join("pages");
    let o = run(&[
        "annotate",
        s(&pages),
        "--out",
        s(&out),
        "--adapt",
        "--port",
        "0",
    ]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("--model"), "{}", stderr(&o));
    let model = root().join("models/web");
    let o = run(&[
        "annotate",
        s(&pages),
        "--out",
        s(&out),
        "--model",
        s(&model),
        "--adapt",
        "--adapt-every",
        "0",
        "--port",
        "0",
    ]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("--adapt-every"), "{}", stderr(&o));
    let o = run(&[
        "annotate",
        s(&pages),
        "--out",
        s(&out),
        "--model",
        s(&model),
        "--adapt-every",
        "3",
        "--port",
        "0",
    ]);
    assert!(!o.status.success(), "--adapt-every without --adapt");
    assert!(!out.exists(), "a refused command made its folder");
}

#[test]
fn adapt_starts_the_tool_and_says_how_often_it_adapts() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let out = tmp.path().join("ann");
    let mut child = Command::new(VICTOR)
        .args([
            "annotate",
            s(&examples().join("pages")),
            "--out",
            s(&out),
            "--model",
            "web",
            "--adapt",
            "--adapt-every",
            "2",
            "--port",
            "0",
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("victor starts");
    let mut line = String::new();
    let read = child
        .stdout
        .take()
        .map(|o| BufReader::new(o).read_line(&mut line));
    let _ = child.kill();
    let _ = child.wait();
    assert!(matches!(read, Some(Ok(n)) if n > 0), "no line: {read:?}");
    assert!(
        line.contains("5 pages") && line.contains("adapting the model every 2 saved pages"),
        "{line}"
    );
}

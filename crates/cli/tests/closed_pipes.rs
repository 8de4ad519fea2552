//! A closed pipe, for every command that writes (issue 67): standard output or standard error
//! is a pipe whose read end is closed before victor starts, so every write to it fails with
//! EPIPE, and no timing decides what the test sees.
//!
//! The rule (src/util/streams.rs): a closed standard output ends the run quietly with status
//! 141 (128 + SIGPIPE); a closed standard error never panics (status 101) and changes nothing
//! else; the files a run writes are whole or absent.

mod common;

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Command, Output, Stdio};

use common::{VICTOR, examples, s};

/// The exit status of a run whose standard output was closed.
const CLOSED: i32 = 141;

/// The write end of a pipe whose read end is already closed.
fn closed_pipe() -> Stdio {
    let (read, write) = std::io::pipe().expect("a pipe");
    drop(read);
    Stdio::from(write)
}

/// Which stream is the closed pipe.
#[derive(Clone, Copy, Debug)]
enum Closed {
    Stdout,
    Stderr,
}

/// Runs `victor ARGS` with `closed` a closed pipe and the other stream captured.
fn run(args: &[&str], closed: Closed) -> Output {
    let mut c = Command::new(VICTOR);
    c.args(args).stdin(Stdio::null());
    match closed {
        Closed::Stdout => c.stdout(closed_pipe()).stderr(Stdio::piped()),
        Closed::Stderr => c.stdout(Stdio::piped()).stderr(closed_pipe()),
    };
    c.output().expect("victor runs")
}

/// A closed standard output: status 141, and not a word of it on standard error (the
/// command's notes before it wrote its output may be there, no error).
fn ends_quietly(args: &[&str]) {
    let o = run(args, Closed::Stdout);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(
        o.status.code(),
        Some(CLOSED),
        "{args:?}: {:?} {err}",
        o.status
    );
    for word in ["error", "Broken pipe", "panicked", "failed"] {
        assert!(!err.contains(word), "{args:?}: {err}");
    }
}

/// A closed standard error: the run ends as it would have (`code`), with its standard output.
fn runs_on(args: &[&str], code: i32) -> String {
    let o = run(args, Closed::Stderr);
    let out = String::from_utf8_lossy(&o.stdout).into_owned();
    assert_eq!(
        o.status.code(),
        Some(code),
        "{args:?}: {:?} {out}",
        o.status
    );
    out
}

/// The files under `dir` whose names say they are temporary (a write left half done).
fn temporary_files(dir: &Path) -> Vec<String> {
    walkdir::WalkDir::new(dir)
        .min_depth(1)
        .into_iter()
        .filter_map(Result::ok)
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with(".victor") || n.starts_with(".tmp"))
        .collect()
}

fn page() -> String {
    s(&examples().join("pages/news-harbour-bridge.html")).to_string()
}

#[test]
fn help_and_version() {
    ends_quietly(&["--help"]);
    ends_quietly(&["label", "--help"]);
    assert!(runs_on(&["--version"], 0).starts_with("victor "));
}

#[test]
fn models() {
    ends_quietly(&["models"]);
    ends_quietly(&["models", "web"]);
    assert!(runs_on(&["models", "web"], 0).contains("found:"));
    assert!(runs_on(&["models"], 0).contains("built into victor:"));
}

#[test]
fn label() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let pages = examples().join("pages");
    ends_quietly(&["label", &page()]);
    let o = run(&["label", "-q", &page()], Closed::Stdout);
    assert!(
        o.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    ends_quietly(&["label", "--jobs", "2", "-q", s(&pages)]);
    ends_quietly(&["label", "--format", "jsonl", s(&pages)]);
    ends_quietly(&["label", "--format", "csv", s(&pages)]);
    // With --out, the batch runs whole over a closed standard error: every page written, and
    // its last word lost, not the run.
    let out = tmp.path().join("out");
    runs_on(&["label", s(&pages), "--out", s(&out)], 0);
    assert_eq!(std::fs::read_dir(&out).expect("out").count(), 5);
    assert!(temporary_files(&out).is_empty());
    // A failing page is reported (to nobody) and counted in the status.
    let bad = tmp.path().join("bad.html");
    std::fs::write(&bad, [0u8, 1, 2, 255].repeat(64)).expect("write");
    runs_on(&["label", &page(), s(&bad), "--out", s(&out)], 1);
}

/// A WARC file of one HTML response record.
fn warc(path: &Path) {
    let html = std::fs::read(examples().join("pages/news-harbour-bridge.html")).expect("page");
    let http = [
        &b"HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\n\r\n"[..],
        &html,
    ]
    .concat();
    let head = format!(
        "WARC/1.0\r\nWARC-Type: response\r\nWARC-Record-ID: <urn:uuid:1>\r\nWARC-Date: 2026-01-01T00:00:00Z\r\nWARC-Target-URI: http://example.org/a\r\nContent-Type: application/http; msgtype=response\r\nContent-Length: {}\r\n\r\n",
        http.len()
    );
    std::fs::write(path, [head.as_bytes(), &http, b"\r\n\r\n"].concat()).expect("write");
}

#[test]
fn label_warc() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let file = tmp.path().join("a.warc");
    warc(&file);
    ends_quietly(&["label", "--format", "jsonl-text", s(&file)]);
    let out = tmp.path().join("out");
    runs_on(&["label", s(&file), "--out", s(&out)], 0);
    assert!(out.join("a.txt").is_file());
    assert!(temporary_files(&out).is_empty());
}

#[test]
fn features() {
    ends_quietly(&["features", &page()]);
    ends_quietly(&["features", "--format", "csv", &page()]);
    assert!(runs_on(&["features", &page()], 0).contains("\"features\""));
}

#[test]
fn import() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let data = tmp.path().join("data");
    std::fs::create_dir_all(data.join("html")).expect("mkdir");
    std::fs::create_dir_all(data.join("gold")).expect("mkdir");
    std::fs::copy(page(), data.join("html/a.html")).expect("copy");
    std::fs::write(
        data.join("gold/a.txt"),
        "Harbour bridge to close for six weeks of repairs\n",
    )
    .expect("write");
    std::fs::write(
        data.join("manifest.jsonl"),
        "{\"id\":\"a\",\"html\":\"html/a.html\",\"gold\":\"gold/a.txt\",\"split\":\"test\"}\n",
    )
    .expect("write");
    // The report goes to a closed standard output after the set is written: the set is whole.
    let import = |set: &Path| -> Vec<String> {
        ["import", "--from", "text", "-q", s(&data), "--out", s(set)]
            .map(str::to_string)
            .to_vec()
    };
    let set = tmp.path().join("set");
    ends_quietly(&import(&set).iter().map(String::as_str).collect::<Vec<_>>());
    assert!(set.join("set.json").is_file() && set.join("labels/a.json").is_file());
    assert!(temporary_files(&set).is_empty());
    let set = tmp.path().join("set2");
    let out = runs_on(
        &import(&set).iter().map(String::as_str).collect::<Vec<_>>(),
        0,
    );
    assert!(out.contains("report:"), "{out}");
}

#[test]
fn annotations() {
    let ex = examples();
    ends_quietly(&["annotations", "stats", s(&ex)]);
    ends_quietly(&["annotations", "stats", "--format", "csv", s(&ex)]);
    assert!(runs_on(&["annotations", "stats", s(&ex)], 0).contains("header"));
}

#[test]
fn annotate() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let pages = examples().join("pages");
    let out = tmp.path().join("ann");
    // The one line that says where to point the browser has nobody to read it: the tool ends.
    ends_quietly(&["annotate", s(&pages), "--out", s(&out), "--port", "0"]);
    // A closed standard error: the tool serves, and says where on standard output.
    let mut child = Command::new(VICTOR)
        .args(["annotate", s(&pages), "--out", s(&out), "--port", "0"])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(closed_pipe())
        .spawn()
        .expect("victor runs");
    let mut line = String::new();
    let stdout = child.stdout.take().expect("stdout");
    BufReader::new(stdout).read_line(&mut line).expect("a line");
    let still_running = child.try_wait().expect("try_wait").is_none();
    let _ = child.kill();
    let _ = child.wait();
    assert!(line.contains("open http://"), "{line}");
    assert!(still_running, "the tool stopped: {line}");
}

#[test]
fn train() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let ex = examples();
    // `victor train SET --out M 2>&1 >/dev/null | true`: the bundle is written whole, both its
    // files, through the cross-validation's and the training's progress.
    for (k, closed) in [Closed::Stderr, Closed::Stdout].into_iter().enumerate() {
        let m = tmp.path().join(format!("m{k}"));
        let o = run(
            &["train", s(&ex), "--threshold-folds", "2", "--out", s(&m)],
            closed,
        );
        assert_eq!(o.status.code(), Some(0), "{closed:?}: {o:?}");
        assert!(m.join("victor.json").is_file() && m.join("model.crfsuite").is_file());
        assert!(temporary_files(tmp.path()).is_empty());
    }
    // The training data on a closed standard output: the run ends quietly.
    ends_quietly(&["train", s(&ex), "--export-crfsuite", "-"]);
}

#[test]
fn cv() {
    let ex = examples();
    let args = ["cv", s(&ex), "--folds", "2", "--max-iterations", "20"];
    ends_quietly(&args);
    assert!(runs_on(&args, 0).contains("2-fold cross-validation"));
}

#[test]
fn eval_and_sweep() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let ex = examples();
    ends_quietly(&["eval", s(&ex)]);
    assert!(runs_on(&["eval", s(&ex)], 0).contains("victor eval: model web"));
    // The table goes first: the CSV is not begun once its standard output is gone.
    let csv = tmp.path().join("sweep.csv");
    ends_quietly(&["sweep", s(&ex), "--csv", s(&csv)]);
    assert!(!csv.exists());
    assert!(runs_on(&["sweep", s(&ex), "--csv", s(&csv)], 0).contains("victor sweep: model web"));
    assert!(csv.is_file());
}

#[test]
fn bench() {
    let page = page();
    let args = ["bench", "--repeat", "1", &page];
    ends_quietly(&args);
    assert!(runs_on(&args, 0).contains("median s"));
}

//! Issue 60, items 2 and 3: a FIFO or a character device named on the command line is read as
//! a stream (one page, or a WARC stream as `-` is), as `victor label <(zcat page.html.gz)` and
//! `victor label /dev/stdin` need; a FIFO no program writes to is an empty input, not a hang;
//! and an empty input is reported as a failure (no silent empty output, no empty `--out` file).
#![cfg(unix)]

mod common;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use common::{VICTOR, examples, s};

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn page() -> PathBuf {
    examples().join("pages/forum-bike-chain.html")
}

fn mkfifo(p: &Path) {
    let made = Command::new("mkfifo").arg(p).status();
    assert!(made.expect("mkfifo runs").success());
}

/// Runs victor with `input` on its standard input, killed after `secs` seconds (`None` then).
fn run_timed(args: &[&str], input: Option<&[u8]>, secs: u64) -> Option<Output> {
    let mut child = Command::new(VICTOR)
        .args(args)
        .stdin(if input.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("victor runs");
    if let Some(bytes) = input {
        let mut w = child.stdin.take().expect("stdin");
        w.write_all(bytes).expect("write stdin");
    }
    let start = Instant::now();
    while start.elapsed() < Duration::from_secs(secs) {
        if child.try_wait().expect("try_wait").is_some() {
            return Some(child.wait_with_output().expect("output"));
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let _ = child.kill();
    let _ = child.wait();
    None
}

/// Writes `bytes` into the FIFO `fifo` from a thread, after `delay` (opening waits for victor).
fn feed(fifo: &Path, bytes: Vec<u8>, delay: Duration) -> std::thread::JoinHandle<()> {
    let fifo = fifo.to_path_buf();
    std::thread::spawn(move || {
        std::thread::sleep(delay);
        let mut f = std::fs::OpenOptions::new()
            .write(true)
            .open(&fifo)
            .expect("open the FIFO for writing");
        // victor may stop reading early (an error): a broken pipe is not this test's failure.
        let _ = f.write_all(&bytes);
    })
}

fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    enc.write_all(bytes).expect("gzip");
    enc.finish().expect("gzip")
}

#[test]
fn a_fifo_named_is_read_as_one_page_gzipped_or_not() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let want = run_timed(&["label", s(&page())], None, 60).expect("ends");
    assert!(want.status.success(), "{}", stderr(&want));
    let bytes = std::fs::read(page()).expect("page");
    // As `<(cat page.html)` and `<(zcat page.html.gz)` give it; the writer may come a little
    // after victor opens the FIFO.
    for (k, (body, delay)) in [(bytes.clone(), 0), (gzip(&bytes), 500)]
        .into_iter()
        .enumerate()
    {
        let fifo = tmp.path().join(format!("fifo-{k}"));
        mkfifo(&fifo);
        let writer = feed(&fifo, body, Duration::from_millis(delay));
        let o = run_timed(&["label", s(&fifo)], None, 60).expect("ends");
        writer.join().expect("writer");
        assert!(o.status.success(), "{}", stderr(&o));
        assert_eq!(stdout(&o), stdout(&want));
    }
}

#[test]
fn dev_stdin_is_read_as_the_page_on_standard_input() {
    let bytes = std::fs::read(page()).expect("page");
    let want = run_timed(&["label", "-"], Some(&bytes), 60).expect("ends");
    assert!(want.status.success(), "{}", stderr(&want));
    let o = run_timed(&["label", "/dev/stdin"], Some(&bytes), 60).expect("ends");
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o), stdout(&want));
    assert!(!stdout(&o).is_empty());
}

/// One WARC response record holding `html`.
fn warc_record(uri: &str, html: &[u8]) -> Vec<u8> {
    let mut http = format!(
        "HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: {}\r\n\r\n",
        html.len()
    )
    .into_bytes();
    http.extend_from_slice(html);
    let mut rec = format!(
        "WARC/1.0\r\nWARC-Type: response\r\nWARC-Record-ID: <urn:uuid:{uri}>\r\nWARC-Target-URI: {uri}\r\nWARC-Date: 2024-01-01T00:00:00Z\r\nContent-Type: application/http; msgtype=response\r\nContent-Length: {}\r\n\r\n",
        http.len()
    )
    .into_bytes();
    rec.extend_from_slice(&http);
    rec.extend_from_slice(b"\r\n\r\n");
    rec
}

#[test]
fn a_fifo_holding_a_warc_stream_is_read_as_one() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let html = std::fs::read(page()).expect("page");
    let mut warc = warc_record("http://example.com/a", &html);
    warc.extend(warc_record("http://example.com/b", &html));
    let fifo = tmp.path().join("crawl");
    mkfifo(&fifo);
    let writer = feed(&fifo, gzip(&warc), Duration::ZERO);
    let o = run_timed(&["label", "--format", "jsonl-text", s(&fifo)], None, 60).expect("ends");
    writer.join().expect("writer");
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert_eq!(out.lines().count(), 2, "{out}");
    assert!(out.contains("http://example.com/b"), "{out}");
}

#[test]
fn a_fifo_without_a_writer_is_an_empty_input_reported_not_a_hang() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let fifo = tmp.path().join("nobody.html");
    mkfifo(&fifo);
    let start = Instant::now();
    let o = run_timed(&["label", s(&fifo)], None, 10).expect("no hang (10 s)");
    assert!(start.elapsed() < Duration::from_secs(10));
    assert!(!o.status.success());
    let err = stderr(&o);
    assert!(err.contains("empty input") && err.contains("FIFO"), "{err}");
    assert!(err.contains("1 of 1 pages failed"), "{err}");
}

#[test]
fn an_empty_page_is_a_reported_failure_and_writes_no_file() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let empty = tmp.path().join("empty.html");
    std::fs::write(&empty, b"").expect("write");
    let blank = tmp.path().join("blank.html");
    std::fs::write(&blank, b" \n\t\n").expect("write");
    let o = run_timed(&["label", s(&empty)], None, 60).expect("ends");
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains("empty input (0 bytes)"),
        "{}",
        stderr(&o)
    );
    // With others: the good page is labelled, the empty ones are counted in the summary.
    let out = tmp.path().join("out");
    let o = run_timed(
        &["label", s(&page()), s(&empty), s(&blank), "--out", s(&out)],
        None,
        60,
    )
    .expect("ends");
    assert!(!o.status.success());
    let err = stderr(&o);
    assert!(err.contains("2 of 3 pages failed"), "{err}");
    assert!(err.contains("white space only"), "{err}");
    assert!(out.join("forum-bike-chain.txt").is_file());
    assert!(!out.join("empty.txt").exists() && !out.join("blank.txt").exists());
    // An empty standard input, and an empty gzip file, too.
    let o = run_timed(&["label", "-"], Some(b""), 60).expect("ends");
    assert!(!o.status.success());
    assert!(stderr(&o).contains("empty input"), "{}", stderr(&o));
    let gz = tmp.path().join("e.html.gz");
    std::fs::write(&gz, gzip(b"")).expect("write");
    let o = run_timed(&["label", s(&gz)], None, 60).expect("ends");
    assert!(
        stderr(&o).contains("empty input (0 bytes)"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn undeclared_utf16_without_a_mark_is_labelled_not_refused_as_binary() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let utf8 = examples().join("pages/news-harbour-bridge.html");
    let text = std::fs::read_to_string(&utf8).expect("a UTF-8 page");
    let want = run_timed(&["label", s(&utf8)], None, 60).expect("ends");
    for (name, bytes) in [
        (
            "le.html",
            text.encode_utf16()
                .flat_map(u16::to_le_bytes)
                .collect::<Vec<u8>>(),
        ),
        (
            "be.html",
            text.encode_utf16().flat_map(u16::to_be_bytes).collect(),
        ),
    ] {
        let p = tmp.path().join(name);
        std::fs::write(&p, bytes).expect("write");
        let o = run_timed(&["label", s(&p)], None, 60).expect("ends");
        assert!(o.status.success(), "{name}: {}", stderr(&o));
        assert_eq!(stdout(&o), stdout(&want), "{name}");
    }
}

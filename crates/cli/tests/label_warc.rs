//! `victor label` over WARC files built here from the example pages (gzip members, one a
//! record, and plain): one JSON line per HTML response with the record's fields and the same
//! text as the page labelled from its file, the HTTP charset used, non-HTML and other records
//! skipped, a broken record reported with its offset while the file goes on, `--out` one file
//! per WARC, and standard input with `--input warc`.

mod common;

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};

use common::{VICTOR, examples, run, run_ok, s};

fn record(kind: &str, uri: &str, block: &[u8]) -> Vec<u8> {
    let mut r = format!(
        "WARC/1.0\r\nWARC-Type: {kind}\r\nWARC-Record-ID: <urn:uuid:{uri}>\r\nWARC-Date: 2026-01-01T00:00:00Z\r\nWARC-Target-URI: {uri}\r\nContent-Type: application/http; msgtype=response\r\nContent-Length: {}\r\n\r\n",
        block.len()
    )
    .into_bytes();
    r.extend_from_slice(block);
    r.extend_from_slice(b"\r\n\r\n");
    r
}

fn response(uri: &str, content_type: &str, body: &[u8]) -> Vec<u8> {
    let mut http = format!("HTTP/1.1 200 OK\r\nContent-Type: {content_type}\r\n\r\n").into_bytes();
    http.extend_from_slice(body);
    record("response", uri, &http)
}

fn gz(bytes: &[u8]) -> Vec<u8> {
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    e.write_all(bytes).expect("gzip");
    e.finish().expect("gzip")
}

fn pages() -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(examples().join("pages"))
        .expect("examples")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "html"))
        .collect();
    v.sort();
    v.truncate(6);
    v
}

/// The text `victor label --format jsonl-text` gives a page file.
fn text_of_file(p: &std::path::Path) -> String {
    let out = run_ok(&["label", "-q", "--format", "jsonl-text", s(p)]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    v["text"].as_str().expect("text").to_string()
}

const CYRILLIC: &[u8] = b"<html><head><title>t</title></head><body><article><h1>\xcd\xee\xe2\xee\xf1\xf2\xe8</h1><p>\xcf\xf0\xe8\xe2\xe5\xf2 \xec\xe8\xf0, \xfd\xf2\xee \xe4\xee\xeb\xe3\xe8\xe9 \xf2\xe5\xea\xf1\xf2 \xf1\xf2\xe0\xf2\xfc\xe8 \xe4\xeb\xff \xef\xf0\xee\xe2\xe5\xf0\xea\xe8, \xf7\xf2\xee \xea\xee\xe4\xe8\xf0\xee\xe2\xea\xe0 \xe8\xe7 \xe7\xe0\xe3\xee\xeb\xee\xe2\xea\xe0 HTTP \xe8\xf1\xef\xee\xeb\xfc\xe7\xf3\xe5\xf2\xf1\xff \xef\xf0\xe0\xe2\xe8\xeb\xfc\xed\xee \xe8 \xf2\xe5\xea\xf1\xf2 \xf7\xe8\xf2\xe0\xe5\xf2\xf1\xff.</p></article></body></html>";

#[test]
fn a_gzipped_warc_gives_one_line_per_html_response() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let pages = pages();
    let mut warc = gz(&record("warcinfo", "", b"software: test\r\n"));
    for (i, p) in pages.iter().enumerate() {
        let body = std::fs::read(p).expect("page");
        warc.extend(gz(&response(
            &format!("http://example.org/{i}"),
            "text/html",
            &body,
        )));
        if i == 2 {
            warc.extend(gz(&response(
                "http://example.org/img",
                "image/png",
                b"\x89PNG....",
            )));
            warc.extend(gz(
                b"WARC/1.0\r\nWARC-Type: response\r\nthis is no header\r\n\r\n",
            ));
        }
    }
    warc.extend(gz(&response(
        "http://example.org/ru",
        "text/html; charset=windows-1251",
        CYRILLIC,
    )));
    let file = tmp.path().join("crawl.warc.gz");
    std::fs::write(&file, &warc).expect("write");
    let out = run(&["label", "--format", "jsonl-text", s(&file)]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    // The broken record makes the run fail, after every other record was labelled.
    assert!(!out.status.success());
    assert!(stderr.contains("broken record at byte"), "{stderr}");
    assert!(
        stderr.contains("1 non-HTML responses, 1 other records; 1 broken records"),
        "{stderr}"
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    // The record's fields around the page's, the keys in order: the record's date last, named
    // apart from the page's publication date, `date` (issue 67).
    for line in stdout.lines() {
        assert!(line.starts_with("{\"WARC-Record-ID\":"), "{line}");
        assert!(
            line.ends_with(",\"warc_date\":\"2026-01-01T00:00:00Z\"}"),
            "{line}"
        );
    }
    let lines: Vec<serde_json::Value> = stdout
        .lines()
        .map(|l| serde_json::from_str(l).expect("json line"))
        .collect();
    assert_eq!(lines.len(), pages.len() + 1);
    for (i, p) in pages.iter().enumerate() {
        let l = &lines[i];
        assert_eq!(l["WARC-Target-URI"], format!("http://example.org/{i}"));
        assert_eq!(
            l["WARC-Record-ID"],
            format!("<urn:uuid:http://example.org/{i}>")
        );
        assert_eq!(l["warc_date"], "2026-01-01T00:00:00Z");
        assert!(l.get("WARC-Date").is_none(), "{l}");
        assert_eq!(
            l["text"].as_str(),
            Some(text_of_file(p).as_str()),
            "{}",
            p.display()
        );
        // The page's metadata and confidence (issue 51).
        for key in ["author", "canonical", "date", "sitename", "title"] {
            assert!(l.get(key).is_some(), "{key}");
        }
        let c = l["confidence"].as_f64().expect("confidence");
        assert!((0.0..=1.0).contains(&c), "{c}");
    }
    let ru = lines[pages.len()]["text"].as_str().expect("text");
    assert!(ru.contains("Привет мир"), "{ru}");
}

#[test]
fn out_writes_one_file_per_warc_and_stdin_reads_a_plain_warc() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let pages = pages();
    let mut plain = Vec::new();
    for (i, p) in pages.iter().enumerate() {
        let body = std::fs::read(p).expect("page");
        plain.extend(response(
            &format!("http://example.org/{i}"),
            "text/html",
            &body,
        ));
    }
    let a = tmp.path().join("a.warc");
    let b = tmp.path().join("b.warc.gz");
    std::fs::write(&a, &plain).expect("write");
    std::fs::write(&b, gz(&plain)).expect("write");
    let dir = tmp.path().join("out");
    run_ok(&[
        "label",
        "-q",
        "--format",
        "jsonl-text",
        "--out",
        s(&dir),
        s(&a),
        s(&b),
    ]);
    let ja = std::fs::read_to_string(dir.join("a.jsonl")).expect("a.jsonl");
    let jb = std::fs::read_to_string(dir.join("b.jsonl")).expect("b.jsonl");
    assert_eq!(ja.lines().count(), pages.len());
    assert_eq!(ja, jb);

    let mut child = Command::new(VICTOR)
        .args([
            "label",
            "-q",
            "--input",
            "warc",
            "--format",
            "jsonl-text",
            "-",
        ])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("victor runs");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(&plain)
        .expect("write");
    let out = child.wait_with_output().expect("victor ends");
    assert!(out.status.success());
    assert_eq!(String::from_utf8_lossy(&out.stdout), ja);
}

/// `victor label ARGS` with `input` on standard input.
fn run_stdin(args: &[&str], input: &[u8]) -> std::process::Output {
    let mut child = Command::new(VICTOR)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("victor runs");
    let mut stdin = child.stdin.take().expect("stdin");
    // Written on a thread: victor may stop reading (a refusal) before the end.
    let input = input.to_vec();
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let out = child.wait_with_output().expect("victor ends");
    writer.join().expect("writer");
    out
}

/// The example pages as one plain WARC file of HTML responses.
fn plain_warc(pages: &[PathBuf]) -> Vec<u8> {
    let mut plain = Vec::new();
    for (i, p) in pages.iter().enumerate() {
        let body = std::fs::read(p).expect("page");
        plain.extend(response(
            &format!("http://example.org/{i}"),
            "text/html",
            &body,
        ));
    }
    plain
}

#[test]
fn folders_are_walked_for_warc_files() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let pages = pages();
    let plain = plain_warc(&pages);
    let dir = tmp.path().join("warcdir");
    std::fs::create_dir_all(dir.join("sub")).expect("mkdir");
    std::fs::write(dir.join("a.warc"), &plain).expect("write");
    std::fs::write(dir.join("sub/b.warc.gz"), gz(&plain)).expect("write");
    std::fs::write(dir.join("notes.txt"), "not a WARC file").expect("write");
    let one = run_ok(&[
        "label",
        "-q",
        "--format",
        "jsonl-text",
        s(&dir.join("a.warc")),
    ]);
    let want = String::from_utf8_lossy(&one.stdout).repeat(2);
    assert_eq!(want.lines().count(), 2 * pages.len());
    // Auto input: the folder's WARC files are read as WARC; --input warc: the same.
    for input in ["auto", "warc"] {
        let out = run(&["label", "--input", input, "--format", "jsonl-text", s(&dir)]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{input}: {stderr}");
        assert_eq!(String::from_utf8_lossy(&out.stdout), want, "{input}");
        assert!(stderr.contains("1 not named as a WARC file"), "{stderr}");
    }
    // --out mirrors the folder: out/a.jsonl and out/sub/b.jsonl.
    let out = tmp.path().join("out");
    run_ok(&[
        "label",
        "-q",
        "--format",
        "jsonl-text",
        "--out",
        s(&out),
        s(&dir),
    ]);
    let a = std::fs::read_to_string(out.join("a.jsonl")).expect("a.jsonl");
    let b = std::fs::read_to_string(out.join("sub/b.jsonl")).expect("sub/b.jsonl");
    assert_eq!(a, b);
    assert_eq!(a.lines().count(), pages.len());
    // A folder holding WARC files and pages: refused with auto input, each kind on request.
    std::fs::copy(&pages[0], dir.join("page.html")).expect("copy");
    let out = run(&["label", "-q", "--format", "jsonl-text", s(&dir)]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(
        stderr.contains("holds both WARC files and pages"),
        "{stderr}"
    );
    let warcs = run_ok(&[
        "label",
        "-q",
        "--input",
        "warc",
        "--format",
        "jsonl-text",
        s(&dir),
    ]);
    assert_eq!(String::from_utf8_lossy(&warcs.stdout), want);
    let html = run_ok(&[
        "label",
        "-q",
        "--input",
        "html",
        "--format",
        "jsonl-text",
        s(&dir),
    ]);
    assert_eq!(String::from_utf8_lossy(&html.stdout).lines().count(), 1);
    // A folder without WARC files, read as WARC: says so.
    let empty = tmp.path().join("empty");
    std::fs::create_dir_all(&empty).expect("mkdir");
    std::fs::write(empty.join("x.txt"), "x").expect("write");
    let out = run(&["label", "--input", "warc", s(&empty)]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(stderr.contains("no WARC files to label"), "{stderr}");
}

#[test]
fn a_warc_stream_on_standard_input_is_read_as_warc() {
    let pages = pages();
    let plain = plain_warc(&pages);
    let tmp = tempfile::tempdir().expect("tempdir");
    let file = tmp.path().join("x.warc");
    std::fs::write(&file, &plain).expect("write");
    let want = run_ok(&["label", "-q", "--format", "jsonl-text", s(&file)]).stdout;
    assert_eq!(String::from_utf8_lossy(&want).lines().count(), pages.len());
    for (kind, bytes) in [("plain", plain.clone()), ("gzipped", gz(&plain))] {
        let out = run_stdin(&["label", "--format", "jsonl-text", "-"], &bytes);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{kind}: {stderr}");
        assert_eq!(out.stdout, want, "{kind}");
        assert!(
            stderr.contains(&format!("{} pages labelled", pages.len())),
            "{stderr}"
        );
    }
    // A page on standard input is still a page (its first bytes read to tell are not lost).
    let page = std::fs::read(&pages[0]).expect("page");
    let from_file = run_ok(&["label", "-q", s(&pages[0])]).stdout;
    for bytes in [page.clone(), gz(&page)] {
        let out = run_stdin(&["label", "-q", "-"], &bytes);
        assert!(out.status.success());
        assert_eq!(out.stdout, from_file);
    }
    // With pages beside it, a WARC stream is refused with the hint.
    let out = run_stdin(&["label", "-q", s(&pages[0]), "-"], &gz(&plain));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(stderr.contains("--input warc"), "{stderr}");
    assert!(out.stdout.is_empty());
}

#[test]
fn a_content_length_too_large_is_one_broken_record_and_the_rest_is_read() {
    let pages = pages();
    let tmp = tempfile::tempdir().expect("tempdir");
    let mut warc = Vec::new();
    let mut third = 0;
    for (i, p) in pages.iter().take(5).enumerate() {
        let mut r = response(
            &format!("http://example.org/{i}"),
            "text/html",
            &std::fs::read(p).expect("page"),
        );
        if i == 2 {
            // Its Content-Length one digit longer: ten times too large, past the end.
            third = warc.len();
            let at = memchr_find(&r, b"Content-Length: ").expect("Content-Length") + 16;
            r.insert(at, b'9');
        }
        warc.extend(r);
    }
    let file = tmp.path().join("x.warc.gz");
    std::fs::write(&file, gz(&warc)).expect("write");
    let out = run(&["label", "--format", "jsonl-text", s(&file)]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "a broken record fails the run");
    let uris: Vec<String> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).expect("json");
            v["WARC-Target-URI"].as_str().expect("uri").to_string()
        })
        .collect();
    assert_eq!(
        uris,
        [0, 1, 3, 4].map(|i| format!("http://example.org/{i}")),
        "{stderr}"
    );
    assert!(
        stderr.contains(&format!("broken record at byte {third}: Content-Length")),
        "{stderr}"
    );
    assert!(
        stderr.contains("bytes skipped, reading goes on at byte"),
        "{stderr}"
    );
    assert!(stderr.contains("4 pages labelled, 0 failed"), "{stderr}");
    assert!(stderr.contains("; 1 broken records"), "{stderr}");
}

#[test]
fn a_chunked_body_without_its_header_is_dechunked() {
    let page = std::fs::read(&pages()[0]).expect("page");
    let mut body = Vec::new();
    for c in page.chunks(1000) {
        body.extend_from_slice(format!("{:x}\r\n", c.len()).as_bytes());
        body.extend_from_slice(c);
        body.extend_from_slice(b"\r\n");
    }
    body.extend_from_slice(b"0\r\n\r\n");
    let tmp = tempfile::tempdir().expect("tempdir");
    let file = tmp.path().join("x.warc");
    std::fs::write(&file, response("http://a/", "text/html", &body)).expect("write");
    let out = run_ok(&["label", "-q", "--format", "jsonl-text", s(&file)]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(v["text"].as_str(), Some(text_of_file(&pages()[0]).as_str()));
    assert!(!v["text"].as_str().unwrap_or("").contains("3e8"));
}

fn memchr_find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

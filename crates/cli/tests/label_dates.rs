//! Publication dates in `victor label`'s JSON lines (issue 62): `date_source` beside `date`, a
//! WARC record's `WARC-Date` bounding the date and its target URI giving one, and a page file
//! whose modification time refuses no date.

mod common;

use common::{run_ok, s};

/// The JSON lines of `victor label ARGS`.
fn lines(args: &[&str]) -> Vec<serde_json::Value> {
    let out = run_ok(args);
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect()
}

fn record(uri: &str, date: &str, html: &str) -> Vec<u8> {
    let http = format!("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n{html}");
    let mut r = format!(
        "WARC/1.0\r\nWARC-Type: response\r\nWARC-Record-ID: <urn:uuid:{uri}>\r\nWARC-Date: {date}\r\nWARC-Target-URI: {uri}\r\nContent-Type: application/http; msgtype=response\r\nContent-Length: {}\r\n\r\n",
        http.len()
    )
    .into_bytes();
    r.extend_from_slice(http.as_bytes());
    r.extend_from_slice(b"\r\n\r\n");
    r
}

const STORY: &str = "<p>The council voted on Tuesday to close the harbour bridge for six weeks of \
    repairs, and commuters face long detours from March.</p><p>Engineers will replace the \
    bridge's worn steel bearings, the council said.</p>";

#[test]
fn a_warc_records_date_bounds_the_page_date_and_its_uri_gives_one() {
    let tmp = tempfile::tempdir().expect("tempdir");
    // Shown by the headline: a date after the crawl (an event announced), never the page's.
    let later = format!(
        r#"<html><head><meta property="article:published_time" content="2019-12-30T08:00:00Z">
        </head><body><h1>Bridge to close</h1><time datetime="2020-05-05">May 5, 2020</time>
        {STORY}</body></html>"#
    );
    // Nothing declared or shown: the date in the address it was fetched from.
    let bare = format!("<html><body><h1>Bridge to close</h1>{STORY}</body></html>");
    let mut warc = record("http://example.org/a", "2020-01-02T10:00:00Z", &later);
    warc.extend(record(
        "http://example.org/2019/11/05/bridge",
        "2020-01-02T10:00:00Z",
        &bare,
    ));
    let file = tmp.path().join("crawl.warc");
    std::fs::write(&file, &warc).expect("write");
    let l = lines(&["label", "-q", "--format", "jsonl-text", s(&file)]);
    assert_eq!(l.len(), 2);
    // Two dates named apart (issue 67): the record's, `warc_date`, and the page's publication
    // date, `date` as in every JSON line.
    assert_eq!(l[0]["warc_date"], "2020-01-02T10:00:00Z");
    assert_eq!(l[0]["date"], "2019-12-30T08:00:00Z");
    assert_eq!(l[0]["date_source"], "meta");
    assert_eq!(l[1]["warc_date"], "2020-01-02T10:00:00Z");
    assert_eq!(l[1]["date"], "2019-11-05");
    assert_eq!(l[1]["date_source"], "url");
    // The same first page as a file: no fetch date, so the shown date stands (the headline's
    // and the content's top, two groups, against the declaration's one).
    let page = tmp.path().join("later.html");
    std::fs::write(&page, &later).expect("write");
    let l = lines(&["label", "-q", "--format", "jsonl", s(&page)]);
    assert_eq!(l[0]["date"], "2020-05-05");
    assert_eq!(l[0]["date_source"], "time");
}

#[test]
fn a_page_files_modification_time_refuses_no_date() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let page = tmp.path().join("old.html");
    std::fs::write(
        &page,
        format!("<html><body><h1>Bridge to close</h1><p>Published March 5, 2010</p>{STORY}</body></html>"),
    )
    .expect("write");
    // Written (copied, unpacked) long before the date it shows: the time says nothing of the
    // fetch.
    let old = std::time::UNIX_EPOCH + std::time::Duration::from_secs(978_307_200); // 2001-01-01
    std::fs::File::options()
        .write(true)
        .open(&page)
        .and_then(|f| f.set_modified(old))
        .expect("set the modification time");
    let l = lines(&["label", "-q", "--format", "jsonl-text", s(&page)]);
    assert_eq!(l[0]["date"], "2010-03-05");
    assert_eq!(l[0]["date_source"], "text");
    // No date: both fields are null.
    let none = tmp.path().join("none.html");
    std::fs::write(&none, format!("<html><body>{STORY}</body></html>")).expect("write");
    let l = lines(&["label", "-q", "--format", "jsonl-text", s(&none)]);
    assert!(
        l[0]["date"].is_null() && l[0]["date_source"].is_null(),
        "{}",
        l[0]
    );
}

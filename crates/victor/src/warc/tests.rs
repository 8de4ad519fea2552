//! The WARC reader's unit tests.

use super::*;

fn record(kind: &str, uri: &str, block: &[u8]) -> Vec<u8> {
    let mut r = format!(
        "WARC/1.0\r\nWARC-Type: {kind}\r\nWARC-Target-URI: {uri}\r\nContent-Length: {}\r\n\r\n",
        block.len()
    )
    .into_bytes();
    r.extend_from_slice(block);
    r.extend_from_slice(b"\r\n\r\n");
    r
}

#[test]
fn reads_records_skips_broken_ones_and_finds_html() {
    let mut warc = record("warcinfo", "", b"software: test\r\n");
    warc.extend(record(
        "response",
        "http://a/",
        b"HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=\"windows-1251\"\r\n\r\n<p>hi",
    ));
    let broken_at = warc.len() as u64;
    warc.extend_from_slice(b"WARC/1.0\r\nWARC-Type: response\r\nno colon here\r\n\r\njunk\r\n\r\n");
    warc.extend(record(
        "response",
        "http://b/",
        b"HTTP/1.1 200 OK\r\ncontent-type: image/png\r\n\r\n\x89PNG",
    ));
    warc.extend(record("resource", "http://c/", b"<p>x"));
    let cut = record(
        "response",
        "http://d/",
        b"HTTP/1.1 200 OK\r\n\r\n0123456789",
    );
    warc.extend_from_slice(&cut[..cut.len() - 8]);
    let recs: Vec<_> = Reader::new(&warc[..]).collect();
    assert_eq!(recs.len(), 6, "{recs:?}");
    let ok: Vec<&Record> = recs.iter().filter_map(|r| r.as_ref().ok()).collect();
    assert_eq!(ok.len(), 4);
    assert_eq!(ok[0].offset, 0);
    let page = html_page(ok[1]).unwrap();
    assert_eq!(page.body, b"<p>hi");
    assert_eq!(page.charset, Some("windows-1251"));
    assert_eq!(ok[1].header("warc-target-uri"), Some("http://a/"));
    assert!(matches!(&recs[2], Err(RecordError::Malformed { offset, .. }) if *offset == broken_at));
    assert_eq!(html_page(ok[0]).err(), Some(Skip::NotPage));
    assert_eq!(html_page(ok[2]).err(), Some(Skip::NotHtml));
    // A resource record has no HTTP header and no Content-Type here: not HTML.
    assert_eq!(html_page(ok[3]).err(), Some(Skip::NotHtml));
    assert!(matches!(&recs[5], Err(RecordError::Truncated { missing, .. }) if *missing > 0));
}

/// Five resource records of HTML; the third's `Content-Length` is replaced by `len` (given
/// the true length).
fn five_with_third_length(len: impl Fn(usize) -> String) -> (Vec<u8>, u64) {
    let mut warc = Vec::new();
    let mut third = 0;
    for i in 0..5 {
        let block = format!("<p>page {i}</p>\r\n\r\n<p>more</p>");
        let mut r = record("resource", &format!("http://{i}/"), block.as_bytes());
        if i == 2 {
            third = warc.len() as u64;
            let head = format!("Content-Length: {}\r\n", block.len());
            let at = memchr::memmem::find(&r, head.as_bytes()).unwrap();
            r.splice(
                at..at + head.len(),
                format!("Content-Length: {}\r\n", len(block.len())).into_bytes(),
            );
        }
        warc.extend(r);
    }
    (warc, third)
}

#[test]
fn a_content_length_too_large_loses_its_record_only() {
    for (case, len) in [
        // Into the middle of the fifth record (a record here is 113 bytes: 33 bytes in).
        (
            "into a later record",
            &(|n: usize| (n + 150).to_string()) as &dyn Fn(usize) -> String,
        ),
        // Past the end of the file.
        ("past the end", &|n| (n + 5000).to_string()),
        // Over MAX_RECORD, past the end.
        ("over the limit", &|_| (MAX_RECORD * 4).to_string()),
    ] {
        let (warc, third) = five_with_third_length(len);
        let recs: Vec<_> = Reader::new(&warc[..]).collect();
        let uris: Vec<&str> = recs
            .iter()
            .filter_map(|r| r.as_ref().ok())
            .filter_map(|r| r.header("WARC-Target-URI"))
            .collect();
        assert_eq!(
            uris,
            ["http://0/", "http://1/", "http://3/", "http://4/"],
            "{case}: {recs:?}"
        );
        let errs: Vec<&RecordError> = recs.iter().filter_map(|r| r.as_ref().err()).collect();
        assert_eq!(errs.len(), 1, "{case}: {errs:?}");
        let e = errs[0];
        assert!(e.recoverable());
        let RecordError::Overrun {
            offset,
            skipped,
            resumed,
            ..
        } = *e
        else {
            panic!("{case}: {e}");
        };
        assert_eq!(offset, third, "{case}");
        assert_eq!(resumed, offset + skipped);
        // Reading goes on exactly where the fourth record starts.
        let fourth = recs[3].as_ref().unwrap();
        assert_eq!(fourth.offset, resumed, "{case}");
        assert!(warc[resumed as usize..].starts_with(b"WARC/1.0\r\n"));
        assert!(e.to_string().contains("bytes skipped"), "{e}");
        assert_eq!(fourth.block, b"<p>page 3</p>\r\n\r\n<p>more</p>");
    }
    // A Content-Length too small leaves junk: the record, then the junk reported, then the
    // rest as before.
    let (warc, _) = five_with_third_length(|n| (n - 4).to_string());
    let recs: Vec<_> = Reader::new(&warc[..]).collect();
    assert_eq!(recs.iter().filter(|r| r.is_ok()).count(), 5, "{recs:?}");
    assert!(
        matches!(recs[3], Err(RecordError::Malformed { .. })),
        "{recs:?}"
    );
}

#[test]
fn random_content_lengths_end_and_keep_whole_records_whole() {
    // Six records; one or two get a random Content-Length (shorter, longer, past the end,
    // over the limit). The reader ends, offsets only grow, and every record it returns
    // whole that was not changed has its own block. A length that ends exactly where a later
    // record's block ends reads as a record holding records (as a WARC file archived in a
    // resource record would): not drawn.
    let blocks: Vec<String> = (0..6)
        .map(|i| format!("<p>page {i}</p>\r\n{}\r\n", "x".repeat(i * 37)))
        .collect();
    let mut x: u64 = 7;
    let mut rand = move |n: u64| {
        x = x
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (x >> 33) % n.max(1)
    };
    let mut drawn = 0;
    while drawn < 2000 {
        let damaged: Vec<usize> = (0..1 + rand(2)).map(|_| rand(6) as usize).collect();
        let mut warc = Vec::new();
        // Where each block starts and ends as written, and each block's end by its length.
        let mut ends = Vec::new();
        let mut claimed = Vec::new();
        for (i, b) in blocks.iter().enumerate() {
            let mut r = record("resource", &format!("http://{i}/"), b.as_bytes());
            if damaged.contains(&i) {
                let len = match rand(4) {
                    0 => rand(b.len() as u64),
                    1 => b.len() as u64 + 1 + rand(400),
                    2 => b.len() as u64 + 1 + rand(4000),
                    _ => MAX_RECORD + 1 + rand(1 << 40),
                };
                let head = format!("Content-Length: {}\r\n", b.len());
                let at = memchr::memmem::find(&r, head.as_bytes()).unwrap();
                let new = format!("Content-Length: {len}\r\n").into_bytes();
                r.splice(at..at + head.len(), new);
                let block_start = warc.len() + r.len() - 4 - b.len();
                claimed.push(block_start as u64 + len);
            }
            ends.push((warc.len() + r.len() - 4) as u64);
            warc.extend(r);
        }
        if claimed.iter().any(|c| ends.contains(c)) {
            continue;
        }
        drawn += 1;
        let recs: Vec<_> = Reader::new(&warc[..]).take(100).collect();
        assert!(recs.len() < 100, "{damaged:?}: {recs:?}");
        let mut last = None;
        for r in recs.iter().flatten() {
            assert!(last < Some(r.offset), "{damaged:?}: {recs:?}");
            last = Some(r.offset);
            let uri = r.header("WARC-Target-URI").unwrap_or("");
            let i = (0..6).find(|i| uri == format!("http://{i}/"));
            if let Some(i) = i.filter(|i| !damaged.contains(i)) {
                assert_eq!(r.block, blocks[i].as_bytes(), "{damaged:?}: {recs:?}");
            }
        }
        // A record after the last damaged one is never lost.
        let after = damaged.iter().max().map_or(0, |d| d + 1);
        for i in after..6 {
            let uri = format!("http://{i}/");
            assert!(
                recs.iter()
                    .flatten()
                    .any(|r| r.header("WARC-Target-URI") == Some(uri.as_str())),
                "{uri} lost, {damaged:?}: {recs:?}"
            );
        }
    }
}

#[test]
fn a_warc_stream_is_recognised_plain_or_gzipped() {
    use std::io::Write;
    let warc = record("resource", "http://a/", b"<p>x");
    assert!(starts_warc(&warc));
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    gz.write_all(&warc).unwrap();
    let gz = gz.finish().unwrap();
    assert!(starts_warc(&gz));
    assert!(starts_warc(&gz[..gz.len() - 10]), "a stream cut short");
    assert!(!starts_warc(b"<html><p>WARC/1.0</p>"));
    assert!(!starts_warc(b"WARC/0.9\r\n"));
    assert!(!starts_warc(&gz[..12]), "too little to tell");
    let mut page = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    page.write_all(b"<html>").unwrap();
    assert!(!starts_warc(&page.finish().unwrap()));
}

#[test]
fn a_corrupt_gzip_member_loses_its_record_only() {
    use std::io::Write;
    // Text that deflate cannot shrink much, so the flipped bytes land in compressed data.
    let mut x: u32 = 1;
    let noise: Vec<u8> = (0..4000)
        .map(|_| {
            x = x.wrapping_mul(1_103_515_245).wrapping_add(12345);
            b'a' + (x >> 16) as u8 % 26
        })
        .collect();
    let mut members = Vec::new();
    for uri in [
        "http://a/",
        "http://b/",
        "http://c/",
        "http://d/",
        "http://e/",
    ] {
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        gz.write_all(&record("resource", uri, &noise)).unwrap();
        members.push(gz.finish().unwrap());
    }
    let mid = members[2].len() / 2;
    for b in &mut members[2][mid..mid + 16] {
        *b ^= 0x5a;
    }
    let last = members.len() - 1;
    let keep = members[last].len() / 2;
    members[last].truncate(keep);
    let recs: Vec<_> = Reader::from_read(std::io::Cursor::new(members.concat()))
        .unwrap()
        .collect();
    let uris: Vec<&str> = recs
        .iter()
        .filter_map(|r| r.as_ref().ok())
        .filter(|r| r.block == noise)
        .filter_map(|r| r.header("WARC-Target-URI"))
        .collect();
    assert_eq!(uris, ["http://a/", "http://b/", "http://d/"], "{recs:?}");
    assert!(
        recs.iter()
            .any(|r| matches!(r, Err(e @ RecordError::Gzip { .. }) if e.recoverable())),
        "{recs:?}"
    );
    // The member cut short ends the file with an error that is not recoverable.
    assert!(
        matches!(recs.last(), Some(Err(e)) if !e.recoverable()),
        "{recs:?}"
    );
}

#[test]
fn html_pages_name_their_codings_and_decode() {
    use std::io::Write;
    let page = b"<html><body><p>A page sent compressed and in chunks.</p></body></html>";
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    gz.write_all(page).unwrap();
    let gz = gz.finish().unwrap();
    let mut http = b"HTTP/1.1 200 OK\r\ncontent-encoding: gzip\r\nContent-Type: text/html\r\nTransfer-Encoding : chunked\r\n\r\n".to_vec();
    for c in gz.chunks(16) {
        http.extend_from_slice(format!("{:X}\r\n", c.len()).as_bytes());
        http.extend_from_slice(c);
        http.extend_from_slice(b"\r\n");
    }
    http.extend_from_slice(b"0\r\n\r\n");
    let mut warc = record("response", "http://a/", &http);
    // The same body cut in the middle of its gzip stream, the record not saying so.
    let broken = record("response", "http://b/", &http[..http.len() - 40]);
    warc.extend(broken);
    let recs: Vec<Record> = Reader::new(&warc[..]).collect::<Result<_, _>>().unwrap();
    let p = html_page(&recs[0]).unwrap();
    assert_eq!(p.codings.content, Some("gzip"));
    assert_eq!(p.codings.transfer, Some("chunked"));
    assert!(!p.truncated);
    assert_eq!(&*p.decoded().unwrap(), page);
    let e = html_page(&recs[1]).unwrap().decoded().unwrap_err();
    assert!(matches!(e, BodyError::Chunked(_)), "{e}");
}

#[test]
fn gzip_members_one_per_record() {
    use std::io::Write;
    let mut file = Vec::new();
    for uri in ["http://a/", "http://b/"] {
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        gz.write_all(&record(
            "response",
            uri,
            b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n<p>x",
        ))
        .unwrap();
        file.extend(gz.finish().unwrap());
    }
    let recs: Vec<Record> = Reader::from_read(std::io::Cursor::new(file))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(recs.len(), 2);
    assert_eq!(recs[1].header("WARC-Target-URI"), Some("http://b/"));
    assert!(recs[1].offset > 0);
}

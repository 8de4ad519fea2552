//! victor's WARC reader against fastwarc 2.0 and warc 0.4 (eval/warc.md).
//!
//!   warc-bench read READER FILE [REPEAT]   time reading every record's block, REPEAT times
//!   warc-bench broken FILE.warc            the readers on broken copies of an uncompressed file
//!
//! READER is victor, fastwarc or warc. `read` prints the records, the block bytes, the best
//! time, records/s, MB/s of the uncompressed stream and the peak resident memory (VmHWM).

#![allow(dead_code)]

#[path = "../../../crates/victor/src/http.rs"]
mod http;
#[path = "../../../crates/victor/src/warc.rs"]
mod ours;

use std::io::{Read, Write};
use std::path::Path;
use std::time::Instant;

/// What one pass over a file gave.
#[derive(Debug, Default, PartialEq)]
struct Pass {
    /// Records read whole.
    ok: usize,
    /// Bytes of their blocks.
    bytes: u64,
    /// Errors reported.
    errors: usize,
    /// The target URIs of the records read, in order.
    uris: Vec<String>,
    /// Whether the reader kept reporting errors without moving on (stopped by us).
    stuck: bool,
}

/// Consecutive errors after which a reader is taken to be stuck.
const STUCK: usize = 50;

/// Counts what a reader reports, one record or error at a time.
struct Counter {
    pass: Pass,
    keep_uris: bool,
    /// Errors in a row so far.
    run: usize,
}

impl Counter {
    fn new(keep_uris: bool) -> Self {
        Counter {
            pass: Pass::default(),
            keep_uris,
            run: 0,
        }
    }

    /// Counts a record read whole: its block's size and, if kept, its target URI.
    fn record(&mut self, bytes: usize, uri: impl FnOnce() -> String) {
        self.run = 0;
        self.pass.ok += 1;
        self.pass.bytes += bytes as u64;
        if self.keep_uris {
            self.pass.uris.push(uri());
        }
    }

    /// Counts an error. Returns false, and marks the pass stuck, at the [`STUCK`]th in a row.
    fn error(&mut self) -> bool {
        self.pass.errors += 1;
        self.run += 1;
        self.pass.stuck = self.run >= STUCK;
        !self.pass.stuck
    }
}

fn read_victor(path: &Path, keep_uris: bool) -> Pass {
    let mut c = Counter::new(keep_uris);
    let reader = match ours::Reader::open(path) {
        Ok(r) => r,
        Err(_) => {
            c.error();
            return c.pass;
        }
    };
    for rec in reader {
        match rec {
            Ok(r) => c.record(r.block.len(), || {
                r.header("WARC-Target-URI").unwrap_or("").to_string()
            }),
            Err(_) => {
                if !c.error() {
                    break;
                }
            }
        }
    }
    c.pass
}

fn read_fastwarc(path: &Path, keep_uris: bool) -> Pass {
    use fastwarc::warc::header::WarcHeader;
    use fastwarc::warc::iter::ArchiveIterator;
    use fastwarc::warc::record::SharedWarcRecord;
    let mut c = Counter::new(keep_uris);
    let it = match ArchiveIterator::from_path(path) {
        Ok(it) => it.with_parse_http(false),
        Err(_) => {
            c.error();
            return c.pass;
        }
    };
    let mut buf = Vec::new();
    for rec in it {
        let r = rec.and_then(|r| {
            r.with_mut(|r| {
                buf.clear();
                if let Some(rd) = r.reader_mut() {
                    rd.read_to_end(&mut buf)?;
                }
                let uri = if keep_uris {
                    r.headers()
                        .get(WarcHeader::WarcTargetUri)
                        .map(|v| v.to_string())
                        .unwrap_or_default()
                } else {
                    String::new()
                };
                Ok::<_, std::io::Error>(uri)
            })
        });
        match r {
            Ok(uri) => c.record(buf.len(), || uri),
            Err(_) => {
                if !c.error() {
                    break;
                }
            }
        }
    }
    c.pass
}

fn read_warc_crate(path: &Path, keep_uris: bool) -> Pass {
    use ::warc::{WarcHeader, WarcReader};
    let mut c = Counter::new(keep_uris);
    let gz = path.extension().is_some_and(|e| e == "gz");
    let mut each = |rec: Result<::warc::Record<::warc::BufferedBody>, ::warc::Error>| -> bool {
        match rec {
            Ok(r) => {
                c.record(r.body().len(), || {
                    r.header(WarcHeader::TargetURI)
                        .map(|v| v.to_string())
                        .unwrap_or_default()
                });
                true
            }
            Err(_) => c.error(),
        }
    };
    if gz {
        if let Ok(r) = WarcReader::from_path_gzip(path) {
            r.iter_records().all(&mut each);
        }
    } else {
        // Not `WarcReader::from_path`: warc 0.4 opens the file with `create(true)` and no
        // `write(true)`, which fails with InvalidInput on every file.
        if let Ok(f) = std::fs::File::open(path) {
            WarcReader::new(std::io::BufReader::with_capacity(1 << 20, f))
                .iter_records()
                .all(&mut each);
        }
    }
    c.pass
}

fn read(reader: &str, path: &Path, keep_uris: bool) -> Pass {
    match reader {
        "victor" => read_victor(path, keep_uris),
        "fastwarc" => read_fastwarc(path, keep_uris),
        "warc" => read_warc_crate(path, keep_uris),
        r => panic!("no reader {r}: victor, fastwarc or warc"),
    }
}

/// CPU time (user + system) of this process so far, in seconds (clock ticks of 10 ms).
fn cpu_time() -> f64 {
    std::fs::read_to_string("/proc/self/stat")
        .ok()
        .and_then(|s| {
            // The fields after the command name (which ends with the last ')').
            let rest = s.get(s.rfind(')')? + 2..)?;
            let f: Vec<&str> = rest.split_whitespace().collect();
            let ticks = f.get(11)?.parse::<f64>().ok()? + f.get(12)?.parse::<f64>().ok()?;
            Some(ticks / 100.0)
        })
        .unwrap_or(0.0)
}

/// Peak resident memory of this process, in KB.
fn vm_hwm() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmHWM:"))
                .and_then(|l| l.split_whitespace().nth(1)?.parse().ok())
        })
        .unwrap_or(0)
}

fn cmd_read(reader: &str, path: &Path, repeat: usize) {
    let mut best = f64::INFINITY;
    let mut best_cpu = f64::INFINITY;
    let mut pass = Pass::default();
    for _ in 0..repeat.max(1) {
        let t = Instant::now();
        let c = cpu_time();
        pass = read(reader, path, false);
        best_cpu = best_cpu.min(cpu_time() - c);
        best = best.min(t.elapsed().as_secs_f64());
    }
    println!(
        "{reader}\t{}\trecords {}\terrors {}\tblock MB {:.1}\tbest {:.3} s (CPU {:.2} s)\t{:.0} records/s\t{:.0} MB/s\tVmHWM {} KB",
        path.display(),
        pass.ok,
        pass.errors,
        pass.bytes as f64 / 1e6,
        best,
        best_cpu,
        pass.ok as f64 / best,
        pass.bytes as f64 / 1e6 / best,
        vm_hwm()
    );
}

/// The byte ranges of the records of an uncompressed WARC file, by our reader's offsets.
fn record_starts(data: &[u8]) -> Vec<usize> {
    ours::Reader::new(data)
        .filter_map(|r| r.ok().map(|r| r.offset as usize))
        .collect()
}

fn gzip_members(data: &[u8], starts: &[usize]) -> Vec<u8> {
    let mut out = Vec::new();
    for (i, &s) in starts.iter().enumerate() {
        let e = starts.get(i + 1).copied().unwrap_or(data.len());
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        gz.write_all(&data[s..e]).expect("in memory");
        out.extend(gz.finish().expect("in memory"));
    }
    out
}

fn cmd_broken(path: &Path) {
    let data = std::fs::read(path).expect("the WARC file reads");
    let starts = record_starts(&data);
    let n = starts.len();
    let k = n / 2;
    let (a, b) = (starts[k], starts[k + 1]);
    let header_end = a + memchr::memmem::find(&data[a..], b"\r\n\r\n").expect("a header") + 4;
    let dir = std::env::temp_dir().join(format!("warc-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let mut cases: Vec<(&str, String, Vec<u8>)> = Vec::new();
    cases.push(("intact", "the file as it is".into(), data.clone()));
    // Junk between two records.
    let mut v = data[..a].to_vec();
    v.extend_from_slice(b"this is not a WARC record\r\n\r\n");
    v.extend_from_slice(&data[a..]);
    cases.push(("junk", format!("a junk line before record {k}"), v));
    // A record whose Content-Length is not a number.
    let head = String::from_utf8_lossy(&data[a..header_end]).to_string();
    let bad = head.replace("Content-Length:", "Content-Length: x");
    let mut v = data[..a].to_vec();
    v.extend_from_slice(bad.as_bytes());
    v.extend_from_slice(&data[header_end..]);
    cases.push(("bad-length", format!("record {k}'s Content-Length not a number"), v));
    // A record whose Content-Length is 100 bytes too long (it eats into the next record).
    let len: usize = head
        .lines()
        .find_map(|l| l.strip_prefix("Content-Length:"))
        .and_then(|v| v.trim().parse().ok())
        .expect("a Content-Length");
    let long = head.replace(
        &format!("Content-Length: {len}"),
        &format!("Content-Length: {}", len + 100),
    );
    let mut v = data[..a].to_vec();
    v.extend_from_slice(long.as_bytes());
    v.extend_from_slice(&data[header_end..]);
    cases.push(("long-length", format!("record {k}'s Content-Length 100 too long"), v));
    // A record cut in the middle of its block, the file going on.
    let mut v = data[..(a + b) / 2].to_vec();
    v.extend_from_slice(&data[b..]);
    cases.push(("cut-inside", format!("record {k} cut in the middle"), v));
    // The file cut in the middle of its last record.
    let last = starts[n - 1];
    cases.push((
        "truncated",
        "the file cut in its last record".into(),
        data[..(last + data.len()) / 2].to_vec(),
    ));
    let mut files = Vec::new();
    for (name, what, bytes) in &cases {
        let p = dir.join(format!("{name}.warc"));
        std::fs::write(&p, bytes).expect("temp file");
        files.push((format!("{name}.warc"), what.clone(), p.clone()));
        let s = record_starts(bytes);
        let mut gz = gzip_members(bytes, &s);
        if *name == "intact" {
            // A gzip member with corrupt bytes in its middle, and the file cut in a member.
            let gz_starts: Vec<usize> = {
                let mut v = vec![0];
                let mut pos = 0;
                for (i, &st) in s.iter().enumerate() {
                    let e = s.get(i + 1).copied().unwrap_or(bytes.len());
                    let mut enc =
                        flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
                    enc.write_all(&bytes[st..e]).expect("in memory");
                    pos += enc.finish().expect("in memory").len();
                    v.push(pos);
                }
                v
            };
            let mut corrupt = gz.clone();
            let (m0, m1) = (gz_starts[k], gz_starts[k + 1]);
            for byte in &mut corrupt[m0 + (m1 - m0) / 2..m0 + (m1 - m0) / 2 + 8] {
                *byte ^= 0x5a;
            }
            let p = dir.join("corrupt-member.warc.gz");
            std::fs::write(&p, &corrupt).expect("temp file");
            files.push((
                "corrupt-member.warc.gz".into(),
                format!("8 bytes flipped inside gzip member {k}"),
                p,
            ));
            let p = dir.join("truncated.warc.gz");
            let m = gz_starts[n - 1];
            gz.truncate((m + gz.len()) / 2);
            std::fs::write(&p, &gz).expect("temp file");
            files.push((
                "truncated.warc.gz".into(),
                "the gzipped file cut in its last member".into(),
                p,
            ));
            let p = dir.join("intact.warc.gz");
            std::fs::write(&p, gzip_members(bytes, &s)).expect("temp file");
            files.push(("intact.warc.gz".into(), "gzipped per record".into(), p));
        }
    }
    let truth = read("victor", &dir.join("intact.warc"), true).uris;
    println!("{n} records; broken record: number {k} (of 0..{n})");
    println!("case\twhat\treader\trecords read\terrors\tlost intact records\tstuck");
    for (name, what, p) in &files {
        for reader in ["victor", "fastwarc", "warc"] {
            let pass = read(reader, p, true);
            // Intact records (all but number k, and the last one when the file is cut) that
            // the reader did not give.
            let got: std::collections::HashSet<&str> =
                pass.uris.iter().map(String::as_str).collect();
            let lost = truth
                .iter()
                .enumerate()
                .filter(|(i, u)| {
                    let damaged = (*i == k && !name.starts_with("truncated") && !name.starts_with("intact"))
                        || (*i == n - 1 && name.starts_with("truncated"));
                    !damaged && !got.contains(u.as_str())
                })
                .count();
            println!(
                "{name}\t{what}\t{reader}\t{}\t{}\t{lost}\t{}",
                pass.ok, pass.errors, pass.stuck
            );
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    match args.get(1).map(String::as_str) {
        Some("read") if args.len() >= 4 => {
            let repeat = args.get(4).and_then(|r| r.parse().ok()).unwrap_or(3);
            cmd_read(&args[2], Path::new(&args[3]), repeat)
        }
        Some("broken") if args.len() == 3 => cmd_broken(Path::new(&args[2])),
        _ => eprintln!("usage: warc-bench read victor|fastwarc|warc FILE [REPEAT] | broken FILE.warc"),
    }
}

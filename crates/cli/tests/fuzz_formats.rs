//! Fuzzing that runs, at the command line (issue 34): mutated real pages (the example pages,
//! and two pages of each shared data set when `../shared/data` is beside the repository) go
//! through `victor label` in every output format and `victor features` in every format, as one
//! batch each. No run may crash, and each output must parse. The many-case property test over
//! the same pipeline, in the library, is crates/victor/tests/fuzz_pages.rs.
// The tests say what they skip on standard error; the rule of src/util/streams.rs (no
// `eprintln!`) is the binary's.
#![allow(clippy::disallowed_macros)]

mod common;

use std::path::{Path, PathBuf};

use common::{examples, root, run, s};

/// A small deterministic generator (xorshift64*), so that a failure replays.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next() % n as u64) as usize
        }
    }
}

const PIECES: &[&[u8]] = &[
    b"<",
    b"</div>",
    b"<p>",
    b"<!--",
    b"<script>",
    b"<table><td>",
    b"&#xD800;",
    b"\0",
    b"\xff\xfe",
    b"\xc3",
    b"<meta charset=utf-16>",
    b"<!DOCTYPE html>",
    b"<head>",
    b"\r\n",
];

/// `page` with a few random edits: bytes set, pieces of markup spliced in, stretches deleted
/// or repeated, the end cut off.
fn mutate(page: &[u8], rng: &mut Rng) -> Vec<u8> {
    let mut p = page.to_vec();
    for _ in 0..1 + rng.below(6) {
        let at = rng.below(p.len() + 1);
        match rng.below(5) {
            0 if !p.is_empty() => {
                let k = rng.below(p.len());
                p[k] = rng.next() as u8;
            }
            1 => {
                let piece = PIECES[rng.below(PIECES.len())].repeat(1 + rng.below(30));
                p.splice(at..at, piece);
            }
            2 => {
                let end = (at + rng.below(2000)).min(p.len());
                p.drain(at..end);
            }
            3 => {
                let end = (at + rng.below(3000)).min(p.len());
                let stretch = p[at..end].to_vec();
                let to = rng.below(p.len() + 1);
                p.splice(to..to, stretch);
            }
            _ => p.truncate(at.max(p.len() / 2)),
        }
    }
    p
}

/// The seed pages: the example pages and two of each shared set.
fn seeds() -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(examples().join("pages"))
        .expect("example pages")
        .filter_map(Result::ok)
        .map(|e| e.path())
        .collect();
    let data = root().join("../shared/data");
    if data.is_dir() {
        let mut sets: Vec<PathBuf> = std::fs::read_dir(&data)
            .map(|d| d.filter_map(Result::ok).map(|e| e.path()).collect())
            .unwrap_or_default();
        sets.sort();
        for set in sets {
            let manifest = std::fs::read_to_string(set.join("manifest.jsonl")).unwrap_or_default();
            for line in manifest.lines().take(2) {
                if let Ok(v) = serde_json::from_str::<serde_json::Value>(line)
                    && let Some(html) = v["html"].as_str()
                {
                    out.push(set.join(html));
                }
            }
        }
    } else {
        eprintln!(
            "fuzz_formats: SKIPPED the shared pages: no {} (example pages only)",
            data.display()
        );
    }
    out.sort();
    out
}

/// Writes `per_seed` mutations of every seed page into `dir`.
fn mutated_batch(dir: &Path, per_seed: usize) -> usize {
    let mut rng = Rng(0x5eed_1234_abcd_0042);
    let mut n = 0;
    for (k, seed) in seeds().iter().enumerate() {
        let mut page = victor_features::file::read_page_file(seed)
            .unwrap_or_else(|e| panic!("cannot read {}: {e}", seed.display()));
        page.truncate(120_000);
        for m in 0..per_seed {
            std::fs::write(
                dir.join(format!("p{k:02}-{m}.html")),
                mutate(&page, &mut rng),
            )
            .expect("write");
            n += 1;
        }
    }
    n
}

/// Runs victor; fails on a crash (a panic, a signal) and returns standard output.
fn no_crash(args: &[&str]) -> String {
    let o = run(args);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        !err.contains("panicked") && matches!(o.status.code(), Some(0 | 1)),
        "victor {args:?}: {:?}\n{err}",
        o.status
    );
    String::from_utf8_lossy(&o.stdout).into_owned()
}

#[test]
fn mutated_pages_pass_every_output_format() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let dir = tmp.path().join("pages");
    std::fs::create_dir(&dir).expect("mkdir");
    let n = mutated_batch(&dir, 4);
    eprintln!("fuzz_formats: {n} mutated pages");
    let d = s(&dir);
    for format in ["text", "cleaneval", "html", "markdown"] {
        no_crash(&["label", "-q", "--format", format, d]);
    }
    no_crash(&["label", "-q", "--format", "markdown", "--links", d]);
    let out = no_crash(&["label", "-q", "--format", "jsonl", d]);
    let lines: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).expect("each jsonl line parses"))
        .collect();
    assert!(lines.len() * 10 >= n * 9, "{} of {n} pages", lines.len());
    for v in &lines {
        assert!(v["blocks"].is_array() && v["text"].is_string(), "{v}");
    }
    let out = no_crash(&["label", "-q", "--format", "jsonl-text", d]);
    for l in out.lines() {
        let v: serde_json::Value = serde_json::from_str(l).expect("jsonl-text parses");
        assert!(v["text"].is_string());
    }
    let out = no_crash(&["label", "-q", "--format", "csv", d]);
    let mut r = csv::Reader::from_reader(out.as_bytes());
    for rec in r.records() {
        assert_eq!(rec.expect("csv parses").len(), 9);
    }
    let out = no_crash(&["features", "--format", "jsonl", d]);
    for l in out.lines() {
        serde_json::from_str::<serde_json::Value>(l).expect("features jsonl parses");
    }
    let out = no_crash(&["features", "--format", "csv", d]);
    let mut r = csv::Reader::from_reader(out.as_bytes());
    let width = r.headers().expect("a header").len();
    for rec in r.records() {
        assert_eq!(rec.expect("features csv parses").len(), width);
    }
    no_crash(&["features", "--format", "crfpp", d]);
}

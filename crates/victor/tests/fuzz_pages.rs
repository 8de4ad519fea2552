//! Fuzzing that runs with the tests (issue 34): a property-based test on stable Rust that
//! mutates real pages (the example pages, and a handful of the shared data sets' pages when
//! `../shared/data` is beside the repository) and sends each through the whole pipeline: decode,
//! segmentation, features, labelling with `models/article` under every decoding, and every
//! output renderer (text, CleanEval markers, JSON lines with and without blocks, HTML, CSV).
//! Nothing may panic, and every output must be well formed: one marginal triple summing to 1
//! and one label per block, source ranges on the decoded text, JSON that parses, CSV rows of
//! nine fields, the page's doctype kept first in the HTML.
//!
//! Bounded: 1000 cases by default (about 3 to 4 s in the test profile on 2 busy cores), and at
//! most 25 s of work whatever the machine (`VICTOR_FUZZ_SECS`); `VICTOR_FUZZ_CASES=N` runs more,
//! and `VICTOR_FUZZ_SEED=N` fixes the seed to replay a run (by default each run draws its own).
//! A failure prints the smallest page edit that still fails. The coverage-guided `cargo fuzz` target is in
//! `fuzz/` (see fuzz/README.md).

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use proptest::prelude::*;
use proptest::sample::Index;
use proptest::test_runner::{Config, RngAlgorithm, TestCaseError, TestRng, TestRunner};
use victor::output::{JsonlMeta, render_html, write_csv, write_jsonl};
use victor_core::Label;
use victor_label::render_text;
use victor_label::{Decoding, Labeler, Model, Threshold};

/// Largest seed page taken whole (bytes): longer shared pages are cut, to keep cases quick.
const MAX_SEED_BYTES: usize = 120_000;
/// Shared pages taken from each data set.
const SHARED_PER_SET: usize = 2;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The pages mutations start from: the example pages, then a few of each shared set's.
fn seed_pages() -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    let examples = root().join("annotations/examples/pages");
    let mut names: Vec<PathBuf> = std::fs::read_dir(&examples)
        .expect("annotations/examples/pages")
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "html"))
        .collect();
    names.sort();
    for p in names {
        out.push((
            p.display().to_string(),
            std::fs::read(&p).expect("example page"),
        ));
    }
    let data = root().join("../shared/data");
    if !data.is_dir() {
        eprintln!(
            "fuzz_pages: SKIPPED the shared pages: no {} (mutating the {} example pages only)",
            data.display(),
            out.len()
        );
        return out;
    }
    let mut sets: Vec<PathBuf> = std::fs::read_dir(&data)
        .map(|d| d.filter_map(Result::ok).map(|e| e.path()).collect())
        .unwrap_or_default();
    sets.sort();
    for set in sets {
        let Ok(manifest) = std::fs::read_to_string(set.join("manifest.jsonl")) else {
            continue;
        };
        for line in manifest.lines().take(SHARED_PER_SET) {
            let Ok(entry) = serde_json::from_str::<serde_json::Value>(line) else {
                continue;
            };
            let Some(html) = entry["html"].as_str() else {
                continue;
            };
            let path = set.join(html);
            if let Ok(mut bytes) = victor_features::file::read_page_file(&path) {
                bytes.truncate(MAX_SEED_BYTES);
                out.push((path.display().to_string(), bytes));
            }
        }
    }
    eprintln!("fuzz_pages: {} seed pages", out.len());
    out
}

/// Pieces spliced into pages: markup that parsers and decoders find hard.
const PIECES: &[&[u8]] = &[
    b"<",
    b">",
    b"</",
    b"<!--",
    b"-->",
    b"<script>",
    b"</script>",
    b"<style>",
    b"<![CDATA[",
    b"<table><tr><td>",
    b"</td></tr></table>",
    b"</div>",
    b"<div>",
    b"<p>",
    b"<br>",
    b"<pre>",
    b"<textarea>",
    b"<svg><foreignObject>",
    b"<math>",
    b"<template>",
    b"<head>",
    b"</body>",
    b"<!DOCTYPE html>",
    b"<title>",
    b"<a href=x>",
    b"&amp;",
    b"&#0;",
    b"&#xD800;",
    b"&#x110000;",
    b"\0",
    b"\xef\xbb\xbf",
    b"\xff\xfe",
    b"\xfe\xff",
    b"\xc3",
    b"\xe2\x80",
    b"<meta charset=utf-16>",
    b"<meta charset=windows-1251>",
    b"<meta charset=\"shift_jis\">",
    b"\r\n",
    b"\xe2\x80\xae",
    b"<h1>",
    b"<li>",
    b" role=main ",
    b" itemprop=articleBody ",
    b" class=hidden ",
];

/// One edit of a page's bytes; positions are drawn as indexes into whatever length the page
/// has when the edit applies.
#[derive(Clone, Debug)]
enum Edit {
    /// Replace one byte.
    Set(Index, u8),
    /// Insert random bytes.
    Insert(Index, Vec<u8>),
    /// Splice in a piece of [`PIECES`], `times` times over.
    Splice(Index, usize, usize),
    /// Delete up to `len` bytes.
    Delete(Index, usize),
    /// Copy a stretch of the page elsewhere.
    Duplicate(Index, Index, usize),
    /// Cut the page short.
    Truncate(Index),
}

fn edit() -> impl Strategy<Value = Edit> {
    prop_oneof![
        4 => (any::<Index>(), any::<u8>()).prop_map(|(i, b)| Edit::Set(i, b)),
        2 => (any::<Index>(), proptest::collection::vec(any::<u8>(), 1..64))
            .prop_map(|(i, v)| Edit::Insert(i, v)),
        4 => (any::<Index>(), 0..PIECES.len(), 1usize..40)
            .prop_map(|(i, p, n)| Edit::Splice(i, p, n)),
        2 => (any::<Index>(), 1usize..2000).prop_map(|(i, n)| Edit::Delete(i, n)),
        1 => (any::<Index>(), any::<Index>(), 1usize..4000)
            .prop_map(|(a, b, n)| Edit::Duplicate(a, b, n)),
        1 => any::<Index>().prop_map(Edit::Truncate),
    ]
}

fn apply(page: &mut Vec<u8>, e: &Edit) {
    let at = |i: &Index, len: usize| if len == 0 { 0 } else { i.index(len + 1) };
    match e {
        Edit::Set(i, b) => {
            if !page.is_empty() {
                let k = i.index(page.len());
                page[k] = *b;
            }
        }
        Edit::Insert(i, v) => {
            let k = at(i, page.len());
            page.splice(k..k, v.iter().copied());
        }
        Edit::Splice(i, p, n) => {
            let k = at(i, page.len());
            let piece = PIECES[*p].repeat(*n);
            page.splice(k..k, piece);
        }
        Edit::Delete(i, n) => {
            let k = at(i, page.len());
            let end = (k + n).min(page.len());
            page.drain(k..end);
        }
        Edit::Duplicate(a, b, n) => {
            if !page.is_empty() {
                let from = a.index(page.len());
                let end = (from + n).min(page.len());
                let stretch = page[from..end].to_vec();
                let to = at(b, page.len());
                page.splice(to..to, stretch);
            }
        }
        Edit::Truncate(i) => {
            let k = at(i, page.len());
            page.truncate(k);
        }
    }
}

fn check(cond: bool, what: impl FnOnce() -> String) -> Result<(), TestCaseError> {
    if cond {
        Ok(())
    } else {
        Err(TestCaseError::fail(what()))
    }
}

/// Cases labelled, cases refused with an error, and blocks labelled, over the run.
static LABELLED: AtomicUsize = AtomicUsize::new(0);
static REFUSED: AtomicUsize = AtomicUsize::new(0);
static BLOCKS: AtomicUsize = AtomicUsize::new(0);

/// Labels `bytes` under every decoding and renders every output format, checking each.
fn pipeline(labeler: &mut Labeler<'_>, bytes: &[u8]) -> Result<(), TestCaseError> {
    let half = Decoding::Threshold(Threshold::new(0.5).expect("a threshold"));
    let expected = Decoding::ExpectedF1(labeler.model().expected_options());
    for decoding in [half, Decoding::Viterbi, expected] {
        // A page may be refused (binary, too many blocks): with an error, never a panic.
        let Ok(lp) = labeler.label_bytes(bytes, decoding) else {
            REFUSED.fetch_add(1, Ordering::Relaxed);
            return Ok(());
        };
        if decoding == Decoding::Viterbi {
            LABELLED.fetch_add(1, Ordering::Relaxed);
            BLOCKS.fetch_add(lp.labels.len(), Ordering::Relaxed);
        }
        let page = &lp.processed.page;
        let doc: &str = &lp.processed.decoded.text;
        let n = page.blocks.len();
        check(lp.labels.len() == n && lp.probs.len() == n, || {
            format!(
                "{n} blocks, {} labels, {} marginals",
                lp.labels.len(),
                lp.probs.len()
            )
        })?;
        check(lp.processed.table.blocks == n, || {
            format!("{n} blocks, {} feature rows", lp.processed.table.blocks)
        })?;
        for (i, (b, p)) in page.blocks.iter().zip(&lp.probs).enumerate() {
            let sum: f64 = p.iter().sum();
            check(
                p.iter()
                    .all(|x| x.is_finite() && (0.0..=1.0 + 1e-9).contains(x))
                    && (sum - 1.0).abs() < 1e-6,
                || format!("block {i}: marginals {p:?}"),
            )?;
            check(
                doc.get(b.source.start as usize..b.source.end as usize)
                    .is_some(),
                || format!("block {i}: source {:?} off the document", b.source),
            )?;
        }
        if decoding != half {
            continue;
        }
        // Every output format.
        let mut text = String::new();
        render_text(page, &lp.labels, false, &mut text);
        let kept = lp.labels.iter().filter(|&&l| l != Label::Other).count();
        check(kept > 0 || text.is_empty(), || {
            "text from no kept block".into()
        })?;
        let mut md = String::new();
        let opts = victor_label::MarkdownOptions {
            doc: Some(lp.processed.decoded.text.as_ref()),
            links: true,
            emphasis: true,
            url: Some("http://example.org/a/b.html"),
        };
        victor_label::render_markdown(page, &lp.labels, opts, &mut md);
        check(text.is_empty() == md.is_empty(), || {
            format!("markdown {md:?} for text {text:?}")
        })?;
        let mut marked = String::new();
        render_text(page, &lp.labels, true, &mut marked);
        check(
            marked
                .lines()
                .all(|l| l.starts_with("<h>") || l.starts_with("<p>") || l.starts_with("<l>")),
            || format!("a CleanEval line without its marker: {marked:?}"),
        )?;
        for blocks in [true, false] {
            let mut out = Vec::new();
            let meta = JsonlMeta {
                adapted: None,
                source: "fuzz.html",
                language: lp.processed.table.language,
                decoding: "threshold 0.5",
                url: None,
                fetched: None,
                markdown: None,
                fields: &[],
                fields_after: &[],
            };
            write_jsonl(
                &mut out, meta, page, &lp.labels, &lp.probs, &lp.words, blocks,
            )
            .map_err(|e| TestCaseError::fail(format!("jsonl: {e}")))?;
            check(
                out.ends_with(b"\n") && out.iter().filter(|&&c| c == b'\n').count() == 1,
                || "a jsonl page is not one line".into(),
            )?;
            let v: serde_json::Value = serde_json::from_slice(&out)
                .map_err(|e| TestCaseError::fail(format!("jsonl does not parse: {e}")))?;
            let got = v["blocks"].as_array().map_or(0, Vec::len);
            check(got == if blocks { n } else { 0 }, || {
                format!("jsonl holds {got} of {n} blocks")
            })?;
            check(
                v["text"].as_str() == Some(text.trim_end_matches('\n')),
                || "jsonl text differs from the text output".into(),
            )?;
        }
        let html = render_html(doc, page, &lp.labels, &lp.probs);
        check(html.matches("Content-Security-Policy").count() >= 1, || {
            "html without its policy".into()
        })?;
        let doctype = |s: &str| {
            s.get(..9)
                .is_some_and(|p| p.eq_ignore_ascii_case("<!doctype"))
        };
        check(!doctype(doc) || doctype(&html), || {
            "html output no longer starts with the page's doctype".into()
        })?;
        let mut w = csv::WriterBuilder::new()
            .has_headers(false)
            .from_writer(Vec::new());
        write_csv(&mut w, "fuzz.html", page, &lp.labels, &lp.probs)
            .map_err(|e| TestCaseError::fail(format!("csv: {e}")))?;
        let bytes = w
            .into_inner()
            .map_err(|e| TestCaseError::fail(format!("csv: {e}")))?;
        let mut rows = 0;
        for rec in csv::ReaderBuilder::new()
            .has_headers(false)
            .from_reader(bytes.as_slice())
            .records()
        {
            let rec = rec.map_err(|e| TestCaseError::fail(format!("csv does not parse: {e}")))?;
            check(rec.len() == 9, || {
                format!("csv row of {} fields", rec.len())
            })?;
            rows += 1;
        }
        check(rows == n, || format!("csv holds {rows} of {n} blocks"))?;
    }
    Ok(())
}

#[test]
fn mutated_pages_never_panic_and_give_well_formed_outputs() {
    let started = Instant::now();
    let seeds = seed_pages();
    let model = Model::load(&root().join("models/article")).expect("models/article loads");
    let cases = std::env::var("VICTOR_FUZZ_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1000);
    // A wall-clock budget on top: on a slow or busy machine the cases past it do no work.
    let budget = std::env::var("VICTOR_FUZZ_SECS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(25.0);
    let skipped = AtomicUsize::new(0);
    let config = Config {
        cases,
        failure_persistence: None,
        max_shrink_iters: 256,
        ..Config::default()
    };
    let mut runner = match std::env::var("VICTOR_FUZZ_SEED")
        .ok()
        .and_then(|v| v.parse::<u64>().ok())
    {
        Some(seed) => {
            let mut key = [0u8; 32];
            key[..8].copy_from_slice(&seed.to_le_bytes());
            TestRunner::new_with_rng(config, TestRng::from_seed(RngAlgorithm::ChaCha, &key))
        }
        None => TestRunner::new(config),
    };
    let strategy = (0..seeds.len(), proptest::collection::vec(edit(), 1..10));
    let result = runner.run(&strategy, |(k, edits)| {
        if started.elapsed().as_secs_f64() > budget {
            skipped.fetch_add(1, Ordering::Relaxed);
            return Ok(());
        }
        let mut page = seeds[k].1.clone();
        for e in &edits {
            apply(&mut page, e);
        }
        let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            pipeline(&mut Labeler::new(&model), &page)
        }));
        match outcome {
            Ok(r) => r.map_err(|e| TestCaseError::fail(format!("{} edited: {e}", seeds[k].0))),
            Err(_) => Err(TestCaseError::fail(format!(
                "{} edited: panicked (see the message above)",
                seeds[k].0
            ))),
        }
    });
    eprintln!(
        "fuzz_pages: {cases} cases over {} seed pages in {:.1} s: {} labelled ({} blocks), {} refused with an error, {} past the {budget} s budget",
        seeds.len(),
        started.elapsed().as_secs_f64(),
        LABELLED.load(Ordering::Relaxed),
        BLOCKS.load(Ordering::Relaxed),
        REFUSED.load(Ordering::Relaxed),
        skipped.load(Ordering::Relaxed),
    );
    if let Err(e) = result {
        panic!("{e}");
    }
}

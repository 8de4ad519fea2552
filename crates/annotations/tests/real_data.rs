//! The importers on a sample of each real gold standard in `../shared/data` (or `$VICTOR_DATA`):
//! every sampled page imports, both fidelity figures reach 95 %, and the written set loads back
//! with the labels the import counted. Skipped loudly when the data is absent.

use std::path::PathBuf;

use victor_annotations::Corpus;
use victor_annotations::SetStats;
use victor_annotations::{ImportOptions, SourceKind, import_set};

/// Pages sampled per set (spread evenly over the manifest).
const SAMPLE: usize = 150;

fn data_dir() -> Option<PathBuf> {
    let dir = std::env::var_os("VICTOR_DATA").map_or_else(
        || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data"),
        PathBuf::from,
    );
    dir.is_dir().then_some(dir)
}

fn check(set: &str, source: SourceKind) {
    let Some(data) = data_dir() else {
        eprintln!("skipped: data directory ../shared/data (or $VICTOR_DATA) not found");
        return;
    };
    let from = data.join(set);
    if !from.join("manifest.jsonl").is_file() {
        eprintln!("skipped: {} not found", from.display());
        return;
    }
    let out = tempfile::tempdir().unwrap();
    let mut options = ImportOptions::new(source);
    options.sample = Some(SAMPLE);
    let report = import_set(&from, out.path(), &options, &|_| {}).unwrap();
    eprintln!("{set}: {report}");
    assert_eq!(report.selected, SAMPLE);
    assert!(report.skipped.is_empty(), "{:?}", report.skipped);
    let f = &report.fidelity;
    assert!(
        f.gold_covered_micro >= 0.95,
        "{set}: gold covered {}",
        f.gold_covered_micro
    );
    assert!(
        f.content_in_gold_micro >= 0.95,
        "{set}: content in gold {}",
        f.content_in_gold_micro
    );
    assert!(
        f.gold_tokens > 10_000,
        "{set}: only {} gold tokens",
        f.gold_tokens
    );

    let mut stats = SetStats::new(set);
    for page in Corpus::open([out.path()], None).unwrap().iter() {
        let page = page.unwrap_or_else(|e| panic!("{e}"));
        stats.add(page.id, page.record.split, &page.labels);
    }
    assert_eq!(stats.pages.len(), SAMPLE);
    assert_eq!(stats.counts, report.labels);
    assert!(stats.counts.header > 0 && stats.counts.text > 0);
}

#[test]
fn l3s_gn1_sample() {
    check("l3s-gn1", SourceKind::L3sGn1);
}

#[test]
fn cleaneval_sample() {
    check("cleaneval", SourceKind::CleanEval);
}

#[test]
fn dragnet_train_sample() {
    check("dragnet-train", SourceKind::Text);
}

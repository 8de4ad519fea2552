//! `victor eval` and `victor sweep` end to end, with the built binary and a tiny model trained
//! here on the hand-labelled examples (`annotations/examples`).
//!
//! The figures the commands print are checked against direct computations with the libraries
//! (block counts, the scorer's tokens) and, for manifest sets, against the text files that
//! `victor label --format text` writes, scored page by page as `checks/score.py` scores them.
//! One test also runs on the real l3s-gn1 test split when `../shared/data` is there.
// The tests say what they skip on standard error; the rule of src/util/streams.rs (no
// `eprintln!`) is the binary's.
#![allow(clippy::disallowed_macros)]

mod common;

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

use victor_annotations::Corpus;
use victor_annotations::Label;
use victor_eval::read_gold;
use victor_eval::{Bags, BlockCounts, PageScore, TextScores, TokenBag, Tokenizer};
use victor_label::render_text;
use victor_label::{Labeler, Model};

use common::{examples, root, run, run_ok as victor, s};

/// A model trained once on the examples, Viterbi decoding (no recommended threshold).
fn tiny_model() -> &'static Path {
    static MODEL: OnceLock<(tempfile::TempDir, PathBuf)> = OnceLock::new();
    let (_, path) = MODEL.get_or_init(|| {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("tiny");
        victor(&[
            "train",
            examples().to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
            "--threshold-folds",
            "0",
            "-q",
        ]);
        (dir, out)
    });
    path
}

/// CSV rows as maps from column name to cell.
fn read_csv(path: &Path) -> Vec<HashMap<String, String>> {
    let mut r = csv::Reader::from_path(path).unwrap();
    let headers = r.headers().unwrap().clone();
    r.records()
        .map(|rec| {
            let rec = rec.unwrap();
            headers
                .iter()
                .zip(rec.iter())
                .map(|(h, v)| (h.to_string(), v.to_string()))
                .collect()
        })
        .collect()
}

fn num(row: &HashMap<String, String>, col: &str) -> f64 {
    row.get(col)
        .unwrap_or_else(|| panic!("no column {col}"))
        .parse()
        .unwrap_or_else(|e| panic!("column {col}: {e}"))
}

fn row<'a>(rows: &'a [HashMap<String, String>], set: &str) -> &'a HashMap<String, String> {
    rows.iter()
        .find(|r| r.get("set").map(String::as_str) == Some(set))
        .unwrap_or_else(|| panic!("no row {set}"))
}

#[test]
fn eval_on_an_annotated_set_matches_a_direct_computation() {
    let model_dir = tiny_model();
    let tmp = tempfile::tempdir().unwrap();
    let csv_path = tmp.path().join("e.csv");
    let out = victor(&[
        "eval",
        "--model",
        s(model_dir),
        s(&examples()),
        "--csv",
        s(&csv_path),
        "--worst",
        "2",
        "-q",
    ]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    // The report names the bundle that labelled the pages (the folder; a built-in one by name).
    let named = format!("victor eval: model {}, ", model_dir.display());
    assert!(stdout.starts_with(&named), "{stdout}");
    assert!(stdout.contains("Block level"), "{stdout}");
    assert!(stdout.contains("Worst pages by text-level F1"), "{stdout}");

    // The same figures, computed page by page with the libraries.
    let model = Model::load(model_dir).unwrap();
    let mut labeler = Labeler::new(&model);
    let mut tok = Tokenizer::new();
    let (mut counts, mut text) = (BlockCounts::new(), TextScores::new());
    let mut pages = 0;
    for page in Corpus::open([examples()], None).unwrap().iter() {
        let a = page.unwrap();
        let table = model.extractor.extract(&a.page);
        let mut labels = Vec::new();
        labeler.viterbi(&a.page, &table, &mut labels).unwrap();
        counts.add_page(&a.labels, &labels).unwrap();
        let (mut gold, mut got) = (String::new(), String::new());
        render_text(&a.page, &a.labels, false, &mut gold);
        render_text(&a.page, &labels, false, &mut got);
        text.push(PageScore::new(&tok.bag(&got), &tok.bag(&gold)));
        pages += 1;
    }
    assert_eq!(pages, 5);
    let rows = read_csv(&csv_path);
    assert_eq!(rows.len(), 2, "one row for the set, one for all");
    let r = row(&rows, "examples");
    assert_eq!(r["source"], "annotated");
    assert_eq!(r["decoding"], "viterbi");
    assert_eq!(r["text_gold"], "blocks");
    assert_eq!(num(r, "pages"), 5.0);
    assert_eq!(num(r, "failed"), 0.0);
    assert_eq!(num(r, "blocks"), counts.total() as f64);
    assert_eq!(num(r, "accuracy"), counts.accuracy());
    assert_eq!(num(r, "unlabelled_accuracy"), counts.unlabelled_accuracy());
    assert_eq!(num(r, "block_precision"), counts.precision());
    assert_eq!(num(r, "block_recall"), counts.recall());
    assert_eq!(num(r, "block_f1"), counts.f1());
    let sum = text.summary().unwrap();
    assert_eq!(num(r, "text_f1"), sum.macro_avg.f1);
    assert_eq!(num(r, "text_precision"), sum.macro_avg.precision);
    assert_eq!(num(r, "text_recall"), sum.macro_avg.recall);
    assert_eq!(num(r, "text_median_f1"), sum.median_f1);
    assert_eq!(num(r, "text_micro_f1"), sum.micro.f1);
    // the model was trained on these pages: it must get most blocks right
    assert!(counts.accuracy() > 0.8, "accuracy {}", counts.accuracy());
    let all = row(&rows, "all");
    assert_eq!(num(all, "block_f1"), counts.f1());
    assert_eq!(num(all, "text_f1"), sum.macro_avg.f1);
}

/// Runs victor on the set of [`mini_manifest_set`], whose `ghost` page cannot be read: the run
/// scores the rest and writes its outputs, then fails (exit 1), so that no script takes a set
/// with unreadable pages for a clean score.
fn with_failures(args: &[&str]) -> std::process::Output {
    let out = run(args);
    assert_eq!(
        out.status.code(),
        Some(1),
        "a page could not be read: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// Writes a data set in the manifest format from the example pages, with gold files made from
/// their labels in CleanEval's marked form; page 0 gets an empty gold file, page 1 a gold
/// text with words the page lacks, page 2 is stored gzipped, and a sixth entry `ghost` has gold
/// but no page.
fn mini_manifest_set(dir: &Path) -> Vec<String> {
    std::fs::create_dir_all(dir.join("html")).unwrap();
    std::fs::create_dir_all(dir.join("gold")).unwrap();
    let mut manifest = String::new();
    let mut ids = Vec::new();
    for (i, page) in Corpus::open([examples()], None).unwrap().iter().enumerate() {
        let a = page.unwrap();
        let bytes = std::fs::read(examples().join("pages").join(format!("{}.html", a.id))).unwrap();
        // Page 2 is stored gzipped, as crawls and the wcxb set store pages: eval, its importer
        // and label read it as its HTML.
        let html = if i == 2 {
            let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
            std::io::Write::write_all(&mut gz, &bytes).unwrap();
            std::fs::write(
                dir.join("html").join(format!("{}.html.gz", a.id)),
                gz.finish().unwrap(),
            )
            .unwrap();
            format!("html/{}.html.gz", a.id)
        } else {
            std::fs::write(dir.join("html").join(format!("{}.html", a.id)), bytes).unwrap();
            format!("html/{}.html", a.id)
        };
        let mut gold = format!("URL: http://example.test/{}\n", a.id);
        if i == 0 {
            gold.clear();
        } else {
            for (b, l) in a.page.blocks.iter().zip(&a.labels) {
                match l {
                    Label::Header => gold.push_str("<h>"),
                    Label::Text => gold.push_str("<p>"),
                    Label::Other => continue,
                }
                gold.push_str(a.page.block_text(b));
                gold.push('\n');
            }
        }
        if i == 1 {
            gold.push_str("<p>Words that this page never had, marked as content anyway.\n");
        }
        std::fs::write(dir.join("gold").join(format!("{}.txt", a.id)), gold).unwrap();
        manifest.push_str(&format!(
            "{{\"id\": \"{0}\", \"html\": \"{1}\", \"gold\": \"gold/{0}.txt\", \"lang\": \"en\", \"split\": \"test\", \"page_type\": \"{2}\"}}\n",
            a.id,
            html,
            if i % 2 == 0 { "even" } else { "odd" }
        ));
        ids.push(a.id);
    }
    std::fs::write(
        dir.join("gold/ghost.txt"),
        "<p>Gold words of a page that is gone\n",
    )
    .unwrap();
    manifest.push_str(
        "{\"id\": \"ghost\", \"html\": \"html/ghost.html\", \"gold\": \"gold/ghost.txt\", \"split\": \"test\"}\n",
    );
    manifest.push_str(
        "{\"id\": \"devpage\", \"html\": \"html/devpage.html\", \"gold\": \"gold/devpage.txt\", \"split\": \"dev\"}\n",
    );
    std::fs::write(dir.join("manifest.jsonl"), manifest).unwrap();
    ids.push("ghost".to_string());
    ids
}

#[test]
fn eval_on_a_manifest_set_scores_label_outputs_like_the_scorer() {
    let model_dir = tiny_model();
    let tmp = tempfile::tempdir().unwrap();
    let set = tmp.path().join("mini");
    let ids = mini_manifest_set(&set);
    let csv_path = tmp.path().join("e.csv");
    let pages_path = tmp.path().join("p.csv");
    let out = with_failures(&[
        "eval",
        "--model",
        s(model_dir),
        s(&set),
        "--split",
        "test",
        "--csv",
        s(&csv_path),
        "--pages-csv",
        s(&pages_path),
        "-q",
    ]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("victor eval: 1 page could not be labelled"),
        "{stderr}"
    );

    // What `victor label --format text` writes, scored as checks/score.py scores it.
    let texts = tmp.path().join("texts");
    victor(&[
        "label",
        "--model",
        s(model_dir),
        "--format",
        "text",
        "--out",
        s(&texts),
        s(&set.join("html")),
        "-q",
    ]);
    let mut tok = Tokenizer::new();
    let mut scores = TextScores::new();
    for id in &ids {
        let gold = tok.bag(&read_gold(&set.join("gold").join(format!("{id}.txt"))).unwrap());
        let got = std::fs::read_to_string(texts.join(format!("{id}.txt"))).unwrap_or_default();
        scores.push(PageScore::new(&tok.bag(&got), &gold));
    }
    let direct = scores.summary().unwrap();
    let rows = read_csv(&csv_path);
    let r = row(&rows, "mini");
    assert_eq!(
        r["source"], "manifest, --from cleaneval",
        "markers select cleaneval"
    );
    assert_eq!(r["text_gold"], "file");
    assert_eq!(
        num(r, "pages"),
        6.0,
        "five pages and the ghost; the dev page left out"
    );
    assert_eq!(num(r, "failed"), 1.0);
    assert_eq!(num(r, "text_pages"), 6.0);
    assert_eq!(num(r, "block_pages"), 5.0);
    assert_eq!(num(r, "text_precision"), direct.macro_avg.precision);
    assert_eq!(num(r, "text_recall"), direct.macro_avg.recall);
    assert_eq!(num(r, "text_f1"), direct.macro_avg.f1);
    assert_eq!(num(r, "text_median_f1"), direct.median_f1);
    assert_eq!(num(r, "text_micro_precision"), direct.micro.precision);
    assert_eq!(num(r, "text_micro_recall"), direct.micro.recall);
    assert_eq!(num(r, "text_micro_f1"), direct.micro.f1);

    // The empty-gold and missing-page rules, page by page.
    let pages = read_csv(&pages_path);
    let page = |id: &str| {
        pages
            .iter()
            .find(|p| p["id"] == id)
            .unwrap_or_else(|| panic!("no page {id}"))
    };
    let empty_gold = page(&ids[0]);
    assert_eq!(empty_gold["gold_tokens"], "0");
    assert_ne!(empty_gold["extracted_tokens"], "0");
    assert_eq!(
        (
            num(empty_gold, "text_precision"),
            num(empty_gold, "text_recall"),
            num(empty_gold, "text_f1")
        ),
        (0.0, 1.0, 0.0),
        "empty gold, some output: P = F1 = 0, R = 1"
    );
    let ghost = page("ghost");
    assert_eq!(ghost["status"], "failed");
    assert_eq!(ghost["gold_tokens"], "8");
    assert_eq!(
        (num(ghost, "text_precision"), num(ghost, "text_f1")),
        (0.0, 0.0)
    );
    let extra = page(&ids[1]);
    assert_eq!(extra["status"], "ok");
    assert!(num(extra, "text_recall") < 1.0);

    // And the scorer itself, when it is at hand.
    let score_py = root().join("../shared/checks/score.py");
    if !score_py.is_file() {
        eprintln!("skipped: {} not found", score_py.display());
        return;
    }
    let Ok(py) = Command::new("python3")
        .arg(&score_py)
        .args(["--set", s(&set), "--out-dir", s(&texts), "--split", "test"])
        .output()
    else {
        eprintln!("skipped: python3 not found");
        return;
    };
    let line = String::from_utf8_lossy(&py.stdout);
    assert!(
        line.contains(&format!("macro_F1={:.4}", num(r, "text_f1"))),
        "score.py says {line}, victor eval {}",
        r["text_f1"]
    );
    assert!(line.contains("pages=6 missing=1"), "{line}");
}

#[test]
fn eval_importer_and_decoding_can_be_chosen() {
    let model_dir = tiny_model();
    let tmp = tempfile::tempdir().unwrap();
    let set = tmp.path().join("mini");
    mini_manifest_set(&set);
    let csv_path = tmp.path().join("e.csv");
    with_failures(&[
        "eval",
        "--model",
        s(model_dir),
        s(&set),
        "--split",
        "test",
        "--from",
        "text",
        "--threshold",
        "0.5",
        "--csv",
        s(&csv_path),
        "-q",
    ]);
    let rows = read_csv(&csv_path);
    let r = row(&rows, "mini");
    assert_eq!(r["source"], "manifest, --from text");
    assert_eq!(r["decoding"], "threshold 0.5");

    // A model with a recommended decoding is evaluated with it by default: its threshold, or
    // expected-F1 decoding where its cross-validation chose that.
    let with_t = tmp.path().join("with-threshold");
    victor(&[
        "train",
        s(&examples()),
        "--out",
        s(&with_t),
        "--threshold-folds",
        "2",
        "-q",
    ]);
    let meta: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(with_t.join("victor.json")).unwrap())
            .unwrap();
    let t = meta["threshold"]["value"]
        .as_f64()
        .expect("a recommended threshold");
    victor(&[
        "eval",
        "--model",
        s(&with_t),
        s(&examples()),
        "--csv",
        s(&csv_path),
        "-q",
    ]);
    let expected = if meta["threshold"]["decoding"] == "expected-f1" {
        "expected-f1".to_string()
    } else {
        format!("threshold {t}")
    };
    assert_eq!(row(&read_csv(&csv_path), "examples")["decoding"], expected);
    // And at the threshold when asked for it.
    victor(&[
        "eval",
        "--model",
        s(&with_t),
        s(&examples()),
        "--threshold",
        &t.to_string(),
        "--csv",
        s(&csv_path),
        "-q",
    ]);
    assert_eq!(
        row(&read_csv(&csv_path), "examples")["decoding"],
        format!("threshold {t}")
    );

    let bad = run(&[
        "eval",
        "--model",
        s(model_dir),
        s(&set),
        "--threshold",
        "1.5",
    ]);
    assert!(!bad.status.success());
    assert!(String::from_utf8_lossy(&bad.stderr).contains("must be within 0 and 1"));
    let none = run(&["eval", "--model", s(model_dir), s(tmp.path())]);
    assert!(!none.status.success());
    assert!(String::from_utf8_lossy(&none.stderr).contains("neither an annotated set"));
}

#[test]
fn sweep_has_a_row_per_threshold_and_draws_the_curves() {
    let model_dir = tiny_model();
    let tmp = tempfile::tempdir().unwrap();
    let csv_path = tmp.path().join("s.csv");
    let svg_path = tmp.path().join("s.svg");
    let out = victor(&[
        "sweep",
        "--model",
        s(model_dir),
        s(&examples()),
        "--step",
        "0.05",
        "--csv",
        s(&csv_path),
        "--plot",
        s(&svg_path),
        "-q",
    ]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("best block F1"), "{stdout}");
    let rows = read_csv(&csv_path);
    assert_eq!(rows.len(), 21, "0, 0.05, ..., 1");
    let thresholds: Vec<f64> = rows.iter().map(|r| num(r, "threshold")).collect();
    assert_eq!(thresholds.first(), Some(&0.0));
    assert_eq!(thresholds.get(3), Some(&0.15));
    assert_eq!(thresholds.last(), Some(&1.0));
    let content: Vec<f64> = rows.iter().map(|r| num(r, "content_blocks")).collect();
    assert_eq!(content.first(), Some(&0.0), "at T = 0 every block is other");
    assert!(
        content.windows(2).all(|w| w[0] <= w[1]),
        "content blocks never rise as T falls: {content:?}"
    );
    assert!(content.last().is_some_and(|&c| c > 0.0));
    let first = rows.first().unwrap();
    assert_eq!(
        num(first, "block_precision"),
        1.0,
        "nothing kept: precision 1"
    );
    assert_eq!(num(first, "block_recall"), 0.0);
    assert_eq!(num(first, "text_recall"), 0.0);

    let svg = std::fs::read_to_string(&svg_path).unwrap();
    assert!(svg.starts_with("<svg"), "{}", &svg[..svg.len().min(80)]);
    assert!(svg.contains("<polyline"), "the curves are drawn");
    assert!(svg.contains("text (macro)") && svg.contains("blocks"));
    // one dot per point of each curve (T = 0 and 1 left out: 19 points), plus a ring for
    // each marked threshold
    let circles = svg.matches("<circle").count();
    assert!(circles > 2 * 19, "thresholds are marked: {circles} circles");

    // A sweep row and `victor eval` at the same threshold agree.
    let eval_csv = tmp.path().join("e.csv");
    victor(&[
        "eval",
        "--model",
        s(model_dir),
        s(&examples()),
        "--threshold",
        "0.5",
        "--csv",
        s(&eval_csv),
        "-q",
    ]);
    let e = read_csv(&eval_csv);
    let e = row(&e, "examples");
    let at_half = rows.iter().find(|r| num(r, "threshold") == 0.5).unwrap();
    for (sweep_col, eval_col) in [
        ("block_precision", "block_precision"),
        ("block_recall", "block_recall"),
        ("block_f1", "block_f1"),
        ("accuracy", "accuracy"),
        ("text_precision", "text_precision"),
        ("text_recall", "text_recall"),
        ("text_f1", "text_f1"),
        ("text_micro_f1", "text_micro_f1"),
    ] {
        assert_eq!(num(at_half, sweep_col), num(e, eval_col), "{sweep_col}");
    }
}

/// The real data folder, or `None` (with a loud message) when it is absent.
fn data_dir() -> Option<PathBuf> {
    let dir = std::env::var_os("VICTOR_DATA").map_or_else(
        || Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data"),
        PathBuf::from,
    );
    if dir.join("l3s-gn1/manifest.jsonl").is_file() {
        Some(dir)
    } else {
        eprintln!("skipped: {} not found", dir.join("l3s-gn1").display());
        None
    }
}

#[test]
fn eval_on_real_l3s_agrees_with_label_outputs() {
    let Some(data) = data_dir() else { return };
    let set = data.join("l3s-gn1");
    let model_dir = tiny_model();
    let tmp = tempfile::tempdir().unwrap();
    let csv_path = tmp.path().join("e.csv");
    victor(&[
        "eval",
        "--model",
        s(model_dir),
        s(&set),
        "--split",
        "test",
        "--csv",
        s(&csv_path),
        "-q",
    ]);
    let rows = read_csv(&csv_path);
    let r = row(&rows, "l3s-gn1");
    assert_eq!(r["source"], "manifest, --from l3s-gn1");
    assert_eq!(num(r, "failed"), 0.0);

    // victor label on the same pages, scored with the scorer's tokens
    let manifest = std::fs::read_to_string(set.join("manifest.jsonl")).unwrap();
    let entries: Vec<serde_json::Value> = manifest
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).unwrap())
        .filter(|e: &serde_json::Value| e["split"] == "test")
        .collect();
    let list = tmp.path().join("list");
    let paths: Vec<String> = entries
        .iter()
        .map(|e| s(&set.join(e["html"].as_str().unwrap())).to_string())
        .collect();
    std::fs::write(&list, paths.join("\n")).unwrap();
    let texts = tmp.path().join("texts");
    victor(&[
        "label",
        "--model",
        s(model_dir),
        "--format",
        "text",
        "--out",
        s(&texts),
        "--files-from",
        s(&list),
        "-q",
    ]);
    let mut tok = Tokenizer::new();
    let mut scores = TextScores::new();
    let mut bag = TokenBag::new();
    for e in &entries {
        let gold = tok.bag(&read_gold(&set.join(e["gold"].as_str().unwrap())).unwrap());
        let id = e["id"].as_str().unwrap();
        let got = std::fs::read_to_string(texts.join(format!("{id}.txt"))).unwrap_or_default();
        tok.fill_bag(&got, &mut bag);
        scores.push(PageScore::new(&bag, &gold));
    }
    assert_eq!(num(r, "text_pages"), entries.len() as f64);
    assert_eq!(num(r, "text_f1"), scores.macro_avg().unwrap().f1);
}

#[test]
fn eval_groups_the_text_figures_by_a_manifest_field() {
    let model_dir = tiny_model();
    let tmp = tempfile::tempdir().unwrap();
    let set = tmp.path().join("mini");
    mini_manifest_set(&set);
    let out = with_failures(&[
        "eval",
        "--model",
        s(model_dir),
        s(&set),
        "--split",
        "test",
        "--group-by",
        "page_type",
        "-q",
    ]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let section = stdout
        .split("Text level by page_type")
        .nth(1)
        .unwrap_or_else(|| panic!("no grouped table: {stdout}"));
    let pages = |value: &str| -> usize {
        let line = section
            .lines()
            .find(|l| l.split_whitespace().nth(1) == Some(value))
            .unwrap_or_else(|| panic!("no row {value}: {section}"));
        line.split_whitespace().nth(2).unwrap().parse().unwrap()
    };
    // Five pages alternate even/odd; the ghost has no page_type.
    assert_eq!((pages("even"), pages("odd"), pages("(none)")), (3, 2, 1));
}

#[test]
fn sweep_groups_the_text_figures_by_a_manifest_field() {
    let model_dir = tiny_model();
    let tmp = tempfile::tempdir().unwrap();
    let set = tmp.path().join("mini");
    mini_manifest_set(&set);
    let csv_path = tmp.path().join("g.csv");
    let svg_path = tmp.path().join("g.svg");
    let out = with_failures(&[
        "sweep",
        "--model",
        s(model_dir),
        s(&set),
        "--split",
        "test",
        "--step",
        "0.25",
        "--group-by",
        "page_type",
        "--csv",
        s(&csv_path),
        "--plot",
        s(&svg_path),
        "-q",
    ]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let section = stdout
        .split("Text F1 by page_type and threshold")
        .nth(1)
        .unwrap_or_else(|| panic!("no grouped table: {stdout}"));
    // Five pages alternate even/odd; the ghost has no page_type.
    for head in ["even (3)", "odd (2)", "(none) (1)"] {
        assert!(section.contains(head), "no column {head}: {section}");
    }
    assert!(
        section.contains("best text F1 by page_type: all "),
        "{section}"
    );
    let rows = read_csv(&csv_path);
    // 0, 0.25, 0.5, 0.75, 1 for the overall rows and for each of the three groups.
    assert_eq!(rows.len(), 5 * 4);
    let groups: Vec<&str> = rows.iter().map(|r| r["group"].as_str()).collect();
    assert_eq!(
        &groups[..6],
        ["(all)", "(all)", "(all)", "(all)", "(all)", "(none)"]
    );
    assert!(groups.contains(&"even") && groups.contains(&"odd"));
    // Macro F1 is a mean over pages: the groups' means weighted by their pages (3, 2, 1) give
    // the overall one at every threshold.
    let f1 = |g: &str, k: usize| -> f64 {
        num(
            rows.iter().filter(|r| r["group"] == g).nth(k).unwrap(),
            "text_f1",
        )
    };
    for k in 0..5 {
        let mixed = (3.0 * f1("even", k) + 2.0 * f1("odd", k) + f1("(none)", k)) / 6.0;
        assert!(
            (mixed - f1("(all)", k)).abs() < 1e-3,
            "threshold {k}: {mixed} vs {}",
            f1("(all)", k)
        );
    }
    let svg = std::fs::read_to_string(&svg_path).unwrap();
    assert!(
        svg.contains("text: even (3)"),
        "no curve per group in the plot"
    );
}

#[test]
fn import_leaves_out_pages_whose_gold_the_blocks_do_not_cover() {
    let tmp = tempfile::tempdir().unwrap();
    let set = tmp.path().join("mini");
    mini_manifest_set(&set);
    let out = run(&[
        "import",
        s(&set),
        "--from",
        "text",
        "--split",
        "test",
        "--min-coverage",
        "0.9",
        "--out",
        s(&tmp.path().join("imported")),
        "-q",
    ]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    let report: serde_json::Value = serde_json::from_slice(
        &std::fs::read(tmp.path().join("imported/import-report.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(report["options"]["min_coverage"], "0.9");
    let low: Vec<&str> = report["skipped"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|k| {
            k["reason"]
                .as_str()
                .unwrap()
                .contains("below the minimum 90.0%")
        })
        .map(|k| k["id"].as_str().unwrap())
        .collect();
    // The example pages' gold (their labelled blocks) is not all covered after the import's
    // alignment: some pages fall below 90% and are listed with the reason, not imported.
    assert!(!low.is_empty(), "{stderr}");
    for id in &low {
        assert!(
            stderr.contains(&format!("skipped page {id}: its blocks cover")),
            "{stderr}"
        );
        assert!(
            !tmp.path()
                .join(format!("imported/pages/{id}.html"))
                .exists()
        );
    }
    let kept = report["imported"].as_u64().unwrap();
    assert!(kept >= 1, "{report}");
    // The kinds of page of the manifest (`page_type`) get their own fidelity figures.
    let kinds = report["by_page_type"].as_object().unwrap();
    let pages: u64 = kinds
        .values()
        .map(|k| k["gold_covered_pages"]["pages"].as_u64().unwrap_or(0))
        .sum();
    assert!(!kinds.is_empty() && pages <= kept, "{report}");
}

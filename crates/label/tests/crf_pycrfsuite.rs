//! Cross-check against CRFsuite's own C implementation through python-crfsuite: marginals to
//! 1e-9 and Viterbi paths identical, on a model trained here with `crfs`.
//!
//! Needs `python3` (or the interpreter named by `VICTOR_PYTHON`) with `pycrfsuite`
//! (`pip install python-crfsuite`); without them the test says so and passes.

mod crf_support;

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

use crf_support::{Rng, random_items, scores, synthetic_pages, trained_model};
use ndarray::Array2;
use victor_label::{CrfModel, Workspace};

/// Reads sequences from stdin (positions as `|attr attr ...` lines, sequences separated by `=`
/// lines) and prints, per sequence, `P` and every marginal in the label order given on the
/// command line, then `V` and the Viterbi labels.
const SCRIPT: &str = r#"
import sys, pycrfsuite
tagger = pycrfsuite.Tagger()
tagger.open(sys.argv[1])
labels = sys.argv[2:]
assert sorted(tagger.labels()) == sorted(labels), tagger.labels()
out = []
for block in sys.stdin.read().split("\n=\n"):
    lines = [l for l in block.split("\n") if l.startswith("|")]
    xseq = [l[1:].split() for l in lines]
    tagger.set(xseq)
    marginals = [repr(tagger.marginal(y, t)) for t in range(len(xseq)) for y in labels]
    out.append("P " + " ".join(marginals))
    out.append("V " + " ".join(tagger.tag()))
sys.stdout.write("\n".join(out) + "\n")
"#;

fn python() -> String {
    std::env::var("VICTOR_PYTHON").unwrap_or_else(|_| "python3".to_owned())
}

/// Whether the interpreter runs and imports pycrfsuite.
fn pycrfsuite_available(python: &str) -> bool {
    Command::new(python)
        .args(["-c", "import pycrfsuite"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// Trains a model with CRFsuite's C trainer: pages on stdin as `|label attr attr ...` lines,
/// separated by `=` lines; the model goes to argv[1].
const TRAIN_SCRIPT: &str = r#"
import sys, pycrfsuite
trainer = pycrfsuite.Trainer(verbose=False)
for block in sys.stdin.read().split("\n=\n"):
    lines = [l[1:].split() for l in block.split("\n") if l.startswith("|")]
    trainer.append([l[1:] for l in lines], [l[0] for l in lines])
trainer.set_params({"c2": 0.5, "max_iterations": 60})
trainer.train(sys.argv[1])
"#;

/// Runs `script` with `args`, feeding `input` on stdin; returns stdout.
fn run_python(python: &str, script: &str, args: &[&str], input: String) -> String {
    let mut child = Command::new(python)
        .arg("-c")
        .arg(script)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let output = child.wait_with_output().unwrap();
    writer.join().unwrap().unwrap();
    assert!(
        output.status.success(),
        "python-crfsuite script failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).unwrap()
}

/// Pages in the scripts' input format; `labels` (if given) go first on each position's line.
fn encode(pages: &[Vec<Vec<String>>], labels: Option<&[Vec<&str>]>) -> String {
    pages
        .iter()
        .enumerate()
        .map(|(p, page)| {
            page.iter()
                .enumerate()
                .map(|(t, item)| match labels {
                    Some(labels) => format!("|{} {}\n", labels[p][t], item.join(" ")),
                    None => format!("|{}\n", item.join(" ")),
                })
                .collect::<String>()
        })
        .collect::<Vec<_>>()
        .join("=\n")
}

/// 30 short random pages and one of 20,000 blocks.
fn test_pages() -> Vec<Vec<Vec<String>>> {
    let mut rng = Rng(2024);
    let mut pages: Vec<Vec<Vec<String>>> = (0..30)
        .map(|_| {
            let n = 1 + rng.below(40);
            random_items(&mut rng, n)
        })
        .collect();
    pages.push(random_items(&mut rng, 20_000));
    pages
}

/// Compares our marginals and Viterbi paths with python-crfsuite's on the model at `path`;
/// returns the largest marginal difference and the number of positions.
fn compare(python: &str, model: &CrfModel, path: &Path) -> (f64, usize) {
    let pages = test_pages();
    let mut args = vec![path.to_str().unwrap()];
    args.extend(model.labels().iter().map(String::as_str));
    let stdout = run_python(python, SCRIPT, &args, encode(&pages, None));
    let mut lines = stdout.lines();

    let mut ws = Workspace::new();
    let mut marginals = Array2::zeros((0, 0));
    let mut worst = 0.0f64;
    let mut positions = 0;
    for page in &pages {
        let theirs: Vec<f64> = lines
            .next()
            .and_then(|l| l.strip_prefix("P"))
            .unwrap()
            .split_whitespace()
            .map(|x| x.parse().unwrap())
            .collect();
        let their_path: Vec<usize> = lines
            .next()
            .and_then(|l| l.strip_prefix("V"))
            .unwrap()
            .split_whitespace()
            .map(|y| model.label_id(y).unwrap())
            .collect();

        let s = scores(model, page);
        model.marginals(s.view(), &mut ws, &mut marginals).unwrap();
        assert_eq!(theirs.len(), marginals.len());
        for (ours, theirs) in marginals.iter().zip(&theirs) {
            worst = worst.max((ours - theirs).abs());
        }
        assert_eq!(model.viterbi(s.view(), &mut ws).unwrap(), their_path);
        positions += page.len();
    }
    assert!(lines.next().is_none());
    (worst, positions)
}

#[test]
fn marginals_and_viterbi_match_python_crfsuite() {
    let python = python();
    if !pycrfsuite_available(&python) {
        println!("skipped: python-crfsuite not installed (pip install python-crfsuite)");
        return;
    }
    let bytes = trained_model();
    let model = CrfModel::from_bytes(&bytes).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("model.crfsuite");
    std::fs::write(&path, &bytes).unwrap();

    let (worst, positions) = compare(&python, &model, &path);
    println!("crfs model, {positions} positions: largest difference from CRFsuite {worst:e}");
    assert!(worst < 1e-9, "marginals differ from CRFsuite by {worst}");
}

/// A model written by CRFsuite's C code (whose header leaves `num_features` at 0) is read
/// exactly as well.
#[test]
fn models_written_by_crfsuite_itself_are_read() {
    let python = python();
    if !pycrfsuite_available(&python) {
        println!("skipped: python-crfsuite not installed (pip install python-crfsuite)");
        return;
    }
    let training = synthetic_pages(42, 40, 25);
    let items: Vec<Vec<Vec<String>>> = training.iter().map(|(i, _)| i.clone()).collect();
    let labels: Vec<Vec<&str>> = training.iter().map(|(_, l)| l.clone()).collect();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("c-model.crfsuite");
    run_python(
        &python,
        TRAIN_SCRIPT,
        &[path.to_str().unwrap()],
        encode(&items, Some(&labels)),
    );
    let bytes = std::fs::read(&path).unwrap();
    assert_eq!(&bytes[16..20], &[0; 4], "CRFsuite's header count is 0");
    let model = CrfModel::from_bytes(&bytes).unwrap();
    assert_eq!(model.num_labels(), 3);
    assert_eq!(model.num_attrs(), 11);
    assert!(model.num_features() > 9);

    let (worst, positions) = compare(&python, &model, &path);
    println!("CRFsuite model, {positions} positions: largest difference from CRFsuite {worst:e}");
    assert!(worst < 1e-9, "marginals differ from CRFsuite by {worst}");
}

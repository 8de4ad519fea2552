//! Cross-check against CRFsuite's own C implementation through python-crfsuite: marginals to
//! 1e-9 and Viterbi paths identical, on a model trained here with `crfs`.
//!
//! Needs `python3` (or the interpreter named by `VICTOR_PYTHON`) with `pycrfsuite`
//! (`pip install python-crfsuite`); without them the test says so and passes.

mod crf_support;

use std::io::Write;
use std::process::{Command, Stdio};

use crf_support::{Rng, random_items, scores, trained_model};
use ndarray::Array2;
use victor_label::crf::{CrfModel, Workspace};

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

    // 30 short pages and one long one.
    let mut rng = Rng(2024);
    let mut pages: Vec<Vec<Vec<String>>> = (0..30)
        .map(|_| {
            let n = 1 + rng.below(40);
            random_items(&mut rng, n)
        })
        .collect();
    pages.push(random_items(&mut rng, 20_000));
    let input = pages
        .iter()
        .map(|page| {
            page.iter()
                .map(|item| format!("|{}\n", item.join(" ")))
                .collect::<String>()
        })
        .collect::<Vec<_>>()
        .join("=\n");

    let mut child = Command::new(&python)
        .arg("-c")
        .arg(SCRIPT)
        .arg(&path)
        .args(model.labels())
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
    let stdout = String::from_utf8(output.stdout).unwrap();
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

        let s = scores(&model, page);
        model.marginals(s.view(), &mut ws, &mut marginals).unwrap();
        assert_eq!(theirs.len(), marginals.len());
        for (ours, theirs) in marginals.iter().zip(&theirs) {
            worst = worst.max((ours - theirs).abs());
        }
        assert_eq!(model.viterbi(s.view(), &mut ws).unwrap(), their_path);
        positions += page.len();
    }
    assert!(lines.next().is_none());
    println!("{positions} positions: largest difference from CRFsuite's marginals {worst:e}");
    assert!(worst < 1e-9, "marginals differ from CRFsuite by {worst}");
}

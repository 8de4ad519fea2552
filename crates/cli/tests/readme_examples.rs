//! The README's example outputs are real: each code block after a `<!-- output of: victor ARGS
//! -->` comment is run (`victor ARGS`, in a folder where `page.html` is a copy of the example
//! news page) and every piece of the block between `...` marks must appear in the output, in
//! order. A model, an offset or a probability that changes makes this fail until the README
//! shows the new output.

mod common;

use std::process::Command;

use common::{VICTOR, examples, root};

/// The comment that introduces an example output in the README.
const MARK: &str = "<!-- output of: victor ";

/// An example: the arguments after `victor`, and the code block's text (unindented).
struct Example {
    args: Vec<String>,
    block: String,
}

/// Every example in `readme`: each [`MARK`] comment and the fenced block after it.
fn examples_in(readme: &str) -> Vec<Example> {
    let lines: Vec<&str> = readme.lines().collect();
    let mut out = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let Some(rest) = line.trim().strip_prefix(MARK) else {
            continue;
        };
        let args = rest
            .trim_end_matches("-->")
            .split_whitespace()
            .map(str::to_string)
            .collect();
        let fence = lines
            .iter()
            .skip(i + 1)
            .position(|l| l.trim_start().starts_with("```"))
            .map(|k| i + 1 + k)
            .unwrap_or_else(|| panic!("README line {}: no code block after it", i + 1));
        let indent = lines[fence].len() - lines[fence].trim_start().len();
        let body: Vec<&str> = lines
            .iter()
            .skip(fence + 1)
            .take_while(|l| !l.trim_start().starts_with("```"))
            .map(|l| l.get(indent..).unwrap_or_else(|| l.trim_start()))
            .collect();
        out.push(Example {
            args,
            block: body.join("\n"),
        });
    }
    out
}

/// Where `block`'s pieces between `...` marks are not found in `output` in order: the first
/// missing piece.
fn missing_piece<'a>(block: &'a str, output: &str) -> Option<&'a str> {
    let mut at = 0;
    for piece in block.split("...") {
        let piece = piece.trim_matches('\n');
        if piece.is_empty() {
            continue;
        }
        match output.get(at..).and_then(|rest| rest.find(piece)) {
            Some(k) => at += k + piece.len(),
            None => return Some(piece),
        }
    }
    None
}

#[test]
fn the_readme_example_outputs_are_what_victor_prints() {
    let readme = std::fs::read_to_string(root().join("README.md")).expect("README.md");
    let found = examples_in(&readme);
    // text, cleaneval, jsonl, jsonl-text, html, csv: one each at least.
    assert!(found.len() >= 6, "{} examples in the README", found.len());
    let tmp = tempfile::tempdir().expect("tempdir");
    std::fs::copy(
        examples().join("pages/news-harbour-bridge.html"),
        tmp.path().join("page.html"),
    )
    .expect("copy");
    for ex in &found {
        let o = Command::new(VICTOR)
            .args(&ex.args)
            .current_dir(tmp.path())
            .output()
            .expect("victor runs");
        assert!(
            o.status.success(),
            "victor {:?}: {}",
            ex.args,
            String::from_utf8_lossy(&o.stderr)
        );
        let output = String::from_utf8(o.stdout).expect("UTF-8 output");
        if let Some(piece) = missing_piece(&ex.block, &output) {
            panic!(
                "README: the output of victor {} does not hold\n{piece}\n\nIt begins:\n{}",
                ex.args.join(" "),
                output.chars().take(1500).collect::<String>()
            );
        }
    }
}

#[test]
fn a_piece_out_of_order_or_changed_is_caught() {
    let output = "a,1\nb,2\nc,3\n";
    assert_eq!(missing_piece("a,1\n...\nc,3", output), None);
    assert_eq!(missing_piece("c,3\n...\na,1", output), Some("a,1"));
    assert_eq!(missing_piece("b,2.5", output), Some("b,2.5"));
}

/// The value of a command's `--model`.
fn model_of<'a>(c: &[&'a str]) -> Option<&'a str> {
    c.iter()
        .position(|a| *a == "--model")
        .and_then(|k| c.get(k + 1).copied())
}

/// The README's section `title`: its text up to the next `## ` heading.
fn section<'a>(readme: &'a str, title: &str) -> &'a str {
    let start = readme
        .find(&format!("\n## {title}\n"))
        .unwrap_or_else(|| panic!("README has no section {title}"));
    let rest = &readme[start + 1..];
    let end = rest[3..].find("\n## ").map_or(rest.len(), |k| k + 3);
    &rest[..end]
}

#[test]
fn your_own_guideline_runs_and_compares_the_adapted_bundle_with_web() {
    let readme = std::fs::read_to_string(root().join("README.md")).expect("README.md");
    let text = section(&readme, "Your own guideline");
    let block = text
        .split("```sh\n")
        .nth(1)
        .and_then(|b| b.split("```").next())
        .expect("a sh block");
    // Every command of the block, comments off, one per `;`.
    let commands: Vec<Vec<&str>> = block
        .lines()
        .map(|l| l.split(" #").next().unwrap_or(""))
        .flat_map(|l| l.split(';'))
        .map(|c| c.split_whitespace().collect::<Vec<_>>())
        .filter(|c| !c.is_empty())
        .collect();
    // Issue 67: the adapted bundle and web, scored on pages it was not trained on.
    let evals: Vec<&Vec<&str>> = commands
        .iter()
        .filter(|c| c.get(1) == Some(&"eval"))
        .collect();
    let trained = commands
        .iter()
        .find(|c| c.get(1) == Some(&"train"))
        .and_then(|c| c.get(2).copied())
        .expect("a victor train");
    let mut models: Vec<&str> = evals.iter().filter_map(|c| model_of(c)).collect();
    models.sort_unstable();
    assert_eq!(models, ["models/mine", "web"], "{block}");
    for e in &evals {
        assert_ne!(
            e.get(2).copied(),
            Some(trained),
            "scored on the training pages: {e:?}"
        );
    }
    // The commands run (but the annotation tool, a server): the example set stands for the
    // annotated and the held-out pages.
    let tmp = tempfile::tempdir().expect("tempdir");
    for c in &commands {
        for arg in c.iter().skip(2).filter(|a| a.ends_with('/')) {
            let dir = tmp.path().join(arg.trim_end_matches('/'));
            if dir.exists() || *arg == "clean/" {
                continue;
            }
            let from = if *arg == "pages/" {
                examples().join("pages")
            } else {
                examples()
            };
            std::os::unix::fs::symlink(from, dir).expect("symlink");
        }
    }
    std::fs::create_dir(tmp.path().join("models")).expect("mkdir");
    for c in commands.iter().filter(|c| c.get(1) != Some(&"annotate")) {
        assert_eq!(c[0], "victor", "{c:?}");
        let o = Command::new(VICTOR)
            .args(&c[1..])
            .arg("-q")
            .current_dir(tmp.path())
            .output()
            .expect("victor runs");
        assert!(
            o.status.success(),
            "{c:?}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        if c[1] == "eval" {
            let out = String::from_utf8_lossy(&o.stdout);
            let model = model_of(c).expect("a model");
            assert!(
                out.starts_with(&format!("victor eval: model {model}, ")),
                "{out}"
            );
        }
    }
}

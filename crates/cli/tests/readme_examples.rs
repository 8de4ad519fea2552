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

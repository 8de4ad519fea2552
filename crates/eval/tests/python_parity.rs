//! The tokenizer, the gold reader and the text scores against the acceptance scorer itself:
//! `checks/score.py` is imported by `python3` and run on every code point, on tricky strings,
//! on every gold file of the data sets, and end to end on a folder of extracted texts.
//!
//! Needs `python3` and the shared data (`VICTOR_DATA`, else `../../../shared/data` from the
//! crate; `score.py` is `<data>/../checks/score.py`). Each test prints `skipped: ...` and
//! passes when they are absent.

use std::collections::BTreeSet;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use serde_json::Value;
use victor_eval::{Bags, Tokenizer, is_single, is_word_char};
use victor_eval::{PageScore, TextScores, gold_text, read_gold, read_text_lossy};

/// Python side: imports score.py from argv[2] and answers one question (argv[1]).
const HELPER: &str = r#"
import importlib.util, json, re, sys, unicodedata
from pathlib import Path
spec = importlib.util.spec_from_file_location("score", sys.argv[2])
score = importlib.util.module_from_spec(spec)
spec.loader.exec_module(score)

def toks(text):
    return score.TOKEN.findall(unicodedata.normalize("NFKC", text).lower())

mode = sys.argv[1]
if mode == "classes":
    word = re.compile(rf"[^\W_{score.SINGLE}]")
    single = re.compile(rf"[{score.SINGLE}]")
    for name, rx in (("W", word), ("S", single)):
        start = None
        for cp in range(0x110001):
            hit = cp < 0x110000 and rx.fullmatch(chr(cp)) is not None
            if hit and start is None:
                start = cp
            elif not hit and start is not None:
                print(name, start, cp - 1)
                start = None
elif mode == "allchars":
    text = "".join(chr(cp) + "\n" for cp in range(0x110000)
                   if unicodedata.category(chr(cp)) not in ("Cn", "Cs"))
    json.dump({"text": text, "tokens": toks(text)}, sys.stdout)
elif mode == "strings":
    for s in json.load(sys.stdin):
        print(json.dumps({"gold": score.gold_text(s), "tokens": toks(s)}))
elif mode == "files":
    for line in sys.stdin:
        raw = Path(line.rstrip("\n")).read_text(encoding="utf-8", errors="replace")
        gold = score.gold_text(raw)
        print(json.dumps({"gold": gold, "tokens": toks(gold)}))
"#;

/// The data directory, or `None` after printing why the test is skipped.
fn data_dir(test: &str) -> Option<PathBuf> {
    let dir = std::env::var_os("VICTOR_DATA")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data"));
    if dir.is_dir() {
        Some(dir)
    } else {
        eprintln!(
            "skipped: {test}: data directory {} not found",
            dir.display()
        );
        None
    }
}

/// `score.py` and a working `python3`, or `None` after printing why the test is skipped.
fn scorer(test: &str) -> Option<PathBuf> {
    let data = data_dir(test)?;
    let score = data.join("../checks/score.py");
    if !score.is_file() {
        eprintln!("skipped: {test}: scorer {} not found", score.display());
        return None;
    }
    match Command::new("python3").arg("-c").arg("pass").status() {
        Ok(s) if s.success() => Some(score),
        _ => {
            eprintln!("skipped: {test}: python3 not found");
            None
        }
    }
}

/// Runs the helper in `mode`, feeding `input`, and returns its standard output.
fn run_helper(score: &Path, mode: &str, input: &str) -> String {
    let mut child = Command::new("python3")
        .arg("-c")
        .arg(HELPER)
        .arg(mode)
        .arg(score)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("start python3");
    let mut stdin = child.stdin.take().expect("stdin");
    let input = input.to_owned();
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let out = child.wait_with_output().expect("python3 output");
    writer.join().expect("writer thread").expect("write stdin");
    assert!(out.status.success(), "python helper failed in mode {mode}");
    String::from_utf8(out.stdout).expect("python output is UTF-8")
}

fn str_list(v: &Value) -> Vec<String> {
    v.as_array()
        .expect("array")
        .iter()
        .map(|t| t.as_str().expect("string").to_owned())
        .collect()
}

/// Index and values of the first difference of two token lists, for a readable failure.
fn first_difference(a: &[String], b: &[String]) -> String {
    let i = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    format!(
        "lengths {} vs {}; first difference at token {i}: {:?} vs {:?}",
        a.len(),
        b.len(),
        a.get(i.saturating_sub(2)..(i + 3).min(a.len())),
        b.get(i.saturating_sub(2)..(i + 3).min(b.len())),
    )
}

#[test]
fn character_classes_match_python_on_every_code_point() {
    let Some(score) = scorer("character classes") else {
        return;
    };
    let out = run_helper(&score, "classes", "");
    let (mut word, mut single) = (BTreeSet::new(), BTreeSet::new());
    for line in out.lines() {
        let mut f = line.split(' ');
        let (Some(kind), Some(lo), Some(hi)) = (f.next(), f.next(), f.next()) else {
            panic!("bad helper line {line:?}");
        };
        let (lo, hi): (u32, u32) = (lo.parse().expect("lo"), hi.parse().expect("hi"));
        let set = if kind == "W" { &mut word } else { &mut single };
        set.extend(lo..=hi);
    }
    assert!(
        word.len() > 100_000,
        "python found only {} word characters",
        word.len()
    );
    let mut wrong = Vec::new();
    for cp in 0..0x110000u32 {
        let Some(c) = char::from_u32(cp) else {
            continue;
        };
        if is_word_char(c) != word.contains(&cp) || is_single(c) != single.contains(&cp) {
            wrong.push(format!("U+{cp:04X}"));
        }
    }
    assert!(
        wrong.is_empty(),
        "{} code points classified unlike Python (regenerate src/tokens/word.rs as its \
         documentation says): {:?}",
        wrong.len(),
        &wrong[..wrong.len().min(20)]
    );
}

#[test]
fn tokens_match_python_on_every_assigned_character() {
    let Some(score) = scorer("all characters") else {
        return;
    };
    let out: Value = serde_json::from_str(&run_helper(&score, "allchars", "")).expect("json");
    let text = out["text"].as_str().expect("text");
    let expected = str_list(&out["tokens"]);
    let got = Tokenizer::new().tokens(text);
    assert!(expected.len() > 100_000, "only {} tokens", expected.len());
    assert!(got == expected, "{}", first_difference(&got, &expected));
}

/// Strings that exercise normalization, case mapping, scripts and the gold markers.
const TRICKY: &[&str] = &[
    "ΟΔΟΣ ΟΔΟΣ. Σ ΑΣ. ΣΑ ὈΔΥΣΣΕΎΣ's Σ̈ A.Σ",
    "İstanbul KELVIN \u{212a} ß ẞ ǅemal ﬁne ﬃ Ⅻ ⅻ ① ⑩ Ⓐ 🅐 🄰 ² x² ½ ℌ",
    "हिन्दी भाषा, বাংলা, தமிழ், العَرَبِيَّة, עִבְרִית, ქართული ᲥᲐᲠᲗᲣᲚᲘ",
    "日本語のテキスト、カタカナ・ひらがな。ｶﾀｶﾅ 漢字abc123 𠀋𠀌 한국어 텍스트 ㈱ ㍻",
    "ภาษาไทย ไม่มีช่องว่าง ກາວ ខ្មែរ ᏣᎳᎩ ꮳꮃꭹ",
    "snake_case __init__ a_b_1 e\u{301}te\u{301} cafe\u{0301} naïve Å Å",
    "soft\u{ad}hyphen zero\u{200b}width join\u{200d}er nb\u{a0}sp em\u{2003}space \u{feff}bom",
    "1,000.5 3.14 -42 +7 0x1F 1e10 ٣٤٥ ۴۵ १२३ 𝟏𝟐 𝐀𝐁𝐂 ℃ №5",
    "emoji 😀👍🏽 👨‍👩‍👧 ❤️ ✓ © ® ™ ℠ 〇 々 〆 ヽ ゝ ー",
    "<p>marker text\n<h>  Header <b>bold</b>\n< / l >item\n<ſ>x\n<p1234567890>long\n\u{1c}<s>x",
    "URL: http://example.test/\n<p>first\r\nsecond\rthird\u{2028}fourth\u{85}fifth\u{b}sixth",
    "  URL:x\n<h>Title",
    "\u{feff}URL: bom first\nrest",
    "",
    "\n\n",
    "Ǆ ǈ ǋ ǲ ΐ ΰ և ŉ ǰ ẖ ẗ ẘ ẙ ẚ ﬀ ﬅ ﬓ ﬗ",
];

#[test]
fn tricky_strings_match_python() {
    let Some(score) = scorer("tricky strings") else {
        return;
    };
    let input = serde_json::to_string(TRICKY).expect("json");
    let out = run_helper(&score, "strings", &input);
    let mut tokenizer = Tokenizer::new();
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), TRICKY.len());
    for (s, line) in TRICKY.iter().zip(lines) {
        let v: Value = serde_json::from_str(line).expect("json");
        assert_eq!(
            gold_text(s),
            v["gold"].as_str().expect("gold"),
            "gold_text of {s:?}"
        );
        let expected = str_list(&v["tokens"]);
        let got = tokenizer.tokens(s);
        assert!(
            got == expected,
            "tokens of {s:?}: {}",
            first_difference(&got, &expected)
        );
    }
}

/// The gold files of a data set, from its manifest, in manifest order, with their split.
fn gold_files(set: &Path) -> Vec<(String, PathBuf, String)> {
    let manifest = std::fs::read_to_string(set.join("manifest.jsonl")).expect("manifest");
    manifest
        .lines()
        .map(|line| {
            let v: Value = serde_json::from_str(line).expect("manifest line");
            (
                v["id"].as_str().expect("id").to_owned(),
                set.join(v["gold"].as_str().expect("gold")),
                v["split"].as_str().unwrap_or("").to_owned(),
            )
        })
        .collect()
}

#[test]
fn gold_files_match_python() {
    let Some(score) = scorer("gold files") else {
        return;
    };
    let data = data_dir("gold files").expect("checked by scorer()");
    let mut checked = 0;
    let mut tokenizer = Tokenizer::new();
    for set in ["l3s-gn1", "cleaneval", "dragnet-train"] {
        let dir = data.join(set);
        if !dir.join("manifest.jsonl").is_file() {
            eprintln!("skipped: gold files of {set}: not found");
            continue;
        }
        let files = gold_files(&dir);
        let input: String = files
            .iter()
            .map(|(_, p, _)| format!("{}\n", p.display()))
            .collect();
        let out = run_helper(&score, "files", &input);
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), files.len(), "{set}: one answer per file");
        for ((id, path, _), line) in files.iter().zip(lines) {
            let v: Value = serde_json::from_str(line).expect("json");
            let gold = read_gold(path).expect("read gold");
            assert_eq!(
                gold,
                v["gold"].as_str().expect("gold"),
                "{set}/{id}: gold text"
            );
            let expected = str_list(&v["tokens"]);
            let got = tokenizer.tokens(&gold);
            assert!(
                got == expected,
                "{set}/{id}: {}",
                first_difference(&got, &expected)
            );
            checked += 1;
        }
    }
    eprintln!("gold files identical to score.py: {checked}");
}

/// A deterministic stand-in for an extractor's output: every other gold line, then the first
/// kilobyte of the page's HTML (markup and all), or nothing for every seventh page.
fn fake_extraction(index: usize, gold_raw: &str, html: &str) -> Option<String> {
    if index % 7 == 3 {
        return None;
    }
    let mut out: String = gold_raw
        .lines()
        .step_by(2)
        .flat_map(|l| [l, "\n"])
        .collect();
    out.extend(html.chars().take(1000));
    Some(out)
}

#[test]
fn macro_scores_match_score_py_end_to_end() {
    let Some(score) = scorer("end-to-end score") else {
        return;
    };
    let data = data_dir("end-to-end score").expect("checked by scorer()");
    let set = data.join("cleaneval");
    if !set.join("manifest.jsonl").is_file() {
        eprintln!("skipped: end-to-end score: cleaneval not found");
        return;
    }
    let out_dir = tempfile::tempdir().expect("temp dir");
    let mut tokenizer = Tokenizer::new();
    let mut scores = TextScores::new();
    let files = gold_files(&set);
    for (index, (id, gold_path, split)) in files.iter().enumerate() {
        if split != "test" {
            continue;
        }
        let raw = read_text_lossy(gold_path).expect("gold");
        let html =
            read_text_lossy(&set.join("html").join(format!("{id}.html"))).unwrap_or_default();
        let extracted = fake_extraction(index, &raw, &html);
        if let Some(text) = &extracted {
            std::fs::write(out_dir.path().join(format!("{id}.txt")), text).expect("write");
        }
        let gold = tokenizer.bag(&gold_text(&raw));
        let page = PageScore::new(&tokenizer.bag(extracted.as_deref().unwrap_or("")), &gold);
        scores.push(page);
    }
    let out = Command::new("python3")
        .arg(&score)
        .args(["--split", "test", "--set"])
        .arg(&set)
        .arg("--out-dir")
        .arg(out_dir.path())
        .output()
        .expect("run score.py");
    assert!(out.status.success(), "score.py failed");
    let printed = String::from_utf8(out.stdout).expect("utf-8");
    let m = scores.macro_avg().expect("pages");
    let ours = format!(
        "macro_P={:.4} macro_R={:.4} macro_F1={:.4} pages={}",
        m.precision,
        m.recall,
        m.f1,
        scores.len()
    );
    assert!(
        printed.starts_with(&ours),
        "score.py printed {printed:?}, we computed {ours:?}"
    );
    eprintln!("score.py: {}", printed.trim());
}

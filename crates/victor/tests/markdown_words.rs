//! `Cleaner::markdown` on real pages: the dev pages of `../shared/data/readability-tests` (or
//! `$VICTOR_DATA/readability-tests`), cleaned with the built-in model. Each page's Markdown is
//! read back with a CommonMark parser (pulldown-cmark, GFM tables on): its words must be
//! `Cleaner::clean`'s, in order, and the pages together must hold headings, list items, table
//! cells and code blocks. Without the data the test says `skipped`.
#![cfg(feature = "builtin")]

use std::path::PathBuf;

use pulldown_cmark::{Event, Options, Parser, Tag};

fn words(s: &str) -> Vec<String> {
    s.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect()
}

#[test]
fn markdown_of_real_pages_reads_back_with_the_text_outputs_words() {
    let data = std::env::var_os("VICTOR_DATA")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data"));
    let set = data.join("readability-tests");
    let Ok(manifest) = std::fs::read_to_string(set.join("manifest.jsonl")) else {
        eprintln!("skipped: {} not found (set $VICTOR_DATA)", set.display());
        println!("skipped: no readability-tests data");
        return;
    };
    let cleaner = victor::Cleaner::builtin().expect("built-in model");
    let mut counts = [0usize; 4];
    let mut pages = 0;
    for line in manifest.lines() {
        let m: serde_json::Value = serde_json::from_str(line).expect("manifest line");
        if m["split"] != "dev" {
            continue;
        }
        let html = std::fs::read(set.join(m["html"].as_str().unwrap_or_default())).expect("page");
        let (Ok(text), Ok(md)) = (cleaner.clean(&html), cleaner.markdown(&html)) else {
            continue;
        };
        pages += 1;
        let mut read = String::new();
        for ev in Parser::new_ext(&md, Options::ENABLE_TABLES) {
            if matches!(
                ev,
                Event::Start(_) | Event::End(_) | Event::SoftBreak | Event::HardBreak
            ) {
                read.push(' ');
            }
            match ev {
                Event::Start(Tag::Heading { .. }) => counts[0] += 1,
                Event::Start(Tag::Item) => counts[1] += 1,
                Event::Start(Tag::TableCell) => counts[2] += 1,
                Event::Start(Tag::CodeBlock(_)) => counts[3] += 1,
                Event::Text(t) | Event::Code(t) => read.push_str(&t),
                _ => {}
            }
        }
        let (got, want) = (words(&read), words(&text));
        let at = got.iter().zip(&want).take_while(|(a, b)| a == b).count();
        assert!(
            got == want,
            "page {}: words differ at {at}: {:?} vs {:?}",
            m["id"],
            got.get(at.saturating_sub(3)..(at + 5).min(got.len())),
            want.get(at.saturating_sub(3)..(at + 5).min(want.len()))
        );
    }
    assert!(pages >= 20, "{pages} pages");
    assert!(
        counts.iter().all(|&c| c > 0),
        "headings, items, cells, code: {counts:?}"
    );
}

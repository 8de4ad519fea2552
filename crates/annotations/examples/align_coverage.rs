//! Rough alignment figures on the shared gold standards, before the real segmenter exists.
//!
//! Blocks are approximated by splitting the raw HTML on tags after dropping `script`, `style`,
//! `title`, `noscript` and comments, with a handful of entities decoded; pages that are not
//! UTF-8 are read as Latin-1. That is cruder than victor's segmenter, so the figures are only
//! an estimate of what the importers will reach.
//!
//! Usage: `cargo run --release -p victor-annotations --example align_coverage [SET…]`, with
//! SET among `cleaneval`, `dragnet-train`, `l3s-gn1` (default: all three). The data is read
//! from `$VICTOR_DATA` or `../../../shared/data` relative to the crate. `ALIGN_MIN_RUN=k`
//! overrides [`AlignConfig::min_run`]; `VERBOSE=1` prints one line per page.

use std::path::{Path, PathBuf};
use std::time::Instant;

use victor_annotations::{AlignConfig, DEFAULT_CONTENT_THRESHOLD, GoldSegment, SegmentKind, align};

fn main() {
    let data = std::env::var_os("VICTOR_DATA").map_or_else(
        || Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data"),
        PathBuf::from,
    );
    if !data.is_dir() {
        eprintln!("skipped: data directory {} not found", data.display());
        return;
    }
    let mut sets: Vec<String> = std::env::args().skip(1).collect();
    if sets.is_empty() {
        sets = ["cleaneval", "dragnet-train", "l3s-gn1"]
            .map(String::from)
            .to_vec();
    }
    let verbose = std::env::var_os("VERBOSE").is_some();
    for set in &sets {
        report(&data.join(set), set, verbose);
    }
}

#[derive(Default)]
struct Sums {
    pages: usize,
    gold: u64,
    found: u64,
    covered: u64,
    labelled: u64,
    labelled_in_gold: u64,
    stray: u64,
    recall_sum: f64,
    precision_sum: f64,
    worst: Vec<(f64, String)>,
}

fn report(dir: &Path, set: &str, verbose: bool) {
    let Ok(manifest) = std::fs::read_to_string(dir.join("manifest.jsonl")) else {
        eprintln!("skipped: {} not found", dir.display());
        return;
    };
    let mut config = AlignConfig::default();
    if let Some(k) = std::env::var("ALIGN_MIN_RUN")
        .ok()
        .and_then(|v| v.parse().ok())
    {
        config.min_run = k;
    }
    let mut sums = Sums::default();
    let mut align_time = 0.0;
    for line in manifest.lines() {
        let Some(id) = field(line, "id") else {
            continue;
        };
        let (Some(html), Some(gold)) = (field(line, "html"), field(line, "gold")) else {
            continue;
        };
        let (Ok(html), Ok(gold)) = (
            victor_features::file::read_page_file(&dir.join(html)),
            std::fs::read_to_string(dir.join(gold)),
        ) else {
            continue;
        };
        let blocks = crude_blocks(&decode(&html));
        let gold = fix_utf16_mojibake(gold);
        let segments = gold.lines().map(|l| {
            let (kind, text) = if set == "dragnet-train" {
                (SegmentKind::Unmarked, l)
            } else {
                SegmentKind::split_marker(l)
            };
            GoldSegment::new(text, kind)
        });
        let start = Instant::now();
        let Ok(a) = align(&blocks, segments, &config) else {
            continue;
        };
        align_time += start.elapsed().as_secs_f64();
        let labels = a.labels(DEFAULT_CONTENT_THRESHOLD);
        let Ok(f) = a.fidelity(&labels) else { continue };
        let t = a.totals();
        sums.pages += 1;
        sums.gold += f.gold_content_tokens;
        sums.found += t.content_gold_found;
        sums.covered += f.gold_content_covered;
        sums.labelled += f.labelled_content_tokens;
        sums.labelled_in_gold += f.labelled_content_in_gold;
        sums.stray += t.page_content - f.labelled_content_in_gold;
        sums.recall_sum += f.recall();
        sums.precision_sum += f.precision();
        sums.worst
            .push((f.recall().min(f.precision()), id.to_string()));
        if verbose {
            println!(
                "{set} {id}: gold {} found {} covered {} labelled {} in gold {}",
                f.gold_content_tokens,
                t.content_gold_found,
                f.gold_content_covered,
                f.labelled_content_tokens,
                f.labelled_content_in_gold
            );
        }
    }
    let pct = |a: u64, b: u64| 100.0 * a as f64 / b.max(1) as f64;
    let n = sums.pages.max(1) as f64;
    println!(
        "{set}: {} pages, gold tokens {}: found {:.2}%, covered by content blocks {:.2}% \
         (page mean {:.2}%); content-block tokens in gold {:.2}% (page mean {:.2}%); \
         content-aligned tokens left in other blocks {:.2}%; align {:.1} ms/page",
        sums.pages,
        sums.gold,
        pct(sums.found, sums.gold),
        pct(sums.covered, sums.gold),
        100.0 * sums.recall_sum / n,
        pct(sums.labelled_in_gold, sums.labelled),
        100.0 * sums.precision_sum / n,
        pct(sums.stray, sums.found),
        1000.0 * align_time / n,
    );
    sums.worst.sort_by(|a, b| a.0.total_cmp(&b.0));
    let worst: Vec<String> = sums
        .worst
        .iter()
        .take(8)
        .map(|(v, id)| format!("{id} {:.0}%", 100.0 * v))
        .collect();
    println!(
        "  worst pages (min of recall, precision): {}",
        worst.join(", ")
    );
}

/// The string value of `"key": "value"` in a JSON line (no escapes in these manifests).
fn field<'a>(line: &'a str, key: &str) -> Option<&'a str> {
    let pat = format!("\"{key}\": \"");
    let start = line.find(&pat)? + pat.len();
    let len = line.get(start..)?.find('"')?;
    line.get(start..start + len)
}

/// Some dragnet gold files are UTF-16LE text re-encoded byte by byte as Latin-1 into UTF-8:
/// they start with "ÿþ" and have a NUL after every character. Undo that.
fn fix_utf16_mojibake(gold: String) -> String {
    match gold.strip_prefix("ÿþ") {
        Some(rest) => rest.chars().filter(|&c| c != '\0').collect(),
        None => gold,
    }
}

/// UTF-8 if valid, else Latin-1.
fn decode(bytes: &[u8]) -> String {
    match std::str::from_utf8(bytes) {
        Ok(s) => s.to_string(),
        Err(_) => bytes.iter().map(|&b| b as char).collect(),
    }
}

/// Text runs between tags, outside script, style, title, noscript and comments.
fn crude_blocks(html: &str) -> Vec<String> {
    let lower = html.to_ascii_lowercase();
    let mut blocks = Vec::new();
    let mut pos = 0;
    while pos < html.len() {
        let Some(lt) = lower.get(pos..).and_then(|s| s.find('<')).map(|i| pos + i) else {
            push_text(&mut blocks, html.get(pos..).unwrap_or(""));
            break;
        };
        push_text(&mut blocks, html.get(pos..lt).unwrap_or(""));
        let rest = lower.get(lt..).unwrap_or("");
        let skip_to = if rest.starts_with("<!--") {
            rest.find("-->").map(|i| lt + i + 3)
        } else {
            ["script", "style", "title", "noscript"]
                .iter()
                .find_map(|t| {
                    let open = format!("<{t}");
                    let after = rest.get(open.len()..)?.chars().next()?;
                    if rest.starts_with(&open) && (after == '>' || after.is_whitespace()) {
                        let close = format!("</{t}");
                        // An unclosed title ends at the next tag instead (l3s-gn1 has ten of those).
                        let unclosed = if *t == "title" {
                            None
                        } else {
                            Some(html.len())
                        };
                        rest.find(&close)
                            .map(|i| {
                                lt + i + rest.get(i..).and_then(|r| r.find('>')).unwrap_or(0) + 1
                            })
                            .or(unclosed)
                    } else {
                        None
                    }
                })
        };
        pos = match skip_to {
            Some(p) => p,
            None => rest.find('>').map_or(html.len(), |i| lt + i + 1),
        };
        while !html.is_char_boundary(pos.min(html.len())) {
            pos += 1;
        }
    }
    blocks
}

fn push_text(blocks: &mut Vec<String>, raw: &str) {
    let text = decode_entities(raw);
    let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if !text.is_empty() {
        blocks.push(text);
    }
}

/// Decodes the common named entities and numeric references.
fn decode_entities(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(amp) = rest.find('&') {
        out.push_str(rest.get(..amp).unwrap_or(""));
        let tail = rest.get(amp..).unwrap_or("");
        let end = tail
            .char_indices()
            .take(12)
            .find(|&(_, c)| c == ';')
            .map(|(i, _)| i);
        let decoded = end.and_then(|e| {
            let name = tail.get(1..e)?;
            let c = match name {
                "amp" => '&',
                "lt" => '<',
                "gt" => '>',
                "quot" => '"',
                "apos" => '\'',
                "nbsp" => ' ',
                "mdash" => '—',
                "ndash" => '–',
                "rsquo" => '’',
                "lsquo" => '‘',
                "ldquo" => '“',
                "rdquo" => '”',
                "hellip" => '…',
                "copy" => '©',
                "reg" => '®',
                "trade" => '™',
                "raquo" => '»',
                "laquo" => '«',
                "middot" => '·',
                "bull" => '•',
                "eacute" => 'é',
                _ => {
                    let num = name.strip_prefix('#')?;
                    let code = match num.strip_prefix(['x', 'X']) {
                        Some(hex) => u32::from_str_radix(hex, 16).ok()?,
                        None => num.parse().ok()?,
                    };
                    char::from_u32(code)?
                }
            };
            Some((c, e + 1))
        });
        match decoded {
            Some((c, len)) => {
                out.push(c);
                rest = tail.get(len..).unwrap_or("");
            }
            None => {
                out.push('&');
                rest = tail.get(1..).unwrap_or("");
            }
        }
    }
    out.push_str(rest);
    out
}

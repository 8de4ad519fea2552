//! html5ever as a test oracle for the segmenter.
//!
//! For every page of `../shared/data` (or `$VICTOR_DATA`), the block texts victor produces are
//! compared with a walk over the DOM html5ever builds from the same decoded text (text nodes
//! outside excluded elements, white space collapsed the same way), and the ancestor path of every
//! block with the path of the matching text node. Pages where victor deliberately departs from the
//! strict HTML5 rules (an unclosed `<title>` or `<noscript>` that would swallow the page) are
//! counted separately.
//!
//! The test prints the two figures the segmenter is held to (share of pages with identical block
//! texts, share of blocks with identical ancestor paths) and fails if they fall below the floor
//! recorded here. `VICTOR_ORACLE_SHOW=N` prints the first N disagreements.

use std::path::{Path, PathBuf};

use victor_html::{decode, segment};

mod html5ever_tree;
mod wrapper;
use html5ever_tree::html5ever_blocks;
use wrapper::without_wrapper;

fn data_dir() -> Option<PathBuf> {
    let dir = std::env::var_os("VICTOR_DATA")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data"));
    dir.is_dir().then_some(dir)
}

fn pages(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for set in ["l3s-gn1", "cleaneval", "dragnet-train"] {
        let Ok(rd) = std::fs::read_dir(dir.join(set).join("html")) else {
            continue;
        };
        let mut v: Vec<PathBuf> = rd.filter_map(|e| e.ok().map(|e| e.path())).collect();
        v.sort();
        out.extend(v);
    }
    out
}

/// The oracle's blocks as `(text, tag path)`, the order this test compares them in.
fn oracle(html: &str) -> Vec<(String, String)> {
    html5ever_blocks(html)
        .into_iter()
        .map(|(p, t)| (t, p))
        .collect()
}

#[test]
fn segmenter_agrees_with_html5ever_on_real_pages() {
    let Some(dir) = data_dir() else {
        eprintln!("skipped: ../shared/data not found (set VICTOR_DATA); html5ever oracle not run");
        return;
    };
    let files = pages(&dir);
    if files.is_empty() {
        eprintln!("skipped: no pages under {}", dir.display());
        return;
    }
    let show: usize = std::env::var("VICTOR_ORACLE_SHOW")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    let (mut pages_same, mut pages_cmp, mut recovered) = (0usize, 0usize, 0usize);
    let (mut blocks_same, mut blocks_total) = (0usize, 0usize);
    let mut shown = 0;
    for f in &files {
        let bytes = victor_html::file::read_page_file(f)
            .unwrap_or_else(|e| panic!("cannot read {}: {e}", f.display()));
        let Ok(doc) = decode(&bytes) else {
            continue;
        };
        let Ok(page) = segment(&doc.text) else {
            continue;
        };
        if page.recovered {
            recovered += 1;
            continue;
        }
        let ours: Vec<(String, String)> = page
            .blocks
            .iter()
            .map(|b| (page.block_text(b).to_string(), page.path(b.parent)))
            .collect();
        let theirs = oracle(&without_wrapper(&doc.text));
        pages_cmp += 1;
        let same_texts =
            ours.len() == theirs.len() && ours.iter().zip(&theirs).all(|(a, b)| a.0 == b.0);
        if same_texts {
            pages_same += 1;
        }
        // Ancestor paths: compare blocks matched in order by text (LCS over texts).
        let matched = lcs_pairs(&ours, &theirs);
        blocks_total += ours.len();
        for &(i, j) in &matched {
            if ours[i].1 == theirs[j].1 {
                blocks_same += 1;
            } else if shown < show {
                shown += 1;
                eprintln!(
                    "PATH {}: {:?}\n   victor   {}\n   html5ever {}",
                    f.display(),
                    ours[i].0,
                    ours[i].1,
                    theirs[j].1
                );
            }
        }
        if !same_texts && shown < show {
            shown += 1;
            let k = ours
                .iter()
                .zip(&theirs)
                .position(|(a, b)| a.0 != b.0)
                .unwrap_or(ours.len().min(theirs.len()));
            eprintln!(
                "TEXT {}: blocks {} vs {}; first difference at {k}:\n   victor   {:?}\n   html5ever {:?}",
                f.display(),
                ours.len(),
                theirs.len(),
                ours.get(k),
                theirs.get(k)
            );
        }
    }
    let page_share = pages_same as f64 / pages_cmp.max(1) as f64;
    let block_share = blocks_same as f64 / blocks_total.max(1) as f64;
    eprintln!(
        "html5ever oracle: {pages_same}/{pages_cmp} pages with identical block texts ({:.2}%), \
         {blocks_same}/{blocks_total} blocks with identical ancestor paths ({:.2}%); \
         {recovered} pages recovered from unclosed raw-text elements (not compared)",
        100.0 * page_share,
        100.0 * block_share
    );
    assert!(page_share >= 0.99, "page agreement fell to {page_share:.4}");
    assert!(
        block_share >= 0.97,
        "ancestor agreement fell to {block_share:.4}"
    );
}

/// Index pairs of a longest common subsequence of the two lists' texts (O(n*m) memory is fine
/// for pages of a few thousand blocks; larger pages are matched greedily).
fn lcs_pairs(a: &[(String, String)], b: &[(String, String)]) -> Vec<(usize, usize)> {
    let (n, m) = (a.len(), b.len());
    if n * m > 30_000_000 {
        return (0..n.min(m))
            .filter(|&i| a[i].0 == b[i].0)
            .map(|i| (i, i))
            .collect();
    }
    let mut dp = vec![0u32; (n + 1) * (m + 1)];
    for i in (0..n).rev() {
        for j in (0..m).rev() {
            dp[i * (m + 1) + j] = if a[i].0 == b[j].0 {
                dp[(i + 1) * (m + 1) + j + 1] + 1
            } else {
                dp[(i + 1) * (m + 1) + j].max(dp[i * (m + 1) + j + 1])
            };
        }
    }
    let (mut i, mut j) = (0, 0);
    let mut out = Vec::new();
    while i < n && j < m {
        if a[i].0 == b[j].0 {
            out.push((i, j));
            i += 1;
            j += 1;
        } else if dp[(i + 1) * (m + 1) + j] >= dp[i * (m + 1) + j + 1] {
            i += 1;
        } else {
            j += 1;
        }
    }
    out
}

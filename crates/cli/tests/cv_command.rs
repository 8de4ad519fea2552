//! `victor cv --folds-by site`: the pages of a site stay in one fold, and the fold plan is
//! reported on standard error even when it is not a terminal.

mod common;

use std::path::Path;

use common::{examples, run_ok, s};

/// A copy of the example set with the given URLs written into the page records.
fn with_urls(dir: &Path, urls: &[(&str, &str)]) {
    for sub in ["pages", "labels"] {
        std::fs::create_dir_all(dir.join(sub)).expect("mkdir");
        for e in std::fs::read_dir(examples().join(sub)).expect("examples") {
            let e = e.expect("entry");
            std::fs::copy(e.path(), dir.join(sub).join(e.file_name())).expect("copy");
        }
    }
    std::fs::copy(examples().join("set.json"), dir.join("set.json")).expect("copy set.json");
    for (id, url) in urls {
        let path = dir.join("labels").join(format!("{id}.json"));
        let text = std::fs::read_to_string(&path).expect("record");
        let mut v: serde_json::Value = serde_json::from_str(&text).expect("json");
        v["url"] = serde_json::Value::String(url.to_string());
        std::fs::write(&path, serde_json::to_string(&v).expect("json")).expect("write");
    }
}

#[test]
fn folds_by_site_keep_a_sites_pages_together() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let set = tmp.path().join("set");
    with_urls(
        &set,
        &[
            ("news-harbour-bridge", "http://www.city.example/news/bridge"),
            ("portal-city-events", "https://city.example:443/events"),
            ("blog-sourdough-starter", "http://bread.example/starter"),
            ("guide-home-composting", "http://garden.example/compost"),
        ],
    );
    let csv = tmp.path().join("cv.csv");
    let out = run_ok(&[
        "cv",
        s(&set),
        "--folds",
        "2",
        "--folds-by",
        "site",
        "-q",
        "--csv",
        s(&csv),
    ]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    // city.example (2 pages) goes first, to fold 0; the three single pages (two sites and the
    // forum page, which has no URL and no declared one) fill fold 1, then fold 0.
    assert!(
        stderr.contains("folds by site (3 sites, 1 pages without a known site"),
        "{stderr}"
    );
    assert!(stderr.contains("pages per fold: 3 2"), "{stderr}");
    assert!(stderr.contains("fold 1: trained in"), "{stderr}");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains("2-fold cross-validation by site (5 pages)"),
        "{stdout}"
    );
    assert!(csv.exists());
}

#[test]
fn folds_by_page_are_the_default() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let set = tmp.path().join("set");
    with_urls(&set, &[]);
    let out = run_ok(&["cv", s(&set), "--folds", "2", "-q"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("victor cv: pages per fold: 3 2"),
        "{stderr}"
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("2-fold cross-validation (5 pages)"));

    // With --boost every fold fits trees too, and the title says so.
    let out = run_ok(&[
        "cv",
        s(&set),
        "--folds",
        "2",
        "--boost",
        "--boost-trees",
        "5",
        "-q",
    ]);
    assert!(
        String::from_utf8_lossy(&out.stdout)
            .contains("2-fold cross-validation, CRF + boosted trees (5 pages)")
    );
}

#[test]
fn kept_fold_models_label_their_held_out_pages() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let keep = tmp.path().join("folds");
    run_ok(&[
        "cv",
        s(&examples()),
        "--folds",
        "2",
        "-q",
        "--keep-models",
        s(&keep),
    ]);
    let mut held_out = Vec::new();
    for k in 1..=2 {
        let fold = keep.join(format!("fold-{k}"));
        let ids = std::fs::read_to_string(fold.join("held-out.txt")).expect("held-out.txt");
        let ids: Vec<String> = ids.lines().map(str::to_string).collect();
        assert!(!ids.is_empty(), "fold {k} holds out no page");
        // The fold's bundle labels its held-out pages.
        let page = examples().join("pages").join(format!("{}.html", ids[0]));
        let out = run_ok(&["label", "--model", s(&fold), "--format", "jsonl", s(&page)]);
        assert!(String::from_utf8_lossy(&out.stdout).contains("\"blocks\""));
        held_out.extend(ids);
    }
    // Every page is held out exactly once.
    held_out.sort();
    let mut pages: Vec<String> = std::fs::read_dir(examples().join("pages"))
        .expect("pages")
        .map(|e| {
            let p = e.expect("entry").path();
            p.file_stem().expect("stem").to_string_lossy().into_owned()
        })
        .collect();
    pages.sort();
    assert_eq!(held_out, pages);
}

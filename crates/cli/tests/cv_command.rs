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
    // city.example (2 pages) goes first, to the first fold; the three single pages (two sites and
    // the forum page, which has no URL and no declared one) fill the second, then the first.
    assert!(
        stderr.contains("folds by site (3 sites, 1 page without a known site"),
        "{stderr}"
    );
    assert!(stderr.contains("pages per fold: 3 2"), "{stderr}");
    assert!(stderr.contains("2 of 2 folds done (fold "), "{stderr}");
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

/// The pages a kept fold bundle was trained on, as its recorded data says.
fn trained_pages(bundle: &Path) -> u64 {
    let text = std::fs::read_to_string(bundle.join("victor.json")).expect("victor.json");
    let v: serde_json::Value = serde_json::from_str(&text).expect("json");
    v["data"]["pages"].as_u64().expect("data.pages")
}

#[test]
fn learning_curve_trains_each_fold_on_growing_shares() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let csv = tmp.path().join("curve.csv");
    let keep = tmp.path().join("folds");
    // Shares in any order: the curve runs from the smallest.
    let out = run_ok(&[
        "cv",
        s(&examples()),
        "--folds",
        "2",
        "--learning-curve",
        "1,0.5",
        "-q",
        "--csv",
        s(&csv),
        "--keep-models",
        s(&keep),
    ]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains(
            "2-fold learning curve, pages drawn with seed 1 (5 pages; text-level macro F1"
        ),
        "{stdout}"
    );
    assert!(
        stdout.contains("points per doubling of the training pages"),
        "{stdout}"
    );
    // Standard error announces each share, and the fold plan once: the folds are the same.
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(stderr.matches("pages per fold: 3 2").count(), 1, "{stderr}");
    for share in ["0.5", "1"] {
        let note = format!("victor cv: share {share} of each fold's training pages");
        assert!(stderr.contains(&note), "{stderr}");
    }
    // Folds of 3 and 2 pages: at share 0.5 they train on ceil(0.5 * 2) = 1 and ceil(0.5 * 3) =
    // 2 pages, at share 1 on 2 and 3.
    let rows: Vec<Vec<String>> = csv::Reader::from_path(&csv)
        .expect("csv")
        .records()
        .map(|r| r.expect("row").iter().map(str::to_string).collect())
        .collect();
    assert_eq!(rows.len(), 2);
    assert_eq!((rows[0][0].as_str(), rows[0][1].as_str()), ("0.5", "1.5"));
    assert_eq!((rows[1][0].as_str(), rows[1][1].as_str()), ("1", "2.5"));
    // The change is the second row's only: paired with the first on the same pages.
    assert_eq!(rows[0][11], "");
    let change: f64 = rows[1][11].parse().expect("change");
    let f1: Vec<f64> = rows.iter().map(|r| r[6].parse().expect("F1")).collect();
    assert!((change - (f1[1] - f1[0])).abs() < 1e-5, "{change} {f1:?}");
    // Every share's fold holds out the same pages and trains on its share of the others.
    for (k, small, all) in [(1, 1, 2), (2, 2, 3)] {
        let half = keep.join("share-0.5").join(format!("fold-{k}"));
        let whole = keep.join("share-1").join(format!("fold-{k}"));
        let held = |d: &Path| std::fs::read_to_string(d.join("held-out.txt")).expect("ids");
        assert_eq!(held(&half), held(&whole));
        assert_eq!(trained_pages(&half), small);
        assert_eq!(trained_pages(&whole), all);
    }
}

#[test]
fn learning_curve_in_uncertainty_order() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let csv = tmp.path().join("curve.csv");
    let web = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../models/web");
    let out = run_ok(&[
        "cv",
        s(&examples()),
        "--folds",
        "2",
        "--learning-curve",
        "0.5,1",
        "--curve-order",
        "uncertain",
        "--model",
        s(&web),
        "-q",
        "--csv",
        s(&csv),
    ]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains("2-fold learning curve, pages in uncertainty order (5 pages;"),
        "{stdout}"
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("5 pages ranked by the model's expected F1"),
        "{stderr}"
    );
    let rows: Vec<csv::StringRecord> = csv::Reader::from_path(&csv)
        .expect("csv")
        .records()
        .map(|r| r.expect("row"))
        .collect();
    assert_eq!(rows.len(), 2);
    assert_eq!(&rows[0][13], "uncertain");
    assert!(rows[0][14].parse::<f64>().expect("train_blocks") > 0.0);
    // The order needs its model, and the model an order that uses it.
    for args in [
        vec!["--curve-order", "uncertain"],
        vec!["--curve-order", "random", "--model", s(&web)],
    ] {
        let ex = examples();
        let mut all = vec!["cv", s(&ex), "--learning-curve", "0.5,1"];
        all.extend(args);
        let out = common::run(&all);
        assert!(!out.status.success(), "{all:?} accepted");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains("--model"), "{stderr}");
    }
}

#[test]
fn learning_curve_shares_must_lie_in_zero_to_one() {
    for bad in ["0", "1.5", "half"] {
        let out = common::run(&["cv", s(&examples()), "--learning-curve", bad]);
        assert!(!out.status.success(), "{bad} accepted");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains("--learning-curve"), "{stderr}");
    }
}

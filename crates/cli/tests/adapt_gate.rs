//! Gated bundles (`victor train --adapt`): the base kept whole in `base/`, the gate's share of
//! each page in `--format jsonl`, a share of 0 labelling as the base and of 1 as the adapted
//! model alone, and the writer's rules for `base/`.

mod common;

use std::path::Path;

use common::{examples, run, run_ok, s};

fn meta(dir: &Path) -> serde_json::Value {
    let text = std::fs::read_to_string(dir.join("victor.json")).expect("victor.json");
    serde_json::from_str(&text).expect("json")
}

/// A small bundle trained from zero on the example pages (it stores their profiles).
fn base(dir: &Path) {
    run_ok(&[
        "train",
        s(&examples()),
        "--threshold-folds",
        "0",
        "--boost",
        "--boost-trees",
        "3",
        "--out",
        s(dir),
        "-q",
    ]);
}

/// `base` adapted on the example pages, with a gate unless `no_gate`.
fn adapt(base: &Path, out: &Path, no_gate: bool) {
    let set = examples();
    let mut args = vec![
        "train",
        s(&set),
        "--adapt",
        s(base),
        "--prior",
        "0.5",
        "--adapt-trees",
        "2",
        "--out",
        s(out),
        "-q",
    ];
    if no_gate {
        args.push("--no-gate");
    }
    run_ok(&args);
}

/// `victor label --format FORMAT` of the example pages with a model.
fn label(model: &Path, format: &str) -> String {
    let pages = examples().join("pages");
    let out = run_ok(&[
        "label",
        "--model",
        s(model),
        "--format",
        format,
        "-q",
        s(&pages),
    ]);
    String::from_utf8(out.stdout).expect("utf-8")
}

/// A copy of a gated bundle whose gate gives every page the share `full` (1) or `none` (0).
fn forced(gated: &Path, to: &Path, full: bool) {
    std::fs::create_dir_all(to.join("base")).expect("mkdir");
    for f in ["model.crfsuite", "base/victor.json", "base/model.crfsuite"] {
        std::fs::copy(gated.join(f), to.join(f)).expect("copy");
    }
    let mut m = meta(gated);
    let (none, full_at) = if full {
        (-2e300, -1e300)
    } else {
        (1e300, 2e300)
    };
    m["gate"]["none"] = none.into();
    m["gate"]["full"] = full_at.into();
    std::fs::write(to.join("victor.json"), m.to_string()).expect("write");
}

#[test]
fn a_gated_bundle_keeps_its_base_and_says_how_much_of_it_applied() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let (b0, gated) = (tmp.path().join("b0"), tmp.path().join("gated"));
    base(&b0);
    assert!(meta(&b0)["pages"]["sample"]["pages"].as_u64() == Some(5));
    adapt(&b0, &gated, false);
    let m = meta(&gated);
    assert!(m["gate"]["model"]["terms"].is_array(), "{}", m["gate"]);
    assert_eq!(m["gate"]["fitted"]["pages"], 5);
    // The base, byte for byte, as the gated bundle's base/.
    for f in ["victor.json", "model.crfsuite"] {
        assert_eq!(
            std::fs::read(gated.join("base").join(f)).expect("base file"),
            std::fs::read(b0.join(f)).expect("file"),
            "{f}"
        );
    }
    // `victor models` shows the gate.
    let out = run_ok(&["models", s(&gated)]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("  gate:     the adapted model applies"),
        "{text}"
    );
    assert!(text.contains("  profiles: "), "{text}");
    // Every page's share in jsonl, between 0 and 1; a bundle without a gate has none.
    for line in label(&gated, "jsonl-text").lines() {
        let v: serde_json::Value = serde_json::from_str(line).expect("json");
        let share = v["adapted"].as_f64().expect("a share");
        assert!((0.0..=1.0).contains(&share), "{share}");
    }
    assert!(!label(&b0, "jsonl-text").contains("\"adapted\""));
    // Its base/ is a bundle that labels as the base.
    assert_eq!(label(&gated.join("base"), "jsonl"), label(&b0, "jsonl"));
}

#[test]
fn a_share_of_one_labels_as_the_adapted_model_and_of_zero_as_the_base() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let (b0, gated, plain) = (
        tmp.path().join("b0"),
        tmp.path().join("gated"),
        tmp.path().join("plain"),
    );
    base(&b0);
    adapt(&b0, &gated, false);
    adapt(&b0, &plain, true);
    assert!(meta(&plain).get("gate").is_none());
    assert!(!plain.join("base").exists());
    let (full, none) = (tmp.path().join("full"), tmp.path().join("none"));
    forced(&gated, &full, true);
    forced(&gated, &none, false);
    for format in ["text", "csv"] {
        assert_eq!(label(&full, format), label(&plain, format), "{format}");
        assert_eq!(label(&none, format), label(&b0, format), "{format}");
    }
    // Viterbi decoding follows the larger share too.
    let pages = examples().join("pages");
    let viterbi = |m: &Path| {
        let out = run_ok(&["label", "--model", s(m), "--viterbi", "-q", s(&pages)]);
        out.stdout
    };
    assert_eq!(viterbi(&full), viterbi(&plain));
    assert_eq!(viterbi(&none), viterbi(&b0));
}

#[test]
fn a_gated_bundle_whose_base_was_changed_does_not_load() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let (b0, gated) = (tmp.path().join("b0"), tmp.path().join("gated"));
    base(&b0);
    adapt(&b0, &gated, false);
    let path = gated.join("base/victor.json");
    let mut m = meta(&gated.join("base"));
    m["notes"] = "changed".into();
    std::fs::write(&path, m.to_string()).expect("write");
    let pages = examples().join("pages");
    let out = run(&["label", "--model", s(&gated), s(&pages)]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("is not the bundle it was adapted from"),
        "{err}"
    );
}

#[cfg(unix)]
#[test]
fn base_folders_are_replaced_only_when_victor_wrote_them() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let (b0, gated) = (tmp.path().join("b0"), tmp.path().join("gated"));
    base(&b0);
    adapt(&b0, &gated, false);
    // Adapting again into the gated bundle replaces it, base/ too.
    adapt(&b0, &gated, false);
    assert_eq!(
        std::fs::read(gated.join("base/victor.json")).expect("base"),
        std::fs::read(b0.join("victor.json")).expect("b0")
    );
    // A bundle without a gate written over it takes its base/ away: victor wrote it.
    adapt(&b0, &gated, true);
    assert!(!gated.join("base").exists());
    // A base/ that is a link is never replaced, not even with --force.
    let elsewhere = tmp.path().join("elsewhere");
    std::fs::create_dir(&elsewhere).expect("mkdir");
    std::fs::write(elsewhere.join("keep.txt"), "mine").expect("write");
    std::os::unix::fs::symlink(&elsewhere, gated.join("base")).expect("link");
    let set = examples();
    for force in [false, true] {
        let mut args = vec![
            "train",
            s(&set),
            "--adapt",
            s(&b0),
            "--out",
            s(&gated),
            "-q",
        ];
        if force {
            args.push("--force");
        }
        let out = run(&args);
        assert!(!out.status.success(), "force {force}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("base"), "{err}");
        assert!(
            std::fs::symlink_metadata(gated.join("base"))
                .expect("still there")
                .is_symlink()
        );
        assert_eq!(
            std::fs::read_to_string(elsewhere.join("keep.txt")).expect("kept"),
            "mine"
        );
    }
}

#[test]
fn each_fold_of_an_adapted_cross_validation_is_gated_as_the_bundle_would_be() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let (b0, folds) = (tmp.path().join("b0"), tmp.path().join("folds"));
    base(&b0);
    let set = examples();
    run_ok(&[
        "cv",
        s(&set),
        "--adapt",
        s(&b0),
        "--adapt-trees",
        "2",
        "--folds",
        "2",
        "--keep-models",
        s(&folds),
    ]);
    for k in [1, 2] {
        let fold = folds.join(format!("fold-{k}"));
        assert!(meta(&fold)["gate"]["model"]["terms"].is_array(), "fold {k}");
        assert_eq!(
            std::fs::read(fold.join("base/model.crfsuite")).expect("base"),
            std::fs::read(b0.join("model.crfsuite")).expect("b0")
        );
        // A kept fold loads and labels, with its gate.
        assert!(label(&fold, "jsonl-text").contains("\"adapted\":"));
    }
}

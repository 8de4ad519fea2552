//! Messages that said the wrong thing (issue 67): a negative-looking value taken for an option,
//! the decoding `train --adapt` keeps, what `--force` replaces, a folder that is not an annotated
//! set, where `victor models` looks, and `victor --help`'s first line.

mod common;

use std::path::Path;
use std::process::Command;

use common::{VICTOR, examples, root, run, run_ok, s};

fn stderr(o: &std::process::Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn stdout(o: &std::process::Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

#[test]
fn a_negative_value_is_a_value_and_the_message_says_the_range() {
    let ex = examples();
    let tmp = tempfile::tempdir().expect("tempdir");
    let out = tmp.path().join("m");
    for (args, range) in [
        (
            vec!["train", s(&ex), "--adapt", "web", "--prior", "-1"],
            "\"-1\" is not a number from 0 to inf",
        ),
        (
            vec!["train", s(&ex), "--max-iterations", "-1"],
            "not a whole number at or above 0",
        ),
        (
            vec!["train", s(&ex), "--c2", "-0.5"],
            "not a number at or above 0",
        ),
        (
            vec!["train", s(&ex), "--threshold-folds", "-2"],
            "0 (none) or 2 or more",
        ),
        (vec!["label", "--jobs", "-1", s(&ex)], "from 1 to 1024"),
        (vec!["cv", s(&ex), "--folds", "-3"], "2 or more"),
        (vec!["eval", s(&ex), "--worst", "-1"], "at or above 0"),
        (vec!["label", "--threshold", "-0.5", s(&ex)], "0"),
    ] {
        let mut args = args;
        if args[0] == "train" {
            args.extend(["--out", s(&out)]);
        }
        let o = run(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let err = stderr(&o);
        assert!(err.contains("invalid value '-"), "{args:?}: {err}");
        assert!(err.contains(range), "{args:?}: {err}");
        // Not clap's advice for a stray option: `-- -1` would pass it as an input.
        assert!(
            !err.contains("-- -") && !err.contains("unexpected argument"),
            "{err}"
        );
    }
    assert!(!out.exists());
}

/// A copy of the example set with `copies` of each page, under new ids (a page is
/// `pages/ID.html`, its labels `labels/ID.json` naming the id).
fn bigger_set(dir: &Path, copies: usize) {
    std::fs::create_dir_all(dir.join("pages")).expect("mkdir");
    std::fs::create_dir_all(dir.join("labels")).expect("mkdir");
    std::fs::copy(examples().join("set.json"), dir.join("set.json")).expect("copy");
    for e in std::fs::read_dir(examples().join("labels")).expect("labels") {
        let path = e.expect("entry").path();
        let id = path.file_stem().and_then(|n| n.to_str()).expect("id");
        let record: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&path).expect("read")).expect("json");
        for k in 0..copies {
            let new = format!("{id}-{k}");
            let mut r = record.clone();
            r["id"] = serde_json::Value::String(new.clone());
            std::fs::copy(
                examples().join("pages").join(format!("{id}.html")),
                dir.join("pages").join(format!("{new}.html")),
            )
            .expect("copy page");
            std::fs::write(
                dir.join("labels").join(format!("{new}.json")),
                serde_json::to_string(&r).expect("json"),
            )
            .expect("write");
        }
    }
}

#[test]
fn adapting_says_the_base_decoding_is_kept_and_measured() {
    // The help says what happens by default: the base's decoding, measured on the pages.
    let help = stdout(&run_ok(&["train", "--help"]));
    let help = help.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        help.contains("Its decoding is the bundle's, measured on the pages by cross-validation"),
        "{help}"
    );
    assert!(!help.contains("chosen again by cross-validation"), "{help}");
    // Ten pages and more are cross-validated: the run says the base's decoding is kept, with
    // what it scored, and not that it was not cross-validated.
    let tmp = tempfile::tempdir().expect("tempdir");
    let set = tmp.path().join("set");
    bigger_set(&set, 2);
    let o = run_ok(&[
        "train",
        s(&set),
        "--adapt",
        "web",
        "--threshold-folds",
        "2",
        "--out",
        s(&tmp.path().join("m")),
        "-q",
    ]);
    let err = stderr(&o);
    assert!(
        err.contains("victor train: decoding: web's decoding is kept (it scored "),
        "{err}"
    );
    assert!(
        err.contains("in 2-fold cross-validation on the pages"),
        "{err}"
    );
    assert!(!err.contains("not cross-validated"), "{err}");
}

#[test]
fn force_says_what_it_replaces_and_what_it_keeps() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let busy = tmp.path().join("busy");
    std::fs::create_dir(&busy).expect("mkdir");
    std::fs::write(busy.join("notes.txt"), "mine").expect("write");
    let o = run(&[
        "train",
        s(&examples()),
        "--threshold-folds",
        "0",
        "--out",
        s(&busy),
    ]);
    assert!(!o.status.success());
    let err = stderr(&o);
    assert!(
        err.contains(
            "(--force writes the bundle's own two files, victor.json and model.crfsuite, into it, replacing files of those names, and keeps everything else)"
        ),
        "{err}"
    );
    assert!(!err.contains("replaces it anyway"), "{err}");
    assert_eq!(
        std::fs::read_to_string(busy.join("notes.txt")).expect("kept"),
        "mine"
    );
}

#[test]
fn a_folder_that_is_not_an_annotated_set_says_how_to_make_one() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let empty = tmp.path().join("empty");
    std::fs::create_dir(&empty).expect("mkdir");
    let out = tmp.path().join("m");
    for (args, why) in [
        (
            vec!["train", s(&empty), "--out", s(&out)],
            "it has no set.json",
        ),
        (vec!["cv", s(&empty)], "it has no set.json"),
        (
            vec!["annotations", "stats", s(&empty)],
            "it has no set.json",
        ),
        (
            vec!["train", s(&tmp.path().join("missing")), "--out", s(&out)],
            "there is no such folder",
        ),
    ] {
        let err = stderr(&run(&args));
        assert!(
            err.contains(&format!("is not an annotated set: {why}")),
            "{args:?}: {err}"
        );
        assert!(
            err.contains("`victor import`") && err.contains("`victor annotate PAGES --out SET`"),
            "{err}"
        );
        assert!(!err.contains("No such file"), "{err}");
    }
    // eval and sweep also take data sets, and say so.
    let err = stderr(&run(&["eval", s(&empty)]));
    assert!(
        err.contains("neither an annotated set") && err.contains("`victor import`"),
        "{err}"
    );
}

/// A bundle folder named `name` under `dir` (a copy of the shipped `news`).
fn bundle(dir: &Path, name: &str) {
    let to = dir.join(name);
    std::fs::create_dir_all(&to).expect("mkdir");
    for f in ["victor.json", "model.crfsuite"] {
        std::fs::copy(root().join("models/news").join(f), to.join(f)).expect("copy");
    }
}

#[test]
fn models_lists_every_place_model_looks_and_says_default_is_web() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let env_dir = tmp.path().join("env");
    let home = tmp.path().join("home");
    let cwd = tmp.path().join("work");
    bundle(&env_dir, "mine");
    bundle(&cwd.join("models"), "local");
    bundle(&cwd.join("models"), "mine");
    bundle(&home.join(".local/share/victor/models"), "user");
    let list = |env: Option<&Path>| {
        let mut c = Command::new(VICTOR);
        c.arg("models")
            .current_dir(&cwd)
            .env("HOME", &home)
            .env_remove("XDG_DATA_HOME");
        match env {
            Some(d) => c.env("VICTOR_MODELS", d),
            None => c.env_remove("VICTOR_MODELS"),
        };
        let o = c.output().expect("victor runs");
        assert!(o.status.success(), "{}", stderr(&o));
        stdout(&o)
    };
    let shown = list(Some(&env_dir));
    let at = |what: &str| {
        shown
            .find(what)
            .unwrap_or_else(|| panic!("{what:?} in\n{shown}"))
    };
    // The places in the order --model looks, each with its bundles.
    let env = at(&format!("$VICTOR_MODELS ({}):", env_dir.display()));
    let local = at("./models:");
    let user = at("~/.local/share/victor/models (");
    let builtin = at("built into victor:");
    assert!(env < local && local < user && user < builtin, "{shown}");
    assert!(shown[env..local].contains("  mine "), "{shown}");
    assert!(shown[local..user].contains("  local "), "{shown}");
    // `mine` in ./models is hidden by $VICTOR_MODELS/mine, which --model mine loads.
    assert!(
        shown[local..user].contains("(hidden by $VICTOR_MODELS/mine)"),
        "{shown}"
    );
    assert!(shown[user..builtin].contains("  user "), "{shown}");
    assert!(
        shown[builtin..].contains("  default  is web: the bundle victor uses without --model"),
        "{shown}"
    );
    for name in ["article", "corpus", "general", "news", "web"] {
        assert!(
            shown[builtin..].contains(&format!("  {name} ")),
            "{name}: {shown}"
        );
    }
    // Without $VICTOR_MODELS, the list says it is not set.
    assert!(list(None).starts_with(
        "The bundles --model NAME finds, where it looks, in order (the first place holding NAME wins):\n$VICTOR_MODELS: not set\n"
    ));
}

#[test]
fn the_first_line_of_help_names_every_command() {
    let help = stdout(&run_ok(&["--help"]));
    let first = help.lines().next().expect("a first line");
    let commands: Vec<&str> = help
        .lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        // A description's continuation lines are indented further.
        .filter(|l| !l.starts_with("   "))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|c| *c != "help")
        .collect();
    assert!(commands.len() >= 11, "{help}");
    for c in &commands {
        assert!(
            first.split([' ', ',']).any(|w| w == *c),
            "{c} is not on the first line: {first}"
        );
    }
}

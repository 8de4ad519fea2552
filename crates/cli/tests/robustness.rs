//! Issue 34, "Nothing lost, nothing hung": a trainer that never deletes what is not a bundle, a
//! closed standard output that ends the run, paths that are not regular files refused, lying
//! charset declarations, `--model NAME` from anywhere, `--out` mirroring trees, and the umask.

mod common;

use std::path::Path;

use common::{examples, run, s};

/// `victor train annotations/examples --out OUT` (quick: no threshold cross-validation).
fn train_into(out: &Path, extra: &[&str]) -> std::process::Output {
    let ex = examples();
    let mut args = vec![
        "train",
        s(&ex),
        "--threshold-folds",
        "0",
        "-q",
        "--out",
        s(out),
    ];
    args.extend_from_slice(extra);
    run(&args)
}

fn stderr(o: &std::process::Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Names in a folder that start with `.victor-` (the trainer's temporary folders).
fn leftovers(dir: &Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .expect("read_dir")
        .filter_map(Result::ok)
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with(".victor-"))
        .collect()
}

#[test]
fn train_out_never_deletes_what_is_not_a_bundle() {
    let tmp = tempfile::tempdir().expect("tempdir");
    // A folder of the user's files: refused, untouched, named with the reason.
    let d = tmp.path().join("d");
    std::fs::create_dir_all(d.join("sub")).expect("mkdir");
    std::fs::write(d.join("notes.txt"), "keep").expect("write");
    std::fs::write(d.join("sub/x.txt"), "keep").expect("write");
    let o = train_into(&d, &[]);
    assert!(!o.status.success());
    let err = stderr(&o);
    assert!(
        err.contains(s(&d)) && err.contains("notes.txt") && err.contains("--force"),
        "{err}"
    );
    assert_eq!(
        std::fs::read_to_string(d.join("notes.txt")).expect("kept"),
        "keep"
    );
    assert_eq!(
        std::fs::read_to_string(d.join("sub/x.txt")).expect("kept"),
        "keep"
    );

    // A file: refused, untouched.
    let f = tmp.path().join("f");
    std::fs::write(&f, "precious").expect("write");
    let o = train_into(&f, &[]);
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains("is a file, not a folder"),
        "{}",
        stderr(&o)
    );
    assert_eq!(std::fs::read_to_string(&f).expect("kept"), "precious");

    // An empty folder and then a bundle are replaced; an extra file makes it no bundle.
    let b = tmp.path().join("b");
    std::fs::create_dir(&b).expect("mkdir");
    assert!(train_into(&b, &[]).status.success(), "empty folder");
    assert!(train_into(&b, &[]).status.success(), "a bundle is replaced");
    assert!(b.join("victor.json").is_file() && b.join("model.crfsuite").is_file());
    std::fs::write(b.join("mine.txt"), "x").expect("write");
    assert!(
        !train_into(&b, &[]).status.success(),
        "no longer only a bundle"
    );
    assert!(b.join("mine.txt").is_file());

    // --force writes the bundle's own files into a folder of other files and leaves every
    // other file and folder as it was (`--out $HOME --force` once emptied a home folder).
    assert!(train_into(&d, &["--force"]).status.success());
    assert!(d.join("victor.json").is_file() && d.join("model.crfsuite").is_file());
    assert_eq!(
        std::fs::read_to_string(d.join("notes.txt")).expect("kept"),
        "keep"
    );
    assert_eq!(
        std::fs::read_to_string(d.join("sub/x.txt")).expect("kept"),
        "keep"
    );
    // Again: the bundle's files are replaced, the rest still kept.
    assert!(train_into(&d, &["--force"]).status.success());
    assert!(d.join("notes.txt").is_file() && d.join("sub/x.txt").is_file());
    assert!(leftovers(&d).is_empty(), "{:?}", leftovers(&d));
    // A file is refused, also with --force, and stays as it was.
    let o = train_into(&f, &["--force"]);
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains("is a file, not a folder"),
        "{}",
        stderr(&o)
    );
    assert_eq!(std::fs::read_to_string(&f).expect("kept"), "precious");

    // `--out .`: refused without --force (the folder holds mine.txt); with it, the bundle's
    // files go into the working folder beside mine.txt.
    for force in [false, true] {
        let ex = examples();
        let mut args = vec![
            "train",
            s(&ex),
            "--threshold-folds",
            "0",
            "-q",
            "--out",
            ".",
        ];
        if force {
            args.push("--force");
        }
        let o = std::process::Command::new(common::VICTOR)
            .args(&args)
            .current_dir(&b)
            .output()
            .expect("runs");
        assert_eq!(o.status.success(), force, "{}", stderr(&o));
        assert!(b.join("mine.txt").is_file());
    }
    assert!(
        leftovers(tmp.path()).is_empty(),
        "{:?}",
        leftovers(tmp.path())
    );
    assert!(leftovers(&b).is_empty(), "{:?}", leftovers(&b));
}

#[test]
fn cv_keep_models_never_deletes_what_is_not_a_bundle() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let keep = tmp.path().join("keep");
    std::fs::create_dir_all(keep.join("fold-2")).expect("mkdir");
    std::fs::write(keep.join("fold-2/notes.txt"), "keep").expect("write");
    let ex = examples();
    let cv = |extra: &[&str]| {
        let mut args = vec![
            "cv",
            s(&ex),
            "--folds",
            "2",
            "--max-iterations",
            "5",
            "-q",
            "--keep-models",
            s(&keep),
        ];
        args.extend_from_slice(extra);
        run(&args)
    };
    let o = cv(&[]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("notes.txt"), "{}", stderr(&o));
    assert!(keep.join("fold-2/notes.txt").is_file());
    assert!(!keep.join("fold-1").exists(), "refused before any training");
    let o = cv(&["--force"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(keep.join("fold-2/held-out.txt").is_file());
    assert!(
        keep.join("fold-2/notes.txt").is_file(),
        "--force keeps what is not the bundle's"
    );
    std::fs::remove_file(keep.join("fold-2/notes.txt")).expect("the test's own file");
    // Kept folds (with their held-out.txt) are bundles: a second run replaces them.
    let o = cv(&[]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(leftovers(&keep).is_empty(), "{:?}", leftovers(&keep));
}

/// A folder of `copies` copies of the example pages, then a page that fails (binary bytes) last
/// in the walk's order: a batch that goes on after its reader has gone reports it.
fn batch_with_a_bad_last_page(dir: &Path, copies: usize) {
    std::fs::create_dir_all(dir).expect("mkdir");
    let pages: Vec<_> = std::fs::read_dir(examples().join("pages"))
        .expect("pages")
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "html"))
        .collect();
    for k in 0..copies {
        for p in &pages {
            let name = format!("{k:04}-{}", p.file_name().expect("name").to_string_lossy());
            std::fs::copy(p, dir.join(name)).expect("copy");
        }
    }
    std::fs::write(
        dir.join("zzzz-bad.html"),
        [0u8, 1, 2, 3, 0, 0, 0, 255].repeat(100),
    )
    .expect("write");
}

/// Runs victor with standard output read up to `bytes` bytes and then closed.
fn run_with_closed_stdout(args: &[&str], bytes: usize) -> std::process::Output {
    use std::io::Read;
    let mut child = std::process::Command::new(common::VICTOR)
        .args(args)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("victor runs");
    let mut stdout = child.stdout.take().expect("stdout");
    let mut first = vec![0u8; bytes];
    stdout.read_exact(&mut first).expect("some output");
    drop(stdout);
    child.wait_with_output().expect("victor ends")
}

#[test]
fn a_closed_stdout_ends_the_run_quietly_and_at_once() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let dir = tmp.path().join("many");
    batch_with_a_bad_last_page(&dir, 150);
    for args in [
        vec!["label", "--jobs", "1", "-q", s(&dir)],
        vec!["label", "--jobs", "2", "-q", s(&dir)],
        vec!["label", "--format", "jsonl", "-q", s(&dir)],
        vec!["features", s(&dir)],
        vec!["features", "--format", "csv", s(&dir)],
        vec!["features", "--format", "crfpp", s(&dir)],
    ] {
        let o = run_with_closed_stdout(&args, 10);
        let err = stderr(&o);
        // 128 + SIGPIPE, as a shell reports a program the signal ended (issue 67; every
        // command, by a pipe closed before the run: tests/closed_pipes.rs).
        assert_eq!(o.status.code(), Some(141), "{args:?}: {:?} {err}", o.status);
        // Neither "Broken pipe" nor the failing last page: the batch stopped.
        assert!(err.is_empty(), "{args:?}: {err}");
    }
}

/// Runs victor, killing it after `secs` seconds: `None` if it had to be killed.
fn run_with_timeout(args: &[&str], secs: u64) -> Option<std::process::Output> {
    let mut child = std::process::Command::new(common::VICTOR)
        .args(args)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("victor runs");
    let start = std::time::Instant::now();
    while start.elapsed().as_secs() < secs {
        if child.try_wait().expect("try_wait").is_some() {
            return Some(child.wait_with_output().expect("output"));
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let _ = child.kill();
    let _ = child.wait();
    None
}

#[cfg(unix)]
#[test]
fn a_fifo_without_a_writer_or_an_endless_device_is_not_waited_on() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let fifo = tmp.path().join("fifo.html");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    assert!(made.expect("mkfifo runs").success());
    // Named, a FIFO is read as a stream (issue 60); with no writer it is an empty input,
    // reported, within the wait for a writer (2 s), not a hang.
    for command in ["label", "features"] {
        let o = run_with_timeout(&[command, s(&fifo)], 20).expect("no wait on a FIFO");
        assert!(!o.status.success());
        let err = stderr(&o);
        assert!(err.contains("empty input") && err.contains("FIFO"), "{err}");
    }
    let o = run_with_timeout(&["label", "/dev/zero"], 20).expect("no endless read of a device");
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains("the stream holds more than 256 MiB"),
        "{}",
        stderr(&o)
    );
    // A socket is refused with what it is.
    let sock = tmp.path().join("sock.html");
    let _listener = std::os::unix::net::UnixListener::bind(&sock).expect("bind");
    let o = run_with_timeout(&["label", s(&sock)], 20).expect("a socket is not waited on");
    assert!(
        stderr(&o).contains("not a regular file but a socket"),
        "{}",
        stderr(&o)
    );
    // A walk takes regular files only: the FIFO and the socket beside a page are passed over.
    std::fs::copy(
        examples().join("pages/forum-bike-chain.html"),
        tmp.path().join("page.html"),
    )
    .expect("copy");
    let o = run_with_timeout(&["label", "-q", s(tmp.path())], 20).expect("the walk ends");
    assert!(o.status.success(), "{}", stderr(&o));
}

/// Runs victor in `dir` with `VICTOR_MODELS` set or unset and a home of its own.
fn run_in(dir: &Path, args: &[&str], models_env: Option<&Path>) -> std::process::Output {
    let mut cmd = std::process::Command::new(common::VICTOR);
    cmd.args(args)
        .current_dir(dir)
        .env("HOME", dir)
        .env_remove("XDG_DATA_HOME");
    match models_env {
        Some(m) => cmd.env("VICTOR_MODELS", m),
        None => cmd.env_remove("VICTOR_MODELS"),
    };
    cmd.output().expect("victor runs")
}

#[test]
fn model_by_name_works_from_any_directory() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let page = examples().join("pages/forum-bike-chain.html");
    let root = common::root();
    for name in ["web", "article", "news", "corpus", "general", "default"] {
        let away = run_in(tmp.path(), &["label", "--model", name, s(&page)], None);
        assert!(away.status.success(), "{name}: {}", stderr(&away));
        let bundle = root.join("models").join(name);
        let here = run_in(
            tmp.path(),
            &["label", "--model", s(&bundle), s(&page)],
            None,
        );
        assert!(here.status.success(), "{name}: {}", stderr(&here));
        assert_eq!(
            away.stdout, here.stdout,
            "{name}: the built-in bundle is the shipped one"
        );
    }
    // $VICTOR_MODELS comes first: a folder there called `news` holding the corpus bundle.
    let mine = tmp.path().join("mine");
    std::fs::create_dir_all(mine.join("news")).expect("mkdir");
    for f in ["victor.json", "model.crfsuite"] {
        std::fs::copy(
            root.join("models/corpus").join(f),
            mine.join("news").join(f),
        )
        .expect("cp");
    }
    let env = run_in(
        tmp.path(),
        &["label", "--model", "news", s(&page)],
        Some(&mine),
    );
    let corpus = run_in(tmp.path(), &["label", "--model", "corpus", s(&page)], None);
    assert_eq!(env.stdout, corpus.stdout);
    // An unknown name says where it looked.
    let o = run_in(
        tmp.path(),
        &["label", "--model", "nope", s(&page)],
        Some(&mine),
    );
    assert!(!o.status.success());
    let err = stderr(&o);
    for place in [
        s(&mine.join("nope")),
        "models/nope",
        "built-in bundles (article, corpus, default, general, news, web)",
    ] {
        assert!(err.contains(place), "{place} not in {err}");
    }
}

#[test]
fn out_mirrors_a_folders_tree_and_a_real_collision_names_both_inputs() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let page = examples().join("pages/forum-bike-chain.html");
    let tree = tmp.path().join("site");
    std::fs::create_dir_all(tree.join("a")).expect("mkdir");
    std::fs::create_dir_all(tree.join("b/c")).expect("mkdir");
    std::fs::copy(&page, tree.join("a/index.html")).expect("cp");
    std::fs::copy(&page, tree.join("b/c/index.html")).expect("cp");
    std::fs::copy(&page, tree.join("top.html")).expect("cp");
    let out = tmp.path().join("out");
    let o = run(&["label", "-q", s(&tree), "--out", s(&out)]);
    assert!(o.status.success(), "{}", stderr(&o));
    for f in ["a/index.txt", "b/c/index.txt", "top.txt"] {
        assert!(out.join(f).is_file(), "{f} missing");
    }
    // Named directly, two index.html collide: refused before anything is written.
    let (a, b) = (tree.join("a/index.html"), tree.join("b/c/index.html"));
    let out2 = tmp.path().join("out2");
    let o = run(&["label", "-q", s(&a), s(&b), "--out", s(&out2)]);
    assert!(!o.status.success());
    let err = stderr(&o);
    assert!(err.contains(s(&a)) && err.contains(s(&b)), "{err}");
    assert!(!out2.join("index.txt").exists());
}

/// Runs `victor ARGS` under a shell with `umask 022`.
#[cfg(unix)]
fn run_with_umask_022(args: &[&str]) -> std::process::Output {
    std::process::Command::new("sh")
        .arg("-c")
        .arg("umask 022 && exec \"$0\" \"$@\"")
        .arg(common::VICTOR)
        .args(args)
        .output()
        .expect("sh runs")
}

#[cfg(unix)]
#[test]
fn files_are_created_with_the_umask() {
    use std::os::unix::fs::PermissionsExt;
    let mode = |p: &Path| std::fs::metadata(p).expect("exists").permissions().mode() & 0o777;
    let tmp = tempfile::tempdir().expect("tempdir");
    let page = examples().join("pages/forum-bike-chain.html");
    let out = tmp.path().join("out");
    let o = run_with_umask_022(&["label", "-q", s(&page), "--out", s(&out)]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(mode(&out.join("forum-bike-chain.txt")), 0o644);
    let (csv, svg) = (tmp.path().join("s.csv"), tmp.path().join("s.svg"));
    let ex = examples();
    let o = run_with_umask_022(&[
        "sweep",
        "--model",
        "article",
        s(&ex),
        "--csv",
        s(&csv),
        "--plot",
        s(&svg),
        "-q",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!((mode(&csv), mode(&svg)), (0o644, 0o644));
    let bundle = tmp.path().join("bundle");
    let o = run_with_umask_022(&[
        "train",
        s(&ex),
        "--threshold-folds",
        "0",
        "-q",
        "--out",
        s(&bundle),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(mode(&bundle), 0o755);
    assert_eq!(mode(&bundle.join("victor.json")), 0o644);
}

/// The first example page.
fn a_page() -> std::path::PathBuf {
    examples().join("pages/news-harbour-bridge.html")
}

/// Runs `victor ARGS`, expects it to fail, and returns its standard error.
fn refused(args: &[&str]) -> String {
    let o = run(args);
    assert!(
        !o.status.success(),
        "victor {args:?} should have been refused"
    );
    let err = stderr(&o);
    assert!(!err.contains("panicked"), "{err}");
    err
}

#[test]
fn values_are_checked_where_they_are_read() {
    let page = a_page();
    let p = s(&page);
    let ex = examples();
    let err = refused(&["label", "--jobs", "0", p]);
    assert!(
        err.contains("--jobs") && err.contains("at least 1"),
        "{err}"
    );
    let started = std::time::Instant::now();
    let err = refused(&["label", "--jobs", "10000", p]);
    assert!(err.contains("--jobs") && err.contains("1024"), "{err}");
    assert!(started.elapsed().as_secs() < 5, "refused at once");
    for folds in ["0", "1"] {
        let err = refused(&["cv", s(&ex), "--folds", folds, "-q"]);
        assert!(
            err.contains("--folds") && err.contains("at least 2"),
            "{err}"
        );
    }
    let err = refused(&["cv", s(&ex), "--parallel-folds", "0", "-q"]);
    assert!(err.contains("--parallel-folds"), "{err}");
    let err = refused(&["train", s(&ex), "--threshold-folds", "1", "--out", "x"]);
    assert!(err.contains("--threshold-folds"), "{err}");
    let err = refused(&["bench", "--repeat", "0", p]);
    assert!(
        err.contains("--repeat") && err.contains("at least 1"),
        "{err}"
    );
    // A negative value is read as the option's value, so the range check speaks.
    for t in ["-0.1", "1.5"] {
        let err = refused(&["label", "--threshold", t, p]);
        assert!(err.contains("within 0 and 1"), "{t}: {err}");
        let err = refused(&["eval", "--threshold", t, s(&ex)]);
        assert!(err.contains("within 0 and 1"), "{t}: {err}");
    }
    let err = refused(&["sweep", s(&ex), "--plot", "x.png"]);
    assert!(err.contains(".svg") && err.contains("x.svg"), "{err}");
    assert!(!Path::new("x.png").exists());
}

#[test]
fn a_bundle_with_values_out_of_range_is_refused_naming_the_file() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let article = common::root().join("models/article");
    let meta: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(article.join("victor.json")).expect("meta"))
            .expect("json");
    let page = a_page();
    type Change = fn(&mut serde_json::Value);
    let cases: [(&str, Change, &str); 3] = [
        (
            "high",
            |m| m["threshold"]["value"] = serde_json::json!(1.5),
            "threshold 1.5 is not within 0 and 1",
        ),
        (
            "negative",
            |m| m["threshold"]["value"] = serde_json::json!(-0.2),
            "threshold -0.2 is not within 0 and 1",
        ),
        (
            "labels",
            |m| m["labels"] = serde_json::json!(["header", "text", "junk"]),
            "\"junk\" is not one of",
        ),
    ];
    for (name, change, says) in cases {
        let dir = tmp.path().join(name);
        std::fs::create_dir(&dir).expect("mkdir");
        std::fs::copy(article.join("model.crfsuite"), dir.join("model.crfsuite")).expect("copy");
        let mut m = meta.clone();
        change(&mut m);
        std::fs::write(dir.join("victor.json"), m.to_string()).expect("write");
        let err = refused(&["label", "--model", s(&dir), s(&page)]);
        assert!(
            err.contains(s(&dir.join("victor.json"))) && err.contains(says),
            "{name}: {err}"
        );
    }
}

#[test]
fn a_corrupt_bundle_is_named_with_a_readable_excerpt_not_its_bytes() {
    // Issue 60: 580 bytes of binary in a field of victor.json were dumped whole.
    let tmp = tempfile::tempdir().expect("tempdir");
    let article = common::root().join("models/article");
    let meta: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(article.join("victor.json")).expect("meta"))
            .expect("json");
    let junk: String = (0..580u32)
        .map(|k| char::from_u32(1 + (k * 7919) % 700).unwrap_or('?'))
        .collect();
    let page = a_page();
    for field in [
        "format",
        "feature_version",
        "template",
        "labels",
        "features",
    ] {
        let dir = tmp.path().join(field);
        std::fs::create_dir(&dir).expect("mkdir");
        std::fs::copy(article.join("model.crfsuite"), dir.join("model.crfsuite")).expect("copy");
        let mut m = meta.clone();
        m[field] = match field {
            "labels" => serde_json::json!([junk.clone(), "text", "other"]),
            "features" => serde_json::json!({ "modules": junk.clone() }),
            _ => serde_json::json!(junk.clone()),
        };
        std::fs::write(dir.join("victor.json"), m.to_string()).expect("write");
        let err = refused(&["label", "--model", s(&dir), s(&page)]);
        assert!(err.len() < 500, "{field}: {} bytes: {err}", err.len());
        assert!(err.contains("characters)"), "{field}: {err}");
        assert!(
            !err.chars().any(|c| c.is_control() && c != '\n'),
            "{field}: {err:?}"
        );
    }
}

#[test]
fn from_names_the_importer_everywhere_and_sweep_has_min_and_max_threshold() {
    let ex = examples();
    let tmp = tempfile::tempdir().expect("tempdir");
    let help = String::from_utf8_lossy(&run(&["sweep", "--help"]).stdout).into_owned();
    assert!(
        help.contains("--from <IMPORTER>")
            && help.contains("--min-threshold")
            && help.contains("--max-threshold"),
        "{help}"
    );
    assert!(
        !help.contains("--importer") && !help.contains("--to "),
        "{help}"
    );
    let eval_help = String::from_utf8_lossy(&run(&["eval", "--help"]).stdout).into_owned();
    assert!(eval_help.contains("--from <IMPORTER>"), "{eval_help}");
    let rows = |csv: &Path| {
        std::fs::read_to_string(csv)
            .expect("csv")
            .lines()
            .skip(1)
            .map(|l| l.split(',').next().unwrap_or("").to_string())
            .collect::<Vec<_>>()
    };
    let new = tmp.path().join("new.csv");
    let o = run(&[
        "sweep",
        s(&ex),
        "--from",
        "text",
        "--min-threshold",
        "0.4",
        "--max-threshold",
        "0.6",
        "--step",
        "0.1",
        "--csv",
        s(&new),
        "-q",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(rows(&new), ["0.4", "0.5", "0.6"]);
    // The old spellings still work: --importer, --to, and a number after --from (with a warning).
    let old = tmp.path().join("old.csv");
    let o = run(&[
        "sweep",
        s(&ex),
        "--importer",
        "text",
        "--from",
        "0.4",
        "--to",
        "0.6",
        "--step",
        "0.1",
        "--csv",
        s(&old),
        "-q",
    ]);
    assert!(!o.status.success(), "--from given twice");
    let o = run(&[
        "sweep",
        s(&ex),
        "--from",
        "0.4",
        "--to",
        "0.6",
        "--step",
        "0.1",
        "--csv",
        s(&old),
        "-q",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stderr(&o).contains("--min-threshold"), "{}", stderr(&o));
    assert_eq!(rows(&old), ["0.4", "0.5", "0.6"]);
    let err = refused(&["sweep", s(&ex), "--from", "bogus"]);
    assert!(err.contains("not an importer"), "{err}");
}

#[test]
fn out_problems_are_said_once_up_front_and_an_empty_folder_is_named() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let page = a_page();
    let file = tmp.path().join("f");
    std::fs::write(&file, "x").expect("write");
    let err = refused(&["label", s(&page), "--out", s(&file)]);
    assert!(err.contains("is a file, not a folder"), "{err}");
    assert!(!err.contains("os error 17"), "{err}");
    let err = refused(&["label", s(&page), "--out", s(&file.join("sub"))]);
    assert!(err.contains("is a file"), "{err}");

    // A folder that cannot be written into: one message, before any page. (root writes into a
    // mode-0555 folder, so /sys stands in for it there.)
    let ro = tmp.path().join("ro");
    std::fs::create_dir(&ro).expect("mkdir");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&ro, std::fs::Permissions::from_mode(0o555)).expect("chmod");
    }
    let ro = if std::fs::write(ro.join("probe"), "x").is_ok() {
        std::path::PathBuf::from("/sys")
    } else {
        ro
    };
    if ro.is_dir() {
        let ex = examples().join("pages");
        let err = refused(&["label", s(&ex), "--out", s(&ro)]);
        assert!(err.contains("cannot write into the folder"), "{err}");
        assert_eq!(err.lines().count(), 1, "one message: {err}");
        assert!(!err.contains(".tmp"), "{err}");
    }

    let empty = tmp.path().join("empty");
    std::fs::create_dir(&empty).expect("mkdir");
    std::fs::write(empty.join("notes.txt"), "x").expect("write");
    let err = refused(&["label", s(&empty)]);
    assert!(
        err.contains("no pages to label in") && err.contains(s(&empty)),
        "{err}"
    );
    assert!(err.contains("1 not named as a page"), "{err}");

    // eval and sweep name their inputs too.
    let ex = examples();
    for cmd in ["eval", "sweep"] {
        let err = refused(&[cmd, s(&ex), "--split", "nosuch", "-q"]);
        assert!(
            err.contains(&format!(
                "no pages to {}",
                if cmd == "eval" { "evaluate" } else { "sweep" }
            )) && err.contains(s(&ex))
                && err.contains("\"nosuch\""),
            "{err}"
        );
    }
}

#[cfg(unix)]
#[test]
fn walks_say_what_they_skip() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let d = tmp.path().join("crawl");
    std::fs::create_dir_all(d.join("sub")).expect("mkdir");
    let page = std::fs::read(a_page()).expect("page");
    // Pages: these names count.
    for name in [
        "a.html",
        "b.htm",
        "c.xhtml",
        "d.xht",
        "e.shtml",
        "m.html?x=1",
        "sub/f.HTML",
    ] {
        std::fs::write(d.join(name), &page).expect("write");
    }
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    std::io::Write::write_all(&mut gz, &page).expect("gzip");
    std::fs::write(d.join("g.html.gz"), gz.finish().expect("gzip")).expect("write");
    // Not pages: other names, a bare .gz, an extension-less file, a FIFO, links that dangle or
    // loop.
    for name in ["notes.txt", "bare.gz", "README", "m.txt?x=1"] {
        std::fs::write(d.join(name), "x").expect("write");
    }
    let made = std::process::Command::new("mkfifo")
        .arg(d.join("fifo.html"))
        .status();
    assert!(made.expect("mkfifo").success());
    std::os::unix::fs::symlink(d.join("nowhere.html"), d.join("dangling.html")).expect("link");
    std::os::unix::fs::symlink(&d, d.join("sub/loop")).expect("link");
    // Issue 60: a link to itself was counted as a dangling link.
    std::os::unix::fs::symlink(d.join("self.html"), d.join("self.html")).expect("link");

    let out = tmp.path().join("out");
    let o = run(&["label", s(&d), "--out", s(&out), "-q"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let err = stderr(&o);
    let lines: Vec<&str> = err.lines().filter(|l| l.contains("skipped")).collect();
    assert_eq!(lines.len(), 1, "one line: {err}");
    let line = lines[0];
    for part in [
        "skipped 8 entries",
        "4 not named as a page",
        "1 FIFO, socket or device (name a FIFO itself, or pipe it into `-`, to read it)",
        "1 dangling link",
        "2 link loop",
        "--verbose",
    ] {
        assert!(line.contains(part), "{part}: {line}");
    }
    let mut written: Vec<String> = walkdir::WalkDir::new(&out)
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_file())
        .map(|e| {
            e.path()
                .strip_prefix(&out)
                .map(|p| p.to_string_lossy().into_owned())
                .unwrap_or_default()
        })
        .collect();
    written.sort();
    assert_eq!(
        written,
        [
            "a.txt",
            "b.txt",
            "c.txt",
            "d.txt",
            "e.txt",
            "g.txt",
            "m?x=1.txt",
            "sub/f.txt"
        ]
    );

    let o = run(&["label", s(&d), "--out", s(&out), "-q", "--verbose"]);
    let err = stderr(&o);
    for name in [
        "notes.txt",
        "bare.gz",
        "README",
        "fifo.html",
        "dangling.html",
        "loop",
        "self.html",
    ] {
        assert!(
            err.lines()
                .any(|l| l.starts_with("victor: skipped ") && l.contains(name)),
            "{name}: {err}"
        );
    }
}

#[test]
fn html_output_keeps_the_doctype_first() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let page = tmp.path().join("p.html");
    let body = std::fs::read_to_string(a_page()).expect("page");
    let doc = if body
        .trim_start()
        .to_ascii_lowercase()
        .starts_with("<!doctype")
    {
        body
    } else {
        format!("<!DOCTYPE html>\n{body}")
    };
    std::fs::write(&page, &doc).expect("write");
    let o = run(&["label", "--format", "html", s(&page)]);
    assert!(o.status.success(), "{}", stderr(&o));
    let html = String::from_utf8_lossy(&o.stdout);
    assert!(
        html.trim_start()
            .to_ascii_lowercase()
            .starts_with("<!doctype html>"),
        "{}",
        &html[..html.len().min(200)]
    );
    let head = html.to_ascii_lowercase().find("<head").expect("a head");
    let meta = html.find("Content-Security-Policy").expect("the policy");
    assert!(meta > head, "victor's tags are inside <head>");
}

#[test]
fn cv_counts_folds_from_one() {
    let ex = examples();
    let tmp = tempfile::tempdir().expect("tempdir");
    let keep = tmp.path().join("keep");
    let csv = tmp.path().join("cv.csv");
    let o = run(&[
        "cv",
        s(&ex),
        "--folds",
        "2",
        "-q",
        "--keep-models",
        s(&keep),
        "--csv",
        s(&csv),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let err = stderr(&o);
    // Progress counts the folds as they finish (issue 67: "fold 7 of 10" came before "fold 3"),
    // and says which one it was.
    let first = err.find("victor cv: 1 of 2 folds done (fold ").expect(&err);
    let second = err.find("victor cv: 2 of 2 folds done (fold ").expect(&err);
    assert!(first < second, "{err}");
    assert!(!err.contains("fold 0"), "{err}");
    assert!(keep.join("fold-1").is_dir() && keep.join("fold-2").is_dir());
    // Issue 60: the table's rows line up, the last (expected-F1 with its settings, the longest
    // name) too.
    let out = String::from_utf8_lossy(&o.stdout);
    let table: Vec<&str> = out
        .lines()
        .take_while(|l| !l.starts_with("training time"))
        .collect();
    assert!(table.len() > 20, "{out}");
    assert!(
        table
            .last()
            .is_some_and(|l| l.starts_with("expected-F1 (scale")),
        "{out}"
    );
    let width = table[0].chars().count();
    for line in &table {
        assert_eq!(line.chars().count(), width, "misaligned: {line:?}\n{out}");
    }
    // Then each fold, in fold order.
    let folds: Vec<&str> = out
        .lines()
        .skip_while(|l| !l.trim_start().starts_with("fold "))
        .skip(1)
        .map(|l| l.split_whitespace().next().unwrap_or(""))
        .collect();
    assert_eq!(folds, ["1", "2"], "{out}");
    let header = std::fs::read_to_string(&csv).expect("csv");
    assert!(
        header
            .lines()
            .next()
            .is_some_and(|h| h.ends_with("fold1,fold2")),
        "{header}"
    );
}

#[test]
fn import_out_naming_a_file_says_so() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let file = tmp.path().join("f");
    std::fs::write(&file, "x").expect("write");
    let set = tmp.path().join("set");
    std::fs::create_dir(&set).expect("mkdir");
    let err = refused(&["import", "--from", "text", s(&set), "--out", s(&file)]);
    assert!(err.contains("is a file, not a folder"), "{err}");
    assert_eq!(std::fs::read_to_string(&file).expect("kept"), "x");
}

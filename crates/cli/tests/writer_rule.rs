//! Issue 60, item 1: every writer follows the one writer rule (`victor_features::file::write`).
//! For each writer of a file (`eval --csv`, `eval --pages-csv`, `sweep --csv`, `sweep --plot`,
//! `cv --csv`, `train --export-crfsuite`) and each kind of path: a symbolic link is followed
//! (its target written, the link kept), a FIFO is written as a stream (its reader gets the
//! bytes, the FIFO stays), `/dev/null` takes the bytes and stays a device, `-` is standard
//! output (the report then goes to standard error), and a folder is refused before any work.
//! For each writer of a folder (`label --out`, `import --out`, `annotate --out`, `train --out`,
//! `cv --keep-models`): a link to a folder is followed, a FIFO, `/dev/null` and `-` are refused
//! with what they are and left as they are. Files inside an output folder follow the rule too.
//! No test needs root.
#![cfg(unix)]

mod common;

use std::os::unix::fs::FileTypeExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::Duration;

use common::{VICTOR, examples, s};

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Runs victor in `dir`, killed after two minutes (a writer that waited for ever would fail
/// the test, not hang it). Its output is read as it comes (a large file on standard output
/// would otherwise fill the pipe).
fn run_in(dir: &Path, args: &[String]) -> Output {
    let child = Command::new(VICTOR)
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("victor runs");
    let pid = child.id();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(child.wait_with_output());
    });
    match rx.recv_timeout(Duration::from_secs(120)) {
        Ok(out) => out.expect("output"),
        Err(_) => {
            let _ = Command::new("kill").arg(pid.to_string()).status();
            panic!("victor {args:?} did not end in two minutes");
        }
    }
}

fn mkfifo(p: &Path) {
    let made = Command::new("mkfifo").arg(p).status();
    assert!(made.expect("mkfifo runs").success());
}

fn is_fifo(p: &Path) -> bool {
    std::fs::symlink_metadata(p).is_ok_and(|m| m.file_type().is_fifo())
}

/// Runs victor with a reader on the FIFO `fifo`: victor's output and the bytes that came
/// through. A victor that never opens the FIFO leaves the reader waiting for a writer: one is
/// opened and closed after victor ends, so the reader always returns.
fn run_with_reader(dir: &Path, args: &[String], fifo: &Path) -> (Output, Vec<u8>) {
    let f = fifo.to_path_buf();
    let reader = std::thread::spawn(move || std::fs::read(f).unwrap_or_default());
    let o = run_in(dir, args);
    {
        use std::os::unix::fs::OpenOptionsExt;
        let _ = std::fs::OpenOptions::new()
            .write(true)
            .custom_flags(libc::O_NONBLOCK)
            .open(fifo);
    }
    (o, reader.join().expect("reader"))
}

/// Names under `dir` (recursively) of victor's temporary files.
fn temporaries(dir: &Path) -> Vec<PathBuf> {
    walkdir::WalkDir::new(dir)
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.file_name().to_string_lossy().starts_with(".victor-"))
        .map(|e| e.into_path())
        .collect()
}

/// A writer of one file: its arguments with `{}` where the path goes, and a word its output
/// holds.
struct FileWriter {
    name: &'static str,
    args: Vec<String>,
    holds: &'static str,
    /// Whether the file's name must end in .svg.
    svg: bool,
}

fn file_writers() -> Vec<FileWriter> {
    let ex = s(&examples()).to_string();
    let w = |name, args: &[&str], holds, svg| FileWriter {
        name,
        args: args.iter().map(|a| a.replace("EX", &ex)).collect(),
        holds,
        svg,
    };
    vec![
        w(
            "eval --csv",
            &["eval", "EX", "-q", "--csv", "{}"],
            "text_f1",
            false,
        ),
        w(
            "eval --pages-csv",
            &["eval", "EX", "-q", "--pages-csv", "{}"],
            "sourdough",
            false,
        ),
        w(
            "sweep --csv",
            &["sweep", "EX", "-q", "--step", "0.25", "--csv", "{}"],
            "threshold",
            false,
        ),
        w(
            "sweep --plot",
            &["sweep", "EX", "-q", "--step", "0.25", "--plot", "{}"],
            "<svg",
            true,
        ),
        w(
            "cv --csv",
            &["cv", "EX", "--folds", "2", "-q", "--csv", "{}"],
            "measure",
            false,
        ),
        w(
            "train --export-crfsuite",
            &["train", "EX", "-q", "--export-crfsuite", "{}"],
            "text\t",
            false,
        ),
    ]
}

fn with_path(args: &[String], path: &str) -> Vec<String> {
    args.iter()
        .map(|a| {
            if a == "{}" {
                path.to_string()
            } else {
                a.clone()
            }
        })
        .collect()
}

#[test]
fn every_file_writer_follows_the_rule_for_every_kind_of_path() {
    for w in file_writers() {
        let tmp = tempfile::tempdir().expect("tempdir");
        let d = tmp.path();
        let ext = if w.svg { "svg" } else { "out" };
        let name = w.name;

        // A symbolic link: the target is written in its folder, the link stays a link.
        std::fs::create_dir(d.join("there")).expect("mkdir");
        let target = d.join("there").join(format!("real.{ext}"));
        std::fs::write(&target, "old").expect("write");
        let link = d.join(format!("link.{ext}"));
        std::os::unix::fs::symlink(format!("there/real.{ext}"), &link).expect("link");
        let o = run_in(d, &with_path(&w.args, s(&link)));
        assert!(o.status.success(), "{name} link: {}", stderr(&o));
        let got = std::fs::read_to_string(&target).expect("target");
        assert!(got.contains(w.holds), "{name} link: {got:.200}");
        assert!(std::fs::symlink_metadata(&link).expect("link").is_symlink());

        // A FIFO: written as a stream to its reader; it stays a FIFO.
        let fifo = d.join(format!("fifo.{ext}"));
        mkfifo(&fifo);
        let (o, bytes) = run_with_reader(d, &with_path(&w.args, s(&fifo)), &fifo);
        assert!(o.status.success(), "{name} FIFO: {}", stderr(&o));
        let got = String::from_utf8_lossy(&bytes);
        assert!(got.contains(w.holds), "{name} FIFO: {got:.200}");
        assert!(is_fifo(&fifo), "{name}: the FIFO stays");

        // /dev/null takes the bytes and stays a character device.
        let o = run_in(d, &with_path(&w.args, "/dev/null"));
        assert!(o.status.success(), "{name} /dev/null: {}", stderr(&o));
        let t = std::fs::symlink_metadata("/dev/null")
            .expect("null")
            .file_type();
        assert!(t.is_char_device());

        // `-`: standard output holds the file alone; no file named `-` is made.
        let o = run_in(d, &with_path(&w.args, "-"));
        assert!(o.status.success(), "{name} -: {}", stderr(&o));
        let out = String::from_utf8_lossy(&o.stdout);
        assert!(out.contains(w.holds), "{name} -: {out:.200}");
        assert!(!out.contains("victor eval: model") && !out.contains("victor sweep: model"));
        assert!(!d.join("-").exists(), "{name}: a file named -");

        // A folder is refused before any work, and left as it was.
        let folder = d.join(format!("folder.{ext}"));
        std::fs::create_dir(&folder).expect("mkdir");
        std::fs::write(folder.join("keep.txt"), "keep").expect("write");
        let o = run_in(d, &with_path(&w.args, s(&folder)));
        assert!(!o.status.success(), "{name} folder");
        assert!(
            stderr(&o).contains("it is a folder"),
            "{name}: {}",
            stderr(&o)
        );
        assert_eq!(
            std::fs::read_to_string(folder.join("keep.txt")).expect("kept"),
            "keep"
        );
        assert!(temporaries(d).is_empty(), "{name}: {:?}", temporaries(d));
    }
}

/// A data set for `import --from text`: one page and its gold text.
fn text_data_set(dir: &Path) {
    std::fs::create_dir_all(dir.join("html")).expect("mkdir");
    std::fs::create_dir_all(dir.join("gold")).expect("mkdir");
    std::fs::copy(
        examples().join("pages/news-harbour-bridge.html"),
        dir.join("html/a.html"),
    )
    .expect("copy");
    std::fs::write(
        dir.join("gold/a.txt"),
        "Harbour bridge to close for six weeks of repairs\n",
    )
    .expect("write");
    std::fs::write(
        dir.join("manifest.jsonl"),
        "{\"id\":\"a\",\"html\":\"html/a.html\",\"gold\":\"gold/a.txt\",\"split\":\"test\"}\n",
    )
    .expect("write");
}

/// A writer of a folder: its arguments with `{}` where the folder goes, a file it writes there
/// (relative to the folder), and whether it can be run to the end here (`annotate` serves
/// until stopped: only its refusals are tried).
struct FolderWriter {
    name: &'static str,
    args: Vec<String>,
    writes: &'static str,
    runs: bool,
}

fn folder_writers(data: &Path) -> Vec<FolderWriter> {
    let ex = s(&examples()).to_string();
    let page = s(&examples().join("pages/forum-bike-chain.html")).to_string();
    let data = s(data).to_string();
    let w = |name, args: &[&str], writes, runs| FolderWriter {
        name,
        args: args
            .iter()
            .map(|a| {
                a.replace("EX", &ex)
                    .replace("PAGE", &page)
                    .replace("DATA", &data)
            })
            .collect(),
        writes,
        runs,
    };
    vec![
        w(
            "label --out",
            &["label", "-q", "PAGE", "--out", "{}"],
            "forum-bike-chain.txt",
            true,
        ),
        w(
            "import --out",
            &["import", "--from", "text", "-q", "DATA", "--out", "{}"],
            "labels/a.json",
            true,
        ),
        w(
            "train --out",
            &["train", "EX", "--threshold-folds", "0", "-q", "--out", "{}"],
            "victor.json",
            true,
        ),
        w(
            "cv --keep-models",
            &["cv", "EX", "--folds", "2", "-q", "--keep-models", "{}"],
            "fold-1/held-out.txt",
            true,
        ),
        w(
            "annotate --out",
            &["annotate", "PAGE", "--port", "0", "--out", "{}"],
            "set.json",
            false,
        ),
    ]
}

#[test]
fn every_folder_writer_follows_a_link_and_refuses_what_is_no_folder() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let data = tmp.path().join("data");
    text_data_set(&data);
    for w in folder_writers(&data) {
        let case = tempfile::tempdir().expect("tempdir");
        let d = case.path();
        let name = w.name;
        if w.runs {
            // A link to a folder: written into the folder, the link stays a link.
            std::fs::create_dir(d.join("real")).expect("mkdir");
            let link = d.join("link");
            std::os::unix::fs::symlink("real", &link).expect("link");
            let o = run_in(d, &with_path(&w.args, s(&link)));
            assert!(o.status.success(), "{name} link: {}", stderr(&o));
            assert!(d.join("real").join(w.writes).is_file(), "{name} link");
            assert!(std::fs::symlink_metadata(&link).expect("link").is_symlink());
        }
        // A FIFO, /dev/null and `-` are no folders: refused with what they are, left alone.
        let fifo = d.join("fifo");
        mkfifo(&fifo);
        for (path, says) in [
            (s(&fifo), "FIFO"),
            ("/dev/null", "character device"),
            ("-", "standard output"),
        ] {
            let o = run_in(d, &with_path(&w.args, path));
            assert!(!o.status.success(), "{name} {path}");
            assert!(stderr(&o).contains(says), "{name} {path}: {}", stderr(&o));
        }
        assert!(is_fifo(&fifo), "{name}: the FIFO stays");
        assert!(!d.join("-").exists(), "{name}: a folder named -");
        assert!(temporaries(d).is_empty(), "{name}: {:?}", temporaries(d));
    }
}

#[test]
fn files_inside_an_output_folder_follow_the_rule_too() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let d = tmp.path();
    let page = examples().join("pages/forum-bike-chain.html");
    let out = d.join("out");
    std::fs::create_dir(&out).expect("mkdir");
    // label --out: the page's output file is a link (its target written) ...
    let elsewhere = d.join("elsewhere.txt");
    std::fs::write(&elsewhere, "old").expect("write");
    std::os::unix::fs::symlink(&elsewhere, out.join("forum-bike-chain.txt")).expect("link");
    let args: Vec<String> = ["label", "-q", s(&page), "--out", s(&out)]
        .map(String::from)
        .to_vec();
    let o = run_in(d, &args);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = std::fs::read_to_string(&elsewhere).expect("target");
    assert!(text.contains("chain"), "{text}");
    assert!(
        std::fs::symlink_metadata(out.join("forum-bike-chain.txt"))
            .expect("l")
            .is_symlink()
    );
    // ... or a FIFO (streamed to its reader, and still a FIFO).
    std::fs::remove_file(out.join("forum-bike-chain.txt")).expect("rm");
    let fifo = out.join("forum-bike-chain.txt");
    mkfifo(&fifo);
    let (o, bytes) = run_with_reader(d, &args, &fifo);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(String::from_utf8_lossy(&bytes), text);
    assert!(is_fifo(&fifo));

    // train --out DIR --force over a bundle whose model file is a link: the link's target is
    // the model written, the link stays.
    let bundle = d.join("bundle");
    let train = |extra: &[&str]| {
        let mut a: Vec<String> = ["train", s(&examples()), "--threshold-folds", "0", "-q"]
            .map(String::from)
            .to_vec();
        a.extend(["--out".to_string(), s(&bundle).to_string()]);
        a.extend(extra.iter().map(|x| x.to_string()));
        run_in(d, &a)
    };
    let o = train(&[]);
    assert!(o.status.success(), "{}", stderr(&o));
    let model = std::fs::read(bundle.join("model.crfsuite")).expect("model");
    let kept = d.join("kept.crfsuite");
    std::fs::write(&kept, b"old").expect("write");
    std::fs::remove_file(bundle.join("model.crfsuite")).expect("rm");
    std::os::unix::fs::symlink(&kept, bundle.join("model.crfsuite")).expect("link");
    // Without --force a link is not a bundle's file: refused.
    let o = train(&[]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("model.crfsuite"), "{}", stderr(&o));
    let o = train(&["--force"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(std::fs::read(&kept).expect("kept"), model);
    assert!(
        std::fs::symlink_metadata(bundle.join("model.crfsuite"))
            .expect("l")
            .is_symlink()
    );
    assert!(temporaries(d).is_empty(), "{:?}", temporaries(d));
}

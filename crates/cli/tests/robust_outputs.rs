//! Issue 48, "Never delete what victor did not write": Ctrl-C leaves no temporary file and
//! exits 130, writers refuse folders of other files, a failed standard output stops the batch,
//! decoding options a rule-based method ignores are refused, `--out` inside the input folder is
//! not read back, and non-UTF-8 file names keep their bytes.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use common::{VICTOR, examples, run, s};

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// The example pages.
fn example_pages() -> Vec<PathBuf> {
    let mut pages: Vec<PathBuf> = std::fs::read_dir(examples().join("pages"))
        .expect("pages")
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "html"))
        .collect();
    pages.sort();
    pages
}

/// A folder of `copies` copies of the example pages.
fn many_pages(dir: &Path, copies: usize) {
    std::fs::create_dir_all(dir).expect("mkdir");
    for k in 0..copies {
        for p in example_pages() {
            let name = format!("{k:04}-{}", p.file_name().expect("name").to_string_lossy());
            std::fs::copy(&p, dir.join(name)).expect("copy");
        }
    }
}

/// Every path under `dir`, files and folders, recursively.
fn all_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in entries.filter_map(Result::ok) {
            let p = e.path();
            if p.is_dir() {
                todo.push(p.clone());
            }
            out.push(p);
        }
    }
    out
}

/// Names under `dir` that look like temporary files (victor's, or tempfile's default `.tmp`).
fn temporary_files(dir: &Path) -> Vec<PathBuf> {
    all_files(dir)
        .into_iter()
        .filter(|p| is_temporary(p))
        .collect()
}

/// Whether a path is one of the temporary files a run writes into before renaming it.
fn is_temporary(p: &Path) -> bool {
    let name = p.file_name().map(|n| n.to_string_lossy().into_owned());
    name.is_some_and(|n| n.starts_with(".victor-tmp-") || n.starts_with(".tmp"))
}

/// The finished outputs below `dir`: every file but the temporary ones a run writes into first.
/// (Counting a temporary file as written let the test interrupt a run before its first output
/// was finished, then find 0 outputs.)
fn finished_files(dir: &Path) -> Vec<PathBuf> {
    all_files(dir)
        .into_iter()
        .filter(|p| !is_temporary(p))
        .collect()
}

/// Sends `signal` (`INT`, `TERM`) to a process with kill(1).
fn send(signal: &str, pid: u32) {
    let ok = Command::new("kill")
        .args([format!("-{signal}"), pid.to_string()])
        .status()
        .expect("kill runs");
    assert!(ok.success(), "kill -{signal} {pid}");
}

/// Starts `victor ARGS` and sends it `signal` once `ready` says so, then waits for it (at most
/// 60 s). The wait for `ready` is long (3 min): the debug binary loads the default model
/// slowly, and on a loaded CI machine its first output once took more than 20 s.
fn interrupted(args: &[&str], signal: &str, ready: impl Fn() -> bool) -> Output {
    let mut child = Command::new(VICTOR)
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("victor runs");
    let start = Instant::now();
    while !ready() && child.try_wait().expect("try_wait").is_none() {
        assert!(
            start.elapsed() < Duration::from_secs(180),
            "the run was not ready to be interrupted after 3 min"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
    assert!(
        child.try_wait().expect("try_wait").is_none(),
        "the run ended before it could be interrupted: make the batch larger"
    );
    send(signal, child.id());
    let start = Instant::now();
    while child.try_wait().expect("try_wait").is_none() {
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "no stop after the signal"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    child.wait_with_output().expect("output")
}

#[cfg(unix)]
#[test]
fn an_interrupted_label_out_leaves_no_temporary_file_and_exits_130() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let pages = tmp.path().join("pages");
    many_pages(&pages, 200);
    let total = std::fs::read_dir(&pages).expect("pages").count();
    // Several runs, interrupted at different moments, one thread and two, SIGINT and SIGTERM:
    // 5 of 22 runs once left an empty temporary file.
    for (k, (jobs, signal, after)) in [
        ("1", "INT", 1),
        ("2", "INT", 1),
        ("2", "INT", 20),
        ("1", "TERM", 5),
        ("2", "TERM", 40),
        ("2", "INT", 80),
    ]
    .into_iter()
    .enumerate()
    {
        let out = tmp.path().join(format!("out-{k}"));
        let written = || finished_files(&out).len() >= after;
        let o = interrupted(
            &["label", "-q", "--jobs", jobs, "--out", s(&out), s(&pages)],
            signal,
            written,
        );
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(130), "run {k}: {err}");
        assert!(err.contains("interrupted"), "run {k}: {err}");
        assert!(
            temporary_files(&out).is_empty(),
            "run {k}: {:?}",
            temporary_files(&out)
        );
        let outputs = finished_files(&out).len();
        assert!(
            outputs >= after && outputs < total,
            "run {k}: {outputs} of {total}"
        );
    }
}

#[cfg(unix)]
#[test]
fn an_interrupted_run_to_standard_output_stops_and_exits_130() {
    use std::io::Read;
    let tmp = tempfile::tempdir().expect("tempdir");
    let pages = tmp.path().join("pages");
    many_pages(&pages, 200);
    for jobs in ["1", "2"] {
        let mut child = Command::new(VICTOR)
            .args(["label", "-q", "--jobs", jobs, s(&pages)])
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("victor runs");
        let mut stdout = child.stdout.take().expect("stdout");
        // The first page's text is out: the batch is under way.
        let mut first = [0u8; 1];
        stdout.read_exact(&mut first).expect("some output");
        send("INT", child.id());
        // The rest is read, so that no write waits on a full pipe.
        let reader = std::thread::spawn(move || {
            let mut rest = Vec::new();
            stdout.read_to_end(&mut rest).map(|_| rest.len())
        });
        let o = child.wait_with_output().expect("output");
        let rest = reader.join().expect("reader").expect("read");
        assert_eq!(o.status.code(), Some(130), "--jobs {jobs}: {}", stderr(&o));
        assert!(stderr(&o).contains("interrupted"), "{}", stderr(&o));
        // Far less than every page's text: the batch stopped.
        let all = run(&["label", "-q", s(&pages)]).stdout.len();
        assert!(rest + 1 < all / 2, "--jobs {jobs}: {rest} of {all} bytes");
    }
}

/// Runs `victor ARGS` with standard output on `/dev/full` (every write fails: no space).
#[cfg(target_os = "linux")]
fn run_to_dev_full(args: &[&str]) -> Output {
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .expect("/dev/full");
    Command::new(VICTOR)
        .args(args)
        .stdout(Stdio::from(full))
        .stderr(Stdio::piped())
        .output()
        .expect("victor runs")
}

#[cfg(target_os = "linux")]
#[test]
fn a_failed_write_to_standard_output_stops_the_batch_at_once() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let pages = tmp.path().join("pages");
    many_pages(&pages, 3);
    for jobs in ["1", "2"] {
        for format in ["text", "jsonl", "csv"] {
            let o =
                run_to_dev_full(&["label", "-q", "--jobs", jobs, "--format", format, s(&pages)]);
            let err = stderr(&o);
            assert_eq!(o.status.code(), Some(1), "{jobs} {format}: {err}");
            // One error, said once: not one per page.
            assert_eq!(err.lines().count(), 1, "{jobs} {format}: {err}");
            assert!(
                err.contains("cannot write to standard output") && err.contains("No space left"),
                "{jobs} {format}: {err}"
            );
        }
    }
}

#[test]
fn decoding_options_are_refused_with_a_rule_based_method() {
    let page = examples().join("pages/news-harbour-bridge.html");
    for method in ["justext", "bte", "kimatu"] {
        for option in [
            &["--threshold", "0.3"][..],
            &["--viterbi"][..],
            &["--expected-f1"][..],
        ] {
            let mut args = vec!["label", "--method", method];
            args.extend_from_slice(option);
            args.push(s(&page));
            let o = run(&args);
            assert!(!o.status.success(), "{args:?}");
            let err = stderr(&o);
            assert!(
                err.contains(option[0]) && err.contains("applies to the CRF only"),
                "{args:?}: {err}"
            );
            assert!(o.stdout.is_empty(), "{args:?}");
        }
    }
    // Without a decoding option the method runs.
    let o = run(&["label", "--method", "justext", s(&page)]);
    assert!(o.status.success(), "{}", stderr(&o));
}

#[test]
fn out_inside_the_input_folder_is_never_walked_into() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let site = tmp.path().join("site");
    many_pages(&site, 1);
    let n = std::fs::read_dir(&site).expect("site").count();
    let out = site.join("clean");
    // HTML output is named as pages are: a second run would label the first run's outputs.
    for round in 0..2 {
        let o = run(&["label", "--format", "html", "--out", s(&out), s(&site)]);
        assert!(o.status.success(), "round {round}: {}", stderr(&o));
        let outputs = all_files(&out);
        assert_eq!(outputs.len(), n, "round {round}: {outputs:?}");
        assert!(
            !out.join("clean").exists(),
            "round {round}: the outputs were labelled"
        );
    }
    // The same through a path spelt differently (`site/./clean`).
    let o = run(&[
        "label",
        "--format",
        "html",
        "--out",
        s(&site.join(".").join("clean")),
        s(&site),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(all_files(&out).len(), n);
    // `--out` the input folder itself: text goes beside the pages...
    let o = run(&["label", "-q", "--out", s(&site), s(&site)]);
    assert!(o.status.success(), "{}", stderr(&o));
    // ... but an output that would replace a page is refused up front, the page kept.
    let page = std::fs::read_dir(&site)
        .expect("site")
        .filter_map(Result::ok)
        .map(|e| e.path())
        .find(|p| p.extension().is_some_and(|e| e == "html"))
        .expect("a page");
    let before = std::fs::read(&page).expect("page");
    let o = run(&["label", "--format", "html", "--out", s(&site), s(&site)]);
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains("would replace the page"),
        "{}",
        stderr(&o)
    );
    assert_eq!(std::fs::read(&page).expect("page"), before);
}

#[cfg(unix)]
#[test]
fn non_utf8_file_names_keep_their_bytes_under_out() {
    use std::ffi::OsStr;
    use std::os::unix::ffi::OsStrExt;
    let tmp = tempfile::tempdir().expect("tempdir");
    let pages = tmp.path().join("pages");
    std::fs::create_dir(&pages).expect("mkdir");
    let name = OsStr::from_bytes(b"bad\xff\xfename.html");
    std::fs::copy(
        examples().join("pages/news-harbour-bridge.html"),
        pages.join(name),
    )
    .expect("copy");
    let out = tmp.path().join("out");
    let o = run(&["label", "--out", s(&out), s(&pages)]);
    assert!(o.status.success(), "{}", stderr(&o));
    let written: Vec<Vec<u8>> = std::fs::read_dir(&out)
        .expect("out")
        .filter_map(Result::ok)
        .map(|e| e.file_name().as_bytes().to_vec())
        .collect();
    assert_eq!(written, vec![b"bad\xff\xfename.txt".to_vec()]);
}

/// A folder holding the user's files, which a writer must leave as they are.
fn users_folder(dir: &Path) {
    std::fs::create_dir_all(dir.join("pages")).expect("mkdir");
    std::fs::write(dir.join("notes.txt"), "keep").expect("write");
    std::fs::write(dir.join("set.json"), "my own set.json").expect("write");
    std::fs::write(dir.join("pages/a.html"), "keep").expect("write");
}

/// Whether [`users_folder`]'s files are as they were, and nothing was added.
fn users_folder_intact(dir: &Path) -> bool {
    let read = |p: &str| std::fs::read_to_string(dir.join(p)).unwrap_or_default();
    read("notes.txt") == "keep"
        && read("set.json") == "my own set.json"
        && read("pages/a.html") == "keep"
        && all_files(dir).len() == 4
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

#[test]
fn import_and_annotate_never_write_into_a_folder_of_other_files() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let data = tmp.path().join("data");
    text_data_set(&data);
    let mine = tmp.path().join("mine");
    users_folder(&mine);
    let o = run(&[
        "import",
        "--from",
        "text",
        "-q",
        s(&data),
        "--out",
        s(&mine),
    ]);
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains("is not an annotated set"),
        "{}",
        stderr(&o)
    );
    assert!(users_folder_intact(&mine), "{:?}", all_files(&mine));

    let o = run(&[
        "annotate",
        s(&examples().join("pages")),
        "--out",
        s(&mine),
        "--port",
        "0",
    ]);
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains("is not an annotated set"),
        "{}",
        stderr(&o)
    );
    assert!(users_folder_intact(&mine), "{:?}", all_files(&mine));

    // A file as --out is refused and kept.
    let file = tmp.path().join("file");
    std::fs::write(&file, "x").expect("write");
    let o = run(&[
        "annotate",
        s(&examples().join("pages")),
        "--out",
        s(&file),
        "--port",
        "0",
    ]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("is a file"), "{}", stderr(&o));
    assert_eq!(std::fs::read_to_string(&file).expect("kept"), "x");

    // A new folder, and then the set it became, are written into.
    let set = tmp.path().join("set");
    for round in 0..2 {
        let o = run(&["import", "--from", "text", "-q", s(&data), "--out", s(&set)]);
        assert!(o.status.success(), "round {round}: {}", stderr(&o));
        assert!(set.join("labels/a.json").is_file());
        assert!(temporary_files(&set).is_empty());
    }
}

#[test]
fn named_csv_and_plot_outputs_replace_only_that_file() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let ex = examples();
    let folder = tmp.path().join("folder");
    std::fs::create_dir(&folder).expect("mkdir");
    std::fs::write(folder.join("keep.txt"), "keep").expect("write");
    let csv = tmp.path().join("scores.csv");
    std::fs::write(&csv, "old").expect("write");
    let beside = tmp.path().join("beside.txt");
    std::fs::write(&beside, "keep").expect("write");
    // eval --csv F and --pages-csv F: F replaced, nothing beside it touched.
    let pages_csv = tmp.path().join("pages.csv");
    let o = run(&[
        "eval",
        s(&ex),
        "--csv",
        s(&csv),
        "--pages-csv",
        s(&pages_csv),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_ne!(std::fs::read_to_string(&csv).expect("csv"), "old");
    assert!(pages_csv.is_file());
    assert_eq!(std::fs::read_to_string(&beside).expect("kept"), "keep");
    assert!(temporary_files(tmp.path()).is_empty());
    // A folder named as the CSV or the plot is refused and left as it was.
    for args in [
        vec!["eval", s(&ex), "--csv", s(&folder)],
        vec!["eval", s(&ex), "--pages-csv", s(&folder)],
        vec!["sweep", s(&ex), "--csv", s(&folder)],
    ] {
        let o = run(&args);
        assert!(!o.status.success(), "{args:?}");
        assert!(folder.join("keep.txt").is_file(), "{args:?}");
        assert!(temporary_files(tmp.path()).is_empty(), "{args:?}");
    }
    let plot = tmp.path().join("plot.svg");
    std::fs::create_dir(&plot).expect("mkdir");
    std::fs::write(plot.join("keep.txt"), "keep").expect("write");
    let o = run(&["sweep", s(&ex), "--plot", s(&plot)]);
    assert!(!o.status.success());
    assert!(plot.join("keep.txt").is_file());
    assert!(temporary_files(tmp.path()).is_empty());
}

/// A plain WARC file of `copies` responses of each example page.
fn warc_of_pages(path: &Path, copies: usize) {
    let mut warc = Vec::new();
    for k in 0..copies {
        for (j, p) in example_pages().iter().enumerate() {
            let body = std::fs::read(p).expect("page");
            let mut http =
                b"HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\n\r\n".to_vec();
            http.extend_from_slice(&body);
            let uri = format!("http://example.org/{k}/{j}");
            warc.extend_from_slice(
                format!(
                    "WARC/1.0\r\nWARC-Type: response\r\nWARC-Record-ID: <urn:uuid:{k}-{j}>\r\nWARC-Date: 2026-01-01T00:00:00Z\r\nWARC-Target-URI: {uri}\r\nContent-Type: application/http; msgtype=response\r\nContent-Length: {}\r\n\r\n",
                    http.len()
                )
                .as_bytes(),
            );
            warc.extend_from_slice(&http);
            warc.extend_from_slice(b"\r\n\r\n");
        }
    }
    std::fs::write(path, warc).expect("write");
}

#[cfg(unix)]
#[test]
fn an_interrupted_warc_under_out_leaves_no_file() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let warc = tmp.path().join("big.warc");
    warc_of_pages(&warc, 400);
    let out = tmp.path().join("out");
    std::fs::create_dir(&out).expect("mkdir");
    // The output's temporary file exists: the handler is installed and labelling under way.
    let o = interrupted(
        &[
            "label",
            "-q",
            "--format",
            "jsonl-text",
            "--out",
            s(&out),
            s(&warc),
        ],
        "INT",
        || !temporary_files(&out).is_empty(),
    );
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(130), "{err}");
    assert!(err.contains("interrupted"), "{err}");
    // Neither half an output nor its temporary file.
    assert!(all_files(&out).is_empty(), "{:?}", all_files(&out));
}

//! `victor label` end to end with the built-in default model: batches that go on past bad
//! pages and report them, output files named after their inputs and written whole, the order
//! of pages on standard output, a page read from standard input or gzip-compressed, and a page
//! in Chinese.

mod common;

use std::path::{Path, PathBuf};

use common::{examples, run, s};

fn pages_dir() -> PathBuf {
    examples().join("pages")
}

/// The example pages, sorted by name.
fn example_pages() -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(pages_dir())
        .expect("examples")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "html"))
        .collect();
    v.sort();
    v
}

fn names_in(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .expect("output folder")
        .filter_map(|e| e.ok().map(|e| e.file_name().to_string_lossy().into_owned()))
        .collect();
    v.sort();
    v
}

#[test]
fn a_batch_goes_on_past_bad_pages_and_reports_them() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let junk = tmp.path().join("junk.html");
    std::fs::write(
        &junk,
        [0u8, 159, 146, 150, 0, 0, 255, 254, 0, 1, 2, 3].repeat(50),
    )
    .expect("write junk");
    let missing = tmp.path().join("missing.html");
    let good = example_pages().remove(0);
    let list = tmp.path().join("list.txt");
    std::fs::write(
        &list,
        format!("{}\n{}\n{}\n", s(&junk), s(&good), s(&missing)),
    )
    .expect("write list");
    let out_dir = tmp.path().join("out");
    let out = run(&[
        "label",
        "--files-from",
        s(&list),
        "--out",
        s(&out_dir),
        "--jobs",
        "2",
        "-q",
    ]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "failures must give a non-zero exit");
    assert!(stderr.contains("2 of 3 pages failed"), "{stderr}");
    assert!(
        stderr.contains("junk.html") && stderr.contains("missing.html"),
        "{stderr}"
    );
    // The good page is written, under its own name; nothing else is left in the folder
    // (no temporary files, no output for the pages that failed).
    let stem = good.file_stem().expect("stem").to_string_lossy();
    assert_eq!(names_in(&out_dir), [format!("{stem}.txt")]);
    let text = std::fs::read_to_string(out_dir.join(format!("{stem}.txt"))).expect("output");
    assert!(!text.trim().is_empty(), "the example page has content");
}

#[test]
fn every_format_is_written_under_the_input_name_with_its_extension() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let pages = example_pages();
    for (format, ext) in [
        ("text", "txt"),
        ("cleaneval", "txt"),
        ("jsonl", "jsonl"),
        ("jsonl-text", "jsonl"),
        ("html", "html"),
        ("csv", "csv"),
        ("markdown", "md"),
    ] {
        let dir = tmp.path().join(format);
        let out = run(&[
            "label",
            s(&pages_dir()),
            "--format",
            format,
            "--out",
            s(&dir),
            "-q",
        ]);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let mut want: Vec<String> = pages
            .iter()
            .map(|p| format!("{}.{ext}", p.file_stem().expect("stem").to_string_lossy()))
            .collect();
        want.sort();
        assert_eq!(names_in(&dir), want, "{format}");
    }
    // jsonl: one object per page, every block with probabilities summing to 1 and a label
    // that agrees with them under the decoding rule.
    let first = tmp.path().join("jsonl").join(format!(
        "{}.jsonl",
        pages[0].file_stem().expect("stem").to_string_lossy()
    ));
    let line = std::fs::read_to_string(first).expect("jsonl output");
    let v: serde_json::Value = serde_json::from_str(line.trim()).expect("one JSON object");
    assert_eq!(v["language"], "eng", "the page language (ISO 639-3)");
    let blocks = v["blocks"].as_array().expect("blocks");
    assert!(!blocks.is_empty());
    // The shipped bundles recommend expected-F1 decoding: a threshold of the page's own, so the
    // blocks kept are those with the lowest P(other), and header/text is the likelier of the two.
    assert_eq!(v["decoding"], "expected-f1", "the default model's decoding");
    let (mut most_kept, mut least_dropped) = (0.0f64, 1.0f64);
    for b in blocks {
        let p = &b["probabilities"];
        let (h, x, o) = (
            p["header"].as_f64().expect("header"),
            p["text"].as_f64().expect("text"),
            p["other"].as_f64().expect("other"),
        );
        assert!((h + x + o - 1.0).abs() < 1e-6, "{b}");
        if b["label"] == "other" {
            least_dropped = least_dropped.min(o);
        } else {
            most_kept = most_kept.max(o);
            assert_eq!(b["label"], if h > x { "header" } else { "text" }, "{b}");
        }
    }
    assert!(most_kept > 0.0, "the example page keeps something");
    assert!(
        most_kept < least_dropped,
        "kept blocks are a prefix by P(other)"
    );
    // Both JSON formats carry the page's cleaned text, the text format's output without its
    // last line break; jsonl-text leaves the blocks out.
    for p in &pages {
        let stem = p.file_stem().expect("stem").to_string_lossy().into_owned();
        let read = |dir: &str, ext: &str| {
            std::fs::read_to_string(tmp.path().join(dir).join(format!("{stem}.{ext}")))
                .expect("output")
        };
        let text = read("text", "txt");
        let full: serde_json::Value =
            serde_json::from_str(read("jsonl", "jsonl").trim()).expect("JSON");
        let compact: serde_json::Value =
            serde_json::from_str(read("jsonl-text", "jsonl").trim()).expect("JSON");
        assert_eq!(
            full["text"].as_str(),
            Some(text.strip_suffix('\n').unwrap_or(&text)),
            "{stem}"
        );
        assert_eq!(compact["text"], full["text"], "{stem}");
        assert_eq!(compact["title"], full["title"], "{stem}");
        assert!(compact.get("blocks").is_none(), "{stem}");
    }
}

#[test]
fn the_markdown_field_is_the_markdown_format_and_links_need_markdown() {
    let page = example_pages().remove(0);
    let md = run(&["label", "--format", "markdown", s(&page)]);
    assert!(
        md.status.success(),
        "{}",
        String::from_utf8_lossy(&md.stderr)
    );
    let md = String::from_utf8_lossy(&md.stdout).into_owned();
    assert!(!md.is_empty());
    let line = run(&["label", "--format", "jsonl-text", "--markdown", s(&page)]);
    let v: serde_json::Value = serde_json::from_slice(&line.stdout).expect("one JSON object");
    assert_eq!(
        v["markdown"].as_str(),
        Some(md.strip_suffix('\n').unwrap_or(&md))
    );
    let plain = run(&["label", "--format", "jsonl-text", s(&page)]);
    let v: serde_json::Value = serde_json::from_slice(&plain.stdout).expect("JSON");
    assert!(v.get("markdown").is_none(), "{v}");
    for bad in [&["--links"][..], &["--markdown"][..], &["--emphasis"][..]] {
        let out = run(&[&["label", s(&page)][..], bad].concat());
        assert!(!out.status.success(), "{bad:?} applies to Markdown only");
    }
    let linked = run(&["label", "--format", "markdown", "--links", s(&page)]);
    assert!(linked.status.success());
    // Emphasis adds markers and nothing else: without them the Markdown is the same.
    let emphasised = run(&["label", "--format", "markdown", "--emphasis", s(&page)]);
    assert!(emphasised.status.success());
    let emphasised = String::from_utf8_lossy(&emphasised.stdout).replace('*', "");
    assert_eq!(emphasised, md.replace('*', ""));
}

#[test]
fn an_explicit_threshold_applies_to_every_block() {
    let pages = example_pages();
    let out = run(&[
        "label",
        "--format",
        "jsonl",
        "-q",
        "--threshold",
        "0.7",
        s(&pages[0]),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value =
        serde_json::from_str(String::from_utf8_lossy(&out.stdout).trim()).expect("one object");
    assert_eq!(v["decoding"], "threshold 0.7");
    for b in v["blocks"].as_array().expect("blocks") {
        let p = &b["probabilities"];
        let (h, x, o) = (
            p["header"].as_f64().expect("header"),
            p["text"].as_f64().expect("text"),
            p["other"].as_f64().expect("other"),
        );
        let want = if o >= 0.7 {
            "other"
        } else if h > x {
            "header"
        } else {
            "text"
        };
        assert_eq!(b["label"], want, "{b}");
    }
}

#[test]
fn standard_output_follows_the_input_order_on_several_threads() {
    let mut pages = example_pages();
    pages.reverse();
    let mut args = vec!["label", "--format", "jsonl", "--jobs", "2", "-q"];
    args.extend(pages.iter().map(|p| s(p)));
    let out = run(&args);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let sources: Vec<String> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).expect("JSON line");
            v["source"].as_str().expect("source").to_string()
        })
        .collect();
    let want: Vec<String> = pages.iter().map(|p| s(p).to_string()).collect();
    assert_eq!(sources, want);
}

#[test]
fn pages_on_standard_output_are_set_off_by_a_blank_line() {
    let pages = example_pages();
    let (a, b) = (s(&pages[0]), s(&pages[1]));
    let tmp = tempfile::tempdir().expect("tempdir");
    // A page with nothing to keep (an empty file is an empty input: a failure, issue 60).
    let empty = tmp.path().join("empty.html");
    std::fs::write(
        &empty,
        b"<html><head><script>var x = 1;</script></head><body></body></html>",
    )
    .expect("write a page without text");
    for format in ["text", "cleaneval"] {
        let alone = |p: &str| run(&["label", "--format", format, p]).stdout;
        let (ta, tb) = (alone(a), alone(b));
        assert!(ta.ends_with(b"\n") && tb.ends_with(b"\n") && !ta.ends_with(b"\n\n"));
        // A page that keeps nothing adds nothing, not a second blank line.
        let want = [ta.as_slice(), b"\n", tb.as_slice()].concat();
        for jobs in ["1", "2"] {
            let out = run(&["label", "--format", format, "--jobs", jobs, a, s(&empty), b]);
            assert!(
                out.status.success(),
                "{}",
                String::from_utf8_lossy(&out.stderr)
            );
            assert_eq!(
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&want),
                "{format}, {jobs} jobs"
            );
        }
    }
}

#[test]
fn a_page_past_the_block_limit_fails_alone_and_names_the_option() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let long = tmp.path().join("long.html");
    std::fs::write(&long, "<p>a line of text<br>".repeat(40)).expect("write long page");
    let short = tmp.path().join("short.html");
    std::fs::write(
        &short,
        "<h1>Title</h1><p>One paragraph of running text.</p>",
    )
    .expect("write short page");
    let out_dir = tmp.path().join("out");
    let args = |max: &'static str| {
        run(&[
            "label",
            s(&long),
            s(&short),
            "--out",
            s(&out_dir),
            "--max-blocks",
            max,
            "-q",
        ])
    };
    let out = args("10");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "the refused page is a failure");
    assert!(stderr.contains("1 of 2 pages failed"), "{stderr}");
    assert!(
        stderr.contains("long.html: page has more than 10 text blocks")
            && stderr.contains("--max-blocks"),
        "{stderr}"
    );
    assert_eq!(names_in(&out_dir), ["short.txt"]);
    // Raised, the limit lets it through.
    let out = args("100");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(names_in(&out_dir), ["long.txt", "short.txt"]);
}

/// A Chinese news page: a menu, a dated article of four paragraphs, share buttons, a sidebar of
/// links and a footer. Written without spaces, so words are characters.
fn chinese_page() -> String {
    let paragraphs = [
        "据新华社报道，国家统计局今天发布数据显示，今年前三季度国内生产总值同比增长百分之五点二，经济运行总体平稳，主要指标稳中有进。",
        "分析人士指出，消费对经济增长的贡献率继续提高，服务业保持较快增长，高技术制造业投资增速明显高于全部投资。",
        "国家统计局新闻发言人表示，下一阶段将继续加大宏观政策调控力度，着力扩大国内需求，推动经济持续回升向好。",
        "专家认为，尽管外部环境依然复杂严峻，但我国经济长期向好的基本面没有改变，全年目标有望顺利实现。",
    ];
    let menu: String = [
        "首页", "新闻", "财经", "体育", "娱乐", "科技", "汽车", "房产", "教育", "旅游",
    ]
    .iter()
    .enumerate()
    .map(|(i, w)| format!("<li><a href=\"/c{i}\">{w}</a></li>"))
    .collect();
    let side: String = [
        "今日热点新闻排行",
        "央行发布最新货币政策报告",
        "多地出台楼市新政",
        "新能源汽车销量创新高",
        "秋季旅游市场火爆",
    ]
    .iter()
    .enumerate()
    .map(|(i, t)| format!("<li><a href=\"/s{i}\">{t}</a></li>"))
    .collect();
    let body: String = paragraphs.iter().map(|p| format!("<p>{p}</p>")).collect();
    format!(
        "<html><head><meta charset=\"utf-8\"><title>前三季度经济数据发布_财经频道</title></head>\
         <body><div id=\"header\"><ul class=\"nav\">{menu}</ul></div>\
         <div class=\"main\"><h1>前三季度经济数据发布</h1>\
         <div class=\"info\">2023年10月18日 10:30 来源：新华网</div>\
         <div class=\"article\">{body}</div>\
         <div class=\"share\">分享到：微博 微信 QQ空间</div></div>\
         <div class=\"sidebar\"><h3>热门文章</h3><ul>{side}</ul></div>\
         <div class=\"footer\"><p>关于我们 | 联系方式 | 广告服务 | 网站地图</p>\
         <p>版权所有 © 2023 某某网 京ICP备12345678号</p></div></body></html>"
    )
}

/// Runs `victor ARGS` with `input` on its standard input.
fn run_with_stdin(args: &[&str], input: &[u8]) -> std::process::Output {
    use std::io::Write;
    let mut child = std::process::Command::new(common::VICTOR)
        .args(args)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("victor runs");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(input)
        .expect("write stdin");
    child.wait_with_output().expect("victor ends")
}

#[test]
fn a_page_on_standard_input_labels_as_the_same_file_does() {
    let page = example_pages().remove(0);
    let bytes = std::fs::read(&page).expect("example page");
    let from_file = run(&["label", "--format", "csv", "--jobs", "1", s(&page)]);
    let from_stdin = run_with_stdin(&["label", "--format", "csv", "--jobs", "1", "-"], &bytes);
    assert!(
        from_stdin.status.success(),
        "{}",
        String::from_utf8_lossy(&from_stdin.stderr)
    );
    // The same blocks, labels and probabilities; only the page column names the source.
    let strip = |o: &[u8]| -> Vec<String> {
        String::from_utf8_lossy(o)
            .lines()
            .skip(1)
            .map(|l| l.split_once(',').map_or("", |(_, rest)| rest).to_string())
            .collect()
    };
    let (a, b) = (strip(&from_file.stdout), strip(&from_stdin.stdout));
    assert!(a.len() > 5, "the example page has blocks");
    assert_eq!(a, b);
    // Under --out the page is written as stdin.EXT.
    let tmp = tempfile::tempdir().expect("tempdir");
    let out_dir = tmp.path().join("out");
    let out = run_with_stdin(&["label", "-", "--out", s(&out_dir), "-q"], &bytes);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(names_in(&out_dir), ["stdin.txt"]);
    // Binary junk on standard input is a failure that names `-`, not a crash.
    let junk = run_with_stdin(&["label", "-"], &[0u8, 1, 2, 0, 255].repeat(100));
    assert!(!junk.status.success());
    let err = String::from_utf8_lossy(&junk.stderr);
    assert!(err.contains("-: not an HTML page"), "{err}");
}

#[test]
fn a_gzip_compressed_page_in_a_folder_labels_as_the_plain_page() {
    use std::io::Write;
    let page = example_pages().remove(0);
    let bytes = std::fs::read(&page).expect("example page");
    let tmp = tempfile::tempdir().expect("tempdir");
    let pages = tmp.path().join("pages");
    std::fs::create_dir_all(pages.join("sub")).expect("mkdir");
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    gz.write_all(&bytes).expect("compress");
    std::fs::write(
        pages.join("sub/crawled.html.gz"),
        gz.finish().expect("compress"),
    )
    .expect("write gz");
    std::fs::write(pages.join("notes.txt.gz"), b"not a page").expect("write other");
    let out_dir = tmp.path().join("out");
    let out = run(&["label", s(&pages), "--out", s(&out_dir), "-q"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // Found by the walk (the .txt.gz is not), named without .html.gz in the folder mirroring
    // its own, and the same text.
    assert_eq!(names_in(&out_dir), ["sub"]);
    assert_eq!(names_in(&out_dir.join("sub")), ["crawled.txt"]);
    let plain = run(&["label", s(&page)]);
    let text = std::fs::read(out_dir.join("sub/crawled.txt")).expect("output");
    assert_eq!(text, plain.stdout);
}

#[test]
fn standard_input_holds_one_page_or_the_list_not_both() {
    let twice = run(&["label", "-", "-"]);
    assert!(!twice.status.success());
    assert!(
        String::from_utf8_lossy(&twice.stderr).contains("only once"),
        "{}",
        String::from_utf8_lossy(&twice.stderr)
    );
    let both = run_with_stdin(&["label", "-", "--files-from", "-"], b"a.html\n");
    assert!(!both.status.success());
    assert!(
        String::from_utf8_lossy(&both.stderr).contains("cannot hold both"),
        "{}",
        String::from_utf8_lossy(&both.stderr)
    );
}

#[test]
fn a_chinese_page_keeps_its_article_and_drops_the_links_around_it() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let page = tmp.path().join("zh.html");
    std::fs::write(&page, chinese_page()).expect("write page");
    let corpus = common::root().join("models/corpus");
    // The built-in default (`article`), and the corpus bundle.
    for model in [None, Some(s(&corpus))] {
        let mut args = vec!["label", "--format", "jsonl", "-q", s(&page)];
        if let Some(m) = model {
            args.extend(["--model", m]);
        }
        let out = run(&args);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let v: serde_json::Value =
            serde_json::from_str(String::from_utf8_lossy(&out.stdout).trim()).expect("object");
        assert_eq!(v["language"], "cmn", "{model:?}");
        let kept: Vec<&str> = v["blocks"]
            .as_array()
            .expect("blocks")
            .iter()
            .filter(|b| b["label"] != "other")
            .filter_map(|b| b["text"].as_str())
            .collect();
        for want in [
            "据新华社报道",
            "分析人士指出",
            "国家统计局新闻发言人",
            "专家认为",
        ] {
            assert!(
                kept.iter().any(|t| t.starts_with(want)),
                "{model:?}: {want} dropped: {kept:?}"
            );
        }
        for drop in [
            "财经",
            "新能源汽车销量创新高",
            "热门文章",
            "京ICP备12345678号",
        ] {
            assert!(
                !kept.iter().any(|t| t.contains(drop)),
                "{model:?}: {drop} kept: {kept:?}"
            );
        }
    }
}

#[test]
fn every_shipped_bundle_labels_the_example_pages() {
    let mut bundles: Vec<PathBuf> = std::fs::read_dir(common::root().join("models"))
        .expect("models/")
        .filter_map(|e| e.ok().map(|e| e.path()))
        // models/default is a link to one of the others.
        .filter(|p| p.join("victor.json").is_file() && !p.is_symlink())
        .collect();
    bundles.sort();
    assert!(bundles.len() >= 3, "{bundles:?}");
    let pages = example_pages();
    for bundle in &bundles {
        let mut args = vec!["label", "--model", s(bundle), "--format", "jsonl", "-q"];
        args.extend(pages.iter().map(|p| s(p)));
        let out = run(&args);
        assert!(
            out.status.success(),
            "{bundle:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let stdout = String::from_utf8_lossy(&out.stdout);
        let lines: Vec<&str> = stdout.lines().collect();
        assert_eq!(lines.len(), pages.len(), "{bundle:?}");
        for line in lines {
            let v: serde_json::Value = serde_json::from_str(line).expect("one object a line");
            let blocks = v["blocks"].as_array().expect("blocks");
            // Every example page has an article: each bundle keeps some of it.
            assert!(
                blocks.iter().any(|b| b["label"] != "other"),
                "{bundle:?} kept nothing of {}",
                v["source"]
            );
        }
    }
}

#[test]
fn a_broken_bundle_is_a_clear_error_naming_the_file() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let shipped = common::root().join("models/article");
    let page = example_pages().remove(0);
    let copy = |name: &str| {
        let dir = tmp.path().join(name);
        std::fs::create_dir(&dir).expect("mkdir");
        for f in ["victor.json", "model.crfsuite"] {
            std::fs::copy(shipped.join(f), dir.join(f)).expect("copy bundle");
        }
        dir
    };
    let truncated = copy("truncated");
    let model = std::fs::read(truncated.join("model.crfsuite")).expect("model");
    std::fs::write(truncated.join("model.crfsuite"), &model[..1000]).expect("truncate");
    let garbled = copy("garbled");
    std::fs::write(garbled.join("victor.json"), "{\"labels\": [").expect("garble");
    for (bundle, file, reason) in [
        (&truncated, "model.crfsuite", "truncated or padded"),
        (&garbled, "victor.json", "not a victor bundle description"),
    ] {
        let out_dir = tmp.path().join("out");
        let out = run(&[
            "label",
            "--model",
            s(bundle),
            "--out",
            s(&out_dir),
            s(&page),
        ]);
        assert!(!out.status.success(), "{bundle:?} loaded");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains(&format!("{}", bundle.join(file).display())),
            "{err}"
        );
        // The reason once: the library's message quotes its cause, which is not said again.
        assert_eq!(err.matches(reason).count(), 1, "{err}");
        assert!(!out_dir.exists() || names_in(&out_dir).is_empty(), "{err}");
    }
}

/// `--method` labels with the seeds' cleaners and `--linearize` writes Kitten's lists; both
/// go through the same outputs as the CRF.
#[test]
fn rule_based_methods_and_linearized_lists() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let prose = "It was the best of times and it was the worst of times, it was the age of \
        wisdom and it was the age of foolishness, it was the epoch of belief, and so on.";
    let page = tmp.path().join("page.html");
    std::fs::write(
        &page,
        format!(
            "<html><body><div class=nav><a href=/>Home</a> <a href=/n>News</a></div>\
             <div class=story><p>{prose} {prose}</p><p>{prose}</p></div>\
             <div class=foot><a href=/t>Terms</a></div></body></html>"
        ),
    )
    .expect("write page");
    for method in ["justext", "bte", "kimatu"] {
        let out = common::run_ok(&["label", "--method", method, "--format", "text", s(&page)]);
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(
            text.contains("It was the best of times"),
            "{method}: {text}"
        );
        assert!(
            !text.contains("Home") && !text.contains("Terms"),
            "{method}: {text}"
        );
        // One-hot probabilities in the block formats.
        let out = common::run_ok(&["label", "--method", method, "--format", "csv", s(&page)]);
        let csv = String::from_utf8_lossy(&out.stdout);
        assert!(csv.lines().skip(1).all(|l| l.contains("1.000000")), "{csv}");
    }
    let list = tmp.path().join("list.html");
    std::fs::write(
        &list,
        "<p>Things to bring:</p><ul><li>a tent</li><li>a lamp</li><li>water</li></ul>",
    )
    .expect("write list");
    // Whatever the default model keeps of the list, it is written as one sentence after its
    // introductory clause.
    let out = common::run_ok(&["label", "--linearize", s(&list)]);
    let text = String::from_utf8_lossy(&out.stdout);
    if text.contains("a tent") {
        assert!(text.contains("Things to bring: a tent,"), "{text}");
        assert_eq!(text.lines().count(), 1, "{text}");
    }
    let out = run(&["label", "--linearize", "--format", "csv", s(&list)]);
    assert!(!out.status.success());
}

#[test]
fn a_page_whose_text_is_in_noscript_gives_its_crawler_view_marked_as_such() {
    // A JavaScript forum's page: a splash screen, and the posts in the crawler view.
    let post = "We tried the new release on three machines and every build finished in half \
                the time it took before, so the upgrade was well worth the wait for our team. ";
    let html = format!(
        "<html><head><title>Thread</title></head><body><div id=\"splash\">Loading</div>\
         <noscript data-path=\"/t/1\"><div class=\"topic-body\"><h1>Faster builds</h1>{}\
         </div></noscript></body></html>",
        (0..6)
            .map(|i| format!("<div class=\"post\"><p>{i} {post}</p></div>"))
            .collect::<String>()
    );
    let tmp = tempfile::tempdir().expect("tempdir");
    let page = tmp.path().join("forum.html");
    std::fs::write(&page, &html).expect("write");
    let out = run(&["label", "--format", "jsonl-text", s(&page)]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let line: serde_json::Value = serde_json::from_slice(&out.stdout).expect("one JSON line");
    assert_eq!(line["noscript"], true);
    assert!(
        line["text"]
            .as_str()
            .unwrap_or("")
            .contains("every build finished"),
        "{line}"
    );
    // A page that shows its text: no crawler view, and no `noscript` key.
    let plain = tmp.path().join("plain.html");
    std::fs::write(
        &plain,
        html.replace("<noscript data-path=\"/t/1\">", "<div>")
            .replace("</noscript>", "</div>"),
    )
    .expect("write");
    let out = run(&["label", "--format", "jsonl-text", s(&plain)]);
    let line: serde_json::Value = serde_json::from_slice(&out.stdout).expect("one JSON line");
    assert!(line.get("noscript").is_none(), "{line}");
}

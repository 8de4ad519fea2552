//! End to end in a real browser: headless Chromium driven through chromedriver (WebDriver).
//!
//! Marks a header and two paragraphs on a page, reloads, sees them kept, and checks the saved
//! labels file; then replays a plan of marks ([`victor_annotator::plan`]) through the
//! interface and checks that the tool's own click and key counters agree with
//! [`victor_annotator::effort`], which is how the effort figures of the README are
//! computed. A third test leaves blocks unknown and checks the page is saved and reopened
//! partially labelled. With the annotation loop (`--adapt`), two copies of a page saved with
//! labels of their own make the model adapt, and the next copy opens with other pre-labels than
//! the copy opened before the adaptation, the bar saying how many pages the model has seen.
//! Without `chromium` and `chromedriver` on the PATH the tests say `skipped`.
//!
//! With `VICTOR_ANNOTATE_SCREENSHOT=out.png` and `VICTOR_ANNOTATE_PAGE=page.html` it also saves
//! a screenshot of that page half annotated (the README's picture).

use std::net::{Ipv4Addr, SocketAddr, TcpListener};
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::Duration;

use fantoccini::actions::{InputSource, KeyAction, KeyActions};
use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::{Value, json};
use victor_annotations::Corpus;
use victor_annotations::Label;
use victor_annotator::{AdaptLoop, Options, Order, PageSource, Server};
use victor_annotator::{Mark, START_LABEL, effort, plan};
use victor_label::{Labeler, Model};

const PAGE: &str = r#"<!DOCTYPE html>
<html><head><title>Test page</title>
<meta http-equiv="refresh" content="30;url=http://example.invalid/">
<script>document.title = 'script ran'; fetch('/api/page/0/labels', {method: 'PUT', body: '{"labels":[]}'});</script>
</head><body onload="document.body.dataset.pwned = 1">
<div class="nav"><a href="/api/pages">Home</a> | <a href="http://example.invalid/" target="_top">Elsewhere</a></div>
<h1>The headline of the article</h1>
<p>The first paragraph of the article, with enough words to be running text.</p>
<p>The second paragraph of the article, which goes on a little longer than the first.</p>
<div class="ad">Buy now while stocks last</div>
<form action="/api/page/0/labels" method="post"><input name="labels" value="x"><button>Send it</button></form>
<img src="missing.png" onerror="document.body.dataset.pwned = 2">
<p>A closing remark after the form.</p>
</body></html>"#;

fn on_path(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|d| d.join(name))
        .find(|p| p.is_file())
}

fn free_port() -> u16 {
    TcpListener::bind((Ipv4Addr::LOCALHOST, 0))
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port")
}

/// The index of the block whose text starts with `start`.
fn block(texts: &[String], start: &str) -> usize {
    texts
        .iter()
        .position(|t| t.starts_with(start))
        .unwrap_or_else(|| panic!("no block {start:?} in {texts:?}"))
}

async fn key(c: &Client, k: char) {
    let ka = KeyActions::new("keys".into())
        .then(KeyAction::Down { value: k })
        .then(KeyAction::Up { value: k });
    c.perform_actions(ka).await.expect("key press");
}

/// Clicks block `i` in the page's iframe (and returns to the tool's page).
async fn click_block(c: &Client, i: usize) {
    c.enter_frame(0).await.expect("enter the page's frame");
    let el = match c.find(Locator::Css(&format!("v-b[data-b=\"{i}\"]"))).await {
        Ok(el) => el,
        Err(e) => {
            c.enter_parent_frame().await.expect("back to the tool");
            let seen = eval(c, "const d = document.getElementById('page').contentDocument; return d.location.href + ' ' + d.querySelectorAll('v-b').length").await;
            panic!("block {i} not found ({seen}): {e}");
        }
    };
    el.click().await.expect("click");
    c.enter_parent_frame().await.expect("back to the tool");
}

async fn eval(c: &Client, js: &str) -> Value {
    c.execute(js, vec![])
        .await
        .expect("script in the tool's page")
}

/// Waits until the tool shows page `n` with its listeners attached.
async fn wait_ready(c: &Client, n: usize) {
    c.wait()
        .at_most(Duration::from_secs(20))
        .for_element(Locator::Css(&format!("body[data-ready=\"{n}\"]")))
        .await
        .expect("the tool shows the page");
}

/// Waits until the tool has saved `count` times since the page was shown.
async fn wait_saved(c: &Client, count: u64) {
    for _ in 0..200 {
        if eval(c, "return window.victor.saved").await.as_u64() >= Some(count)
            && eval(c, "return document.getElementById('save').textContent")
                .await
                .as_str()
                .is_some_and(|t| t.starts_with("saved"))
        {
            return;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!(
        "the tool did not save: {}",
        eval(c, "return document.getElementById('save').textContent").await
    );
}

async fn labels_shown(c: &Client) -> Vec<Label> {
    serde_json::from_value(eval(c, "return window.victor.labels").await).expect("labels")
}

struct Browser {
    _driver: tokio::process::Child,
    client: Client,
}

async fn browser(chromium: &Path, driver: &Path, profile: &Path) -> Browser {
    let port = free_port();
    let child = tokio::process::Command::new(driver)
        .arg(format!("--port={port}"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .kill_on_drop(true)
        .spawn()
        .expect("chromedriver starts");
    for _ in 0..100 {
        if std::net::TcpStream::connect((Ipv4Addr::LOCALHOST, port)).is_ok() {
            break;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let args = [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--disable-dev-shm-usage",
        "--window-size=1280,900",
    ];
    let mut args: Vec<String> = args.iter().map(|s| (*s).to_string()).collect();
    args.push(format!("--user-data-dir={}", profile.display()));
    let mut caps = serde_json::Map::new();
    caps.insert(
        "goog:chromeOptions".into(),
        json!({ "binary": chromium.display().to_string(), "args": args }),
    );
    let client = ClientBuilder::new(hyper_util::client::legacy::connect::HttpConnector::new())
        .capabilities(caps)
        .connect(&format!("http://127.0.0.1:{port}"))
        .await
        .expect("a WebDriver session with headless Chromium");
    Browser {
        _driver: child,
        client,
    }
}

async fn start(
    pages: Vec<PageSource>,
    out: &Path,
) -> (SocketAddr, tokio::sync::oneshot::Sender<()>) {
    start_with(pages, out, None, Order::Given, None).await
}

async fn start_with(
    pages: Vec<PageSource>,
    out: &Path,
    model: Option<Model>,
    order: Order,
    adapt: Option<AdaptLoop>,
) -> (SocketAddr, tokio::sync::oneshot::Sender<()>) {
    let server = Server::bind(Options {
        pages,
        out: out.to_path_buf(),
        set_name: "browser-test".into(),
        model_name: model.as_ref().map(|_| "web".to_string()),
        model,
        order,
        adapt,
        addr: SocketAddr::from((Ipv4Addr::LOCALHOST, 0)),
    })
    .await
    .expect("server binds");
    let addr = server.addr();
    let (tx, rx) = tokio::sync::oneshot::channel::<()>();
    tokio::spawn(server.run(async {
        let _ = rx.await;
    }));
    (addr, tx)
}

/// Chromium and chromedriver, or `None` (and the test says `skipped`).
fn chromium() -> Option<(PathBuf, PathBuf)> {
    let found = on_path("chromium")
        .or_else(|| on_path("chromium-browser"))
        .zip(on_path("chromedriver"));
    if found.is_none() {
        eprintln!(
            "skipped: chromium and chromedriver are not installed (apt-get install chromium chromium-driver)"
        );
        println!("skipped: no chromium/chromedriver");
    }
    found
}

/// A page of link lists only, where the model is less sure than on the article.
const LINKS: &str = r#"<html><body><div><a href="/a">Home</a></div><div><a href="/b">News and more news today</a></div>
<div>Contact us</div><ul><li><a href="/c">Sport results of the week</a></li><li><a href="/d">Weather</a></li></ul>
<p>Copyright 2008 by the company, all rights reserved in all countries of the world.</p></body></html>"#;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn model_prelabels_outlines_and_orders() {
    let Some((chromium, driver)) = chromium() else {
        return;
    };
    let model_dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../models/web");
    let model = Model::load(&model_dir).expect("the shipped web model loads");
    let tmp = tempfile::tempdir().expect("temp dir");
    std::fs::write(tmp.path().join("article.html"), PAGE).expect("write");
    std::fs::write(tmp.path().join("links.html"), LINKS).expect("write");
    let pages = vec![
        PageSource::new("article", tmp.path().join("article.html")),
        PageSource::new("links", tmp.path().join("links.html")),
    ];
    let mut want = Vec::new();
    for html in [PAGE, LINKS] {
        let mut l = Labeler::new(&model);
        let d = l.default_decoding();
        want.push(l.label_bytes(html.as_bytes(), d).expect("labels").labels);
    }
    let out = tmp.path().join("ann");
    let (addr, stop) = start_with(pages, &out, Some(model), Order::Uncertain, None).await;
    let b = browser(&chromium, &driver, &tmp.path().join("profile")).await;
    let c = &b.client;
    c.goto(&format!("http://{addr}/"))
        .await
        .expect("open the tool");
    wait_ready(c, 0).await;

    // Offered by expected F1, lowest first.
    let list = eval(c, "return fetch('/api/pages').then(r => r.json())").await;
    let f1: Vec<f64> = list["pages"]
        .as_array()
        .expect("pages")
        .iter()
        .map(|p| p["expected_f1"].as_f64().expect("expected F1"))
        .collect();
    assert_eq!(f1.len(), 2);
    assert!(f1[0] <= f1[1], "{list}");

    // The page opens with the model's labels; its uncertain blocks are outlined.
    let info = eval(c, "return fetch('/api/page/0').then(r => r.json())").await;
    assert_eq!(info["prelabelled"], json!(true));
    let k = if info["id"] == json!("article") { 0 } else { 1 };
    assert_eq!(labels_shown(c).await, want[k]);
    let outlined = eval(
        c,
        "return [...document.getElementById('page').contentDocument.querySelectorAll('v-b.vb-unsure')].map(e => Number(e.dataset.b))",
    )
    .await;
    assert_eq!(outlined, info["uncertain"]);

    // A correction saves the page, recorded as pre-labelled by the model.
    key(c, 'o').await;
    click_block(c, 0).await;
    click_block(c, 0).await;
    wait_saved(c, 1).await;
    let id = info["id"].as_str().expect("id");
    let json = std::fs::read_to_string(out.join(format!("labels/{id}.json"))).expect("saved");
    assert!(json.contains("prelabelled_by"), "{json}");
    let _ = stop.send(());
    b.client.clone().close().await.expect("browser closes");
}

/// The text of the tool's bar element `id`.
async fn text_of(c: &Client, id: &str) -> String {
    eval(
        c,
        &format!("return document.getElementById('{id}').textContent"),
    )
    .await
    .as_str()
    .unwrap_or_default()
    .to_string()
}

/// Marks every block of the page shown as `label` (its key, then the first and the last block)
/// and waits for the save.
async fn mark_all(c: &Client, label: char, n: usize) {
    let blocks = eval(c, "return window.victor.labels.length").await;
    let blocks = blocks.as_u64().expect("blocks") as usize;
    key(c, label).await;
    click_block(c, 0).await;
    click_block(c, blocks - 1).await;
    wait_saved(c, n as u64).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_loop_changes_the_prelabels_after_an_adaptation() {
    let Some((chromium, driver)) = chromium() else {
        return;
    };
    let model_dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../models/web");
    let load = || Model::load(&model_dir).expect("the shipped web model loads");
    let model = load();
    let image = victor_label::BundleImage::read(&model_dir).expect("the bundle's files");
    // A weak prior: two pages are enough to move the model (the defaults' strength is measured
    // in eval/annotate-adapt.md; here the test only needs the labels to change).
    let adapt = AdaptLoop {
        adapt: victor_train::Adapt {
            base: std::sync::Arc::new(victor_train::Base::new(&model, "web", image)),
            prior: 0.1,
            trees: victor_train::DEFAULT_TREES,
            leaf_prior: 1.0,
            decoding: victor_train::AdaptDecoding::Base,
            gate: true,
        },
        every: 2,
    };
    // Four copies of the link page, which `web` labels mostly other.
    let tmp = tempfile::tempdir().expect("temp dir");
    let pages: Vec<PageSource> = ["a", "b", "c", "d"]
        .iter()
        .map(|id| {
            let path = tmp.path().join(format!("{id}.html"));
            std::fs::write(&path, LINKS).expect("write");
            PageSource::new(*id, path)
        })
        .collect();
    let out = tmp.path().join("ann");
    let (addr, stop) = start_with(pages, &out, Some(load()), Order::Given, Some(adapt)).await;
    let b = browser(&chromium, &driver, &tmp.path().join("profile")).await;
    let c = &b.client;
    c.goto(&format!("http://{addr}/"))
        .await
        .expect("open the tool");
    wait_ready(c, 0).await;
    let bar = text_of(c, "model").await;
    assert!(bar.contains("model: web, seen 0 pages"), "{bar}");
    assert!(bar.contains("adapts every 2 saved pages"), "{bar}");
    let given = labels_shown(c).await;
    assert!(given.iter().any(|l| *l != Label::Text), "{given:?}");
    assert!(text_of(c, "pageid").await.contains("(pre-labelled by web)"));

    // The first two copies marked all text and saved.
    mark_all(c, 't', 1).await;
    key(c, 'n').await;
    wait_ready(c, 1).await;
    assert_eq!(labels_shown(c).await, given);
    mark_all(c, 't', 1).await;

    // Opening the third starts the adaptation; the third was pre-labelled before it.
    key(c, 'n').await;
    wait_ready(c, 2).await;
    assert_eq!(labels_shown(c).await, given);
    let mut bar = String::new();
    for _ in 0..600 {
        bar = text_of(c, "model").await;
        if bar.contains("seen 2 pages") {
            break;
        }
        assert!(!bar.contains("failed"), "{bar}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(
        bar.contains("model: web, seen 2 pages"),
        "no adaptation shown: {bar}"
    );
    assert!(bar.contains("2 saved; next at 4"), "{bar}");

    // The fourth copy, the same page, opens with the adapted model's labels: more text.
    key(c, 'n').await;
    wait_ready(c, 3).await;
    let adapted = labels_shown(c).await;
    assert_ne!(adapted, given, "the pre-labels did not change");
    let texts = |l: &[Label]| l.iter().filter(|l| **l == Label::Text).count();
    assert!(texts(&adapted) > texts(&given), "{given:?} -> {adapted:?}");
    let id = text_of(c, "pageid").await;
    assert!(
        id.contains("(pre-labelled by web adapted on 2 pages)"),
        "{id}"
    );
    // Back to the third: it keeps the labels it was shown with.
    key(c, 'p').await;
    wait_ready(c, 2).await;
    assert_eq!(labels_shown(c).await, given);
    let _ = stop.send(());
    b.client.clone().close().await.expect("browser closes");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn marks_are_kept_saved_and_counted() {
    let Some((chromium, driver)) = chromium() else {
        return;
    };
    let tmp = tempfile::tempdir().expect("temp dir");
    let pages_dir = tmp.path().join("pages");
    std::fs::create_dir_all(&pages_dir).expect("mkdir");
    std::fs::write(pages_dir.join("article.html"), PAGE).expect("write page");
    std::fs::write(pages_dir.join("second.html"), PAGE).expect("write page");
    let out = tmp.path().join("ann");
    let pages = vec![
        PageSource::new("article", pages_dir.join("article.html")),
        PageSource::new("second", pages_dir.join("second.html")),
    ];
    let (addr, stop) = start(pages, &out).await;
    let b = browser(&chromium, &driver, &tmp.path().join("profile")).await;
    let c = &b.client;
    c.goto(&format!("http://{addr}/"))
        .await
        .expect("open the tool");
    wait_ready(c, 0).await;

    let texts: Vec<String> = victor_features::segment(PAGE)
        .expect("segments")
        .blocks
        .iter()
        .map(|_| String::new())
        .collect();
    let page = victor_features::segment(PAGE).expect("segments");
    let texts: Vec<String> = page
        .blocks
        .iter()
        .zip(texts)
        .map(|(bl, _)| page.block_text(bl).to_string())
        .collect();
    let (home, head, p1, p2) = (
        block(&texts, "Home"),
        block(&texts, "The headline"),
        block(&texts, "The first paragraph"),
        block(&texts, "The second paragraph"),
    );

    // Nothing of the page ran, and it saved nothing by itself.
    c.enter_frame(0).await.expect("frame");
    let scripts = c.find_all(Locator::Css("script")).await.expect("query");
    assert!(scripts.is_empty(), "scripts were served");
    let body = c.find(Locator::Css("body")).await.expect("body");
    assert_eq!(
        body.attr("data-pwned").await.expect("attr"),
        None,
        "an event handler ran"
    );
    c.enter_parent_frame().await.expect("parent");
    assert!(
        !out.join("labels/article.json").exists(),
        "the page's own HTML wrote labels"
    );

    // A click on a link stays in the tool (it only starts a mark: Escape cancels it).
    click_block(c, home).await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(eval(c, "return location.pathname").await, json!("/"));
    assert_eq!(
        eval(
            c,
            "return document.getElementById('page').contentDocument.location.pathname"
        )
        .await,
        json!("/page/0")
    );
    key(c, '\u{e00c}').await; // Escape

    // Mark the header (h, one block: click it twice) and the two paragraphs (t, first and last).
    key(c, 'h').await;
    click_block(c, head).await;
    click_block(c, head).await;
    wait_saved(c, 1).await;
    key(c, 't').await;
    click_block(c, p1).await;
    click_block(c, p2).await;
    wait_saved(c, 2).await;
    let mut want = vec![Label::Other; texts.len()];
    want[head] = Label::Header;
    for l in &mut want[p1..=p2] {
        *l = Label::Text;
    }
    assert_eq!(labels_shown(c).await, want);

    // Undo takes back the last mark, and it is saved; mark the paragraphs again.
    key(c, 'u').await;
    wait_saved(c, 3).await;
    let mut undone = want.clone();
    for l in &mut undone[p1..=p2] {
        *l = Label::Other;
    }
    assert_eq!(labels_shown(c).await, undone);
    click_block(c, p1).await;
    click_block(c, p2).await;
    wait_saved(c, 4).await;

    // Reload: the marks are kept and shown.
    c.refresh().await.expect("reload");
    wait_ready(c, 0).await;
    assert_eq!(labels_shown(c).await, want);
    c.enter_frame(0).await.expect("frame");
    let h = c
        .find(Locator::Css(&format!("v-b[data-b=\"{head}\"]")))
        .await
        .expect("header block");
    assert!(
        h.attr("class")
            .await
            .expect("class")
            .unwrap_or_default()
            .contains("vb-header")
    );
    c.enter_parent_frame().await.expect("parent");

    // The saved file has these labels, anchored to the blocks' text.
    let corpus = Corpus::open([&out], None).expect("the saved set opens");
    let saved: Vec<_> = corpus.iter().collect::<Result<_, _>>().expect("pages load");
    assert_eq!(saved.len(), 1);
    assert_eq!(saved[0].id, "article");
    assert_eq!(saved[0].labels, want);
    let json = std::fs::read_to_string(out.join("labels/article.json")).expect("labels file");
    assert!(json.contains("The headline of the article"), "{json}");

    // Replay a plan of marks on the second page; the tool's counters agree with `effort`.
    key(c, 'n').await;
    wait_ready(c, 1).await;
    assert_eq!(eval(c, "return window.victor.current").await, json!("text"));
    let mut target = vec![Label::Other; texts.len()];
    target[head] = Label::Header;
    for l in &mut target[p1..] {
        *l = Label::Text;
    }
    target[block(&texts, "Send it")] = Label::Other;
    let marks = plan(&vec![Label::Other; texts.len()], &target);
    let before = eval(c, "return window.victor.stats").await;
    replay(c, &marks).await;
    wait_saved(c, marks.len() as u64).await;
    let after = eval(c, "return window.victor.stats").await;
    let e = effort(&marks);
    let delta = |k: &str| after[k].as_u64().unwrap_or(0) - before[k].as_u64().unwrap_or(0);
    // The counters include the label key that `effort` charges when the tool opens on `text`.
    assert_eq!(delta("clicks") as usize, e.clicks);
    assert_eq!(delta("keys") as usize, e.keys);
    assert_eq!(labels_shown(c).await, target);
    let saved: Vec<Label> = Corpus::open([&out], None)
        .expect("set")
        .iter()
        .map(|p| p.expect("page"))
        .find(|p| p.id == "second")
        .expect("second page saved")
        .labels;
    assert_eq!(saved, target);

    if let (Some(shot), Some(page)) = (
        std::env::var_os("VICTOR_ANNOTATE_SCREENSHOT"),
        std::env::var_os("VICTOR_ANNOTATE_PAGE"),
    ) {
        screenshot(c, Path::new(&page), Path::new(&shot), tmp.path()).await;
    }
    let _ = stop.send(());
    b.client.clone().close().await.expect("browser closes");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn unknown_blocks_save_a_partial_page() {
    let Some((chromium, driver)) = chromium() else {
        return;
    };
    let tmp = tempfile::tempdir().expect("temp dir");
    let html = tmp.path().join("article.html");
    std::fs::write(&html, PAGE).expect("write page");
    let out = tmp.path().join("ann");
    let (addr, stop) = start(vec![PageSource::new("article", html)], &out).await;
    let b = browser(&chromium, &driver, &tmp.path().join("profile")).await;
    let c = &b.client;
    c.goto(&format!("http://{addr}/"))
        .await
        .expect("open the tool");
    wait_ready(c, 0).await;
    let page = victor_features::segment(PAGE).expect("segments");
    let texts: Vec<String> = page
        .blocks
        .iter()
        .map(|bl| page.block_text(bl).to_string())
        .collect();
    let last = texts.len() - 1;
    let (head, p1, p2, ad) = (
        block(&texts, "The headline"),
        block(&texts, "The first paragraph"),
        block(&texts, "The second paragraph"),
        block(&texts, "Buy now"),
    );

    // The whole page unknown (x, first block to last), then the article and one ad marked.
    key(c, 'x').await;
    click_block(c, 0).await;
    click_block(c, last).await;
    wait_saved(c, 1).await;
    key(c, 'h').await;
    click_block(c, head).await;
    click_block(c, head).await;
    key(c, 't').await;
    click_block(c, p1).await;
    click_block(c, p2).await;
    key(c, 'o').await;
    click_block(c, ad).await;
    click_block(c, ad).await;
    wait_saved(c, 4).await;
    let mut want = vec![json!("unknown"); texts.len()];
    want[head] = json!("header");
    want[p1] = json!("text");
    want[p2] = json!("text");
    want[ad] = json!("other");
    assert_eq!(eval(c, "return window.victor.labels").await, json!(want));
    assert_eq!(
        eval(c, "return document.getElementById('save').textContent").await,
        json!("saved (partial)")
    );

    // Reload: the unknown blocks are still unknown, and hatched.
    c.refresh().await.expect("reload");
    wait_ready(c, 0).await;
    assert_eq!(eval(c, "return window.victor.labels").await, json!(want));
    let hatched = eval(
        c,
        "return document.getElementById('page').contentDocument.querySelectorAll('v-b.vb-unknown').length",
    )
    .await;
    let unknown = want.iter().filter(|l| *l == &json!("unknown")).count();
    let elements = eval(
        c,
        "return [...document.getElementById('page').contentDocument.querySelectorAll('v-b')].filter(e => window.victor.labels[Number(e.dataset.b)] === 'unknown').length",
    )
    .await;
    assert!(unknown > 0);
    assert_eq!(hatched, elements);

    // The saved file is in the partial form: four known blocks, the rest unknown.
    let json = std::fs::read_to_string(out.join("labels/article.json")).expect("labels file");
    assert!(json.contains(r#""unlabelled": "unknown""#), "{json}");
    let saved = Corpus::open([&out], None)
        .expect("the saved set opens")
        .iter()
        .next()
        .expect("one page")
        .expect("loads");
    let known: Vec<usize> = (0..texts.len()).filter(|&i| saved.known[i]).collect();
    assert_eq!(known, vec![head, p1, p2, ad]);
    assert_eq!(saved.labels[head], Label::Header);
    assert_eq!(saved.labels[p1], Label::Text);
    assert_eq!(saved.labels[ad], Label::Other);

    // Marking every block makes it a fully labelled page again, saved as before.
    key(c, 'o').await;
    click_block(c, 0).await;
    click_block(c, last).await;
    wait_saved(c, 1).await;
    let json = std::fs::read_to_string(out.join("labels/article.json")).expect("labels file");
    assert!(!json.contains("unlabelled"), "{json}");
    let saved = Corpus::open([&out], None)
        .expect("set")
        .iter()
        .next()
        .expect("one page")
        .expect("loads");
    assert!(saved.known.is_empty());
    assert_eq!(saved.labels, vec![Label::Other; texts.len()]);
    let _ = stop.send(());
    b.client.clone().close().await.expect("browser closes");
}

/// Makes `marks` through the interface, as an annotator would (the label key when the label
/// changes, then two clicks).
async fn replay(c: &Client, marks: &[Mark]) {
    let mut current = START_LABEL;
    for m in marks {
        if m.label != current {
            key(c, m.label.as_str().chars().next().unwrap_or('t')).await;
            current = m.label;
        }
        click_block(c, m.first).await;
        click_block(c, m.last).await;
    }
}

/// Opens `page` in a fresh session of the tool, marks its first half by the labels a simple
/// rule gives (the longest paragraphs' blocks as text), and saves a screenshot.
async fn screenshot(c: &Client, page: &Path, shot: &Path, tmp: &Path) {
    let out = tmp.join("shot-ann");
    let (addr, stop) = start(vec![PageSource::new("page", page.to_path_buf())], &out).await;
    c.goto(&format!("http://{addr}/"))
        .await
        .expect("open the tool");
    wait_ready(c, 0).await;
    let texts: Vec<String> = serde_json::from_value(
        c.execute(
            "return fetch('/api/page/0').then(r => r.json()).then(j => j.texts)",
            vec![],
        )
        .await
        .expect("texts"),
    )
    .expect("texts");
    let long: Vec<usize> = (0..texts.len())
        .filter(|&i| texts[i].split_whitespace().count() >= 25)
        .collect();
    if let Some(&first) = long.first() {
        if first > 0 {
            key(c, 'h').await;
            click_block(c, first - 1).await;
            click_block(c, first - 1).await;
            key(c, 't').await;
        }
        for &i in long.iter().take(long.len().div_ceil(2)) {
            click_block(c, i).await;
            click_block(c, i).await;
        }
    }
    tokio::time::sleep(Duration::from_millis(500)).await;
    let png = c.screenshot().await.expect("screenshot");
    std::fs::write(shot, png).expect("write screenshot");
    let _ = stop.send(());
}

//! The server's API over plain HTTP (no browser): a save with unknown blocks writes a partially
//! labelled page that reopens with them unknown; a full save writes the usual form; writes
//! without the session token, with the wrong number of labels or an unknown word are refused.
//! The annotation loop (`--adapt`): after every N saves an adaptation runs in the background,
//! and the pages opened after it are pre-labelled by the adapted model, which the status and the
//! page name with the pages it has seen.

use std::io::{Read, Write};
use std::net::{Ipv4Addr, SocketAddr, TcpStream};
use std::path::Path;

use serde_json::{Value, json};
use victor_annotations::Corpus;
use victor_annotations::Label;
use victor_annotator::{AdaptLoop, AnnotateError, Options, Order, PageSource, Server};
use victor_label::{Labeler, Model};

const PAGE: &str = r#"<html><body>
<div class="nav"><a href="/a">Home</a> | <a href="/b">News</a></div>
<h1>The headline of the article</h1>
<p>The first paragraph of the article, with enough words to be running text.</p>
<p>The second paragraph of the article, which goes on a little longer than the first.</p>
<div class="ad">Buy now while stocks last</div>
<p>A closing remark at the end of the page.</p>
</body></html>"#;

/// One HTTP/1.1 request; the status and the body parsed as JSON.
fn request(
    addr: SocketAddr,
    method: &str,
    path: &str,
    token: Option<&str>,
    body: &str,
) -> (u16, Value) {
    let mut s = TcpStream::connect(addr).expect("connect");
    let token = token.map_or(String::new(), |t| format!("X-Victor-Token: {t}\r\n"));
    write!(
        s,
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n{token}Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    )
    .expect("send");
    let mut raw = String::new();
    s.read_to_string(&mut raw).expect("read");
    let status: u16 = raw[9..12].parse().expect("status");
    let body = raw.split_once("\r\n\r\n").map_or("", |(_, b)| b);
    // Bodies are small and sent whole (Content-Length), not chunked.
    (status, serde_json::from_str(body).unwrap_or(Value::Null))
}

/// The session token, read from the tool's page.
fn token(addr: SocketAddr) -> String {
    let mut s = TcpStream::connect(addr).expect("connect");
    write!(
        s,
        "GET / HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n"
    )
    .expect("send");
    let mut raw = String::new();
    s.read_to_string(&mut raw).expect("read");
    let at = raw
        .find(r#"name="victor-token" content=""#)
        .expect("token meta")
        + 29;
    raw[at..at + 32].to_string()
}

async fn serve(dir: &Path) -> (SocketAddr, tokio::sync::oneshot::Sender<()>) {
    let html = dir.join("article.html");
    std::fs::write(&html, PAGE).expect("write");
    let server = Server::bind(Options {
        pages: vec![PageSource::new("article", html)],
        out: dir.join("ann"),
        set_name: "api-test".into(),
        model: None,
        model_name: None,
        order: Order::Given,
        adapt: None,
        addr: SocketAddr::from((Ipv4Addr::LOCALHOST, 0)),
    })
    .await
    .expect("binds");
    let addr = server.addr();
    let (tx, rx) = tokio::sync::oneshot::channel::<()>();
    tokio::spawn(server.run(async {
        let _ = rx.await;
    }));
    (addr, tx)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn unknown_blocks_save_a_partial_page_and_reopen() {
    let tmp = tempfile::tempdir().expect("temp dir");
    let (addr, stop) = serve(tmp.path()).await;
    let labels_file = tmp.path().join("ann/labels/article.json");
    let info = tokio::task::spawn_blocking(move || {
        let tok = token(addr);
        let (status, info) = request(addr, "GET", "/api/page/0", None, "");
        assert_eq!(status, 200, "{info}");
        let n = info["blocks"].as_u64().expect("blocks") as usize;
        let texts: Vec<String> = serde_json::from_value(info["texts"].clone()).expect("texts");
        let at = |start: &str| {
            texts
                .iter()
                .position(|t| t.starts_with(start))
                .expect(start)
        };
        let (head, p1, ad) = (at("The headline"), at("The first"), at("Buy now"));
        let mut labels = vec![json!("unknown"); n];
        labels[head] = json!("header");
        labels[p1] = json!("text");
        labels[ad] = json!("other");
        let body = json!({ "labels": labels }).to_string();

        // Refused: no token, a word that is no label, too few labels.
        assert_eq!(
            request(addr, "PUT", "/api/page/0/labels", None, &body).0,
            403
        );
        let bad = json!({ "labels": vec![json!("maybe"); n] }).to_string();
        assert_eq!(
            request(addr, "PUT", "/api/page/0/labels", Some(&tok), &bad).0,
            400
        );
        let short = json!({ "labels": vec![json!("unknown"); n - 1] }).to_string();
        assert_eq!(
            request(addr, "PUT", "/api/page/0/labels", Some(&tok), &short).0,
            400
        );
        assert!(!labels_file.exists(), "a refused write saved labels");

        let (status, r) = request(addr, "PUT", "/api/page/0/labels", Some(&tok), &body);
        assert_eq!(status, 200, "{r}");
        let (_, again) = request(addr, "GET", "/api/page/0", None, "");
        assert_eq!(again["labels"], json!(labels));
        assert_eq!(again["annotated"], json!(true));
        (n, head, p1, ad, tok)
    })
    .await
    .expect("client");
    let (n, head, p1, ad, tok) = info;

    // On disk: the partial form, the known blocks only.
    let out = tmp.path().join("ann");
    let json = std::fs::read_to_string(out.join("labels/article.json")).expect("saved");
    assert!(json.contains(r#""unlabelled": "unknown""#), "{json}");
    let page = Corpus::open([&out], None)
        .expect("opens")
        .iter()
        .next()
        .expect("a page")
        .expect("loads");
    let known: Vec<usize> = (0..n).filter(|&i| page.known[i]).collect();
    assert_eq!(known, vec![head, p1, ad]);
    assert_eq!(page.labels[head], Label::Header);

    // A new session on the same folder reopens the page with its unknown blocks.
    let _ = stop.send(());
    let (addr, stop) = serve(tmp.path()).await;
    let labels =
        tokio::task::spawn_blocking(move || request(addr, "GET", "/api/page/0", None, "").1)
            .await
            .expect("client")["labels"]
            .clone();
    let unknown = labels
        .as_array()
        .expect("labels")
        .iter()
        .filter(|l| *l == "unknown")
        .count();
    assert_eq!(unknown, n - 3);
    assert_eq!(labels[head], json!("header"));

    // A full save (no block unknown) writes the usual form.
    let tok2 = tokio::task::spawn_blocking(move || token(addr))
        .await
        .expect("token");
    assert_ne!(tok2, tok, "each session has its own token");
    let full = json!({ "labels": vec![json!("other"); n] }).to_string();
    let (status, _) = tokio::task::spawn_blocking(move || {
        request(addr, "PUT", "/api/page/0/labels", Some(&tok2), &full)
    })
    .await
    .expect("client");
    assert_eq!(status, 200);
    let json = std::fs::read_to_string(out.join("labels/article.json")).expect("saved");
    assert!(!json.contains("unlabelled"), "{json}");
    let page = Corpus::open([&out], None)
        .expect("opens")
        .iter()
        .next()
        .expect("a page")
        .expect("loads");
    assert!(page.known.is_empty());
    assert_eq!(page.labels, vec![Label::Other; n]);
    let _ = stop.send(());
}

/// The repository's hand-labelled example pages (five, in id order) and their gold labels.
fn examples() -> (std::path::PathBuf, Vec<(String, Vec<Label>)>) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../annotations/examples");
    let gold = Corpus::open([&dir], None)
        .expect("the examples open")
        .iter()
        .map(|p| p.map(|p| (p.id, p.labels)))
        .collect::<Result<Vec<_>, _>>()
        .expect("the examples load");
    (dir, gold)
}

/// The shipped `web` bundle and the annotation loop's settings with it as the base.
fn web_loop(every: usize) -> (Model, AdaptLoop) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../models/web");
    let model = Model::load(&dir).expect("the shipped web model loads");
    let image = victor_label::BundleImage::read(&dir).expect("the bundle's files");
    let adapt = victor_train::Adapt {
        base: std::sync::Arc::new(victor_train::Base::new(&model, "web", image)),
        prior: victor_train::DEFAULT_PRIOR,
        trees: victor_train::DEFAULT_TREES,
        leaf_prior: victor_train::DEFAULT_LEAF_PRIOR,
        decoding: victor_train::AdaptDecoding::Base,
        gate: true,
    };
    (model, AdaptLoop { adapt, every })
}

fn labels_of(v: &Value) -> Vec<Label> {
    serde_json::from_value(v["labels"].clone()).expect("labels")
}

/// Polls the status until `adaptations` adaptations have finished.
fn wait_adaptations(addr: SocketAddr, adaptations: u64) -> Value {
    for _ in 0..1200 {
        let (_, st) = request(addr, "GET", "/api/status", None, "");
        assert!(st["adapt"]["error"].is_null(), "{st}");
        if st["adapt"]["adaptations"].as_u64() >= Some(adaptations) {
            return st;
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    panic!("no adaptation finished in a minute");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_loop_adapts_after_every_n_saves_and_prelabels_with_the_adapted_model() {
    let (dir, gold) = examples();
    let (model, settings) = web_loop(2);
    let pages: Vec<PageSource> = gold
        .iter()
        .map(|(id, _)| PageSource::new(id, dir.join(format!("pages/{id}.html"))))
        .collect();
    let tmp = tempfile::tempdir().expect("temp dir");
    let out = tmp.path().join("ann");
    let server = Server::bind(Options {
        pages,
        out: out.clone(),
        set_name: "api-loop".into(),
        model: Some(web_loop(2).0),
        model_name: Some("web".into()),
        order: Order::Given,
        adapt: Some(settings.clone()),
        addr: SocketAddr::from((Ipv4Addr::LOCALHOST, 0)),
    })
    .await
    .expect("binds");
    let addr = server.addr();
    let (stop, rx) = tokio::sync::oneshot::channel::<()>();
    tokio::spawn(server.run(async {
        let _ = rx.await;
    }));

    let gold2 = gold.clone();
    let (page2, page3, status) = tokio::task::spawn_blocking(move || {
        let gold = gold2;
        let tok = token(addr);
        let (_, st) = request(addr, "GET", "/api/status", None, "");
        assert_eq!(st["model"], json!("web"));
        assert_eq!(st["seen"], json!(0));
        assert_eq!(st["adapt"]["every"], json!(2));
        assert_eq!(st["adapt"]["adaptations"], json!(0));
        assert_eq!(st["adapt"]["next_at"], json!(2));

        // Two pages opened, pre-labelled by the model as given, saved with their gold labels.
        for (n, (_, page_gold)) in gold.iter().enumerate().take(2) {
            let (status, info) = request(addr, "GET", &format!("/api/page/{n}"), None, "");
            assert_eq!(status, 200, "{info}");
            assert_eq!(info["prelabelled_by"], json!({ "model": "web", "seen": 0 }));
            assert!(info["status"]["adapt"]["running"].is_null(), "{info}");
            let labels: Vec<&str> = page_gold.iter().map(|l| l.as_str()).collect();
            let body = json!({ "labels": labels }).to_string();
            let (status, r) = request(
                addr,
                "PUT",
                &format!("/api/page/{n}/labels"),
                Some(&tok),
                &body,
            );
            assert_eq!(status, 200, "{r}");
            assert_eq!(r["status"]["adapt"]["saved"], json!(n + 1));
        }
        // Opening the third page starts the adaptation on the two saved; the third page itself
        // was loaded before it is ready and keeps the given model's labels.
        let (_, page2) = request(addr, "GET", "/api/page/2", None, "");
        assert_eq!(
            page2["prelabelled_by"],
            json!({ "model": "web", "seen": 0 })
        );
        let a = &page2["status"]["adapt"];
        assert!(
            a["running"] == json!(2) || a["adaptations"] == json!(1),
            "no adaptation started: {page2}"
        );
        let status = wait_adaptations(addr, 1);
        assert_eq!(status["model"], json!("web"));
        assert_eq!(status["seen"], json!(2));
        assert_eq!(status["adapt"]["next_at"], json!(4));
        assert_eq!(status["adapt"]["skipped"], json!(0));
        assert!(status["adapt"]["running"].is_null(), "{status}");
        // The fourth page, opened after it, is pre-labelled by the adapted model.
        let (_, page3) = request(addr, "GET", "/api/page/3", None, "");
        assert_eq!(
            page3["prelabelled_by"],
            json!({ "model": "web", "seen": 2 })
        );
        assert_eq!(page3["status"]["seen"], json!(2));
        let (_, again) = request(addr, "GET", "/api/page/2", None, "");
        assert_eq!(
            again["prelabelled_by"], page2["prelabelled_by"],
            "a page shown changed"
        );
        let labels: Vec<&str> = gold[3].1.iter().map(|l| l.as_str()).collect();
        let body = json!({ "labels": labels }).to_string();
        assert_eq!(
            request(addr, "PUT", "/api/page/3/labels", Some(&tok), &body).0,
            200
        );
        (page2, page3, status)
    })
    .await
    .expect("client");
    let _ = stop.send(());
    assert_eq!(status["adapt"]["adaptations"], json!(1));

    // The labels shown are the adapted model's: the same adaptation, made here on the two pages
    // saved, labels the fourth page the same way (and the given model the third).
    let two = tmp.path().join("two");
    let writer =
        victor_annotations::SetWriter::create(&two, &victor_annotations::SetInfo::new("two", None))
            .expect("a set");
    let saved = victor_annotations::SetWriter::open(&out).expect("the saved set");
    for (id, _) in &gold[..2] {
        std::fs::copy(saved.page_path(id), writer.page_path(id)).expect("copy");
        std::fs::copy(saved.labels_path(id), writer.labels_path(id)).expect("copy");
    }
    let adapted =
        victor_annotator::adapt_to_set(&model, &settings.adapt, &two, &tmp.path().join("m"))
            .expect("adapts");
    assert_eq!(adapted.pages, 2);
    let label = |m: &Model, id: &str| {
        let bytes = std::fs::read(dir.join(format!("pages/{id}.html"))).expect("page");
        let mut l = Labeler::new(m);
        let d = l.default_decoding();
        l.label_bytes(&bytes, d).expect("labels").labels
    };
    assert_eq!(labels_of(&page3), label(&adapted.model, &gold[3].0));
    assert_eq!(labels_of(&page2), label(&model, &gold[2].0));

    // The saved page records which model pre-labelled it, adapted on how many pages.
    let json =
        std::fs::read_to_string(out.join(format!("labels/{}.json", gold[3].0))).expect("saved");
    assert!(json.contains(r#""prelabelled_by": "web""#), "{json}");
    assert!(json.contains(r#""prelabelled_adapted_on": "2""#), "{json}");
}

#[tokio::test]
async fn the_loop_needs_a_model() {
    let (_, settings) = web_loop(1);
    let (dir, gold) = examples();
    let tmp = tempfile::tempdir().expect("temp dir");
    let err = Server::bind(Options {
        pages: vec![PageSource::new(
            &gold[0].0,
            dir.join(format!("pages/{}.html", gold[0].0)),
        )],
        out: tmp.path().join("ann"),
        set_name: "api-loop".into(),
        model: None,
        model_name: None,
        order: Order::Given,
        adapt: Some(settings),
        addr: SocketAddr::from((Ipv4Addr::LOCALHOST, 0)),
    })
    .await
    .err()
    .expect("refused");
    assert!(matches!(err, AnnotateError::AdaptNeedsModel), "{err}");
    assert!(!tmp.path().join("ann").exists(), "a folder was made");
}

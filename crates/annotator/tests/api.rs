//! The server's API over plain HTTP (no browser): a save with unknown blocks writes a partially
//! labelled page that reopens with them unknown; a full save writes the usual form; writes
//! without the session token, with the wrong number of labels or an unknown word are refused.

use std::io::{Read, Write};
use std::net::{Ipv4Addr, SocketAddr, TcpStream};
use std::path::Path;

use serde_json::{Value, json};
use victor_annotations::Corpus;
use victor_annotations::Label;
use victor_annotator::{Options, Order, PageSource, Server};

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

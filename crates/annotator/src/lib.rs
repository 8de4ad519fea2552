//! # victor-annotator: the annotation tool, a local web server for labelling pages in a browser
//!
//! `victor annotate PAGES --out SET` serves one page at a time as the browser renders it, with
//! victor's blocks marked (module `render`), behind a narrow control bar. The annotator chooses a
//! label (`h`, `t`, `o`) and clicks the first and the last block of a section; every block in
//! between gets the label. Unmarked blocks are `other`; the fourth choice, unknown (`x`), leaves
//! blocks unlabelled, and a page with unknown blocks is saved partially labelled
//! (`"unlabelled": "unknown"`), so a quick pass can mark the article and a few boilerplate
//! blocks and leave the rest to training, which sums over their labels. Each change is saved at
//! once, atomically, as an annotated set (`victor_annotations::SetWriter`), which `victor train`
//! reads unchanged. With a model, pages
//! open pre-labelled, the blocks whose P(other) lies near the decision threshold outlined
//! ([`UNCERTAIN_MARGIN`]), and [`Order::Uncertain`] offers the pages the model is least sure of
//! first ([`expected_f1`]). With [`AdaptLoop`] (`--adapt`) the tool closes the loop: every few
//! saved pages it adapts the model to the pages saved so far, in the background (module
//! `adapt`, [`adapt_to_set`]), and pre-labels the pages opened next with the adapted model
//! (with [`Order::Uncertain`], the pages not yet shown are ranked again by it); the page says
//! which model pre-labelled it and how many pages that model has seen.
//!
//! # Safety
//!
//! - The server binds where it is told (the command's default is loopback) and answers only
//!   requests whose `Host` is a loopback name or the bound address, so a web site that rebinds
//!   its DNS name to 127.0.0.1 cannot read the tool.
//! - Pages are addressed by their position in the list (`/page/3`), never by a path: no file
//!   outside the given pages and the output set is ever read (no path traversal).
//! - The page's HTML cannot reach the API: scripts and event attributes are removed, links and
//!   forms disabled (module `render`); the page is served with a Content-Security-Policy that allows
//!   no script, no connection, no form and no request but inline styles and `data:` images,
//!   under `sandbox allow-same-origin`, and shown in an iframe sandboxed the same way (the tool's
//!   own script, in the parent, handles clicks in it). Every write (`PUT`) must carry the
//!   session's token in the `X-Victor-Token` header, which no HTML form or link can send.
//!
//! The library neither prints nor exits: [`Server::bind`] returns the address, [`Server::run`]
//! serves until the future given to it ends.

#![forbid(unsafe_code)]
#![warn(missing_docs)]
#![deny(unreachable_pub)]
#![warn(unnameable_types)]

mod adapt;
mod effort;
mod render;
mod session;

use std::future::Future;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;

use axum::Router;
use axum::extract::{Path as UrlPath, Request, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use victor_label::Model;

pub use adapt::{AdaptError, AdaptLoop, Adapted, DEFAULT_ADAPT_EVERY, adapt_to_set};
pub use effort::{Effort, Mark, START_LABEL, effort, plan};
pub use session::PageSource;
use session::Session;
/// The score [`Order::Uncertain`] ranks pages by (it lives in the labelling crate, shared with
/// `victor cv --curve-order uncertain`).
pub use victor_label::expected_f1;

/// Blocks whose P(other) lies within this distance of the page's decision threshold are
/// outlined as uncertain when a model pre-labels the page.
pub const UNCERTAIN_MARGIN: f64 = 0.2;

/// The header that must carry the session token on every write.
pub const TOKEN_HEADER: &str = "x-victor-token";

/// In which order the pages are offered.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Order {
    /// As given.
    #[default]
    Given,
    /// The model's expected text-level F1 ([`expected_f1`]), lowest first; needs a model.
    Uncertain,
}

/// What the tool serves and where it saves.
pub struct Options {
    /// The pages, in the order given.
    pub pages: Vec<PageSource>,
    /// The annotated set the labels go to (created if missing; pages already in it open with
    /// their labels).
    pub out: PathBuf,
    /// The set's name, written to its `set.json` when the set is created.
    pub set_name: String,
    /// A model to pre-label pages with.
    pub model: Option<Model>,
    /// A name for the model, recorded in the saved labels' provenance.
    pub model_name: Option<String>,
    /// The page order.
    pub order: Order,
    /// Adapt the model to the pages saved, as they are saved (the annotation loop); needs a
    /// model.
    pub adapt: Option<AdaptLoop>,
    /// Where to listen.
    pub addr: SocketAddr,
}

/// Why the tool could not start.
#[derive(Debug, thiserror::Error)]
pub enum AnnotateError {
    /// No pages to annotate.
    #[error("no pages to annotate")]
    NoPages,
    /// `--order uncertain` without a model.
    #[error("ordering by uncertainty needs a model")]
    OrderNeedsModel,
    /// Adapting without a model.
    #[error("adapting needs a model to adapt")]
    AdaptNeedsModel,
    /// The output set cannot be listed.
    #[error(transparent)]
    Load(#[from] victor_annotations::LoadError),
    /// No working folder for the adaptations.
    #[error("cannot make a working folder for the adaptations: {0}")]
    Work(std::io::Error),
    /// The output set cannot be created or opened.
    #[error(transparent)]
    Store(#[from] victor_annotations::StoreError),
    /// Listening failed.
    #[error("cannot listen on {addr}: {source}")]
    Listen {
        /// The address.
        addr: SocketAddr,
        /// The reason.
        source: std::io::Error,
    },
    /// Serving failed.
    #[error("server failed: {0}")]
    Serve(std::io::Error),
}

/// A bound, not yet serving, annotation server.
pub struct Server {
    listener: tokio::net::TcpListener,
    addr: SocketAddr,
    app: Arc<App>,
}

/// What the request handlers share.
struct App {
    session: Arc<Session>,
    token: String,
    addr: SocketAddr,
}

impl Server {
    /// Prepares the session (opens the output set, orders the pages: with
    /// [`Order::Uncertain`] every page is labelled by the model first) and binds the address.
    ///
    /// # Errors
    ///
    /// See [`AnnotateError`].
    pub async fn bind(options: Options) -> Result<Server, AnnotateError> {
        let requested = options.addr;
        let listener = tokio::net::TcpListener::bind(requested)
            .await
            .map_err(|source| AnnotateError::Listen {
                addr: requested,
                source,
            })?;
        let addr = listener
            .local_addr()
            .map_err(|source| AnnotateError::Listen {
                addr: requested,
                source,
            })?;
        let session = tokio::task::spawn_blocking(move || Session::new(options))
            .await
            .map_err(|e| AnnotateError::Serve(std::io::Error::other(e)))??;
        Ok(Server {
            listener,
            addr,
            app: Arc::new(App {
                session: Arc::new(session),
                token: new_token(),
                addr,
            }),
        })
    }

    /// The address the server listens on.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// The number of pages offered.
    pub fn pages(&self) -> usize {
        self.app.session.len()
    }

    /// Serves until `shutdown` completes.
    ///
    /// # Errors
    ///
    /// [`AnnotateError::Serve`] when the listener fails.
    pub async fn run(
        self,
        shutdown: impl Future<Output = ()> + Send + 'static,
    ) -> Result<(), AnnotateError> {
        let app = self.app.clone();
        let router = Router::new()
            .route("/", get(index))
            .route("/app.js", get(app_js))
            .route("/app.css", get(app_css))
            .route("/api/pages", get(list_pages))
            .route("/api/status", get(status))
            .route("/api/page/{n}", get(page_info))
            .route("/api/page/{n}/labels", axum::routing::put(save_labels))
            .route("/page/{n}", get(page_html))
            .layer(middleware::from_fn_with_state(app.clone(), check_host))
            .with_state(app);
        axum::serve(self.listener, router)
            .with_graceful_shutdown(shutdown)
            .await
            .map_err(AnnotateError::Serve)
    }
}

/// A fresh session token: 128 bits from two of the standard library's randomly seeded hashers
/// (seeded from the operating system's random source), mixed with the time and process id.
fn new_token() -> String {
    use std::hash::{BuildHasher, Hasher};
    let mut parts = [0u64; 2];
    for (i, p) in parts.iter_mut().enumerate() {
        let mut h = std::collections::hash_map::RandomState::new().build_hasher();
        h.write_usize(i);
        h.write_u32(std::process::id());
        if let Ok(t) = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH) {
            h.write_u128(t.as_nanos());
        }
        *p = h.finish();
    }
    format!("{:016x}{:016x}", parts[0], parts[1])
}

/// Refuses requests whose `Host` is not the server's own address or a loopback name on its port
/// (DNS rebinding).
async fn check_host(State(app): State<Arc<App>>, req: Request, next: Next) -> Response {
    let host = req
        .headers()
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        .unwrap_or("");
    let port = app.addr.port();
    let ok = [
        format!("127.0.0.1:{port}"),
        format!("localhost:{port}"),
        format!("[::1]:{port}"),
        app.addr.to_string(),
    ]
    .iter()
    .any(|h| h.eq_ignore_ascii_case(host));
    if ok {
        next.run(req).await
    } else {
        (StatusCode::FORBIDDEN, "unexpected Host header").into_response()
    }
}

const INDEX_HTML: &str = include_str!("../assets/index.html");
const APP_JS: &str = include_str!("../assets/app.js");
const APP_CSS: &str = include_str!("../assets/app.css");

/// The policy of the tool's own page: its script and style from the server, frames from it.
const TOOL_CSP: &str = "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; \
                        frame-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; \
                        frame-ancestors 'none'";

/// The policy of a served page: nothing runs, nothing loads but inline styles and `data:`
/// images, nothing is submitted; sandboxed as the iframe is.
const PAGE_CSP: &str = "sandbox allow-same-origin; default-src 'none'; style-src 'unsafe-inline'; \
                        img-src data:; font-src data:; base-uri 'none'; form-action 'none'; \
                        frame-ancestors 'self'";

fn with_headers(
    body: impl IntoResponse,
    content_type: &'static str,
    csp: &'static str,
) -> Response {
    let mut r = body.into_response();
    let h = r.headers_mut();
    h.insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
    h.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(csp),
    );
    h.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    h.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("no-referrer"),
    );
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    r
}

async fn index(State(app): State<Arc<App>>) -> Response {
    let html = INDEX_HTML.replace("{{TOKEN}}", &app.token);
    with_headers(html, "text/html; charset=utf-8", TOOL_CSP)
}

async fn app_js() -> Response {
    with_headers(APP_JS, "text/javascript; charset=utf-8", TOOL_CSP)
}

async fn app_css() -> Response {
    with_headers(APP_CSS, "text/css; charset=utf-8", TOOL_CSP)
}

fn json(value: &serde_json::Value) -> Response {
    with_headers(value.to_string(), "application/json", TOOL_CSP)
}

fn error(status: StatusCode, message: impl Into<String>) -> Response {
    let body = serde_json::json!({ "error": message.into() }).to_string();
    (status, with_headers(body, "application/json", TOOL_CSP)).into_response()
}

async fn list_pages(State(app): State<Arc<App>>) -> Response {
    json(&app.session.list())
}

async fn status(State(app): State<Arc<App>>) -> Response {
    json(&app.session.status())
}

async fn page_info(State(app): State<Arc<App>>, UrlPath(n): UrlPath<usize>) -> Response {
    let app2 = app.clone();
    match tokio::task::spawn_blocking(move || app2.session.info(n)).await {
        Ok(Ok(v)) => json(&v),
        Ok(Err(e)) => error(e.status(), e.to_string()),
        Err(e) => error(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()),
    }
}

async fn page_html(State(app): State<Arc<App>>, UrlPath(n): UrlPath<usize>) -> Response {
    match tokio::task::spawn_blocking(move || app.session.html(n)).await {
        Ok(Ok(html)) => with_headers(html, "text/html; charset=utf-8", PAGE_CSP),
        Ok(Err(e)) => error(e.status(), e.to_string()),
        Err(e) => error(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()),
    }
}

/// The body of a save: one label (or `"unknown"`) per block.
#[derive(serde::Deserialize)]
struct SaveBody {
    labels: Vec<session::Mark>,
}

async fn save_labels(
    State(app): State<Arc<App>>,
    UrlPath(n): UrlPath<usize>,
    headers: HeaderMap,
    body: axum::body::Bytes,
) -> Response {
    let token = headers.get(TOKEN_HEADER).and_then(|t| t.to_str().ok());
    if token != Some(app.token.as_str()) {
        return error(StatusCode::FORBIDDEN, "missing or wrong session token");
    }
    let body: SaveBody = match serde_json::from_slice(&body) {
        Ok(b) => b,
        Err(e) => return error(StatusCode::BAD_REQUEST, format!("bad labels: {e}")),
    };
    let app2 = app.clone();
    match tokio::task::spawn_blocking(move || app2.session.save(n, &body.labels)).await {
        Ok(Ok(())) => json(&serde_json::json!({ "saved": true, "status": app.session.status() })),
        Ok(Err(e)) => error(e.status(), e.to_string()),
        Err(e) => error(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()),
    }
}

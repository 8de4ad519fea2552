//! `victor annotate`: the annotation tool's web server (thin over `victor::annotator`).

use std::io::Write;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Context;
use clap::ValueEnum;
use victor::annotations::SET_FILE;
use victor::annotator::{Options, Order, PageSource, Server};
use victor::annotator::{manifest_pages, safe_id, set_pages, unique_ids};

use crate::util::streams::say;
use crate::util::{inputs, model, output};

/// In which order pages are offered.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub(crate) enum OrderArg {
    /// As given (folders sorted by name).
    Given,
    /// The model's expected text-level F1, lowest first (needs --model).
    Uncertain,
}

#[derive(clap::Args, Debug)]
pub(crate) struct Args {
    /// Pages: HTML files, folders of them (walked recursively), data sets (a folder with
    /// manifest.jsonl: its pages, with their ids, URLs and splits), or annotated sets (a folder
    /// with set.json: its pages/).
    #[arg(required_unless_present = "files_from")]
    pub pages: Vec<PathBuf>,
    /// Read more page paths from this file, one a line (`-`: standard input).
    #[arg(long, value_name = "LIST")]
    pub files_from: Option<PathBuf>,
    /// The annotated set to save to (created if missing; pages already in it open with their
    /// labels).
    #[arg(long, value_name = "DIR")]
    pub out: PathBuf,
    /// Pre-label each page with this model (a bundle folder or a built-in name); blocks near the
    /// decision threshold are outlined.
    #[arg(long, value_name = "M")]
    pub model: Option<PathBuf>,
    /// Close the loop: every --adapt-every saved pages, adapt the --model to all the pages saved
    /// in --out so far (as `victor train OUT --adapt M` does, with its default prior and trees,
    /// M's decoding kept), in the background, and pre-label the pages opened next with the
    /// adapted model; the page shows which model pre-labelled it and how many pages that model
    /// has seen. With --order uncertain the pages not yet shown are ranked again by each
    /// adapted model. The adapted models live as long as the tool; `victor train OUT --adapt M
    /// --out DIR` makes the bundle to keep.
    #[arg(long, requires = "model")]
    pub adapt: bool,
    /// Saved pages between two adaptations (with --adapt).
    #[arg(long, value_name = "N", default_value_t = victor::annotator::DEFAULT_ADAPT_EVERY,
          requires = "adapt", value_parser = crate::util::values::at_least_one)]
    pub adapt_every: usize,
    /// Only the pages of this split of a data set (`dev`, `test`).
    #[arg(long)]
    pub split: Option<String>,
    /// The order pages are offered in.
    #[arg(long, value_enum, default_value = "given")]
    pub order: OrderArg,
    /// Port to listen on (0: any free port).
    #[arg(long, default_value_t = 8080)]
    pub port: u16,
    /// Address to listen on. Anything but loopback lets other machines label (and read) pages.
    #[arg(long, default_value_t = IpAddr::V4(Ipv4Addr::LOCALHOST))]
    pub bind: IpAddr,
}

pub(crate) fn run(args: Args) -> anyhow::Result<ExitCode> {
    let order = match args.order {
        OrderArg::Given => Order::Given,
        OrderArg::Uncertain => Order::Uncertain,
    };
    if matches!(order, Order::Uncertain) && args.model.is_none() {
        anyhow::bail!("--order uncertain needs --model");
    }
    output::check_folder(&args.out, "--out")?;
    let pages = collect(
        &args.pages,
        args.files_from.as_deref(),
        args.split.as_deref(),
        &args.out,
    )?;
    let (model, adapt) = match &args.model {
        Some(m) if args.adapt => {
            let (model, adapt) = victor::annotator::adapt_loop(m, args.adapt_every)?;
            (Some(model), Some(adapt))
        }
        Some(m) => (Some(model::load(Some(m))?), None),
        None => (None, None),
    };
    let set_name = args.out.file_name().map_or_else(
        || "annotations".into(),
        |n| n.to_string_lossy().into_owned(),
    );
    let options = Options {
        pages,
        out: args.out.clone(),
        set_name,
        model,
        model_name: args.model.as_ref().map(|m| m.display().to_string()),
        order,
        adapt,
        addr: SocketAddr::new(args.bind, args.port),
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .context("cannot start the server's runtime")?;
    runtime.block_on(async {
        let server = Server::bind(options)
            .await
            .with_context(|| format!("cannot start the annotation tool for {}", args.out.display()))?;
        if !args.bind.is_loopback() {
            say!("victor: warning: listening on {}, not loopback: anyone who reaches it can read the pages", args.bind);
        }
        let adapting = if args.adapt {
            format!(", adapting the model every {} saved pages", args.adapt_every)
        } else {
            String::new()
        };
        // Where to point the browser: the one line on standard output. Nobody to read it (a
        // closed pipe) ends the run as it ends every command's (util::streams).
        writeln!(
            std::io::stdout(),
            "victor annotate: {} pages, saving to {}{adapting}; open http://{}/ (Ctrl-C stops)",
            server.pages(),
            args.out.display(),
            server.addr()
        )
        .context("cannot write to standard output")?;
        server
            .run(async {
                // Without a Ctrl-C handler the server would stop at once: it runs on, and the
                // default action of SIGINT and SIGTERM ends it.
                if let Err(e) = tokio::signal::ctrl_c().await {
                    say!("victor: warning: cannot listen for Ctrl-C ({e}); it still ends the server, without a last word");
                    std::future::pending::<()>().await;
                }
            })
            .await
            .context("annotation server failed")
    })?;
    Ok(ExitCode::SUCCESS)
}

/// The pages of the arguments: annotated sets give their `pages/`, the rest is walked as by the
/// other commands (never into the output set `out`); ids are the file stems made safe as file
/// names, unique.
fn collect(
    paths: &[PathBuf],
    files_from: Option<&Path>,
    split: Option<&str>,
    out: &Path,
) -> anyhow::Result<Vec<PageSource>> {
    let mut plain = Vec::new();
    let mut found: Vec<PathBuf> = Vec::new();
    let mut listed: Vec<PageSource> = Vec::new();
    for p in paths {
        if p.join("manifest.jsonl").is_file() {
            listed.extend(
                manifest_pages(p, split)
                    .with_context(|| format!("cannot read the data set {}", p.display()))?,
            );
        } else if p.join(SET_FILE).is_file() {
            found.extend(set_pages(p)?);
        } else {
            plain.push(p.clone());
        }
    }
    if !plain.is_empty() || files_from.is_some() {
        let walk = inputs::collect_pages(&plain, files_from, Some(out))?;
        walk.report(false);
        if walk.pages.iter().any(|i| inputs::is_stdin(&i.path)) {
            anyhow::bail!("the annotation tool cannot read a page from standard input");
        }
        // The tool reads a page each time it shows it: a stream would be gone after the first.
        if let Some(i) = walk.pages.iter().find(|i| inputs::is_stream(&i.path)) {
            anyhow::bail!(
                "the annotation tool reads its pages more than once, and {} is a stream (a FIFO or a device): save the page to a file first",
                i.path.display()
            );
        }
        found.extend(walk.pages.into_iter().map(|i| i.path));
    }
    if found.is_empty() && listed.is_empty() {
        anyhow::bail!("no pages found in {}", inputs::joined(paths));
    }
    listed.extend(
        found.into_iter().map(|path| {
            PageSource::new(safe_id(&inputs::page_stem(&path).to_string_lossy()), path)
        }),
    );
    unique_ids(&mut listed);
    Ok(listed)
}

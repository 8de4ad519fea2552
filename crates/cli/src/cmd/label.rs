//! `victor label`: pages -> labelled blocks -> cleaned text (or JSON, HTML, CSV). The formats
//! and their framing are the facade's ([`victor::format`]); this command reads its arguments,
//! walks the inputs, runs the pages on a thread pool and reports.

use std::collections::HashMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, OnceLock, PoisonError};

use anyhow::Context;
use rayon::prelude::*;
use victor::format::{Fields, Format, RenderError, Rendering, Stream};
use victor::{Cleaner, DEFAULT_MAX_BLOCKS, RawPage};

use crate::util::streams::say;
use crate::util::{inputs, interrupt, model, output, progress};

mod warc;

/// What `victor label`'s inputs are (the facade's).
pub(crate) use victor::inputs::InputKind as Input;
/// The labelers of `victor label --method` (the facade's).
pub(crate) use victor::method::MethodChoice as MethodArg;

/// Label pages with a model and write what they keep.
///
/// A block is `other` where its marginal P(other) is at or above the threshold; elsewhere the
/// likelier of header and text wins. Lower thresholds keep less (higher precision, lower
/// recall). By default the model's recommended decoding is used: its threshold, or expected-F1
/// decoding where its cross-validation chose that (Viterbi for a bundle without a threshold).
#[derive(clap::Args, Debug)]
pub(crate) struct Args {
    #[command(flatten)]
    sources: inputs::PageArgs,
    /// Model bundle folder, or a name: $VICTOR_MODELS/NAME, ./models/NAME,
    /// ~/.local/share/victor/models/NAME, or a bundle built into the binary (default: the
    /// built-in `default`).
    ///
    /// Shipped, one per guideline (models/README.md): `web` (the default: the main text of
    /// today's pages in any language), `article` (the main article text of news and blogs),
    /// `news` (article plus captions and datelines), `corpus` (all running text: lists, forum
    /// posts, headings), `general` (trained on three guidelines, for pages of unknown kind).
    /// `victor models NAME` says what a bundle is: where it was found, its digest, its training
    /// pages and, for one made by `victor train --adapt`, the bundle it was adapted from (its
    /// victor.json's `origin`, down the chain).
    #[arg(long, value_name = "MODEL")]
    model: Option<PathBuf>,
    #[command(flatten)]
    decoding: model::DecodingArgs,
    /// Labeler: the CRF of the model bundle, or one of the seeds' rule-based cleaners
    /// (without probabilities: their P is one-hot, and the decoding options do not apply).
    #[arg(long, value_enum, default_value_t = MethodArg::Crf)]
    method: MethodArg,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
    /// Text output (`--format text` or `cleaneval`): write kept lists and data tables as
    /// Kitten does (seed 003): a list introduced by a clause ending in a colon becomes one
    /// sentence (items under 60 characters at the median) or one sentence per item; a list of
    /// links loses its items of fewer than five words; a data table is written row by row as
    /// `header: value` pairs; `<abbr>`/`<acronym>` titles follow in parentheses; a header
    /// without an end mark gets a full stop.
    #[arg(long)]
    linearize: bool,
    /// `--format jsonl` or `jsonl-text` (pages or WARC files): each line carries a `markdown`
    /// field, the page's Markdown as `--format markdown` writes it.
    #[arg(long)]
    markdown: bool,
    /// Markdown (`--format markdown`, `--markdown`): write links as `[text](url)`, resolved
    /// against the page's `<base href>` and its URL (a WARC record's target URI).
    #[arg(long)]
    links: bool,
    /// Markdown (`--format markdown`, `--markdown`): write emphasis, `*text*` for `<em>` and
    /// `<i>`, `**text**` for `<strong>` and `<b>`.
    #[arg(long)]
    emphasis: bool,
    /// Write one file per page into this folder: the input's path relative to the folder it was
    /// found in (`site/a/index.html` under `site` -> DIR/a/index.txt), or the file name of a
    /// page named directly, with the format's extension (a page read from standard input is
    /// `stdin.EXT`); default: everything to standard output.
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// Refuse a page that splits into more text blocks than this (labeling needs about 1 KB
    /// a block; the pages of the shared gold standards have at most a few thousand).
    #[arg(long, value_name = "N", default_value_t = DEFAULT_MAX_BLOCKS,
          value_parser = crate::util::values::count)]
    max_blocks: usize,
    /// Threads (default: all cores).
    #[arg(long, short, value_name = "N", value_parser = crate::util::values::jobs)]
    jobs: Option<usize>,
    /// What the inputs are: `auto` takes files named *.warc or *.warc.gz, folders holding such
    /// files (and no pages) and a WARC stream on standard input as WARC, everything else as
    /// pages; `warc` reads every input (`-` too) as a WARC file, gzipped or not, walking folders
    /// for *.warc and *.warc.gz; `html` reads them as pages. From a WARC file, `response`
    /// records of HTML (and `resource` records of HTML) are labelled, with the charset of their
    /// HTTP header; jsonl formats add `WARC-Record-ID`, `WARC-Target-URI` and `warc_date` (the
    /// record's WARC-Date, when the page was fetched; `date` is its publication date);
    /// `--out DIR` writes one file per WARC file.
    #[arg(long, value_enum, default_value_t = Input::Auto)]
    input: Input,
    /// No progress display.
    #[arg(long, short)]
    quiet: bool,
    /// List each file the walks of folders passed over, with why (by default one line counts
    /// them by reason).
    #[arg(long, short)]
    verbose: bool,
}

/// Refuses options that do not apply to the format asked for.
fn check_options(args: &Args) -> anyhow::Result<()> {
    if args.links && !args.markdown && args.format != Format::Markdown {
        anyhow::bail!("--links applies to Markdown: --format markdown, or --markdown");
    }
    if args.emphasis && !args.markdown && args.format != Format::Markdown {
        anyhow::bail!("--emphasis applies to Markdown: --format markdown, or --markdown");
    }
    if args.markdown && !matches!(args.format, Format::Jsonl | Format::JsonlText) {
        anyhow::bail!(
            "--markdown applies to --format jsonl and jsonl-text (else: --format markdown)"
        );
    }
    if args.linearize && !matches!(args.format, Format::Text | Format::Cleaneval) {
        anyhow::bail!("--linearize applies to --format text and cleaneval only");
    }
    Ok(())
}

/// A labeling error as the failure report shows it, with the option that lifts a limit.
fn describe(e: &RenderError) -> String {
    use victor::{Error, LabelError, PageError, SegmentError};
    match e {
        RenderError::Page(Error::Label(LabelError::Page(PageError::Segment(
            SegmentError::TooManyBlocks(_),
        )))) => {
            format!("{e}; --max-blocks raises it")
        }
        _ => e.to_string(),
    }
}

/// Reads, labels and renders one page file into `buf` (cleared first).
fn label_page(
    cleaner: &Cleaner,
    path: &Path,
    how: &Rendering<'_>,
    buf: &mut Vec<u8>,
) -> Result<(), String> {
    let bytes = inputs::read_page(path).map_err(|e| format!("cannot read: {e}"))?;
    if let Some(reason) = inputs::empty_input(path, &bytes) {
        return Err(reason);
    }
    let source = path.display().to_string();
    let page = RawPage {
        html: &bytes,
        ..RawPage::default()
    };
    buf.clear();
    cleaner
        .render(page, &source, Fields::default(), how, buf)
        .map_err(|e| describe(&e))
}

/// A page that failed, with the reason the report gives.
type Failure = (PathBuf, String);

/// Adds a failure to the run's list. A thread that panicked while holding the lock cannot have
/// left the list half pushed (a push is the only thing done under it), so a poisoned lock is
/// used as it is: every failure is kept, none lost with the lock.
fn push_failure(failures: &Mutex<Vec<Failure>>, failure: Failure) {
    failures
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .push(failure);
}

/// The run's failures, also from a poisoned lock (see [`push_failure`]).
fn into_failures(failures: Mutex<Vec<Failure>>) -> Vec<Failure> {
    failures
        .into_inner()
        .unwrap_or_else(PoisonError::into_inner)
}

/// Under `--out DIR`, each page's output file: its input's path relative to the folder it was
/// found in (or its file name), with the format's extension; two inputs writing one file, or an
/// output over an input, are refused, and the output folders are made.
fn out_paths<'a>(
    dir: &Path,
    format: Format,
    inputs: &'a [inputs::Input],
) -> anyhow::Result<HashMap<&'a Path, PathBuf>> {
    output::prepare_dir(dir, "--out")?;
    let outs = victor::inputs::out_paths(inputs, dir, format.extension())?;
    victor::inputs::refuse_outputs_over_inputs(inputs, &outs)?;
    let folders: std::collections::BTreeSet<&Path> =
        outs.iter().filter_map(|p| p.parent()).collect();
    for folder in folders {
        std::fs::create_dir_all(folder)
            .with_context(|| format!("cannot create {}", folder.display()))?;
    }
    Ok(inputs.iter().map(|i| i.path.as_path()).zip(outs).collect())
}

/// A pool of `jobs` labeling threads.
fn thread_pool(jobs: usize) -> anyhow::Result<rayon::ThreadPool> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(jobs)
        .build()
        .context("thread pool")
}

/// Runs the subcommand.
pub(crate) fn run(args: Args) -> anyhow::Result<ExitCode> {
    let model = model::load(args.model.as_deref())?;
    let method = args.method.method();
    let settled = args.decoding.settle(&model, method)?;
    check_options(&args)?;
    let cleaner = Cleaner::from_model(model, Some(settled.decoding))
        .with_max_blocks(args.max_blocks)
        .with_method(method);
    let decoding_name = settled.name(method);
    let how = Rendering {
        format: args.format,
        linearize: args.linearize,
        markdown: args.markdown,
        links: args.links,
        emphasis: args.emphasis,
        decoding: &decoding_name,
    };
    // From here on a first Ctrl-C stops the batch between pages (util::interrupt).
    interrupt::install()?;
    if args.input.warcs(
        &inputs::STREAMS,
        &args.sources.pages,
        args.sources.files_from.as_deref(),
    )? {
        return warc::run(&args, &cleaner, &how);
    }
    let walk = args.sources.collect("label", args.out.as_deref())?;
    walk.report(args.verbose);
    let inputs = walk.pages;
    let pages: Vec<PathBuf> = inputs.iter().map(|i| i.path.clone()).collect();
    let out_paths = match &args.out {
        Some(dir) => out_paths(dir, args.format, &inputs)?,
        None => HashMap::new(),
    };
    let run = Run {
        args: &args,
        cleaner: &cleaner,
        how: &how,
        out_paths,
        bar: progress::bar(pages.len() as u64, "pages", args.quiet),
        failures: Mutex::new(Vec::new()),
        written: AtomicUsize::new(0),
        stdout: Stream::default(),
        stdout_error: OnceLock::new(),
    };
    run.bar.set_message("labeling");
    let jobs = crate::util::values::threads(args.jobs, pages.len());
    if jobs == 1 || pages.len() < 2 {
        run.sequential(&pages);
    } else if args.out.is_none() {
        run.in_order(&pages, &thread_pool(jobs)?);
    } else {
        run.in_parallel(&pages, &thread_pool(jobs)?);
    }
    run.finish(pages.len(), &decoding_name)
}

/// One run over page files: what it writes with, where, and what it has done so far.
struct Run<'a> {
    args: &'a Args,
    cleaner: &'a Cleaner,
    how: &'a Rendering<'a>,
    /// Under `--out`, each page's output file.
    out_paths: HashMap<&'a Path, PathBuf>,
    bar: indicatif::ProgressBar,
    failures: Mutex<Vec<Failure>>,
    /// Pages written.
    written: AtomicUsize,
    /// What has gone to standard output.
    stdout: Stream,
    /// A failed write to standard output stops the batch at once: every later page would fail
    /// the same way. The first error is the run's error: a closed pipe (`victor label DIR |
    /// head -1`) then ends the run quietly (util::streams), any other (`> /dev/full`) is said.
    stdout_error: OnceLock<std::io::Error>,
}

impl Run<'_> {
    /// Whether the batch stops: standard output failed, or the run was interrupted.
    fn stopped(&self) -> bool {
        self.stdout_error.get().is_some() || interrupt::requested()
    }

    /// Writes a page to standard output; false if it could not be (the batch then stops).
    fn write_stdout(&self, lock: &mut std::io::StdoutLock<'_>, page: &[u8]) -> bool {
        match self.stdout.write(lock, self.args.format, page) {
            Ok(()) => true,
            Err(e) => {
                // Only the first error is kept: the batch stops after it.
                let _ = self.stdout_error.set(e);
                false
            }
        }
    }

    /// Labels one page and writes it: into its file under `--out`, else to standard output.
    fn one(&self, buf: &mut Vec<u8>, path: &Path) -> Result<(), String> {
        label_page(self.cleaner, path, self.how, buf)?;
        match &self.args.out {
            Some(dir) => {
                let format = self.args.format;
                let mut file = Vec::with_capacity(buf.len() + 64);
                format.write_header(&mut file).map_err(|e| e.to_string())?;
                file.extend_from_slice(buf);
                let target = self.out_paths.get(path).cloned().unwrap_or_else(|| {
                    let mut name = inputs::page_stem(path);
                    name.push(".");
                    name.push(format.extension());
                    dir.join(name)
                });
                output::write_file_in_existing(&target, &file)
                    .map_err(|e| crate::util::errors::message(&e))?;
            }
            None => {
                if !self.write_stdout(&mut std::io::stdout().lock(), buf) {
                    return Ok(());
                }
            }
        }
        self.written.fetch_add(1, Ordering::Relaxed);
        Ok(())
    }

    /// Counts a page done, and reports it if it failed.
    fn report(&self, path: &Path, r: Result<(), String>) {
        if let Err(reason) = r {
            self.bar
                .println(format!("victor: {}: {reason}", path.display()));
            push_failure(&self.failures, (path.to_path_buf(), reason));
        }
        self.bar.inc(1);
    }

    /// One page after the other on this thread.
    fn sequential(&self, pages: &[PathBuf]) {
        let mut buf = Vec::new();
        for p in pages {
            if self.stopped() {
                break;
            }
            let r = self.one(&mut buf, p);
            self.report(p, r);
        }
    }

    /// Pages labelled on the pool a chunk at a time and written to standard output in input
    /// order (chunks keep memory flat).
    fn in_order(&self, pages: &[PathBuf], pool: &rayon::ThreadPool) {
        for chunk in pages.chunks(256) {
            if self.stopped() {
                break;
            }
            // `None`: not labelled, the run was interrupted first.
            let outs: Vec<Option<Result<Vec<u8>, String>>> = pool.install(|| {
                chunk
                    .par_iter()
                    .map(|p| {
                        if interrupt::requested() {
                            return None;
                        }
                        let mut b = Vec::new();
                        let r = label_page(self.cleaner, p, self.how, &mut b);
                        Some(r.map(|()| b))
                    })
                    .collect()
            });
            let mut lock = std::io::stdout().lock();
            for (p, r) in chunk.iter().zip(outs) {
                // Labelled pages not yet written are dropped on an interruption too.
                let Some(r) = r else { break };
                if self.stopped() {
                    break;
                }
                let r = r.map(|b| {
                    if self.write_stdout(&mut lock, &b) {
                        self.written.fetch_add(1, Ordering::Relaxed);
                    }
                });
                self.report(p, r);
            }
        }
    }

    /// Pages labelled and written to their files under `--out` on the pool, in any order.
    fn in_parallel(&self, pages: &[PathBuf], pool: &rayon::ThreadPool) {
        pool.install(|| {
            pages.par_iter().for_each_init(Vec::new, |buf, p| {
                // Pages not yet started when the run is interrupted are left alone; those in
                // flight finish their write.
                if interrupt::requested() {
                    return;
                }
                let r = self.one(buf, p);
                self.report(p, r);
            });
        });
    }

    /// Ends the run: the error of standard output, the failures, an interruption, or the count.
    fn finish(self, pages: usize, decoding_name: &str) -> anyhow::Result<ExitCode> {
        self.bar.finish_and_clear();
        if let Some(e) = self.stdout_error.into_inner() {
            return Err(anyhow::Error::new(e).context("cannot write to standard output"));
        }
        std::io::stdout()
            .flush()
            .context("cannot write to standard output")?;
        let failures = into_failures(self.failures);
        if !failures.is_empty() {
            say!("victor label: {} of {pages} pages failed:", failures.len());
            for (p, r) in failures.iter().take(20) {
                say!("  {}: {r}", p.display());
            }
            if failures.len() > 20 {
                say!("  ... and {} more", failures.len() - 20);
            }
        }
        let written = self.written.load(Ordering::Relaxed);
        if interrupt::requested() {
            say!(
                "victor label: interrupted: {written} of {pages} pages written, the rest not started"
            );
            return Ok(ExitCode::from(interrupt::EXIT_STATUS));
        }
        if !failures.is_empty() {
            return Ok(ExitCode::FAILURE);
        }
        if !self.args.quiet && self.args.out.is_some() {
            let noun = if written == 1 { "page" } else { "pages" };
            say!("victor label: {written} {noun} labelled ({decoding_name})");
        }
        Ok(ExitCode::SUCCESS)
    }
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;
    use std::sync::Mutex;

    use super::{into_failures, push_failure};

    #[test]
    fn failures_survive_a_poisoned_lock() {
        let failures = Mutex::new(Vec::new());
        push_failure(&failures, (PathBuf::from("a.html"), "binary data".into()));
        // A thread panics while holding the lock: the lock is poisoned.
        let poisoned = std::thread::scope(|s| {
            s.spawn(|| {
                let _held = failures.lock();
                panic!("a labelling thread panics");
            })
            .join()
        });
        assert!(poisoned.is_err() && failures.is_poisoned());
        push_failure(
            &failures,
            (PathBuf::from("b.html"), "too many blocks".into()),
        );
        let kept: Vec<String> = into_failures(failures)
            .into_iter()
            .map(|(p, _)| p.display().to_string())
            .collect();
        assert_eq!(kept, ["a.html", "b.html"]);
    }
}

//! `victor label`: pages -> labelled blocks -> cleaned text (or JSON, HTML, CSV).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Mutex, PoisonError};

use anyhow::Context;
use clap::ValueEnum;
use rayon::prelude::*;
use victor::output::{CSV_HEADER, JsonlMeta, render_html, write_csv, write_jsonl};
use victor::{Cleaner, Collect, RawPage};
use victor_features::DEFAULT_MAX_BLOCKS;
use victor_label::{LabeledPage, TextOptions, render_text_with};

use crate::util::streams::say;
use crate::util::{inputs, interrupt, model, output, progress};

mod warc;

/// Output formats of `victor label`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum Format {
    /// The cleaned text, one paragraph a line (on standard output, a blank line between pages).
    Text,
    /// The cleaned text with CleanEval's `<h>`, `<p>`, `<l>` paragraph markers (a blank line
    /// between pages, as for text).
    Cleaneval,
    /// One JSON object per page: source, language, title, decoding, the cleaned text, and every
    /// block with its text, offsets, label and the probabilities of header, text and other.
    Jsonl,
    /// One JSON object per page without the blocks: source, language, title, decoding and the
    /// cleaned text (one paragraph a line), the document-per-line layout corpus tools read.
    JsonlText,
    /// The original page with each block highlighted by its label (probabilities on hover).
    Html,
    /// One row per block: page, block, start, end, label, p_header, p_text, p_other, text.
    Csv,
    /// The kept text as Markdown with the page's structure: headings, lists, tables, code,
    /// quotes (a blank line between pages on standard output).
    Markdown,
}

/// The labelers of `victor label --method`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub(crate) enum MethodArg {
    /// The model bundle's CRF (`--model`).
    #[default]
    Crf,
    /// jusText (seed 002): paragraphs by length, link and stop-word density, then by context.
    Justext,
    /// Body text extraction (seed 004): the span with the most words inside and tags outside.
    Bte,
    /// Kimatu (seed 000): blocks of the same appearance by their content-relevance ratio.
    Kimatu,
}

impl MethodArg {
    /// The rule-based method, `None` for the CRF.
    pub(crate) fn method(self) -> Option<victor_methods::Method> {
        match self {
            MethodArg::Crf => None,
            MethodArg::Justext => Some(victor_methods::Method::Justext),
            MethodArg::Bte => Some(victor_methods::Method::Bte),
            MethodArg::Kimatu => Some(victor_methods::Method::Kimatu),
        }
    }
}

/// What `victor label`'s inputs are.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum Input {
    /// WARC files by name (*.warc, *.warc.gz), pages otherwise.
    Auto,
    /// HTML pages.
    Html,
    /// WARC files.
    Warc,
}

impl Format {
    fn extension(self) -> &'static str {
        match self {
            Format::Text | Format::Cleaneval => "txt",
            Format::Jsonl | Format::JsonlText => "jsonl",
            Format::Html => "html",
            Format::Csv => "csv",
            Format::Markdown => "md",
        }
    }
}

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

/// What Markdown a page gets: a jsonl field (`--markdown`), links (`--links`), the page's URL.
#[derive(Clone, Copy)]
struct Md<'a> {
    field: bool,
    links: bool,
    emphasis: bool,
    url: Option<&'a str>,
}

/// The fields of a JSON line besides the page's own: those written before its keys and those
/// after them (a WARC record's; none for a page file).
#[derive(Clone, Copy, Default)]
pub(super) struct Fields<'a> {
    /// Before the page's keys.
    pub(super) before: &'a [(&'a str, Option<&'a str>)],
    /// After the page's keys.
    pub(super) after: &'a [(&'a str, Option<&'a str>)],
}

/// Renders a labelled page in the job's format; `fields` go into a JSON line (a WARC
/// record's).
fn render(
    job: Job<'_>,
    md: Md<'_>,
    fetched: Option<&str>,
    source: &str,
    fields: Fields<'_>,
    lp: &LabeledPage<'_>,
    out: &mut Vec<u8>,
) -> anyhow::Result<()> {
    let page = &lp.processed.page;
    let format = job.format;
    match format {
        Format::Text | Format::Cleaneval => {
            let mut s = String::new();
            let opts = TextOptions {
                markers: format == Format::Cleaneval,
                linearize: job.linearize.then_some(lp.processed.decoded.text.as_ref()),
            };
            render_text_with(page, &lp.labels, opts, &mut s);
            out.extend_from_slice(s.as_bytes());
        }
        Format::Jsonl | Format::JsonlText => {
            let markdown = md.field.then(|| markdown_of(lp, md));
            write_jsonl(
                out,
                JsonlMeta {
                    adapted: lp.share,
                    source,
                    language: lp.processed.table.language,
                    decoding: job.decoding_name,
                    url: md.url,
                    fetched,
                    markdown: markdown.as_deref(),
                    fields: fields.before,
                    fields_after: fields.after,
                },
                page,
                &lp.labels,
                &lp.probs,
                &lp.words,
                format == Format::Jsonl,
            )?
        }
        Format::Html => out.extend_from_slice(
            render_html(&lp.processed.decoded.text, page, &lp.labels, &lp.probs).as_bytes(),
        ),
        Format::Csv => {
            let mut w = csv::WriterBuilder::new()
                .has_headers(false)
                .from_writer(Vec::new());
            write_csv(&mut w, source, page, &lp.labels, &lp.probs)?;
            out.extend_from_slice(&w.into_inner().map_err(|e| anyhow::anyhow!("csv: {e}"))?);
        }
        Format::Markdown => out.extend_from_slice(markdown_of(lp, md).as_bytes()),
    }
    Ok(())
}

/// A labelled page's Markdown (`--format markdown`, `--markdown`).
fn markdown_of(lp: &LabeledPage<'_>, md: Md<'_>) -> String {
    let style = victor::MarkdownStyle {
        links: md.links,
        emphasis: md.emphasis,
    };
    style.render(lp, md.url)
}

/// Writes the CSV header row (the columns of `--format csv`).
fn write_csv_header(out: &mut impl Write) -> std::io::Result<()> {
    let mut w = csv::Writer::from_writer(out);
    w.write_record(CSV_HEADER)?;
    w.flush()
}

/// What has gone to standard output so far, shared by the threads that write there in turn.
#[derive(Default)]
struct StdoutState {
    /// The CSV header is written.
    csv_header: AtomicBool,
    /// A page's text is written (the next one is set off by a blank line).
    text: AtomicBool,
}

/// Writes one page's rendering to standard output: after the CSV header before the first page's
/// rows, and after a blank line when text of an earlier page precedes it (so documents stay
/// apart, one paragraph a line and a blank line between pages; a page that keeps nothing adds
/// nothing).
fn to_stdout(
    out: &mut impl Write,
    format: Format,
    page: &[u8],
    state: &StdoutState,
) -> std::io::Result<()> {
    match format {
        Format::Csv if !state.csv_header.swap(true, Ordering::SeqCst) => write_csv_header(out)?,
        Format::Text | Format::Cleaneval | Format::Markdown
            if !page.is_empty() && state.text.swap(true, Ordering::SeqCst) =>
        {
            out.write_all(b"\n")?;
        }
        _ => {}
    }
    out.write_all(page)
}

/// A labeling error as the failure report shows it, with the option that lifts a limit.
fn describe(e: &victor::Error) -> String {
    use victor_features::{PageError, SegmentError};
    use victor_label::LabelError;
    match e {
        victor::Error::Label(LabelError::Page(PageError::Segment(
            SegmentError::TooManyBlocks(_),
        ))) => {
            format!("{e}; --max-blocks raises it")
        }
        _ => e.to_string(),
    }
}

/// How every page of a run is rendered.
#[derive(Clone, Copy)]
pub(super) struct Job<'a> {
    /// Output format.
    pub(super) format: Format,
    /// Kitten's lists and tables in text output (`--linearize`).
    pub(super) linearize: bool,
    /// A `markdown` field in jsonl lines (`--markdown`).
    pub(super) markdown: bool,
    /// Links in the Markdown (`--links`).
    pub(super) links: bool,
    /// Emphasis in the Markdown (`--emphasis`).
    pub(super) emphasis: bool,
    /// The decoding's (or method's) name, for the jsonl output.
    pub(super) decoding_name: &'a str,
}

impl Job<'_> {
    /// What the parse must collect for this output: links for Markdown links, the head for the
    /// metadata of the JSON formats; plain text needs neither.
    fn collect(&self) -> Collect {
        Collect {
            links: self.links,
            head: matches!(self.format, Format::Jsonl | Format::JsonlText),
        }
    }
}

/// Labels and renders one page into `buf` (cleared first), with `fields` in a JSON line; an
/// error is the reason the failure report gives.
fn label_html(
    cleaner: &Cleaner,
    page: RawPage<'_>,
    source: &str,
    fields: Fields<'_>,
    job: Job<'_>,
    buf: &mut Vec<u8>,
) -> Result<(), String> {
    buf.clear();
    cleaner
        .with_labeled_collecting(page, job.collect(), |lp| {
            let md = Md {
                field: job.markdown,
                links: job.links,
                emphasis: job.emphasis,
                url: page.url,
            };
            render(job, md, page.fetched, source, fields, lp, buf)
        })
        .map_err(|e| describe(&e))?
        .map_err(|e| e.to_string())
}

/// Reads, labels and renders one page file into `buf` (cleared first).
fn label_page(
    cleaner: &Cleaner,
    path: &Path,
    job: Job<'_>,
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
    label_html(cleaner, page, &source, Fields::default(), job, buf)
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

/// Refuses a run where an output file would replace one of the pages it reads (`--format html
/// --out DIR` with DIR the input folder writes `DIR/a.html` over the page `DIR/a.html`): victor
/// never replaces a file it did not write. Only outputs that exist can be inputs.
fn refuse_outputs_over_inputs(
    inputs: &[inputs::Input],
    out_paths: &std::collections::HashMap<&Path, PathBuf>,
) -> anyhow::Result<()> {
    let read: std::collections::HashMap<PathBuf, &Path> = inputs
        .iter()
        .filter_map(|i| Some((std::fs::canonicalize(&i.path).ok()?, i.path.as_path())))
        .collect();
    for (input, out) in out_paths {
        let Ok(canonical) = std::fs::canonicalize(out) else {
            continue;
        };
        if let Some(page) = read.get(&canonical) {
            anyhow::bail!(
                "the output of {} would replace the page {}: choose another --out folder or --format",
                input.display(),
                page.display()
            );
        }
    }
    Ok(())
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
    let decoding = args.decoding.decoding(&model)?;
    let method = args.method.method();
    args.decoding.check_method(method)?;
    let decoding_name = match method {
        Some(m) => m.name().to_string(),
        None => decoding.to_string(),
    };
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
    let cleaner = Cleaner::from_model(model, Some(decoding))
        .with_max_blocks(args.max_blocks)
        .with_method(method);
    let job = Job {
        format: args.format,
        linearize: args.linearize,
        markdown: args.markdown,
        links: args.links,
        emphasis: args.emphasis,
        decoding_name: &decoding_name,
    };
    // From here on a first Ctrl-C stops the batch between pages (util::interrupt).
    interrupt::install()?;
    if warc::wanted(&args)? {
        return warc::run(&args, &cleaner, job);
    }
    let walk = args.sources.collect("label", args.out.as_deref())?;
    walk.report(args.verbose);
    let inputs = walk.pages;
    let pages: Vec<PathBuf> = inputs.iter().map(|i| i.path.clone()).collect();
    // Under --out, each page's output file: its input's path relative to the folder it was
    // found in (or its file name), with the format's extension.
    let mut out_paths = std::collections::HashMap::<&Path, PathBuf>::new();
    if let Some(dir) = &args.out {
        output::prepare_dir(dir, "--out")?;
        let mut seen = std::collections::HashMap::<PathBuf, &Path>::new();
        for input in &inputs {
            let out = input.out_path(dir, args.format.extension());
            if let Some(other) = seen.insert(out.clone(), &input.path) {
                anyhow::bail!(
                    "{} and {} would both write {}: rename one, or label them into separate folders",
                    other.display(),
                    input.path.display(),
                    out.display()
                );
            }
            out_paths.insert(&input.path, out);
        }
        refuse_outputs_over_inputs(&inputs, &out_paths)?;
        let folders: std::collections::BTreeSet<&Path> =
            out_paths.values().filter_map(|p| p.parent()).collect();
        for folder in folders {
            std::fs::create_dir_all(folder)
                .with_context(|| format!("cannot create {}", folder.display()))?;
        }
    }
    let jobs = crate::util::values::threads(args.jobs, pages.len());
    let bar = progress::bar(pages.len() as u64, "pages", args.quiet);
    bar.set_message("labeling");
    let failures = Mutex::new(Vec::<Failure>::new());
    let written = AtomicUsize::new(0);
    let stdout = std::io::stdout();
    let stdout_state = StdoutState::default();
    // A failed write to standard output stops the batch at once: every later page would fail
    // the same way. The first error is the run's error: a closed pipe (`victor label DIR |
    // head -1`) then ends the run quietly (util::streams), any other (`> /dev/full`) is said.
    let stdout_error = std::sync::OnceLock::<std::io::Error>::new();
    let stopped = || stdout_error.get().is_some() || interrupt::requested();
    // Writes a page to standard output; false if it could not be (the batch then stops).
    let write_stdout = |lock: &mut std::io::StdoutLock<'_>, page: &[u8]| -> bool {
        match to_stdout(lock, args.format, page, &stdout_state) {
            Ok(()) => true,
            Err(e) => {
                // Only the first error is kept: the batch stops after it.
                let _ = stdout_error.set(e);
                false
            }
        }
    };

    let one = |buf: &mut Vec<u8>, path: &PathBuf| -> Result<(), String> {
        label_page(&cleaner, path, job, buf)?;
        match &args.out {
            Some(dir) => {
                let mut file = Vec::with_capacity(buf.len() + 64);
                if args.format == Format::Csv {
                    write_csv_header(&mut file).map_err(|e| e.to_string())?;
                }
                file.extend_from_slice(buf);
                let target = out_paths.get(path.as_path()).cloned().unwrap_or_else(|| {
                    let mut name = inputs::page_stem(path);
                    name.push(".");
                    name.push(args.format.extension());
                    dir.join(name)
                });
                output::write_file_in_existing(&target, &file)
                    .map_err(|e| crate::util::errors::message(&e))?;
            }
            None => {
                if !write_stdout(&mut stdout.lock(), buf) {
                    return Ok(());
                }
            }
        }
        written.fetch_add(1, Ordering::Relaxed);
        Ok(())
    };
    let report = |path: &PathBuf, r: Result<(), String>| {
        if let Err(reason) = r {
            bar.println(format!("victor: {}: {reason}", path.display()));
            push_failure(&failures, (path.clone(), reason));
        }
        bar.inc(1);
    };
    if jobs == 1 || args.out.is_none() {
        // Sequential: one thread, or output order must follow input order on stdout.
        let mut buf = Vec::new();
        if jobs == 1 || pages.len() < 2 {
            for p in &pages {
                if stopped() {
                    break;
                }
                let r = one(&mut buf, p);
                report(p, r);
            }
        } else {
            let pool = thread_pool(jobs)?;
            // Chunks keep memory flat while preserving order on stdout.
            for chunk in pages.chunks(256) {
                if stopped() {
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
                            let r = label_page(&cleaner, p, job, &mut b);
                            Some(r.map(|()| b))
                        })
                        .collect()
                });
                let mut lock = stdout.lock();
                for (p, r) in chunk.iter().zip(outs) {
                    // Labelled pages not yet written are dropped on an interruption too.
                    let Some(r) = r else { break };
                    if stopped() {
                        break;
                    }
                    let r = r.map(|b| {
                        if write_stdout(&mut lock, &b) {
                            written.fetch_add(1, Ordering::Relaxed);
                        }
                    });
                    report(p, r);
                }
            }
        }
    } else {
        let pool = thread_pool(jobs)?;
        pool.install(|| {
            pages.par_iter().for_each_init(Vec::new, |buf, p| {
                // Pages not yet started when the run is interrupted are left alone; those in
                // flight finish their write.
                if interrupt::requested() {
                    return;
                }
                let r = one(buf, p);
                report(p, r);
            });
        });
    }
    bar.finish_and_clear();
    if let Some(e) = stdout_error.into_inner() {
        return Err(anyhow::Error::new(e).context("cannot write to standard output"));
    }
    std::io::stdout()
        .flush()
        .context("cannot write to standard output")?;
    let failures = into_failures(failures);
    if !failures.is_empty() {
        say!(
            "victor label: {} of {} pages failed:",
            failures.len(),
            pages.len()
        );
        for (p, r) in failures.iter().take(20) {
            say!("  {}: {r}", p.display());
        }
        if failures.len() > 20 {
            say!("  ... and {} more", failures.len() - 20);
        }
    }
    if interrupt::requested() {
        say!(
            "victor label: interrupted: {} of {} pages written, the rest not started",
            written.load(Ordering::Relaxed),
            pages.len()
        );
        return Ok(ExitCode::from(interrupt::EXIT_STATUS));
    }
    if !failures.is_empty() {
        return Ok(ExitCode::FAILURE);
    }
    if !args.quiet && args.out.is_some() {
        let n = written.load(Ordering::Relaxed);
        let pages = if n == 1 { "page" } else { "pages" };
        say!("victor label: {n} {pages} labelled ({decoding_name})");
    }
    Ok(ExitCode::SUCCESS)
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

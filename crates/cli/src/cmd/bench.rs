//! `victor bench`: speed of each pipeline stage, single-threaded, over pages held in memory.
//!
//! Every stage is timed as a cumulative pipeline (decode; decode + segment; ... ) over all pages,
//! repeated, the stages taking turns (each repetition runs every stage once); the median of the
//! repetitions is reported with pages/s, MB/s and the ratio to the
//! baseline (lol_html's tokenizer alone, with a no-op text handler), all in the same process.
//! The second row is victor's own tokenizer alone (`segment::tokenize_only`), which the
//! segmenter runs in place of lol_html; the third adds the tree builder
//! (`segment::tokenize_and_build`): the floor under any extractor's cost. `--only` runs the
//! stages whose names hold a text, for a profiler (eval/SPEED.md counts the floor's
//! instructions that way).

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use anyhow::Context;
use victor_features::{Collect, Extractor, Segmenter, decode, tokenize_and_build, tokenize_only};
use victor_label::render_text;
use victor_label::{Decoding, Labeler};

use crate::util::streams::say;
use crate::util::{inputs, words};

/// Measure the speed of each pipeline stage (one thread, pages in memory, median of repeats).
#[derive(clap::Args, Debug)]
pub(crate) struct Args {
    #[command(flatten)]
    sources: inputs::PageArgs,
    /// Repetitions per stage (the median is reported).
    #[arg(long, default_value_t = 5, value_parser = crate::util::values::at_least_one)]
    repeat: usize,
    /// Feature configuration (JSON) for the stages without a model; default: the built-in one.
    #[arg(long, value_name = "FILE")]
    config: Option<PathBuf>,
    /// Model bundle for the labeling stages, a folder or a name as for `victor label` (default:
    /// the built-in `default`).
    #[arg(long, value_name = "MODEL")]
    model: Option<PathBuf>,
    /// Skip the labeling stages (no model needed).
    #[arg(long)]
    no_label: bool,
    /// Run only the stages whose names hold TEXT (say `tree builder`): a profiler then sees
    /// that stage alone, beside the reading of the pages.
    #[arg(long, value_name = "TEXT")]
    only: Option<String>,
    /// List each file the walks of folders passed over, with why.
    #[arg(long, short)]
    verbose: bool,
}

struct Stage {
    name: &'static str,
    secs: Vec<f64>,
}

/// One stage's work on one page (the returned number is summed, so that nothing is optimised
/// away).
type StageFn<'a> = Box<dyn FnMut(&[u8]) -> usize + 'a>;

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    v.get(v.len() / 2).copied().unwrap_or(f64::NAN)
}

/// Runs the subcommand.
/// The whole pipeline to the plain text and, with `fields`, the JSON outputs' page fields
/// (metadata and confidence) as well. Returns a size, so that nothing is optimised away.
fn text_stage(mut labeler: Labeler<'_>, decoding: Decoding, fields: bool) -> StageFn<'_> {
    let mut text = String::new();
    Box::new(move |p| {
        labeler.label_bytes(p, decoding).map_or(0, |lp| {
            text.clear();
            let page = &lp.processed.page;
            render_text(page, &lp.labels, false, &mut text);
            if !fields {
                return text.len();
            }
            let md = victor_label::metadata(page, &lp.labels);
            let c = victor_label::confidence(page, &lp.labels, &lp.probs, &lp.words);
            text.len() + md.title.map_or(0, |t| t.len()) + usize::from(c > 0.5)
        })
    })
}

pub(crate) fn run(args: Args) -> anyhow::Result<ExitCode> {
    let walk = args.sources.collect("time", None)?;
    walk.report(args.verbose);
    let paths: Vec<PathBuf> = walk.pages.into_iter().map(|i| i.path).collect();
    let mut pages: Vec<Vec<u8>> = Vec::with_capacity(paths.len());
    for p in &paths {
        pages.push(inputs::read_page(p).with_context(|| format!("cannot read {}", p.display()))?);
    }
    let bytes: usize = pages.iter().map(Vec::len).sum();
    let config = super::features::load_config(args.config.as_deref())?;
    let extractor = Extractor::new(&config).context("invalid feature configuration")?;
    let repeat = args.repeat;
    say!(
        "victor bench: {}, {:.1} MB, {} per stage, 1 thread",
        words::pages(pages.len()),
        bytes as f64 / 1e6,
        words::count(repeat, "repetition", "repetitions")
    );
    let model = if args.no_label {
        None
    } else {
        Some(crate::util::model::load(args.model.as_deref())?)
    };
    // The stages read pages as `victor label --format text` does: no links, no head
    // ([`Collect::NONE`]), but for the one that computes the JSON outputs' page fields.
    let mut seg = Segmenter::new();
    seg.set_collect(Collect::NONE);
    let mut seg2 = Segmenter::new();
    seg2.set_collect(Collect::NONE);
    let mut work: Vec<(&'static str, StageFn<'_>)> = vec![
        (
            "baseline: lol_html tokenizer only",
            Box::new(|p| {
                decode(p)
                    .ok()
                    .and_then(|d| lol_html_tokenize_only(&d.text).ok())
                    .unwrap_or(0)
            }),
        ),
        (
            "victor tokenizer only",
            Box::new(|p| decode(p).map_or(0, |d| tokenize_only(&d.text))),
        ),
        (
            "victor tokenizer + tree builder (floor)",
            Box::new(|p| decode(p).map_or(0, |d| tokenize_and_build(&d.text))),
        ),
        (
            "decode",
            Box::new(|p| decode(p).map(|d| d.text.len()).unwrap_or(0)),
        ),
        (
            "decode + segment",
            Box::new(move |p| {
                decode(p)
                    .ok()
                    .and_then(|d| seg.segment(&d.text).ok())
                    .map_or(0, |pg| pg.blocks.len())
            }),
        ),
        (
            "decode + segment + features",
            Box::new(|p| {
                victor_features::process(p, &mut seg2, &extractor).map_or(0, |x| x.table.blocks)
            }),
        ),
    ];
    if let Some(model) = &model {
        let decoding = model.recommended_decoding();
        let labeler = |collect: Collect| {
            let mut l = Labeler::new(model);
            l.set_collect(collect);
            l
        };
        let mut plain = labeler(Collect::NONE);
        work.push((
            "... + marginals + labels (the model's features)",
            Box::new(move |p| {
                plain
                    .label_bytes(p, decoding)
                    .map_or(0, |lp| lp.labels.len())
            }),
        ));
        work.push((
            "... + text output (whole pipeline)",
            text_stage(labeler(Collect::NONE), decoding, false),
        ));
        // The JSON outputs' page fields on top of the text: the parse collects the head, and
        // the metadata and the confidence are computed (issue 51 asks them to cost at most 5 %
        // of the pages per second; compare with the stage above).
        let with_head = Collect {
            head: true,
            ..Collect::NONE
        };
        work.push((
            "... + text, metadata and confidence",
            text_stage(labeler(with_head), decoding, true),
        ));
        let mut plain = labeler(Collect::NONE);
        let mut text = String::new();
        work.push((
            "... + Markdown output (whole pipeline)",
            Box::new(move |p| {
                plain.label_bytes(p, decoding).map_or(0, |lp| {
                    text.clear();
                    let opts = victor_label::MarkdownOptions {
                        doc: Some(lp.processed.decoded.text.as_ref()),
                        ..Default::default()
                    };
                    victor_label::render_markdown(&lp.processed.page, &lp.labels, opts, &mut text);
                    text.len()
                })
            }),
        ));
    }
    if let Some(only) = &args.only {
        work.retain(|(name, _)| name.contains(only.as_str()));
    }
    // Round robin: every repetition runs each stage once, so that a phase of load on a shared
    // machine slows all the stages alike instead of the few that ran through it.
    let mut stages: Vec<Stage> = work
        .iter()
        .map(|(name, _)| Stage {
            name,
            secs: Vec::with_capacity(repeat),
        })
        .collect();
    let mut sink = 0usize;
    for _ in 0..repeat {
        for ((_, f), stage) in work.iter_mut().zip(&mut stages) {
            let t = Instant::now();
            for p in &pages {
                sink = sink.wrapping_add(f(p));
            }
            stage.secs.push(t.elapsed().as_secs_f64());
        }
    }
    let base = stages.first_mut().map_or(f64::NAN, |s| median(&mut s.secs));
    writeln!(
        std::io::stdout(),
        "{:<40} {:>10} {:>10} {:>10} {:>9}",
        "stage",
        "median s",
        "pages/s",
        "MB/s",
        "x base"
    )?;
    for s in &mut stages {
        let m = median(&mut s.secs);
        writeln!(
            std::io::stdout(),
            "{:<40} {:>10.3} {:>10.0} {:>10.1} {:>9.2}",
            s.name,
            m,
            pages.len() as f64 / m,
            bytes as f64 / 1e6 / m,
            m / base
        )?;
    }
    if sink == usize::MAX {
        say!("(unlikely)");
    }
    Ok(ExitCode::SUCCESS)
}

/// Runs lol_html over a document with a no-op text handler and returns the number of text bytes
/// it reported: the benchmark's baseline (the tokenizer victor used before it had its own).
fn lol_html_tokenize_only(html: &str) -> Result<usize, lol_html::errors::RewritingError> {
    let count = std::cell::RefCell::new(0usize);
    let mut rewriter = lol_html::HtmlRewriter::new(
        lol_html::Settings::new()
            .with_strict(false)
            .append_document_content_handler(lol_html::doc_text!(|t| {
                *count.borrow_mut() += t.as_str().len();
                Ok(())
            })),
        |_: &[u8]| {},
    );
    rewriter.write(html.as_bytes())?;
    rewriter.end()?;
    Ok(count.into_inner())
}

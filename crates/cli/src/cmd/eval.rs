//! `victor eval`: a model's block-level and text-level scores on annotated or gold-standard
//! pages, per input and overall ([`victor::eval::evaluate`] computes them and builds the
//! tables; this command prints them and writes the CSV files).

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use victor::eval::{RunInfo, SourceKind};

use super::evaluate::InputArgs;
use crate::util::streams::say;
use crate::util::{model, output, words};

/// Score a model on annotated pages or a gold-standard set.
///
/// Each INPUT is an annotated set (a folder with set.json) or a data set in the manifest
/// format (a folder with manifest.jsonl, pages and gold files; its gold block labels are
/// imported on the fly, as `victor import` would). Prints, per input and overall:
///
/// - block level, as in the Victor paper: text/header/other accuracy, text+header/other
///   accuracy, precision (correct content blocks / blocks labelled content), recall (correct
///   content blocks / blocks annotated content) and F1; content is header or text, and a
///   header labelled text (or the reverse) counts as correct;
///
/// - text level: victor's text output against the gold text (the gold file of a manifest set,
///   markers stripped; the gold-labelled blocks of an annotated set), as multisets of tokens
///   (NFKC, lowercased, letter/digit runs): P = overlap / extracted tokens, R = overlap / gold
///   tokens. Empty gold: R = 1, P = F1 = 1 only for an empty output. Macro (mean over pages,
///   the acceptance scorer's figure), median F1, and micro (summed counts).
///
/// Pages that cannot be labelled are listed and score as empty output at the text level.
#[derive(clap::Args, Debug)]
pub(crate) struct Args {
    #[command(flatten)]
    input: InputArgs,
    /// Importer for manifest sets (default: inferred; blocks/ -> l3s-gn1, gold with `<h>`/`<p>`/`<l>`
    /// markers -> cleaneval, else text).
    #[arg(long = "from", value_enum, value_name = "IMPORTER")]
    from: Option<SourceKind>,
    #[command(flatten)]
    decoding: model::DecodingArgs,
    /// Write the figures per input (and `all`) as CSV (`-`: to standard output, the report then
    /// to standard error).
    #[arg(long, value_name = "FILE")]
    csv: Option<PathBuf>,
    /// Write the figures of every page as CSV (`-`: to standard output).
    #[arg(long, value_name = "FILE")]
    pages_csv: Option<PathBuf>,
    /// List the N pages with the lowest text-level F1.
    #[arg(long, value_name = "N", default_value_t = 0, value_parser = crate::util::values::count)]
    worst: usize,
    /// Also give the text-level figures per value of this manifest field (e.g. `page_type` of
    /// wcxb), with the pages under F1 .5 ("collapsed") per value.
    #[arg(long, value_name = "FIELD")]
    group_by: Option<String>,
}

/// Runs the subcommand.
pub(crate) fn run(args: Args) -> anyhow::Result<ExitCode> {
    let model = model::load(args.input.model.as_deref())?;
    let method = args.input.method.method();
    args.decoding.check_method(method)?;
    // A rule-based method decodes nothing: its own labels are scored, under its name.
    let (decoding, dname) = match method {
        Some(m) => (None, m.name().to_string()),
        None => {
            let d = args.decoding.decoding(&model)?;
            (Some(d), d.to_string())
        }
    };
    // The output files, checked before any work (the report goes to standard error when one
    // of them is `-`).
    let mut out = output::report_for(&[
        (args.csv.as_deref(), "--csv"),
        (args.pages_csv.as_deref(), "--pages-csv"),
    ])?;
    let inputs = args.input.open(args.from)?;
    let group_by = args.group_by.as_deref();
    let (ev, seconds) = args.input.run_pages(
        &inputs,
        &model,
        "evaluate",
        "evaluating",
        |labeling, progress| {
            victor::eval::evaluate(&inputs, labeling, decoding, group_by, progress)
        },
    )?;

    // Which bundle labelled the pages, as lookup resolved it (`web`, or the folder).
    let model_name = model.name().to_string();
    writeln!(
        out,
        "victor eval: model {model_name}, {dname}, split {}",
        args.input.split
    )?;
    write!(out, "{}", ev.report())?;
    if let Some(field) = group_by {
        write!(out, "{}", ev.by_group(field))?;
    }
    if args.worst > 0 {
        write!(out, "{}", ev.worst(args.worst))?;
    }
    for p in ev.problems() {
        say!("victor eval: {} {}:", words::pages(p.count), p.what);
        for line in &p.first {
            say!("  {line}");
        }
    }
    if !args.input.quiet {
        say!(
            "victor eval: {} in {seconds:.2} s ({:.0} pages/s)",
            words::pages(ev.pages()),
            ev.pages() as f64 / seconds.max(1e-9)
        );
    }
    if let Some(path) = &args.csv {
        let run = RunInfo {
            split: &args.input.split,
            model: &model_name,
            decoding: &dname,
        };
        output::write_file_with(path, |buf| Ok(ev.write_csv(buf, &run)?))
            .with_context(|| format!("cannot write {}", path.display()))?;
    }
    if let Some(path) = &args.pages_csv {
        output::write_file_with(path, |buf| Ok(ev.write_pages_csv(buf)?))
            .with_context(|| format!("cannot write {}", path.display()))?;
    }
    // A page that could not be read or labelled is scored as empty output above, so that the
    // figures stay comparable; the run still fails, so that no script takes them for a clean
    // score (a set of unreadable pages once "scored" F1 .015 with exit 0).
    if ev.failed() > 0 {
        return Ok(ExitCode::FAILURE);
    }
    Ok(ExitCode::SUCCESS)
}

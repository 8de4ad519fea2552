//! `victor eval`: a model's block-level and text-level scores on annotated or gold-standard
//! pages, per input and overall.
//!
//! Pages are loaded and labelled in parallel (`evaluate::load`), each page is scored on its
//! own (block counts and token counts, both additive), and the scores are summed up in input
//! order, so the figures do not depend on the number of threads.
//!
//! Block level: the Victor paper's figures (section 5.2) from the confusion matrix of gold and
//! predicted block labels (`victor_eval::BlockCounts`). Text level: victor's text output, as
//! `victor label --format text` writes it, against the gold text, with the acceptance scorer's
//! tokens and rules (`victor_eval::PageScore`); a page that cannot be labelled counts as an
//! empty output, as a missing output file does for the scorer, so the macro F1 of a manifest
//! set is what `checks/score.py` reports for `victor label`'s outputs.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use victor_annotations::Label;
use victor_annotations::{ImportOptions, SourceKind};
use victor_eval::{BlockCounts, PageScore, TextScores};
use victor_label::Decoding;

use super::evaluate::input::{Input, open_all};
use super::evaluate::load::{Worker, empty_output};
use super::evaluate::table::Table;
use super::evaluate::{InputArgs, TEXT_COLUMNS, block_cells, fig, num, text_cells};
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

/// What one page contributes.
#[derive(Debug)]
struct Outcome {
    /// Index of its input.
    input: usize,
    /// Page id.
    id: String,
    /// The value of `--group-by`'s field for this page (`None`: no such field).
    group: Option<String>,
    /// Block counts, when the page was labelled and has gold labels.
    blocks: Option<BlockCounts>,
    /// Text-level counts, when the page has a gold text.
    text: Option<PageScore>,
    /// Why the page could not be labelled.
    failed: Option<String>,
    /// Why the page has no gold block labels.
    no_labels: Option<String>,
}

/// The sums over the pages of one input (or of all).
#[derive(Debug, Default)]
struct Totals {
    pages: usize,
    failed: usize,
    no_labels: usize,
    block_pages: usize,
    blocks: BlockCounts,
    text: TextScores,
}

impl Totals {
    fn add(&mut self, o: &Outcome) {
        self.pages += 1;
        self.failed += usize::from(o.failed.is_some());
        self.no_labels += usize::from(o.failed.is_none() && o.no_labels.is_some());
        if let Some(b) = &o.blocks {
            self.block_pages += 1;
            self.blocks.merge(b);
        }
        if let Some(t) = o.text {
            self.text.push(t);
        }
    }
}

/// Loads, labels and scores one page.
fn score_page(
    worker: &mut Worker<'_>,
    input: &Input,
    input_index: usize,
    page: usize,
    decoding: Option<Decoding>,
) -> Outcome {
    let mut out = Outcome {
        input: input_index,
        id: input.page_id(page).to_string(),
        group: None,
        blocks: None,
        text: None,
        failed: None,
        no_labels: None,
    };
    let loaded = match worker.load(input, page) {
        Ok(l) => l,
        Err(f) => {
            out.id = f.id;
            out.text = f.gold_text.as_ref().map(empty_output);
            out.failed = Some(f.reason);
            return out;
        }
    };
    let mut labels: Vec<Label> = Vec::with_capacity(loaded.probs.len());
    match decoding {
        // A rule-based method labelled the page itself.
        None => labels.extend_from_slice(&loaded.method_labels),
        Some(decoding) => {
            if let Err(e) = worker.labeler.decide_labels(
                &loaded.page,
                &loaded.table,
                &loaded.probs,
                decoding,
                &mut labels,
            ) {
                out.text = loaded.gold_text.as_ref().map(empty_output);
                out.failed = Some(e.to_string());
                return out;
            }
        }
    }
    match &loaded.gold_labels {
        Ok(gold) => {
            let mut counts = BlockCounts::new();
            match counts.add_page(gold, &labels) {
                Ok(()) => out.blocks = Some(counts),
                Err(e) => out.no_labels = Some(e.to_string()),
            }
        }
        Err(reason) => out.no_labels = Some(reason.clone()),
    }
    if let Some(gold) = &loaded.gold_text {
        out.text = Some(worker.text_score(&loaded.page, &labels, gold));
    }
    out
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
    let options = import_options(&args.input);
    let inputs = open_all(&args.input.inputs, args.input.split(), args.from, &options)?;
    let (outcomes, seconds): (Vec<Outcome>, f64) = args.input.map_pages(
        &inputs,
        &model,
        "evaluate",
        "evaluating",
        |w, k, input, i| {
            let mut o = score_page(w, input, k, i, decoding);
            if let Some(field) = &args.group_by {
                o.group = input.page_field(i, field);
            }
            o
        },
    )?;

    let mut per_input: Vec<Totals> = inputs.iter().map(|_| Totals::default()).collect();
    let mut all = Totals::default();
    for o in &outcomes {
        if let Some(t) = per_input.get_mut(o.input) {
            t.add(o);
        }
        all.add(o);
    }

    // Which bundle labelled the pages, as lookup resolved it (`web`, or the folder).
    let model_name = model.name().to_string();
    writeln!(
        out,
        "victor eval: model {model_name}, {dname}, split {}",
        args.input.split
    )?;
    write!(out, "{}", report(&inputs, &per_input, &all))?;
    if let Some(field) = &args.group_by {
        write!(out, "{}", by_group(&inputs, &outcomes, field))?;
    }
    if args.worst > 0 {
        write!(out, "{}", worst(&inputs, &outcomes, args.worst))?;
    }
    report_problems(&inputs, &outcomes);
    if !args.input.quiet {
        say!(
            "victor eval: {} in {seconds:.2} s ({:.0} pages/s)",
            words::pages(outcomes.len()),
            outcomes.len() as f64 / seconds.max(1e-9)
        );
    }
    if let Some(path) = &args.csv {
        let ctx = CsvContext {
            split: &args.input.split,
            model: &model_name,
            decoding: &dname,
        };
        output::write_file_with(path, |buf| write_csv(buf, &ctx, &inputs, &per_input, &all))
            .with_context(|| format!("cannot write {}", path.display()))?;
    }
    if let Some(path) = &args.pages_csv {
        output::write_file_with(path, |buf| write_pages_csv(buf, &inputs, &outcomes))
            .with_context(|| format!("cannot write {}", path.display()))?;
    }
    // A page that could not be read or labelled is scored as empty output above, so that the
    // figures stay comparable; the run still fails, so that no script takes them for a clean
    // score (a set of unreadable pages once "scored" F1 .015 with exit 0).
    if all.failed > 0 {
        return Ok(ExitCode::FAILURE);
    }
    Ok(ExitCode::SUCCESS)
}

/// The import settings from the command line (the importer itself is set per input).
pub(crate) fn import_options(args: &InputArgs) -> ImportOptions {
    let mut o = ImportOptions::new(victor_annotations::SourceKind::Text);
    o.supplemental = args.supplemental;
    o
}

/// Names of the rows: each input, then `all` when there are several.
fn rows<'a>(
    inputs: &'a [Input],
    per_input: &'a [Totals],
    all: &'a Totals,
) -> Vec<(&'a str, Option<&'a Input>, &'a Totals)> {
    let mut v: Vec<(&str, Option<&Input>, &Totals)> = inputs
        .iter()
        .zip(per_input)
        .map(|(i, t)| (i.name.as_str(), Some(i), t))
        .collect();
    if inputs.len() > 1 {
        v.push(("all", None, all));
    }
    v
}

/// The two tables: block level and text level.
fn report(inputs: &[Input], per_input: &[Totals], all: &Totals) -> String {
    let rows = rows(inputs, per_input, all);
    let mut b = Table::new(&[
        "set",
        "pages",
        "blocks",
        "acc T/H/O",
        "acc TH/O",
        "precision",
        "recall",
        "F1",
    ]);
    for (name, _, t) in &rows {
        let m = t.blocks.metrics();
        let mut row = vec![
            name.to_string(),
            t.block_pages.to_string(),
            m.blocks.to_string(),
        ];
        row.extend(block_cells(&m, t.block_pages > 0, fig));
        b.row(row);
    }
    let mut x = text_table("gold");
    for (name, input, t) in &rows {
        x.row(text_row(name, input.map_or("", |i| i.text_gold()), &t.text));
    }
    format!(
        "\nBlock level (content = header or text; header/text confusions count as correct)\n{}\
         \nText level (victor's text output against the gold text; macro = mean over pages)\n{}",
        b.render(),
        x.render()
    )
}

/// The text-level figures per input and value of a manifest field (`--group-by`).
fn by_group(inputs: &[Input], outcomes: &[Outcome], field: &str) -> String {
    let mut groups: std::collections::BTreeMap<(usize, String), TextScores> = Default::default();
    for o in outcomes {
        if let Some(t) = o.text {
            let value = o.group.clone().unwrap_or_else(|| "(none)".to_string());
            groups.entry((o.input, value)).or_default().push(t);
        }
    }
    let mut x = text_table(field);
    for ((input, value), scores) in &groups {
        let name = inputs.get(*input).map_or("", |i| i.name.as_str());
        x.row(text_row(name, value, scores));
    }
    format!("\nText level by {field}\n{}", x.render())
}

/// The text-level table's columns, with `second` (the gold's kind, or a grouping field) after
/// the set's name.
fn text_table(second: &str) -> Table {
    Table::new(&[
        "set",
        second,
        "pages",
        "P",
        "R",
        "F1",
        "median F1",
        "micro P",
        "micro R",
        "micro F1",
        "F1<.5",
    ])
}

/// One row of [`text_table`]: the set, the second column's value and the pages' figures.
fn text_row(set: &str, second: &str, scores: &TextScores) -> Vec<String> {
    let mut row = vec![
        set.to_string(),
        second.to_string(),
        scores.len().to_string(),
    ];
    row.extend(text_cells(scores.summary(), fig));
    row.push(below_half(scores).to_string());
    row
}

/// Pages with text-level F1 below 0.5.
fn below_half(t: &TextScores) -> usize {
    t.pages().iter().filter(|p| p.prf().f1 < 0.5).count()
}

/// The `n` pages with the lowest text-level F1, worst first.
fn worst(inputs: &[Input], outcomes: &[Outcome], n: usize) -> String {
    let mut scored: Vec<(&Outcome, PageScore)> = outcomes
        .iter()
        .filter_map(|o| o.text.map(|t| (o, t)))
        .collect();
    scored.sort_by(|a, b| a.1.prf().f1.total_cmp(&b.1.prf().f1));
    let mut t = Table::new(&[
        "set",
        "page",
        "P",
        "R",
        "F1",
        "tokens out",
        "tokens gold",
        "block F1",
        "note",
    ]);
    for (o, s) in scored.into_iter().take(n) {
        let prf = s.prf();
        let note = match (&o.failed, &o.no_labels) {
            (Some(_), _) => "not labelled",
            (None, Some(_)) => "no gold labels",
            _ => "",
        };
        t.row(vec![
            inputs
                .get(o.input)
                .map_or(String::new(), |i| i.name.clone()),
            o.id.clone(),
            fig(Some(prf.precision)),
            fig(Some(prf.recall)),
            fig(Some(prf.f1)),
            s.extracted.to_string(),
            s.gold.to_string(),
            fig(o.blocks.map(|b| b.f1())),
            note.to_string(),
        ]);
    }
    format!("\nWorst pages by text-level F1\n{}", t.render())
}

/// Lists, on standard error, the pages that could not be labelled or have no gold labels.
fn report_problems(inputs: &[Input], outcomes: &[Outcome]) {
    let name = |o: &Outcome| inputs.get(o.input).map_or("", |i| i.name.as_str());
    // The first 20 pages with a reason, under a line that counts them all.
    let list = |what: &str, reason: &dyn Fn(&Outcome) -> Option<&str>| {
        let pages: Vec<(&Outcome, &str)> = outcomes
            .iter()
            .filter_map(|o| reason(o).map(|r| (o, r)))
            .collect();
        if pages.is_empty() {
            return;
        }
        say!("victor eval: {} {what}:", words::pages(pages.len()));
        for (o, r) in pages.iter().take(20) {
            say!("  {} {}: {r}", name(o), o.id);
        }
    };
    list(
        "could not be labelled (text level: scored as empty output)",
        &|o| o.failed.as_deref(),
    );
    list(
        "have no gold block labels (left out of the block level)",
        &|o| o.no_labels.as_deref().filter(|_| o.failed.is_none()),
    );
}

/// Run-wide values repeated on every CSV row.
struct CsvContext<'a> {
    split: &'a str,
    model: &'a str,
    decoding: &'a str,
}

/// Columns of `--csv` before the text figures ([`TEXT_COLUMNS`]); the last column follows
/// them.
const CSV_COLUMNS: [&str; 17] = [
    "set",
    "source",
    "split",
    "model",
    "decoding",
    "pages",
    "failed",
    "no_gold_labels",
    "block_pages",
    "blocks",
    "accuracy",
    "unlabelled_accuracy",
    "block_precision",
    "block_recall",
    "block_f1",
    "text_gold",
    "text_pages",
];

fn write_csv(
    buf: &mut Vec<u8>,
    ctx: &CsvContext<'_>,
    inputs: &[Input],
    per_input: &[Totals],
    all: &Totals,
) -> anyhow::Result<()> {
    let mut w = csv::Writer::from_writer(buf);
    w.write_record(
        CSV_COLUMNS
            .iter()
            .chain(&TEXT_COLUMNS)
            .chain(&["text_pages_f1_below_0.5"]),
    )?;
    let mut rows: Vec<(&str, Option<&Input>, &Totals)> = inputs
        .iter()
        .zip(per_input)
        .map(|(i, t)| (i.name.as_str(), Some(i), t))
        .collect();
    rows.push(("all", None, all));
    for (name, input, t) in rows {
        let m = t.blocks.metrics();
        let mut record = vec![
            name.to_string(),
            input.map_or_else(String::new, Input::describe),
            ctx.split.to_string(),
            ctx.model.to_string(),
            ctx.decoding.to_string(),
            t.pages.to_string(),
            t.failed.to_string(),
            t.no_labels.to_string(),
            t.block_pages.to_string(),
            m.blocks.to_string(),
        ];
        record.extend(block_cells(&m, t.block_pages > 0, num));
        record.extend([
            input.map_or("", |i| i.text_gold()).to_string(),
            t.text.len().to_string(),
        ]);
        record.extend(text_cells(t.text.summary(), num));
        record.push(below_half(&t.text).to_string());
        w.write_record(&record)?;
    }
    w.flush()?;
    Ok(())
}

/// Columns of `--pages-csv`.
const PAGE_COLUMNS: [&str; 15] = [
    "set",
    "id",
    "status",
    "blocks",
    "accuracy",
    "block_precision",
    "block_recall",
    "block_f1",
    "text_precision",
    "text_recall",
    "text_f1",
    "extracted_tokens",
    "gold_tokens",
    "overlap_tokens",
    "reason",
];

fn write_pages_csv(
    buf: &mut Vec<u8>,
    inputs: &[Input],
    outcomes: &[Outcome],
) -> anyhow::Result<()> {
    let mut w = csv::Writer::from_writer(buf);
    w.write_record(PAGE_COLUMNS)?;
    for o in outcomes {
        let (status, reason) = match (&o.failed, &o.no_labels) {
            (Some(r), _) => ("failed", r.as_str()),
            (None, Some(r)) => ("no_gold_labels", r.as_str()),
            (None, None) => ("ok", ""),
        };
        let prf = o.text.map(|t| t.prf());
        w.write_record([
            inputs
                .get(o.input)
                .map_or(String::new(), |i| i.name.clone()),
            o.id.clone(),
            status.to_string(),
            o.blocks.map_or_else(String::new, |b| b.total().to_string()),
            num(o.blocks.map(|b| b.accuracy())),
            num(o.blocks.map(|b| b.precision())),
            num(o.blocks.map(|b| b.recall())),
            num(o.blocks.map(|b| b.f1())),
            num(prf.map(|p| p.precision)),
            num(prf.map(|p| p.recall)),
            num(prf.map(|p| p.f1)),
            o.text.map_or_else(String::new, |t| t.extracted.to_string()),
            o.text.map_or_else(String::new, |t| t.gold.to_string()),
            o.text.map_or_else(String::new, |t| t.overlap.to_string()),
            reason.to_string(),
        ])?;
    }
    w.flush()?;
    Ok(())
}

//! `victor eval`'s tables and CSV files, from an [`Evaluation`]: the block- and text-level
//! tables per input (and `all`), the text level by a manifest field, the worst pages, the
//! pages with problems, and the figures per input and per page as CSV.

use std::collections::BTreeMap;
use std::io;

use victor_eval::{PageScore, TextScores};

use super::input::Input;
use super::score::{Evaluation, Outcome, Totals};
use super::table::{TEXT_COLUMNS, Table, block_cells, fig, num, text_cells};

/// Run-wide values repeated on every row of [`Evaluation::write_csv`].
#[derive(Clone, Copy, Debug)]
pub struct RunInfo<'a> {
    /// The split evaluated (`all` for every page).
    pub split: &'a str,
    /// The model's name.
    pub model: &'a str,
    /// The decoding, or the rule-based method that labelled.
    pub decoding: &'a str,
}

/// Pages with one kind of problem ([`Evaluation::problems`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problems {
    /// What the problem is and what it does to the figures.
    pub what: &'static str,
    /// How many pages have it.
    pub count: usize,
    /// The first 20 of them, as `SET ID: REASON`.
    pub first: Vec<String>,
}

/// The group of pages without the grouping field.
const NO_VALUE: &str = "(none)";

impl Evaluation<'_> {
    /// The rows of the tables: each input, then `all` when there are several (`all_too`:
    /// always, as in the CSV file).
    fn rows(&self, all_too: bool) -> Vec<(&str, Option<&Input>, &Totals)> {
        let mut v: Vec<(&str, Option<&Input>, &Totals)> = self
            .inputs
            .iter()
            .zip(&self.per_input)
            .map(|(i, t)| (i.name.as_str(), Some(i), t))
            .collect();
        if all_too || self.inputs.len() > 1 {
            v.push(("all", None, &self.all));
        }
        v
    }

    /// The name of an outcome's input.
    fn input_name(&self, o: &Outcome) -> &str {
        self.inputs.get(o.input).map_or("", |i| i.name.as_str())
    }

    /// The two tables, block level and text level, each under a line that says what it
    /// holds (and a blank line before it).
    pub fn report(&self) -> String {
        let rows = self.rows(false);
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

    /// The text-level figures per input and value of the grouping field (`field`, as given to
    /// [`evaluate`](super::evaluate)).
    pub fn by_group(&self, field: &str) -> String {
        let mut groups: BTreeMap<(usize, String), TextScores> = BTreeMap::new();
        for o in &self.outcomes {
            if let Some(t) = o.text {
                let value = o.group.clone().unwrap_or_else(|| NO_VALUE.to_string());
                groups.entry((o.input, value)).or_default().push(t);
            }
        }
        let mut x = text_table(field);
        for ((input, value), scores) in &groups {
            let name = self.inputs.get(*input).map_or("", |i| i.name.as_str());
            x.row(text_row(name, value, scores));
        }
        format!("\nText level by {field}\n{}", x.render())
    }

    /// The `n` pages with the lowest text-level F1, worst first.
    pub fn worst(&self, n: usize) -> String {
        let mut scored: Vec<(&Outcome, PageScore)> = self
            .outcomes
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
                self.input_name(o).to_string(),
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

    /// The pages that could not be labelled, then those without gold labels (each kind only
    /// when some page has it).
    pub fn problems(&self) -> Vec<Problems> {
        let list = |what: &'static str, reason: &dyn Fn(&Outcome) -> Option<&str>| {
            let pages: Vec<String> = self
                .outcomes
                .iter()
                .filter_map(|o| reason(o).map(|r| format!("{} {}: {r}", self.input_name(o), o.id)))
                .collect();
            Problems {
                what,
                count: pages.len(),
                first: pages.into_iter().take(20).collect(),
            }
        };
        [
            list(
                "could not be labelled (text level: scored as empty output)",
                &|o| o.failed.as_deref(),
            ),
            list(
                "have no gold block labels (left out of the block level)",
                &|o| o.no_labels.as_deref().filter(|_| o.failed.is_none()),
            ),
        ]
        .into_iter()
        .filter(|p| p.count > 0)
        .collect()
    }

    /// Writes the figures per input, then `all`, as CSV with a header row.
    ///
    /// # Errors
    ///
    /// A failed write.
    pub fn write_csv(&self, out: impl io::Write, run: &RunInfo<'_>) -> io::Result<()> {
        let mut w = csv::Writer::from_writer(out);
        w.write_record(
            CSV_COLUMNS
                .iter()
                .chain(&TEXT_COLUMNS)
                .chain(&["text_pages_f1_below_0.5"]),
        )?;
        for (name, input, t) in self.rows(true) {
            let m = t.blocks.metrics();
            let mut record = vec![
                name.to_string(),
                input.map_or_else(String::new, Input::describe),
                run.split.to_string(),
                run.model.to_string(),
                run.decoding.to_string(),
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
        w.flush()
    }

    /// Writes the figures of every page as CSV with a header row.
    ///
    /// # Errors
    ///
    /// A failed write.
    pub fn write_pages_csv(&self, out: impl io::Write) -> io::Result<()> {
        let mut w = csv::Writer::from_writer(out);
        w.write_record(PAGE_COLUMNS)?;
        for o in &self.outcomes {
            let (status, reason) = match (&o.failed, &o.no_labels) {
                (Some(r), _) => ("failed", r.as_str()),
                (None, Some(r)) => ("no_gold_labels", r.as_str()),
                (None, None) => ("ok", ""),
            };
            let prf = o.text.map(|t| t.prf());
            w.write_record([
                self.input_name(o).to_string(),
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
        w.flush()
    }
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

/// Columns of [`Evaluation::write_csv`] before the text figures ([`TEXT_COLUMNS`]); the last
/// column follows them.
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

/// Columns of [`Evaluation::write_pages_csv`].
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

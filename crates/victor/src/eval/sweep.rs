//! `victor sweep`'s computation: block- and text-level figures at every other-threshold of a
//! grid, its tables, CSV file and the precision/recall plot of the Victor paper's Figure 2.
//!
//! Each page is loaded and its marginals computed once ([`Worker::load`]); the page is then
//! swept on its own over the whole grid ([`victor_eval::sweep_with_text`]: per threshold only
//! the labels are re-decided, and the text re-rendered only where they changed), so pages run
//! in parallel and nothing but a few counts per threshold stays in memory. The per-page counts
//! are summed up in input order. A page that cannot be labelled counts as an empty output at
//! every threshold, as in [`evaluate`](super::evaluate).

use std::collections::BTreeMap;
use std::io;

use victor_core::Label;
use victor_eval::{
    BlockCounts, Curve, PageScore, PlotError, PlotOptions, SweepPage, SweepRow, TextScores,
    render_svg, sweep_with_text,
};
use victor_label::render_text;

use super::input::Input;
use super::load::{Worker, empty_output};
use super::table::{TEXT_COLUMNS, Table, fig, num, text_cells};
use super::{EvalError, Labeling, map_pages};

/// One page's contribution at every threshold.
#[derive(Debug)]
struct PageSweep {
    /// Block counts per threshold, when the page was labelled and has gold labels.
    blocks: Option<Vec<BlockCounts>>,
    /// Text counts per threshold, when the page has a gold text.
    text: Option<Vec<PageScore>>,
    /// Set and id, with why the page could not be labelled.
    failed: Option<String>,
    /// The value of the grouping field for this page (`None`: not asked, or no such field).
    group: Option<String>,
}

/// The group of pages without the grouping field, as `victor eval` names it.
const NO_VALUE: &str = "(none)";

/// A sweep's figures: a row per threshold overall, and per value of the grouping field
/// ([`sweep`]).
#[derive(Debug)]
pub struct Sweep {
    rows: Vec<SweepRow>,
    /// Each value of the grouping field, its pages and its rows.
    groups: Vec<(String, usize, Vec<SweepRow>)>,
    grouped: bool,
    pages: usize,
    block_pages: usize,
    text_pages: usize,
    failed: Vec<String>,
}

/// Labels every page of `inputs` as `labeling` says and scores it at every threshold of
/// `thresholds` ([`threshold_grid`](super::threshold_grid)); with `group_by`, a manifest field,
/// also sums up the pages of each of its values apart. `progress` hears of every page done.
///
/// # Errors
///
/// [`EvalError`] when the worker threads cannot start; a page that fails is scored as empty
/// output and listed ([`Sweep::failed`]), not an error.
pub fn sweep(
    inputs: &[Input],
    labeling: &Labeling<'_>,
    thresholds: &[f64],
    group_by: Option<&str>,
    progress: &(dyn Fn(usize) + Sync),
) -> Result<Sweep, EvalError> {
    let pages = map_pages(inputs, labeling, progress, |w, _, input, i| {
        let mut p = sweep_page(w, input, i, thresholds);
        if let Some(field) = group_by {
            p.group = Some(
                input
                    .page_field(i, field)
                    .unwrap_or_else(|| NO_VALUE.to_string()),
            );
        }
        p
    })?;
    let groups = match group_by {
        Some(_) => by_group(thresholds, &pages),
        None => Vec::new(),
    };
    Ok(Sweep {
        rows: sum_up(thresholds, &pages),
        groups,
        grouped: group_by.is_some(),
        pages: pages.len(),
        block_pages: pages.iter().filter(|p| p.blocks.is_some()).count(),
        text_pages: pages.iter().filter(|p| p.text.is_some()).count(),
        failed: pages.into_iter().filter_map(|p| p.failed).collect(),
    })
}

/// Loads a page and sweeps it.
fn sweep_page(
    worker: &mut Worker<'_>,
    input: &Input,
    page: usize,
    thresholds: &[f64],
) -> PageSweep {
    let loaded = match worker.load(input, page) {
        Ok(l) => l,
        Err(f) => {
            let text = f
                .gold_text
                .as_ref()
                .map(|g| vec![empty_output(g); thresholds.len()]);
            return PageSweep {
                blocks: None,
                text,
                failed: Some(format!("{} {}: {}", input.name, f.id, f.reason)),
                group: None,
            };
        }
    };
    // Without gold labels the block counts are made against a stand-in and dropped.
    let stand_in;
    let gold: &[Label] = match &loaded.gold_labels {
        Ok(g) => g,
        Err(_) => {
            stand_in = vec![Label::Other; loaded.probs.len()];
            &stand_in
        }
    };
    let pages = [SweepPage {
        marginals: &loaded.probs,
        gold,
    }];
    let rows = match &loaded.gold_text {
        Some(bag) => sweep_with_text(
            &pages,
            std::slice::from_ref(bag),
            thresholds,
            |_, labels, out| render_text(&loaded.page, labels, false, out),
        ),
        None => victor_eval::sweep(&pages, thresholds),
    };
    match rows {
        Ok(rows) => PageSweep {
            blocks: loaded
                .gold_labels
                .is_ok()
                .then(|| rows.iter().map(|r| r.counts).collect()),
            text: loaded.gold_text.as_ref().map(|_| {
                rows.iter()
                    .map(|r| {
                        let page = r
                            .text_pages
                            .as_ref()
                            .and_then(|t| t.pages().first().copied());
                        // sweep_with_text scores the one page given at every threshold.
                        debug_assert!(page.is_some(), "a sweep row without the page's text score");
                        page.unwrap_or_default()
                    })
                    .collect()
            }),
            failed: None,
            group: None,
        },
        Err(e) => PageSweep {
            blocks: None,
            text: loaded
                .gold_text
                .as_ref()
                .map(|g| vec![empty_output(g); thresholds.len()]),
            failed: Some(format!("{} {}: {e}", input.name, loaded.id)),
            group: None,
        },
    }
}

/// The rows of each value of the grouping field, in the values' order, with its page count.
fn by_group(thresholds: &[f64], pages: &[PageSweep]) -> Vec<(String, usize, Vec<SweepRow>)> {
    let mut members: BTreeMap<&str, Vec<&PageSweep>> = BTreeMap::new();
    for p in pages {
        members
            .entry(p.group.as_deref().unwrap_or(NO_VALUE))
            .or_default()
            .push(p);
    }
    members
        .into_iter()
        .map(|(value, ps)| (value.to_string(), ps.len(), sum_up(thresholds, ps)))
        .collect()
}

/// Sums the pages' contributions per threshold, in page order.
fn sum_up<'a>(thresholds: &[f64], pages: impl IntoIterator<Item = &'a PageSweep>) -> Vec<SweepRow> {
    let mut counts = vec![BlockCounts::new(); thresholds.len()];
    let mut texts = vec![TextScores::new(); thresholds.len()];
    for p in pages {
        if let Some(b) = &p.blocks {
            for (c, page) in counts.iter_mut().zip(b) {
                c.merge(page);
            }
        }
        if let Some(t) = &p.text {
            for (s, page) in texts.iter_mut().zip(t) {
                s.push(*page);
            }
        }
    }
    thresholds
        .iter()
        .zip(counts)
        .zip(texts)
        .map(|((&threshold, counts), text)| SweepRow {
            threshold,
            content_blocks: counts.labelled_content(),
            block: counts.metrics(),
            text: text.summary(),
            counts,
            text_pages: Some(text),
        })
        .collect()
}

impl Sweep {
    /// Pages swept (those that could not be labelled included).
    pub fn pages(&self) -> usize {
        self.pages
    }

    /// Pages with gold block labels.
    pub fn block_pages(&self) -> usize {
        self.block_pages
    }

    /// Pages with a gold text.
    pub fn text_pages(&self) -> usize {
        self.text_pages
    }

    /// The pages that could not be labelled, as `SET ID: REASON`, in input order.
    pub fn failed(&self) -> &[String] {
        &self.failed
    }

    /// The rows as a terminal table (after a blank line).
    pub fn table(&self) -> String {
        let blocks = self.block_pages > 0;
        let mut t = Table::new(&[
            "T",
            "content blocks",
            "block P",
            "block R",
            "block F1",
            "accuracy",
            "text P",
            "text R",
            "text F1",
            "median F1",
        ]);
        for r in &self.rows {
            let b = |x: f64| fig(blocks.then_some(x));
            let mut row = vec![
                format!("{}", r.threshold),
                r.content_blocks.to_string(),
                b(r.block.precision),
                b(r.block.recall),
                b(r.block.f1),
                b(r.block.accuracy),
            ];
            // The table shows the macro figures and the median, not the micro ones.
            row.extend(text_cells(r.text, fig).into_iter().take(4));
            t.row(row);
        }
        format!("\n{}", t.render())
    }

    /// The best thresholds by block F1 and by text F1, and the model's recommendation
    /// (`recommended`; `None`: Viterbi decoding).
    pub fn highlights(&self, recommended: Option<f64>) -> String {
        let rows = &self.rows;
        let mut s = String::new();
        if let Some((t, f)) = best(rows, &|r| Some(r.block.f1)) {
            s.push_str(&format!("\nbest block F1 {f:.4} at T = {t}"));
        }
        if let Some((t, f)) = best(rows, &|r| r.text.map(|x| x.macro_avg.f1)) {
            s.push_str(&format!("; best text F1 {f:.4} at T = {t}"));
        }
        s.push_str(&match recommended {
            Some(t) => format!("; the model recommends T = {t}\n"),
            None => "; the model recommends Viterbi decoding (no threshold)\n".to_string(),
        });
        s
    }

    /// Text F1 (macro) by threshold, overall and for each value of the grouping field
    /// (`field`), and the best threshold of each.
    pub fn group_table(&self, field: &str) -> String {
        let (rows, groups) = (&self.rows, &self.groups);
        let mut head = vec!["T".to_string(), format!("all ({})", pages_of(rows))];
        head.extend(groups.iter().map(|(v, n, _)| format!("{v} ({n})")));
        let mut t = Table::new(&head[..]);
        let f1 = |r: &SweepRow| fig(r.text.map(|x| x.macro_avg.f1));
        for (k, r) in rows.iter().enumerate() {
            let mut row = vec![format!("{}", r.threshold), f1(r)];
            row.extend(
                groups
                    .iter()
                    .map(|(_, _, g)| g.get(k).map_or_else(String::new, f1)),
            );
            t.row(row);
        }
        let mut bests = vec![format!("all {}", best_text(rows))];
        bests.extend(
            groups
                .iter()
                .map(|(v, _, g)| format!("{v} {}", best_text(g))),
        );
        format!(
            "\nText F1 by {field} and threshold\n{}\nbest text F1 by {field}: {}\n",
            t.render(),
            bests.join("; ")
        )
    }

    /// Writes the rows as CSV with a header row; when grouped, a `group` column first
    /// (`(all)`, then each value) and every group's rows after the overall ones.
    ///
    /// # Errors
    ///
    /// A failed write.
    pub fn write_csv(&self, out: impl io::Write) -> io::Result<()> {
        let blocks = self.block_pages > 0;
        let b = |x: f64| num(blocks.then_some(x));
        let mut w = csv::Writer::from_writer(out);
        let group_column = self.grouped.then_some(&"group");
        w.write_record(
            group_column
                .into_iter()
                .chain(&CSV_COLUMNS)
                .chain(&TEXT_COLUMNS),
        )?;
        let all = std::iter::once(("(all)", self.rows.as_slice()));
        let each = self
            .groups
            .iter()
            .map(|(v, _, g)| (v.as_str(), g.as_slice()));
        for (value, r) in all
            .chain(each)
            .flat_map(|(v, rs)| rs.iter().map(move |r| (v, r)))
        {
            let mut record: Vec<String> = self
                .grouped
                .then(|| value.to_string())
                .into_iter()
                .collect();
            record.extend([
                r.threshold.to_string(),
                r.content_blocks.to_string(),
                b(r.block.precision),
                b(r.block.recall),
                b(r.block.f1),
                b(r.block.accuracy),
                b(r.block.unlabelled_accuracy),
            ]);
            record.extend(text_cells(r.text, num));
            w.write_record(&record)?;
        }
        w.flush()
    }

    /// The precision/recall curves as an SVG document: blocks (when some page has gold
    /// labels), text, and the text of each group; the degenerate ends T = 0 (every block
    /// other) and T = 1 (nearly every block content) are left out, as nobody's choice whose
    /// points would squash the curves into a corner.
    ///
    /// # Errors
    ///
    /// [`PlotError`] when there is nothing to draw.
    pub fn plot(&self, options: &PlotOptions) -> Result<String, PlotError> {
        let mut curves = Vec::new();
        if self.block_pages > 0 {
            curves.push(Curve::blocks(&inner(&self.rows)));
        }
        curves.extend(Curve::text(&inner(&self.rows)));
        for (value, n, group_rows) in &self.groups {
            if let Some(mut c) = Curve::text(&inner(group_rows)) {
                c.name = format!("text: {value} ({n})");
                curves.push(c);
            }
        }
        render_svg(&curves, options)
    }
}

/// The rows strictly between T = 0 and T = 1 (all of them if none is).
fn inner(rows: &[SweepRow]) -> Vec<SweepRow> {
    let inner: Vec<SweepRow> = rows
        .iter()
        .filter(|r| r.threshold > 0.0 && r.threshold < 1.0)
        .cloned()
        .collect();
    if inner.is_empty() {
        rows.to_vec()
    } else {
        inner
    }
}

/// The threshold and the figure of the row where `key` is highest (the first of equals).
fn best(rows: &[SweepRow], key: &dyn Fn(&SweepRow) -> Option<f64>) -> Option<(f64, f64)> {
    rows.iter()
        .filter_map(|r| key(r).map(|k| (r.threshold, k)))
        .fold(None, |acc: Option<(f64, f64)>, (t, k)| match acc {
            Some((_, bk)) if bk >= k => acc,
            _ => Some((t, k)),
        })
}

/// Pages with text figures in a sweep's rows.
fn pages_of(rows: &[SweepRow]) -> usize {
    rows.first()
        .and_then(|r| r.text_pages.as_ref())
        .map_or(0, |t| t.pages().len())
}

/// "F1 at T = t" for the best text F1 of the rows ("no text" without text figures).
fn best_text(rows: &[SweepRow]) -> String {
    best(rows, &|r| r.text.map(|x| x.macro_avg.f1)).map_or_else(
        || "no text".to_string(),
        |(t, f)| format!("{f:.4} at T = {t}"),
    )
}

/// Columns of [`Sweep::write_csv`] before the text figures ([`TEXT_COLUMNS`]).
const CSV_COLUMNS: [&str; 7] = [
    "threshold",
    "content_blocks",
    "block_precision",
    "block_recall",
    "block_f1",
    "accuracy",
    "unlabelled_accuracy",
];

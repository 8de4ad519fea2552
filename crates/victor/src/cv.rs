//! Cross-validation from a program (the `train` and `eval` features): `victor cv`'s folds
//! ([`cross_validate`], [`threshold_cv`] for its options), their Table 2 rows
//! ([`table_rows`]: the Victor paper's block figures and the text-level F1 of each decoding,
//! per fold), a learning curve's points ([`CurvePoint`], [`curve_changes`]), and their tables
//! as `victor cv` writes them ([`write_table`], [`write_folds`], [`write_curve`], and as CSV).

pub use victor_eval::{BlockCounts, MeanSe, TextScores, gain_per_doubling, paired_difference};
pub use victor_train::{
    Assessment, CurveOrder, CvEvent, CvOptions, FoldResult, cross_validate, merge_folds,
    threshold_cv,
};

use std::io::{self, Write};

use crate::ExpectedOptions;

/// One row of a cross-validation's table: a figure's name and its value in every fold.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    /// The figure (`Viterbi F1`, `T=0.50 Precision`, ...).
    pub name: String,
    /// Its value in each fold, in [0, 1].
    pub values: Vec<f64>,
}

/// The mean of `v` and its sample standard deviation (0 for fewer than 2 values).
pub fn mean_sd(v: &[f64]) -> (f64, f64) {
    let n = v.len().max(1) as f64;
    let m = v.iter().sum::<f64>() / n;
    let var = v.iter().map(|x| (x - m) * (x - m)).sum::<f64>() / (n - 1.0).max(1.0);
    (m, var.sqrt())
}

/// Where threshold `t` stands in the grid `thresholds`.
pub fn grid_index(thresholds: &[f64], t: f64) -> Option<usize> {
    thresholds.iter().position(|x| (x - t).abs() < 1e-9)
}

/// One decoding's block figures (the Victor paper's Table 2: text/header/other accuracy,
/// text+header/other accuracy, precision, recall, and F1) and text-level macro F1, per fold.
fn block_rows(prefix: &str, per_fold: &[BlockCounts], text_f1: &[f64], rows: &mut Vec<Row>) {
    type Figure = fn(&BlockCounts) -> f64;
    let figures: [(&str, Figure); 5] = [
        ("Text/Header/Other Accuracy", BlockCounts::accuracy),
        (
            "Text+Header/Other Accuracy",
            BlockCounts::unlabelled_accuracy,
        ),
        ("Precision", BlockCounts::precision),
        ("Recall", BlockCounts::recall),
        ("F1", BlockCounts::f1),
    ];
    for (name, figure) in figures {
        rows.push(Row {
            name: format!("{prefix} {name}"),
            values: per_fold.iter().map(figure).collect(),
        });
    }
    rows.push(Row {
        name: format!("{prefix} text-level F1 (macro)"),
        values: text_f1.to_vec(),
    });
}

/// The rows of `victor cv`'s table for the folds `results` of the cross-validation `cv`: for
/// Viterbi decoding, the 0.5 threshold, the best threshold of the grid (chosen on these same
/// folds, so optimistic) and expected-F1 decoding, then the text-level F1 of the expected-F1
/// settings `victor train` would record.
pub fn table_rows(results: &[FoldResult], cv: &CvOptions) -> Vec<Row> {
    let all = merge_folds(results, cv);
    let best = all.best_threshold().map(|(t, _)| t).unwrap_or(0.5);
    let idx = |t: f64| grid_index(&cv.thresholds, t).unwrap_or(0);
    let mut rows = Vec::new();
    // One decoding's block counts and text-level macro F1 of every fold, as table rows.
    let mut add = |name: &str, pick: &dyn Fn(&Assessment) -> (BlockCounts, &TextScores)| {
        let (c, f): (Vec<BlockCounts>, Vec<f64>) = results
            .iter()
            .map(|r| {
                let (c, t) = pick(&r.assessment);
                (c, t.macro_avg().map_or(0.0, |p| p.f1))
            })
            .unzip();
        block_rows(name, &c, &f, &mut rows);
    };
    add("Viterbi", &|a| (a.viterbi_blocks, &a.viterbi_text));
    for (name, t) in [("T=0.50", 0.5), (&*format!("T={best:.2} (best)"), best)] {
        let k = idx(t);
        add(name, &|a| (a.blocks[k], &a.text[k]));
    }
    add("expected-F1", &|a| (a.expected_blocks, &a.expected_text));
    // The expected-F1 settings `victor train` would record (text level only: their block counts
    // are not collected).
    if let Some((opts, _)) = all.best_expected() {
        rows.push(Row {
            name: format!(
                "expected-F1 (scale {} shift {} spread {} min {}) text-level F1 (macro)",
                opts.calibration.scale,
                opts.calibration.shift,
                opts.calibration.spread,
                opts.min_words
            ),
            values: results
                .iter()
                .map(|r| {
                    r.assessment
                        .expected_scores(opts)
                        .and_then(|t| t.macro_avg())
                        .map_or(0.0, |p| p.f1)
                })
                .collect(),
        });
    }
    rows
}

/// One share's point of a learning curve: text-level macro F1 of all held-out pages.
#[derive(Clone, Debug)]
pub struct CurvePoint {
    /// The share of each fold's training pages trained on.
    pub share: f64,
    /// Pages trained on, mean over folds.
    pub train_pages: f64,
    /// Their blocks, mean over folds.
    pub train_blocks: f64,
    /// Viterbi decoding's F1.
    pub viterbi: f64,
    /// The 0.5 threshold's.
    pub at_half: f64,
    /// The best threshold of the grid and its F1.
    pub best_threshold: (f64, f64),
    /// The best expected-F1 settings on these pages and their F1.
    pub expected: (ExpectedOptions, f64),
    /// Every held-out page's F1 under those settings, in fold order (the same pages in the
    /// same order for every share).
    pub per_page: Vec<f64>,
}

impl CurvePoint {
    /// The point of the cross-validation `cv` (trained on `share` of each fold's training
    /// pages) whose folds are `results`.
    pub fn new(share: f64, results: &[FoldResult], cv: &CvOptions) -> CurvePoint {
        let all = merge_folds(results, cv);
        let f1 = |t: &TextScores| t.macro_avg().map_or(0.0, |p| p.f1);
        let half = grid_index(&cv.thresholds, 0.5).map_or(0.0, |k| f1(&all.text[k]));
        let expected = all
            .best_expected()
            .unwrap_or((ExpectedOptions::default(), 0.0));
        let per_page = all
            .expected_scores(expected.0)
            .unwrap_or(&all.expected_text)
            .pages()
            .iter()
            .map(|p| p.prf().f1)
            .collect();
        let folds = results.len().max(1) as f64;
        CurvePoint {
            share,
            train_pages: results.iter().map(|r| r.train_pages as f64).sum::<f64>() / folds,
            train_blocks: results.iter().map(|r| r.train_blocks as f64).sum::<f64>() / folds,
            viterbi: f1(&all.viterbi_text),
            at_half: half,
            best_threshold: all.best_threshold().unwrap_or((0.5, 0.0)),
            expected,
            per_page,
        }
    }
}

/// Each point's change from the one before, page by page, with its standard error (`None` for
/// the first).
pub fn curve_changes(points: &[CurvePoint]) -> Vec<Option<MeanSe>> {
    points
        .iter()
        .enumerate()
        .map(|(k, p)| {
            k.checked_sub(1)
                .and_then(|j| paired_difference(&points[j].per_page, &p.per_page))
        })
        .collect()
}

/// The gain of expected-F1 decoding per doubling of the training pages, least squares over the
/// points page by page.
pub fn curve_gain(points: &[CurvePoint]) -> Option<MeanSe> {
    let sizes: Vec<f64> = points.iter().map(|p| p.train_pages).collect();
    let runs: Vec<&[f64]> = points.iter().map(|p| p.per_page.as_slice()).collect();
    gain_per_doubling(&sizes, &runs)
}

/// The title of a cross-validation's table: `10-fold cross-validation by site, CRF + boosted
/// trees`, or for a learning curve (`curve`) the order its pages enter in.
pub fn title(folds: usize, curve: bool, cv: &CvOptions, boost: bool) -> String {
    format!(
        "{folds}-fold {}{}{}",
        if curve {
            match &cv.curve_order {
                CurveOrder::Ranked(_) => "learning curve, pages in uncertainty order".to_string(),
                CurveOrder::Random { seed } => {
                    format!("learning curve, pages drawn with seed {seed}")
                }
            }
        } else {
            "cross-validation".to_string()
        },
        if cv.by_site { " by site" } else { "" },
        if boost { ", CRF + boosted trees" } else { "" },
    )
}

/// Writes the table of `rows` under `heading`: each figure's mean and standard deviation in
/// percent, the first column as wide as its longest entry (the expected-F1 row names its
/// settings).
///
/// # Errors
///
/// The writer's.
pub fn write_table(out: &mut impl Write, heading: &str, rows: &[Row]) -> io::Result<()> {
    let width = rows
        .iter()
        .map(|r| r.name.chars().count())
        .chain([heading.chars().count(), 64])
        .max()
        .unwrap_or(64);
    writeln!(out, "{heading:<width$} {:>8} {:>8}", "mean %", "sd")?;
    for r in rows {
        let (m, sd) = mean_sd(&r.values);
        writeln!(
            out,
            "{:<width$} {:>8.2} {:>8.2}",
            r.name,
            100.0 * m,
            100.0 * sd
        )?;
    }
    Ok(())
}

/// Writes each fold's row (pages trained on, held out and scored, training time, expected-F1
/// text F1), in fold order: they finish in any order, and `DIR/fold-K` of `--keep-models` is
/// fold K here.
///
/// # Errors
///
/// The writer's.
pub fn write_folds(out: &mut impl Write, results: &[FoldResult]) -> io::Result<()> {
    writeln!(
        out,
        "{:>6} {:>13} {:>9} {:>7} {:>9} {:>22}",
        "fold", "pages trained", "held out", "scored", "train s", "expected-F1 text F1 %"
    )?;
    let mut in_order: Vec<&FoldResult> = results.iter().collect();
    in_order.sort_by_key(|r| r.fold);
    for r in in_order {
        writeln!(
            out,
            "{:>6} {:>13} {:>9} {:>7} {:>9.1} {:>22.2}",
            r.fold + 1,
            r.train_pages,
            r.test_ids.len(),
            r.test_pages,
            r.seconds,
            100.0 * r.assessment.expected_text.macro_avg().map_or(0.0, |p| p.f1)
        )?;
    }
    Ok(())
}

/// Writes a learning curve's table under `title` (on `pages` pages): one row per share with
/// its change from the share before, then the gain per doubling.
///
/// # Errors
///
/// The writer's.
pub fn write_curve(
    out: &mut impl Write,
    title: &str,
    pages: usize,
    points: &[CurvePoint],
) -> io::Result<()> {
    writeln!(
        out,
        "{title} ({pages} pages; text-level macro F1 % of the held-out pages, expected-F1 with the settings best on them)",
    )?;
    writeln!(
        out,
        "{:>6} {:>12} {:>12} {:>8} {:>8} {:>14} {:>12} {:>16}",
        "share",
        "train pages",
        "train blocks",
        "Viterbi",
        "T=0.50",
        "best T",
        "expected-F1",
        "change [SE]"
    )?;
    for (p, change) in points.iter().zip(curve_changes(points)) {
        let change = change.map_or(String::new(), |c| {
            format!("{:+.2} [{:.2}]", 100.0 * c.mean, 100.0 * c.se)
        });
        writeln!(
            out,
            "{:>6} {:>12.1} {:>12.0} {:>8.2} {:>8.2} {:>14} {:>12.2} {:>16}",
            p.share,
            p.train_pages,
            p.train_blocks,
            100.0 * p.viterbi,
            100.0 * p.at_half,
            format!(
                "{:.2} @ {:.2}",
                100.0 * p.best_threshold.1,
                p.best_threshold.0
            ),
            100.0 * p.expected.1,
            change
        )?;
    }
    if let Some(g) = curve_gain(points) {
        writeln!(
            out,
            "expected-F1 gains {:+.2} [{:.2}] points per doubling of the training pages (least squares over the shares, page by page)",
            100.0 * g.mean,
            100.0 * g.se
        )?;
    }
    Ok(())
}

/// Writes a cross-validation's table as CSV: each measure's mean, standard deviation and value
/// in each of the `folds` folds.
///
/// # Errors
///
/// The writer's.
pub fn write_table_csv(out: impl Write, rows: &[Row], folds: usize) -> csv::Result<()> {
    let mut w = csv::Writer::from_writer(out);
    let mut header = vec!["measure".to_string(), "mean".into(), "sd".into()];
    header.extend((1..=folds).map(|f| format!("fold{f}")));
    w.write_record(&header)?;
    for r in rows {
        let (m, sd) = mean_sd(&r.values);
        let mut rec = vec![r.name.clone(), format!("{m:.6}"), format!("{sd:.6}")];
        rec.extend(r.values.iter().map(|v| format!("{v:.6}")));
        w.write_record(&rec)?;
    }
    w.flush()?;
    Ok(())
}

/// Writes a learning curve as CSV, one row per share; `order` is the curve's page order.
///
/// # Errors
///
/// The writer's.
pub fn write_curve_csv(
    out: impl Write,
    points: &[CurvePoint],
    order: &CurveOrder,
) -> csv::Result<()> {
    let mut w = csv::Writer::from_writer(out);
    w.write_record([
        "share",
        "train_pages",
        "viterbi_f1",
        "t050_f1",
        "best_threshold",
        "best_threshold_f1",
        "expected_f1",
        "expected_scale",
        "expected_shift",
        "expected_spread",
        "expected_min_words",
        "change",
        "change_se",
        "order",
        "train_blocks",
    ])?;
    let order = match order {
        CurveOrder::Ranked(_) => "uncertain".to_string(),
        CurveOrder::Random { seed } => format!("random:{seed}"),
    };
    for (p, change) in points.iter().zip(curve_changes(points)) {
        let c = p.expected.0.calibration;
        let (d, se) = change.map_or((String::new(), String::new()), |c| {
            (format!("{:.6}", c.mean), format!("{:.6}", c.se))
        });
        w.write_record([
            p.share.to_string(),
            format!("{:.1}", p.train_pages),
            format!("{:.6}", p.viterbi),
            format!("{:.6}", p.at_half),
            format!("{:.2}", p.best_threshold.0),
            format!("{:.6}", p.best_threshold.1),
            format!("{:.6}", p.expected.1),
            c.scale.to_string(),
            c.shift.to_string(),
            c.spread.to_string(),
            p.expected.0.min_words.to_string(),
            d,
            se,
            order.clone(),
            format!("{:.1}", p.train_blocks),
        ])?;
    }
    w.flush()?;
    Ok(())
}

/// What a fold is made of (`victor cv --folds-by`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
pub enum FoldsBy {
    /// Pages, dealt out one by one after a seeded shuffle.
    Page,
    /// Sites: all pages of a site in one fold.
    Site,
}

/// In which order the training pages enter a learning curve (`victor cv --curve-order`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
pub enum CurveOrderKind {
    /// A seeded draw.
    Random,
    /// The ranking model's expected text-level F1 of each page, lowest first.
    Uncertain,
}

/// The plan of a cross-validation's folds in a line (the pages of each fold, and for folds by
/// site the sites and the pages without a known site): `CvEvent::Folds` said.
pub fn describe_folds(sizes: &[usize], by: FoldsBy, sites: usize, without_site: usize) -> String {
    let sizes: Vec<String> = sizes.iter().map(usize::to_string).collect();
    let by = if by == FoldsBy::Site {
        format!(
            "folds by site ({} {}, {} {} without a known site, one group each); ",
            sites,
            if sites == 1 { "site" } else { "sites" },
            without_site,
            if without_site == 1 { "page" } else { "pages" },
        )
    } else {
        String::new()
    };
    format!("{by}pages per fold: {}", sizes.join(" "))
}

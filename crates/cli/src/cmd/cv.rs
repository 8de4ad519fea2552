//! `victor cv`: k-fold cross-validation by page or by site, with the Victor paper's Table 2 figures,
//! or a learning curve over shares of the training pages (`--learning-curve`).

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

use anyhow::Context;
use indicatif::ProgressBar;
use rayon::prelude::*;
use victor::annotations::PageRef;
use victor::cv::{CurveOrder, CurveOrderKind as CurveOrderArg, CurvePoint, CvEvent, CvOptions};
use victor::cv::{FoldResult, FoldsBy};
use victor::cv::{cross_validate, mean_sd, table_rows, threshold_cv};
use victor::train::{Recipe, Replace};

use super::train::{TrainArgs, check_out};
use crate::util::streams::say;
use crate::util::{output, progress, words};

/// Cross-validate training options on annotated pages.
///
/// Splits the pages into folds, trains on all folds but one and labels the held-out fold, for
/// every fold. Prints the Victor paper's Table 2 rows (text/header/other accuracy,
/// text+header/other accuracy, precision, recall; content = text or header, and text labelled
/// header or vice versa counts as correct) plus F1 and text-level F1, as mean ± standard
/// deviation over folds, for Viterbi decoding, the 0.5 threshold, and the best threshold of
/// the grid (chosen on these same folds, so optimistic).
#[derive(clap::Args, Debug)]
pub(crate) struct Args {
    /// Folders of annotated pages.
    #[arg(required = true)]
    annotations: Vec<PathBuf>,
    /// Number of folds.
    #[arg(long, default_value_t = 10, value_parser = crate::util::values::folds)]
    folds: usize,
    /// Seed of the page shuffle.
    #[arg(long, default_value_t = 1, value_parser = crate::util::values::seed)]
    seed: u64,
    /// What a fold is made of: single pages dealt out at random, or whole sites (the host of a
    /// page's recorded URL, else of the URL it declares in <link rel=canonical> or og:url;
    /// pages with neither count as sites of their own). Sites share boilerplate, so page folds
    /// overestimate accuracy on sites the model has never seen when a set holds several pages
    /// per site.
    #[arg(long, value_enum, default_value_t = FoldsBy::Page)]
    folds_by: FoldsBy,
    /// Folds trained at the same time (each holds most of the training data in memory).
    #[arg(long, default_value_t = 2, value_parser = crate::util::values::at_least_one)]
    parallel_folds: usize,
    #[command(flatten)]
    train: TrainArgs,
    /// Leave out annotated pages that cannot be used (a malformed annotation, a page changed
    /// since it was annotated) instead of stopping: they are listed first either way.
    #[arg(long)]
    skip_bad_pages: bool,
    /// Also write the table as CSV (`-`: to standard output, the table then to standard error).
    #[arg(long, value_name = "FILE")]
    csv: Option<PathBuf>,
    /// Keep each fold's model bundle in DIR/fold-K, with the ids of the pages it was not
    /// trained on in DIR/fold-K/held-out.txt: label them again with `victor label --model
    /// DIR/fold-K` to inspect the out-of-fold output or score it with another measure.
    #[arg(long, value_name = "DIR")]
    keep_models: Option<PathBuf>,
    /// With --keep-models, write each fold's bundle into DIR/fold-K even if it holds other files
    /// (only the bundle's own files are replaced, nothing else touched; by default a folder
    /// that is not a bundle or empty is refused).
    #[arg(long, requires = "keep_models")]
    force: bool,
    /// Learning curve: run the cross-validation once for each share of every fold's training
    /// pages (comma-separated, each above 0 and at most 1, e.g. 0.25,0.5,0.75,1), with the same
    /// folds and held-out pages each time (a smaller share's pages are among a larger one's), and
    /// print one row per share instead of the Table 2 rows: pages (and their blocks) trained on, text-level F1 of
    /// the held-out pages under each decoding, the change from the share before with its
    /// standard error over pages, and the gain per doubling of the training pages. It tells
    /// whether annotating more pages is worth it. With --keep-models, the bundles go to
    /// DIR/share-S/fold-K.
    #[arg(long, value_name = "SHARES", value_delimiter = ',', value_parser = parse_share)]
    learning_curve: Vec<f64>,
    /// With --learning-curve: in which order each fold's training pages enter the curve (a
    /// share takes the first pages of the order). `random`: a seeded draw (--curve-seed);
    /// `uncertain`: the pages the ranking model (--model) is least sure of first, by its
    /// expected text-level F1 of each page, the order `victor annotate --order uncertain` offers
    /// pages in. The folds, and so the held-out pages, are the same in either order, so the
    /// curves compare: does annotating in uncertainty order pay?
    #[arg(long, value_enum, default_value_t = CurveOrderArg::Random, requires = "learning_curve")]
    curve_order: CurveOrderArg,
    /// Seed of the random curve order (default: --seed, the draw `victor cv --learning-curve`
    /// made before there was a choice). The folds stay those of --seed.
    #[arg(long, value_name = "N", value_parser = crate::util::values::seed)]
    curve_seed: Option<u64>,
    /// The model that ranks the pages for --curve-order uncertain (a bundle folder or a
    /// built-in name). It should not have been trained on these pages: it would know their
    /// labels.
    #[arg(long, value_name = "M")]
    model: Option<PathBuf>,
    /// No progress display.
    #[arg(long, short)]
    quiet: bool,
}

/// A share of the training pages: a number above 0 and at most 1.
fn parse_share(s: &str) -> Result<f64, String> {
    match s.trim().parse::<f64>() {
        Ok(v) if v > 0.0 && v <= 1.0 => Ok(v),
        Ok(v) => Err(format!(
            "{v} is not a share: give a number above 0 and at most 1"
        )),
        Err(e) => Err(format!("{s:?}: {e}")),
    }
}

/// Runs the subcommand.
pub(crate) fn run(args: Args) -> anyhow::Result<ExitCode> {
    // --csv checked before any work (the table goes to standard error when it is `-`).
    output::report_for(&[(args.csv.as_deref(), "--csv")])?;
    let l = args.train.load(&args.annotations)?;
    let recipe = l.prepared.recipe();
    let (pages, bad) = super::train::usable_pages(l.corpus.pages(), args.skip_bad_pages, "cv")?;
    let pages = pages.as_slice();
    let folds = args.folds.clamp(2, pages.len().max(2));
    say!(
        "victor cv: {}, {folds} folds, {} at a time",
        super::train::pages_and_left_out(pages.len(), bad.len(), "page"),
        args.parallel_folds
    );
    let cv = options(&args, pages, folds)?;
    let curve = !args.learning_curve.is_empty();
    let title = victor::cv::title(folds, curve, &cv, l.prepared.opts.boost.is_some());
    if !args.learning_curve.is_empty() {
        return learning_curve(&args, pages, &recipe, cv, &title);
    }
    let mut out = output::report_for(&[(args.csv.as_deref(), "--csv")])?;
    let started = std::time::Instant::now();
    let bar = progress::bar(folds as u64, "folds", args.quiet);
    let results = run_folds(pages, &recipe, &cv, &bar, Some(args.folds_by))?;
    bar.finish_and_clear();
    let rows = table_rows(&results, &cv);
    let heading = format!("{title} ({} pages)", pages.len());
    victor::cv::write_table(&mut out, &heading, &rows)?;
    let secs: Vec<f64> = results.iter().map(|r| r.seconds).collect();
    writeln!(
        out,
        "training time per fold: {:.1} s mean; wall time {:.1} s",
        mean_sd(&secs).0,
        started.elapsed().as_secs_f64()
    )?;
    victor::cv::write_folds(&mut out, &results)?;
    if let Some(path) = &args.csv {
        output::write_file_with(path, |buf| {
            Ok(victor::cv::write_table_csv(buf, &rows, folds)?)
        })?;
    }
    Ok(ExitCode::SUCCESS)
}

/// The cross-validation's options from the arguments, the fold folders of --keep-models
/// checked before any training.
fn options(args: &Args, pages: &[PageRef], folds: usize) -> anyhow::Result<CvOptions> {
    let mut cv = CvOptions {
        seed: args.seed,
        by_site: args.folds_by == FoldsBy::Site,
        keep_models: args.keep_models.clone(),
        replace: Replace::forced(args.force),
        curve_order: CurveOrder::Random {
            seed: args.curve_seed.unwrap_or(args.seed),
        },
        ..threshold_cv(folds, args.parallel_folds)
    };
    match (args.curve_order, &args.model) {
        (CurveOrderArg::Uncertain, Some(m)) => {
            cv.curve_order = CurveOrder::Ranked(Arc::new(rank_by_uncertainty(pages, m)?));
        }
        (CurveOrderArg::Uncertain, None) => {
            anyhow::bail!("--curve-order uncertain needs --model (the model that ranks the pages)")
        }
        (CurveOrderArg::Random, Some(_)) => {
            anyhow::bail!("--model ranks pages for --curve-order uncertain only")
        }
        (CurveOrderArg::Random, None) => {}
    }
    if let Some(keep) = &args.keep_models {
        output::check_folder(keep, "--keep-models")?;
        // Every folder a fold's bundle will take, checked before any training.
        let parents: Vec<PathBuf> = if args.learning_curve.is_empty() {
            vec![keep.clone()]
        } else {
            shares(args)
                .iter()
                .map(|s| keep.join(format!("share-{s}")))
                .collect()
        };
        for parent in &parents {
            for fold in 1..=folds {
                check_out(&parent.join(format!("fold-{fold}")), cv.replace)?;
            }
        }
    }
    Ok(cv)
}

/// The shares of --learning-curve, in order, each once.
fn shares(args: &Args) -> Vec<f64> {
    let mut shares = args.learning_curve.clone();
    shares.sort_by(f64::total_cmp);
    shares.dedup();
    shares
}

/// Every page's expected text-level F1 under the model at `model` (the score `victor annotate
/// --order uncertain` ranks by), in the order of `pages`; a page the model cannot label scores
/// infinity (last), with a note.
fn rank_by_uncertainty(pages: &[PageRef], model: &std::path::Path) -> anyhow::Result<Vec<f64>> {
    let model = crate::util::model::load(Some(model))
        .with_context(|| format!("--model {}", model.display()))?;
    let cleaner = victor::Cleaner::from_model(model, None);
    let started = std::time::Instant::now();
    let scores: Vec<f64> = pages
        .par_iter()
        .map(|page| {
            let score = page
                .bytes()
                .map_err(|e| e.to_string())
                .and_then(|b| cleaner.expected_f1(&b).map_err(|e| e.to_string()));
            score.unwrap_or_else(|e| {
                say!("victor cv: page {} not ranked (goes last): {e}", page.id);
                f64::INFINITY
            })
        })
        .collect();
    say!(
        "victor cv: {} ranked by the model's expected F1 in {:.1} s",
        words::pages(pages.len()),
        started.elapsed().as_secs_f64()
    );
    Ok(scores)
}

/// One cross-validation over `pages`, its progress on `bar` and its notes on standard error;
/// the fold plan too, made by `fold_plan`, unless that is `None` (a learning curve's later
/// shares, whose folds are the first share's).
fn run_folds(
    pages: &[PageRef],
    recipe: &Recipe<'_>,
    cv: &CvOptions,
    bar: &ProgressBar,
    fold_plan: Option<FoldsBy>,
) -> anyhow::Result<Vec<FoldResult>> {
    // Folds finish in any order (several train at once): the count says how far the run is,
    // the fold's number which one finished.
    let done = std::sync::atomic::AtomicUsize::new(0);
    let results = cross_validate(pages, recipe.setup, &recipe.opts, cv, &|e| match e {
        CvEvent::FoldDone { fold, seconds } => {
            bar.inc(1);
            let done = done.fetch_add(1, std::sync::atomic::Ordering::SeqCst) + 1;
            progress::note(
                bar,
                &format!(
                    "victor cv: {done} of {} folds done (fold {} trained in {seconds:.1} s)",
                    cv.folds,
                    fold + 1
                ),
            );
        }
        CvEvent::Skipped { id, reason } => {
            progress::note(bar, &format!("victor: skipped page {id}: {reason}"))
        }
        CvEvent::Folds {
            sizes,
            sites,
            without_site,
        } => {
            let Some(folds_by) = fold_plan else {
                return;
            };
            let plan = victor::cv::describe_folds(&sizes, folds_by, sites, without_site);
            progress::note(bar, &format!("victor cv: {plan}"));
        }
    })?;
    // Scores need a label on every block: partially labelled pages train the folds but are not
    // scored. With none scored, a table of zeros would pass for a result.
    if results.iter().all(|r| r.test_pages == 0) {
        anyhow::bail!(
            "no held-out page could be scored: cross-validation scores fully labelled pages \
             only, and none of the {} pages is one (partially labelled, or each skipped above); \
             `victor train` still trains on them",
            pages.len()
        );
    }
    Ok(results)
}

/// `victor cv --learning-curve`: one cross-validation per share, the same folds each time.
fn learning_curve(
    args: &Args,
    pages: &[PageRef],
    recipe: &Recipe<'_>,
    mut cv: CvOptions,
    title: &str,
) -> anyhow::Result<ExitCode> {
    let shares = shares(args);
    let mut out = output::report_for(&[(args.csv.as_deref(), "--csv")])?;
    let started = std::time::Instant::now();
    let bar = progress::bar((cv.folds * shares.len()) as u64, "folds", args.quiet);
    let mut points = Vec::with_capacity(shares.len());
    for (k, &share) in shares.iter().enumerate() {
        bar.set_message(format!("share {share}"));
        progress::note(
            &bar,
            &format!("victor cv: share {share} of each fold's training pages"),
        );
        cv.train_share = share;
        cv.keep_models = args
            .keep_models
            .as_ref()
            .map(|d| d.join(format!("share-{share}")));
        let plan = (k == 0).then_some(args.folds_by);
        let results = run_folds(pages, recipe, &cv, &bar, plan)?;
        points.push(CurvePoint::new(share, &results, &cv));
    }
    bar.finish_and_clear();
    victor::cv::write_curve(&mut out, title, pages.len(), &points)?;
    writeln!(out, "wall time {:.1} s", started.elapsed().as_secs_f64())?;
    if let Some(path) = &args.csv {
        output::write_file_with(path, |buf| {
            Ok(victor::cv::write_curve_csv(buf, &points, &cv.curve_order)?)
        })?;
    }
    Ok(ExitCode::SUCCESS)
}

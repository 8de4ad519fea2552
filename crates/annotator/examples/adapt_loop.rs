//! The annotation loop simulated, with gold as the annotator: `victor annotate --model M --adapt`
//! on the pages of an annotated set, one page after the other, each corrected to its gold labels
//! and saved; every `--every` saved pages M is adapted to the pages saved so far
//! ([`victor_annotator::adapt_to_set`], the call the tool makes), and the pages opened after it
//! is ready are pre-labelled by the adapted model. For every page: the effort
//! ([`victor_annotator::effort`], the tool's rules) to correct the fixed model's pre-labels and
//! the loop's; the mean per page at the end.
//!
//! ```text
//! cargo run --release -p victor-annotator --example adapt_loop -- SET MODEL_DIR [options]
//!   --pages K        pages annotated (default: all)
//!   --every N        saved pages between two adaptations (default 5, the tool's)
//!   --lag L          pages opened after an adaptation starts that it is not ready for yet
//!                    (default 1: the page whose opening started it)
//!   --order O        given (by id; the default), uncertain (the current model's expected F1,
//!                    lowest first, ranked again after each adaptation, as the tool does), or
//!                    random:SEED
//!   --prior C        the prior's strength (default victor_train::DEFAULT_PRIOR)
//!   --gate on|off    whether the adapted bundles have a gate (default on)
//!   --held-out H     hold every H-th page by id out of the pool (never annotated); at the end,
//!                    the effort of the fixed model and of the model adapted on all the pages
//!                    annotated, on them: the effort the next pages would cost, which does not
//!                    depend on which pages the order picked
//!   --keep DIR --at 5,10,20
//!                    write to DIR/K the model adapted on the first K pages of the sequence
//!                    (the learning curve: score them with `victor eval`)
//! ```
//!
//! The adaptation's time is measured and printed, and, from `--lag`, assumed shorter than
//! `lag` pages take to check.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

use victor_annotations::{Corpus, Label, SetInfo, SetWriter};
use victor_annotator::{AdaptLoop, adapt_to_set, effort, plan};
use victor_label::{Labeler, Model};

#[derive(Clone, Copy, PartialEq)]
enum Order {
    Given,
    Uncertain,
    Random(u64),
}

struct Args {
    set: PathBuf,
    model: PathBuf,
    pages: Option<usize>,
    every: usize,
    lag: usize,
    order: Order,
    prior: f64,
    gate: bool,
    held_out: Option<usize>,
    keep: Option<PathBuf>,
    at: Vec<usize>,
}

fn args() -> Result<Args, Box<dyn std::error::Error>> {
    let usage = "usage: adapt_loop SET MODEL_DIR [--pages K] [--every N] [--lag L] \
                 [--order given|uncertain|random:SEED] [--prior C] [--gate on|off] [--held-out H] \
                 [--keep DIR --at K,K]";
    let mut it = std::env::args().skip(1);
    let mut a = Args {
        set: it.next().ok_or(usage)?.into(),
        model: it.next().ok_or(usage)?.into(),
        pages: None,
        every: victor_annotator::DEFAULT_ADAPT_EVERY,
        lag: 1,
        order: Order::Given,
        prior: victor_train::DEFAULT_PRIOR,
        gate: true,
        held_out: None,
        keep: None,
        at: Vec::new(),
    };
    while let Some(flag) = it.next() {
        let v = it.next().ok_or(usage)?;
        match flag.as_str() {
            "--pages" => a.pages = Some(v.parse()?),
            "--every" => a.every = v.parse::<usize>()?.max(1),
            "--lag" => a.lag = v.parse::<usize>()?.max(1),
            "--prior" => a.prior = v.parse()?,
            "--gate" => a.gate = v != "off",
            "--held-out" => a.held_out = Some(v.parse::<usize>()?.max(2)),
            "--keep" => a.keep = Some(v.into()),
            "--at" => a.at = v.split(',').map(str::parse).collect::<Result<_, _>>()?,
            "--order" => {
                a.order = match v.as_str() {
                    "given" => Order::Given,
                    "uncertain" => Order::Uncertain,
                    r => Order::Random(
                        r.strip_prefix("random:")
                            .ok_or(usage)?
                            .parse()
                            .map_err(|_| usage)?,
                    ),
                }
            }
            _ => return Err(usage.into()),
        }
    }
    Ok(a)
}

/// One page of the pool: its bytes and gold labels.
struct PoolPage {
    id: String,
    bytes: Vec<u8>,
    gold: Vec<Label>,
}

/// A model's labels of `bytes` and its expected F1, with the labels checked against `gold`'s
/// blocks.
fn prelabel(model: &Model, p: &PoolPage) -> Result<(Vec<Label>, f64), Box<dyn std::error::Error>> {
    let mut l = Labeler::new(model);
    let d = l.default_decoding();
    let labelled = l.label_bytes(&p.bytes, d)?;
    if labelled.labels.len() != p.gold.len() {
        return Err(format!("{}: the model's page has other blocks than the gold", p.id).into());
    }
    let f = victor_label::expected_f1(
        &labelled.processed.page,
        &labelled.probs,
        model.expected_options().calibration,
    );
    Ok((labelled.labels, f))
}

/// splitmix64: a shuffle that does not depend on a crate's version.
fn shuffle<T>(v: &mut [T], seed: u64) {
    let mut s = seed;
    let mut next = || {
        s = s.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = s;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    };
    for i in (1..v.len()).rev() {
        let j = (next() % (i as u64 + 1)) as usize;
        v.swap(i, j);
    }
}

/// The effort of one page: blocks wrong, marks, clicks + keys.
fn cost(labels: &[Label], gold: &[Label]) -> [usize; 3] {
    let e = effort(&plan(labels, gold));
    let wrong = labels.iter().zip(gold).filter(|(a, b)| a != b).count();
    [wrong, e.marks, e.clicks + e.keys]
}

/// What every adaptation of the run shares: the base model, the loop's settings, the pool
/// and the set its pages come from, and a scratch folder for the sets adapted on.
struct Adapter<'a> {
    base: &'a Model,
    lp: &'a AdaptLoop,
    src: &'a SetWriter,
    pool: &'a [PoolPage],
    work: &'a Path,
}

impl Adapter<'_> {
    /// Adapts the base on the pages `seq` (of the pool), copied into a fresh set under the
    /// scratch folder, writing the bundle to `dir`; the model and the seconds it took.
    fn adapt(&self, seq: &[usize], dir: &Path) -> Result<(Model, f64), Box<dyn std::error::Error>> {
        let t0 = Instant::now();
        let set = tempfile::tempdir_in(self.work)?;
        let dst = SetWriter::create(set.path(), &SetInfo::new("annotated", None))?;
        for &i in seq {
            let id = &self.pool[i].id;
            std::fs::copy(self.src.page_path(id), dst.page_path(id))?;
            std::fs::copy(self.src.labels_path(id), dst.labels_path(id))?;
        }
        let adapted = adapt_to_set(self.base, &self.lp.adapt, set.path(), dir)?;
        if !adapted.skipped.is_empty() {
            return Err(format!("pages left out: {:?}", adapted.skipped).into());
        }
        Ok((adapted.model, t0.elapsed().as_secs_f64()))
    }
}

/// The loop's settings for `--prior`, `--gate` and `--every` over the base bundle.
fn adapt_loop(a: &Args, base: &Model) -> Result<AdaptLoop, Box<dyn std::error::Error>> {
    let image = victor_label::BundleImage::read(&a.model)?;
    Ok(AdaptLoop {
        adapt: victor_train::Adapt {
            base: Arc::new(victor_train::Base::new(
                base,
                a.model.display().to_string(),
                image,
            )),
            prior: a.prior,
            trees: victor_train::DEFAULT_TREES,
            leaf_prior: victor_train::DEFAULT_LEAF_PRIOR,
            decoding: victor_train::AdaptDecoding::Base,
            gate: a.gate,
        },
        every: a.every,
    })
}

/// The pages of the annotated set, by id, with the set they are read from.
fn read_pool(set: &Path) -> Result<(SetWriter, Vec<PoolPage>), Box<dyn std::error::Error>> {
    let corpus = Corpus::open([set], None)?;
    let src = SetWriter::open(set)?;
    let mut pool = Vec::new();
    for p in corpus.iter() {
        let p = p?;
        let bytes = std::fs::read(src.page_path(&p.id))?;
        pool.push(PoolPage {
            id: p.id,
            bytes,
            gold: p.labels,
        });
    }
    Ok((src, pool))
}

/// Sorts pages by their score, lowest (the most uncertain) first.
fn rank(remaining: &mut [usize], scores: &[f64]) {
    remaining.sort_by(|&x, &y| scores[x].total_cmp(&scores[y]));
}

/// Effort sums, `[0]` the fixed model's and `[1]` the loop's: over every page, and over the
/// pages opened once an adapted model pre-labelled them.
#[derive(Default)]
struct Totals {
    all: [[usize; 3]; 2],
    after: [[usize; 3]; 2],
    pages_after: usize,
}

impl Totals {
    /// Counts one page: the fixed model's cost, the loop's, and the pages the loop's model
    /// was adapted on (0: none yet).
    fn add(&mut self, fixed: [usize; 3], looped: [usize; 3], seen: usize) {
        for j in 0..3 {
            self.all[0][j] += fixed[j];
            self.all[1][j] += looped[j];
            if seen > 0 {
                self.after[0][j] += fixed[j];
                self.after[1][j] += looped[j];
            }
        }
        if seen > 0 {
            self.pages_after += 1;
        }
    }
}

/// The mean effort per page of the sums `s` over `n` pages.
fn per(s: [usize; 3], n: usize) -> String {
    let n = n.max(1) as f64;
    format!(
        "{:.2} blocks wrong, {:.2} marks, {:.2} clicks+keys",
        s[0] as f64 / n,
        s[1] as f64 / n,
        s[2] as f64 / n
    )
}

/// What the loop did: the pages in the order annotated, the effort sums, and the seconds of
/// each adaptation (with the pages it was adapted on).
struct Run {
    seq: Vec<usize>,
    totals: Totals,
    seconds: Vec<(usize, f64)>,
}

/// Annotates the first `k` pages of `remaining` one after the other (printing a line a page),
/// adapting every `--every` saved pages; `fixed` holds the fixed model's labels and expected
/// F1 of every page of the pool.
fn simulate(
    a: &Args,
    ad: &Adapter,
    fixed: &[(Vec<Label>, f64)],
    mut remaining: Vec<usize>,
    k: usize,
    model_dir: &Path,
) -> Result<Run, Box<dyn std::error::Error>> {
    let pool = ad.pool;
    // The loop: `current` pre-labels; an adaptation started when page `s` opens is ready for
    // page `s + lag`.
    let mut current: Option<(Model, usize)> = None;
    let mut pending: Option<(usize, Model, usize)> = None; // ready at, model, pages seen
    let mut started_at = 0usize;
    let mut run = Run {
        seq: Vec::new(),
        totals: Totals::default(),
        seconds: Vec::new(),
    };
    println!(
        "step\tid\tblocks\tseen\tfixed_wrong\tfixed_marks\tfixed_actions\tloop_wrong\tloop_marks\tloop_actions"
    );
    for step in 0..k {
        // Opening page `step`: the adaptation that is ready comes in first.
        if let Some((ready, _, _)) = &pending
            && *ready <= step
            && let Some((_, m, seen)) = pending.take()
        {
            if a.order == Order::Uncertain {
                let mut scores = vec![f64::INFINITY; pool.len()];
                for &i in &remaining {
                    scores[i] = prelabel(&m, &pool[i])?.1;
                }
                rank(&mut remaining, &scores);
            }
            current = Some((m, seen));
        }
        // `step` pages are saved: start one if enough are new and none runs.
        if pending.is_none() && step >= started_at + a.every {
            let (m, secs) = ad.adapt(&run.seq, model_dir)?;
            run.seconds.push((run.seq.len(), secs));
            started_at = step;
            pending = Some((step + a.lag, m, run.seq.len()));
            // Ready at once for a lag of 0 pages (not offered: --lag is at least 1).
        }
        let i = remaining.remove(0);
        let p = &pool[i];
        let (loop_labels, seen) = match &current {
            Some((m, seen)) => (prelabel(m, p)?.0, *seen),
            None => (fixed[i].0.clone(), 0),
        };
        let cf = cost(&fixed[i].0, &p.gold);
        let cl = cost(&loop_labels, &p.gold);
        println!(
            "{step}\t{}\t{}\t{seen}\t{}\t{}\t{}\t{}\t{}\t{}",
            p.id,
            p.gold.len(),
            cf[0],
            cf[1],
            cf[2],
            cl[0],
            cl[1],
            cl[2]
        );
        run.totals.add(cf, cl, seen);
        run.seq.push(i);
        if let Some(keep) = &a.keep
            && a.at.contains(&run.seq.len())
        {
            let dir = keep.join(run.seq.len().to_string());
            let (_, secs) = ad.adapt(&run.seq, &dir)?;
            eprintln!(
                "kept {} (adapted on {} pages, {secs:.1} s)",
                dir.display(),
                run.seq.len()
            );
        }
    }
    Ok(run)
}

/// Adapts on every page annotated and prints the effort of the fixed model and of that
/// adapted model on the held-out pages.
fn report_held_out(
    ad: &Adapter,
    fixed: &[(Vec<Label>, f64)],
    held: &[usize],
    seq: &[usize],
    model_dir: &Path,
) -> Result<(), Box<dyn std::error::Error>> {
    let (m, secs) = ad.adapt(seq, model_dir)?;
    let mut sums = Totals::default();
    for &i in held {
        let p = &ad.pool[i];
        let cf = cost(&fixed[i].0, &p.gold);
        let cl = cost(&prelabel(&m, p)?.0, &p.gold);
        sums.add(cf, cl, 0);
    }
    println!(
        "# held out ({} pages), fixed:          {}",
        held.len(),
        per(sums.all[0], held.len())
    );
    println!(
        "# held out ({} pages), adapted on {}: {} ({secs:.1} s)",
        held.len(),
        seq.len(),
        per(sums.all[1], held.len())
    );
    Ok(())
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let a = args()?;
    let base = Model::load(&a.model)?;
    let lp = adapt_loop(&a, &base)?;
    let (src, pool) = read_pool(&a.set)?;
    // Pages by id; every H-th held out.
    let held: Vec<usize> = match a.held_out {
        Some(h) => (0..pool.len()).filter(|i| i % h == h - 1).collect(),
        None => Vec::new(),
    };
    let mut remaining: Vec<usize> = (0..pool.len()).filter(|i| !held.contains(i)).collect();
    let k = a.pages.unwrap_or(remaining.len()).min(remaining.len());
    if let Order::Random(seed) = a.order {
        shuffle(&mut remaining, seed);
    }
    let work = tempfile::tempdir()?;
    let model_dir = work.path().join("model");
    let ad = Adapter {
        base: &base,
        lp: &lp,
        src: &src,
        pool: &pool,
        work: work.path(),
    };

    // The fixed model's labels and expected F1 of every page, once.
    let mut fixed = Vec::with_capacity(pool.len());
    for p in &pool {
        fixed.push(prelabel(&base, p)?);
    }
    if a.order == Order::Uncertain {
        let scores: Vec<f64> = fixed.iter().map(|f| f.1).collect();
        rank(&mut remaining, &scores);
    }

    let run = simulate(&a, &ad, &fixed, remaining, k, &model_dir)?;
    let t = &run.totals;
    let after = t.pages_after;
    println!("# pages {k}, every {}, lag {}", a.every, a.lag);
    println!("# per page, fixed model: {}", per(t.all[0], k));
    println!("# per page, the loop:    {}", per(t.all[1], k));
    println!(
        "# per page once adapted ({after} pages), fixed: {}",
        per(t.after[0], after)
    );
    println!(
        "# per page once adapted ({after} pages), loop:  {}",
        per(t.after[1], after)
    );
    if !held.is_empty() {
        report_held_out(&ad, &fixed, &held, &run.seq, &model_dir)?;
    }
    let ids: Vec<&str> = run.seq.iter().map(|&i| pool[i].id.as_str()).collect();
    println!("# order: {}", ids.join(" "));
    for (n, s) in &run.seconds {
        println!("# adapted on {n} pages in {s:.1} s");
    }
    Ok(())
}

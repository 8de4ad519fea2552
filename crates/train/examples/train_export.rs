//! Trains crfs (or, with `--trainer parallel`, victor's parallel L-BFGS trainer) on a
//! CRFsuite-format data file (`victor train --export-crfsuite`) and reports the training time,
//! the iterations and the final loss as one JSON line on standard output.
//!
//! ```text
//! cargo run --release -p victor-train --example train_export -- DATA MODEL \
//!     [--algorithm lbfgs] [--trainer crfs|parallel] [--c1 0] [--c2 1] [--max-iterations 200]
//!     [--min-freq 0]
//! ```
//!
//! The parallel trainer takes CRFsuite's stopping rules: `--max-iterations N` is N steps and
//! the delta test applies (see `victor_train::parallel`); it uses the threads rayon gives it
//! (`RAYON_NUM_THREADS`).
//!
//! Only `train` (feature generation, optimisation, writing the model) is timed, not reading the
//! file. crfs reports its iterations only by printing `Iteration N: loss = ...` lines on
//! standard output, so the program runs itself as a child process with standard output piped:
//! the child reads and trains, the parent reads those lines, counts the iterations and keeps the
//! last loss. Used by `scripts/bench_crfsuite.py`, which runs python-crfsuite on the same file.
//!
//! Iterations are counted as CRFsuite counts them: line-search steps taken. crfs's
//! `max_iterations` counts the starting point as an iteration, so a limit of N takes N - 1 steps.

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Stdio};
use std::time::Instant;

use crfs::Attribute;
use victor_train::{CrfTrainer, Engine, TrainOptions};

/// Set in the child's environment.
const CHILD: &str = "VICTOR_TRAIN_EXPORT_CHILD";
/// Prefix of the child's own result line (the rest is crfs's output).
const RESULT: &str = "train_export:";

struct Cli {
    data: PathBuf,
    model: PathBuf,
    opts: TrainOptions,
}

/// An algorithm or trainer by the lowercase name bundles record it under.
fn named<T: serde::de::DeserializeOwned>(option: &str, v: &str) -> Result<T, String> {
    serde_json::from_value(serde_json::Value::from(v)).map_err(|e| format!("{option} {v}: {e}"))
}

fn usage() -> String {
    "usage: train_export DATA MODEL [--algorithm lbfgs|l2sgd|ap|pa|arow] \
     [--trainer crfs|parallel] [--c1 X] [--c2 X] [--max-iterations N] [--min-freq X]"
        .to_string()
}

fn parse_args() -> Result<Cli, String> {
    let mut pos = Vec::new();
    let mut opts = TrainOptions {
        engine: Engine::Crfs,
        ..TrainOptions::default()
    };
    let mut it = std::env::args().skip(1);
    while let Some(a) = it.next() {
        if !a.starts_with("--") {
            pos.push(PathBuf::from(a));
            continue;
        }
        let v = it
            .next()
            .ok_or_else(|| format!("{a} needs a value\n{}", usage()))?;
        let num = |v: &str| v.parse::<f64>().map_err(|e| format!("{a} {v}: {e}"));
        match a.as_str() {
            "--algorithm" => opts.algorithm = named(&a, &v)?,
            "--trainer" => opts.engine = named(&a, &v)?,
            "--c1" => opts.c1 = num(&v)?,
            "--c2" => opts.c2 = num(&v)?,
            "--min-freq" => opts.min_freq = num(&v)?,
            "--max-iterations" => {
                opts.max_iterations = v.parse().map_err(|e| format!("{a} {v}: {e}"))?
            }
            _ => return Err(format!("unknown option {a}\n{}", usage())),
        }
    }
    let [data, model]: [PathBuf; 2] = pos.try_into().map_err(|_| usage())?;
    Ok(Cli { data, model, opts })
}

/// Undoes CRFsuite's escaping of an attribute name (`\:` -> `:`, `\\` -> `\`).
fn unescape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            if let Some(n) = chars.next() {
                out.push(n);
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// One field `name[:value]`: the value follows the last unescaped colon.
fn attribute(field: &str) -> Result<Attribute, String> {
    let bytes = field.as_bytes();
    let mut colon = None;
    let mut i = 0;
    while i < bytes.len() {
        match bytes.get(i) {
            Some(b'\\') => i += 2,
            Some(b':') => {
                colon = Some(i);
                i += 1;
            }
            _ => i += 1,
        }
    }
    Ok(match colon {
        None => Attribute::new(unescape(field), 1.0),
        Some(c) => {
            let (name, value) = field.split_at(c);
            let value = value.trim_start_matches(':');
            let v = value
                .parse::<f64>()
                .map_err(|e| format!("attribute {field:?}: {e}"))?;
            Attribute::new(unescape(name), v)
        }
    })
}

/// Reads the data file into the trainer, one sequence at a time. Returns (sequences, items).
fn read_into(path: &Path, trainer: &mut CrfTrainer) -> Result<(usize, usize), String> {
    let f = std::fs::File::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut xs: Vec<Vec<Attribute>> = Vec::new();
    let mut ys: Vec<String> = Vec::new();
    let (mut seqs, mut items) = (0, 0);
    let mut flush = |xs: &mut Vec<Vec<Attribute>>, ys: &mut Vec<String>| -> Result<(), String> {
        if xs.is_empty() {
            return Ok(());
        }
        let y: Vec<&str> = ys.iter().map(String::as_str).collect();
        trainer.append(xs, &y).map_err(|e| e.to_string())?;
        seqs += 1;
        items += xs.len();
        xs.clear();
        ys.clear();
        Ok(())
    };
    for line in BufReader::new(f).lines() {
        let line = line.map_err(|e| format!("{}: {e}", path.display()))?;
        if line.is_empty() {
            flush(&mut xs, &mut ys)?;
            continue;
        }
        let mut fields = line.split('\t');
        let label = fields.next().unwrap_or_default();
        ys.push(label.to_string());
        xs.push(fields.map(attribute).collect::<Result<_, _>>()?);
    }
    flush(&mut xs, &mut ys)?;
    Ok((seqs, items))
}

/// CPU seconds (user + system) of this process so far, from /proc/self/stat (Linux only).
fn cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // Fields after the command name (which is in parentheses and may hold spaces).
    let rest = stat.get(stat.rfind(')')? + 1..)?;
    let f: Vec<&str> = rest.split_whitespace().collect();
    // utime and stime are fields 14 and 15 of the line, 12 and 13 after the name.
    let ticks: f64 = f.get(11)?.parse::<f64>().ok()? + f.get(12)?.parse::<f64>().ok()?;
    // The clock tick is 100 Hz on every Linux platform Rust supports.
    Some(ticks / 100.0)
}

/// The child: read, train (timed), print the result line.
fn child(cli: &Cli) -> Result<(), String> {
    let mut opts = cli.opts.clone();
    opts.verbose = true;
    let mut trainer = CrfTrainer::new(&opts).map_err(|e| e.to_string())?;
    let t = Instant::now();
    let (seqs, items) = read_into(&cli.data, &mut trainer)?;
    let read = t.elapsed().as_secs_f64();
    let cpu0 = cpu_seconds();
    let t = Instant::now();
    trainer.train(&cli.model).map_err(|e| e.to_string())?;
    let secs = t.elapsed().as_secs_f64();
    let cpu = match (cpu0, cpu_seconds()) {
        (Some(a), Some(b)) => (b - a).to_string(),
        _ => "null".to_string(),
    };
    let mut out = std::io::stdout().lock();
    writeln!(out, "{RESULT} {seqs} {items} {read} {secs} {cpu}").map_err(|e| e.to_string())?;
    out.flush().map_err(|e| e.to_string())
}

/// The parent: runs the child and turns its output into the JSON summary.
fn parent(cli: &Cli) -> Result<(), String> {
    let exe = std::env::current_exe().map_err(|e| e.to_string())?;
    let mut proc = Command::new(exe)
        .args(std::env::args_os().skip(1))
        .env(CHILD, "1")
        .stdout(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot start the training process: {e}"))?;
    let stdout = proc.stdout.take().ok_or("no child stdout")?;
    let mut last_iter: Option<u64> = None;
    let mut iter_loss = f64::NAN;
    let mut final_loss = f64::NAN;
    let mut features: Option<u64> = None;
    let mut result: Option<Vec<String>> = None;
    for line in BufReader::new(stdout).lines() {
        let line = line.map_err(|e| e.to_string())?;
        let progress = line
            .strip_prefix("Iteration ")
            .or_else(|| line.strip_prefix("Epoch "));
        if let Some(rest) = progress {
            // L-BFGS: "Iteration N: loss = X, ||x|| = ..."; the others: "Epoch N: loss = X ..."
            let (n, tail) = rest.split_once(':').unwrap_or((rest, ""));
            last_iter = n.trim().parse().ok().or(last_iter);
            let loss = tail.split(',').next().and_then(|s| s.split('=').nth(1));
            if let Some(l) = loss.and_then(|l| l.split_whitespace().next()) {
                iter_loss = l.parse().unwrap_or(f64::NAN);
            }
        } else if let Some(n) = line.strip_prefix("Number of features:") {
            features = n.trim().parse().ok();
        } else if let Some(l) = line.strip_prefix("Final loss:") {
            final_loss = l.trim().parse().unwrap_or(f64::NAN);
        } else if let Some(r) = line.strip_prefix(RESULT) {
            result = Some(r.split_whitespace().map(str::to_string).collect());
        } else if !line.trim().is_empty() {
            eprintln!("crfs: {line}");
        }
    }
    let status = proc.wait().map_err(|e| e.to_string())?;
    if !status.success() {
        return Err(format!("training process failed ({status})"));
    }
    let r = result.ok_or("no result from the training process")?;
    let count = |i: usize| r.get(i).and_then(|v| v.parse::<u64>().ok());
    let num = |i: usize| r.get(i).and_then(|v| v.parse::<f64>().ok());
    let loss = if final_loss.is_nan() {
        iter_loss
    } else {
        final_loss
    };
    let json = serde_json::json!({
        "tool": match cli.opts.engine {
            Engine::Crfs => "crfs",
            Engine::Parallel => "parallel",
        },
        "sequences": count(0),
        "items": count(1),
        "read_seconds": num(2),
        "seconds": num(3),
        "cpu_seconds": num(4),
        "features": features,
        // L-BFGS: the last "Iteration k" printed is the number of steps taken (module doc).
        "iterations": last_iter,
        "loss": loss.is_finite().then_some(loss),
        "algorithm": cli.opts.algorithm.as_str(),
        "c1": cli.opts.c1,
        "c2": cli.opts.c2,
        "max_iterations": cli.opts.max_iterations,
        "min_freq": cli.opts.min_freq,
        "model": cli.model.display().to_string(),
    });
    println!("{json}");
    Ok(())
}

fn main() -> ExitCode {
    let cli = match parse_args() {
        Ok(c) => c,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(2);
        }
    };
    let run = if std::env::var_os(CHILD).is_some() {
        child(&cli)
    } else {
        parent(&cli)
    };
    match run {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("train_export: {e}");
            ExitCode::FAILURE
        }
    }
}

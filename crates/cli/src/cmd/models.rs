//! `victor models`: the bundles victor knows, and what one of them is (where it was found, its
//! digest, what it was trained on, how it decodes, and where it came from when it was adapted).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Context;
use victor_label::{BundleMeta, Origin, RecommendedDecoding, TrainingSet};

use crate::util::words;

/// List the model bundles, or describe some (what --model NAME would load).
///
/// Without NAME, the bundles --model NAME finds, place by place in the order it looks:
/// $VICTOR_MODELS/NAME, ./models/NAME, ~/.local/share/victor/models/NAME
/// ($XDG_DATA_HOME/victor/models/NAME), then the bundles built into victor (`default` is
/// `web`, the bundle used without --model). With NAMEs (a name or a folder), each bundle's
/// description: where it was found, its digest (SHA-256 of victor.json and model.crfsuite),
/// the pages it was trained on and those left out, its decoding, its notes, and, for an
/// adapted bundle, its lineage (the bundle it was adapted from, down the chain).
#[derive(clap::Args, Debug)]
pub(crate) struct Args {
    /// Bundles to describe (names or folders).
    names: Vec<PathBuf>,
}

/// Runs the subcommand.
pub(crate) fn run(args: Args) -> anyhow::Result<ExitCode> {
    let mut out = std::io::stdout().lock();
    if args.names.is_empty() {
        list(&mut out)?;
        return Ok(ExitCode::SUCCESS);
    }
    for (k, name) in args.names.iter().enumerate() {
        if k > 0 {
            writeln!(out)?;
        }
        describe(&mut out, name)?;
    }
    Ok(ExitCode::SUCCESS)
}

/// The first sentence of a bundle's notes, as a list shows it.
fn first_sentence(notes: &str) -> &str {
    notes.split(". ").next().unwrap_or("").trim_end_matches('.')
}

/// Every bundle `--model NAME` finds, by place in lookup order; a name an earlier place holds
/// too is marked as hidden by it.
fn list(out: &mut impl Write) -> anyhow::Result<()> {
    writeln!(
        out,
        "The bundles --model NAME finds, where it looks, in order (the first place holding NAME wins):"
    )?;
    // Each name with the place that first holds it.
    let mut seen: Vec<(String, &'static str)> = Vec::new();
    let dirs = victor::models::search_dirs();
    if !dirs.iter().any(|d| d.label == "$VICTOR_MODELS") {
        writeln!(out, "$VICTOR_MODELS: not set")?;
    }
    for place in &dirs {
        let names = victor::models::bundles_in(&place.dir);
        let shown = if place.label == "./models" {
            place.label.to_string()
        } else {
            format!("{} ({})", place.label, place.dir.display())
        };
        if names.is_empty() {
            writeln!(out, "{shown}: none")?;
            continue;
        }
        writeln!(out, "{shown}:")?;
        for name in names {
            let what = match BundleMeta::read(&place.dir.join(&name)) {
                Ok(meta) => first_sentence(&meta.notes).to_string(),
                Err(e) => format!("(does not load: {e})"),
            };
            line(out, &name, &what, &mut seen, place.label)?;
        }
    }
    writeln!(out, "built into victor:")?;
    for name in victor::models::builtin_names() {
        let what = match victor::models::builtin_alias(name) {
            Some(real) => format!("is {real}: the bundle victor uses without --model"),
            None => {
                let files = victor::models::bundle_files(Path::new(name))?;
                let meta = BundleMeta::parse(&files.meta, &files.place)?;
                first_sentence(&meta.notes).to_string()
            }
        };
        line(out, name, &what, &mut seen, "built in")?;
    }
    writeln!(
        out,
        "(victor models NAME describes one; --model and --like also take a bundle folder)"
    )?;
    Ok(())
}

/// One bundle of the list, marked when an earlier place holds its name.
fn line(
    out: &mut impl Write,
    name: &str,
    what: &str,
    seen: &mut Vec<(String, &'static str)>,
    place: &'static str,
) -> std::io::Result<()> {
    match seen.iter().find(|(n, _)| n == name) {
        Some((_, first)) => writeln!(out, "  {name:<8} {what} (hidden by {first}/{name})"),
        None => {
            seen.push((name.to_string(), place));
            writeln!(out, "  {name:<8} {what}")
        }
    }
}

/// A training set as `trained:` shows it: its name, the pages trained on, and those left out
/// with why.
fn training_set(s: &TrainingSet) -> String {
    let what = if s.source.is_empty() {
        &s.path
    } else {
        &s.source
    };
    let mut text = format!("{what} ({}", words::pages(s.pages));
    if !s.left_out.is_empty() {
        let why: Vec<String> = s
            .left_out
            .iter()
            .map(|l| format!("{}: {}", l.id, l.reason))
            .collect();
        text.push_str(&format!(
            "; {} left out: {}",
            words::pages(s.left_out.len()),
            why.join("; ")
        ));
    }
    text.push(')');
    text
}

/// What `victor models NAME` says of one bundle.
fn describe(out: &mut impl Write, name: &Path) -> anyhow::Result<()> {
    let files = victor::models::bundle_files(name)
        .with_context(|| format!("no bundle {}", name.display()))?;
    let meta = BundleMeta::parse(&files.meta, &files.place)?;
    writeln!(out, "{}", name.display())?;
    writeln!(out, "  found:    {}", files.place.display())?;
    writeln!(
        out,
        "  digest:   {}",
        victor_label::bundle_digest(files.meta.as_bytes(), &files.model)
    )?;
    let sets: Vec<String> = meta.data.sets.iter().map(training_set).collect();
    writeln!(
        out,
        "  trained:  {}, {} blocks{}",
        words::pages(meta.data.pages),
        meta.data.blocks,
        if sets.is_empty() {
            String::new()
        } else {
            format!(": {}", sets.join(", "))
        }
    )?;
    match &meta.recommendation {
        Some(r) => writeln!(
            out,
            "  decoding: {} (threshold {}; {})",
            match r.decoding {
                RecommendedDecoding::ExpectedF1 => "expected-f1",
                RecommendedDecoding::Threshold => "threshold",
            },
            r.value,
            r.method
        )?,
        None => writeln!(out, "  decoding: viterbi")?,
    }
    let mut origin: Option<&Origin> = meta.origin.as_ref();
    let mut depth = 0;
    while let Some(o) = origin {
        writeln!(
            out,
            "  {} {} (sha256 {}, trained on {}), prior {}, {} added",
            if depth == 0 {
                "adapted from:"
            } else {
                "  which was adapted from:"
            },
            o.bundle,
            o.digest.get(..12).unwrap_or(&o.digest),
            words::pages(o.base_pages),
            o.prior,
            words::count(o.trees, "tree", "trees")
        )?;
        origin = o.from.as_deref();
        depth += 1;
    }
    if let Some(g) = &meta.gate {
        writeln!(out, "  gate:     {}", g.describe())?;
    }
    if let Some(p) = &meta.pages {
        writeln!(
            out,
            "  profiles: {} (what an adapted bundle's gate is fitted against)",
            p.describe()
        )?;
    }
    if !meta.notes.is_empty() {
        writeln!(out, "  notes:    {}", meta.notes)?;
    }
    Ok(())
}

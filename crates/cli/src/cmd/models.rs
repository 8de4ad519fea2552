//! `victor models`: the bundles victor knows, and what one of them is (where it was found, its
//! digest, what it was trained on, how it decodes, and where it came from when it was adapted).

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use victor_label::{BundleMeta, Origin, RecommendedDecoding};

/// List the model bundles, or describe some (what --model NAME would load).
///
/// Without NAME, one line per built-in bundle. With NAMEs (a name or a folder, looked up as
/// --model looks: $VICTOR_MODELS/NAME, ./models/NAME, ~/.local/share/victor/models/NAME, the
/// built-in bundles), each bundle's description: where it was found, its digest (SHA-256 of
/// victor.json and model.crfsuite), the pages it was trained on, its decoding, its notes, and,
/// for an adapted bundle, its lineage (the bundle it was adapted from, down the chain).
#[derive(clap::Args, Debug)]
pub(crate) struct Args {
    /// Bundles to describe (names or folders).
    names: Vec<PathBuf>,
}

/// Runs the subcommand.
pub(crate) fn run(args: Args) -> anyhow::Result<ExitCode> {
    if args.names.is_empty() {
        for name in victor::models::builtin_names() {
            let files = victor::models::bundle_files(std::path::Path::new(name))?;
            let meta = BundleMeta::parse(&files.meta, &files.place)?;
            let first = meta.notes.split(". ").next().unwrap_or("");
            println!("{name:<8} {}", first.trim_end_matches('.'));
        }
        println!("(victor models NAME describes one; --model takes a name or a bundle folder)");
        return Ok(ExitCode::SUCCESS);
    }
    for (k, name) in args.names.iter().enumerate() {
        let files = victor::models::bundle_files(name)
            .with_context(|| format!("no bundle {}", name.display()))?;
        let meta = BundleMeta::parse(&files.meta, &files.place)?;
        if k > 0 {
            println!();
        }
        println!("{}", name.display());
        println!("  found:    {}", files.place.display());
        println!(
            "  digest:   {}",
            victor_label::bundle_digest(files.meta.as_bytes(), &files.model)
        );
        let sets: Vec<String> = meta
            .data
            .sets
            .iter()
            .map(|s| {
                let what = if s.source.is_empty() {
                    &s.path
                } else {
                    &s.source
                };
                format!("{what} ({} pages)", s.pages)
            })
            .collect();
        println!(
            "  trained:  {} pages, {} blocks{}",
            meta.data.pages,
            meta.data.blocks,
            if sets.is_empty() {
                String::new()
            } else {
                format!(": {}", sets.join(", "))
            }
        );
        match &meta.recommendation {
            Some(r) => println!(
                "  decoding: {} (threshold {}; {})",
                match r.decoding {
                    RecommendedDecoding::ExpectedF1 => "expected-f1",
                    RecommendedDecoding::Threshold => "threshold",
                },
                r.value,
                r.method
            ),
            None => println!("  decoding: viterbi"),
        }
        let mut origin: Option<&Origin> = meta.origin.as_ref();
        let mut depth = 0;
        while let Some(o) = origin {
            println!(
                "  {} {} (sha256 {}, trained on {} pages), prior {}, {} trees added",
                if depth == 0 {
                    "adapted from:"
                } else {
                    "  which was adapted from:"
                },
                o.bundle,
                o.digest.get(..12).unwrap_or(&o.digest),
                o.base_pages,
                o.prior,
                o.trees
            );
            origin = o.from.as_deref();
            depth += 1;
        }
        if let Some(g) = &meta.gate {
            println!("  gate:     {}", g.describe());
        }
        if let Some(p) = &meta.pages {
            println!(
                "  profiles: {} (what an adapted bundle's gate is fitted against)",
                p.describe()
            );
        }
        if !meta.notes.is_empty() {
            println!("  notes:    {}", meta.notes);
        }
    }
    Ok(ExitCode::SUCCESS)
}

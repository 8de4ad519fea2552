//! # victor: clean web pages for corpus building
//!
//! The command-line layer over the victor libraries. Each subcommand lives in its own module
//! under `cmd/`: it parses arguments, walks inputs, shows progress, writes files atomically, and
//! reports failures with the file and the reason; `label` also runs the batch (threads, signals,
//! WARC streams). The work on each page is done by the libraries (`victor` and below it
//! `victor-features`, `victor-label`, `victor-methods`; `victor-annotations`, `victor-train`,
//! `victor-eval` and `victor-annotator` for the other commands), which neither print nor keep
//! global state.

#![forbid(unsafe_code)]
#![deny(unreachable_pub)]

mod cmd;
mod util;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// victor: split web pages into text blocks, label them header/text/other with a CRF, and keep
/// the content. After the Victor paper (Spousta, Marek, Pecina, 2008).
#[derive(Parser, Debug)]
#[command(name = "victor", version, about, long_about = None, propagate_version = true)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Print the blocks of pages with every feature value, raw and discretized.
    Features(cmd::features::Args),
    /// Import a gold standard (l3s-gn1, cleaneval, or plain text) as annotated pages.
    Import(cmd::import::Args),
    /// Label pages in a web browser (a local annotation server).
    Annotate(cmd::annotate::Args),
    /// Work with annotated pages (statistics).
    Annotations(cmd::annotations::Args),
    /// Train a CRF model bundle from annotated pages.
    Train(cmd::train::Args),
    /// Cross-validate training options on annotated pages.
    Cv(cmd::cv::Args),
    /// Label pages with a model and write the cleaned text (or JSON, HTML, CSV).
    Label(cmd::label::Args),
    /// Score a model on annotated pages or a gold-standard set.
    Eval(cmd::eval::Args),
    /// Sweep the other-threshold and plot precision against recall.
    Sweep(cmd::sweep::Args),
    /// Measure the speed of each pipeline stage.
    Bench(cmd::bench::Args),
    /// List the model bundles, or describe one: where it was found, its digest, its training
    /// data, its decoding and, for an adapted bundle, where it came from.
    Models(cmd::models::Args),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Features(a) => cmd::features::run(a),
        Command::Import(a) => cmd::import::run(a),
        Command::Annotate(a) => cmd::annotate::run(a),
        Command::Annotations(a) => cmd::annotations::run(a),
        Command::Train(a) => cmd::train::run(a),
        Command::Cv(a) => cmd::cv::run(a),
        Command::Label(a) => cmd::label::run(a),
        Command::Eval(a) => cmd::eval::run(a),
        Command::Sweep(a) => cmd::sweep::run(a),
        Command::Bench(a) => cmd::bench::run(a),
        Command::Models(a) => cmd::models::run(a),
    };
    match result {
        Ok(code) => code,
        // The reader of standard output has gone: nothing more to say, and no one to say it to.
        Err(e) if util::errors::is_broken_pipe(&e) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("victor: error: {}", util::errors::message(&e));
            ExitCode::FAILURE
        }
    }
}

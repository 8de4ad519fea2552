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

/// The command line as clap reads it: [`Cli`], with every option's value allowed to look like
/// a negative number. `--prior -1` then reaches the option's parser, which says the range it
/// takes (`util::values`); left to clap, `-1` would be taken for an option, with the wrong tip
/// to write `-- -1`.
fn command() -> clap::Command {
    fn negative_values(cmd: clap::Command) -> clap::Command {
        cmd.mut_args(|a| {
            if a.get_action().takes_values() && !a.is_positional() {
                a.allow_negative_numbers(true)
            } else {
                a
            }
        })
        .mut_subcommands(negative_values)
    }
    negative_values(<Cli as clap::CommandFactory>::command())
}

fn main() -> ExitCode {
    let cli = match command()
        .try_get_matches()
        .and_then(|m| <Cli as clap::FromArgMatches>::from_arg_matches(&m))
    {
        Ok(cli) => cli,
        Err(e) => return util::streams::clap_exit(&e),
    };
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
    // One rule for every command: a closed pipe ends the run quietly (util::streams).
    util::streams::finish(result)
}

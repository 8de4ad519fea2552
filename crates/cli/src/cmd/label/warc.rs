//! `victor label` over WARC files: the HTML pages of each file's records, streamed (read on a
//! thread of their own), labelled on the thread pool in chunks (output keeps the records'
//! order), written to standard output or one file per WARC file under `--out`.

use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Context;
use rayon::prelude::*;
use victor::Cleaner;
use victor::format::{Format, Rendering, Stream};
use victor::warc::{Counts, Reader, Record, RecordFailure, html_page};

use super::{Args, Input, describe, thread_pool};
use crate::util::streams::say;
use crate::util::{inputs, interrupt, output};

/// Records labelled together on the pool (bounded, so memory stays flat).
const CHUNK: usize = 256;

/// Bytes of record blocks in one chunk at most: three chunks are in memory at once.
const CHUNK_BYTES: usize = 8 << 20;

/// Whether the inputs are WARC files: `--input warc`, or (with `--input auto`) when every input
/// is a file named *.warc or *.warc.gz, a folder holding such files, or standard input holding
/// a WARC stream (plain or gzipped; sniffed). A mix of WARC files and pages is refused, and so
/// is a folder holding both.
pub(super) fn wanted(args: &Args) -> anyhow::Result<bool> {
    match args.input {
        Input::Warc => Ok(true),
        Input::Html => Ok(false),
        Input::Auto => {
            // The first stream found to hold WARC, for the message refusing a mix.
            let (mut warcs, mut pages) = (0, 0);
            let mut warc_stream: Option<String> = None;
            for p in &args.sources.pages {
                let warc = if inputs::is_stdin(p) {
                    let warc = inputs::stdin_is_warc().context("cannot read standard input")?;
                    if warc {
                        warc_stream.get_or_insert_with(|| "standard input".into());
                    }
                    warc
                } else if inputs::is_stream(p) {
                    // A FIFO or a device named (`<(zcat crawl.warc.gz)`): sniffed as `-` is.
                    let warc = inputs::stream_is_warc(p)
                        .with_context(|| format!("cannot read {}", p.display()))?;
                    if warc {
                        warc_stream.get_or_insert_with(|| p.display().to_string());
                    }
                    warc
                } else if p.is_dir() {
                    match inputs::folder_holds(p) {
                        (true, true) => anyhow::bail!(
                            "{} holds both WARC files and pages: label them separately \
                             (--input warc takes only its WARC files, --input html only its pages)",
                            p.display()
                        ),
                        (warc, _) => warc,
                    }
                } else {
                    inputs::is_warc_name(p)
                };
                if warc {
                    warcs += 1;
                } else {
                    pages += 1;
                }
            }
            if warcs > 0 && (pages > 0 || args.sources.files_from.is_some()) {
                if let Some(stream) = warc_stream {
                    anyhow::bail!(
                        "{stream} holds a WARC stream, the other inputs are pages: \
                         label them separately (--input warc reads streams as WARC)"
                    );
                }
                anyhow::bail!(
                    "WARC files and pages in one run: label them separately (or say --input warc)"
                );
            }
            Ok(warcs > 0)
        }
    }
}

/// Labels every WARC input.
pub(super) fn run(args: &Args, cleaner: &Cleaner, how: &Rendering<'_>) -> anyhow::Result<ExitCode> {
    if args.format == Format::Html {
        anyhow::bail!(
            "--format html is for pages, not WARC files: use jsonl, jsonl-text, text or csv"
        );
    }
    let walk = inputs::collect_warcs(
        &args.sources.pages,
        args.sources.files_from.as_deref(),
        args.out.as_deref(),
    )?;
    walk.report(args.verbose);
    if walk.pages.is_empty() {
        return Err(walk.none_of(
            inputs::Kind::Warcs,
            "label",
            &args.sources.pages,
            args.sources.files_from.as_deref(),
        ));
    }
    let files = walk.pages;
    // Under --out, each WARC file's output: its path relative to the folder it was found in (or
    // its file name) without .warc(.gz), with the format's extension; `-` is `stdin`.
    let mut out_paths = Vec::with_capacity(files.len());
    if let Some(dir) = &args.out {
        output::prepare_dir(dir, "--out")?;
        let mut seen = std::collections::HashMap::<PathBuf, &Path>::new();
        for f in &files {
            let out = f.out_path(dir, args.format.extension());
            if let Some(other) = seen.insert(out.clone(), &f.path) {
                anyhow::bail!(
                    "{} and {} would both write {}: rename one, or label them into separate folders",
                    other.display(),
                    f.path.display(),
                    out.display()
                );
            }
            if let Some(folder) = out.parent() {
                std::fs::create_dir_all(folder)
                    .with_context(|| format!("cannot create {}", folder.display()))?;
            }
            out_paths.push(out);
        }
    }
    let jobs = crate::util::values::threads(args.jobs, usize::MAX);
    let pool = thread_pool(jobs)?;
    let work = Work {
        args,
        cleaner,
        how,
        pool: &pool,
    };
    let stdout = std::io::stdout();
    let stdout_state = Stream::default();
    let mut all_ok = true;
    for (i, input) in files.iter().enumerate() {
        if interrupt::requested() {
            break;
        }
        let file = &input.path;
        let name = file.display().to_string();
        let reader = if inputs::is_stdin(file) {
            inputs::stdin().and_then(Reader::from_read)
        } else if inputs::is_stream(file) {
            inputs::open_stream(file).and_then(Reader::from_read)
        } else {
            Reader::open(file)
        };
        let reader = match reader {
            Ok(r) => r,
            Err(e) => {
                say!("victor: {name}: cannot read: {e}");
                all_ok = false;
                continue;
            }
        };
        let mut counts = Counts::default();
        let r = match out_paths.get(i) {
            Some(path) => {
                // Written by the one writer rule (util::output): a regular file whole into a
                // temporary file beside it, then renamed over `path`, so an interrupted or
                // failed file leaves nothing, neither half an output nor the temporary file; a
                // FIFO or a device as a stream.
                let mut file = output::create(path)?;
                let mut w = BufWriter::new(&mut file);
                let state = Stream::default();
                let r = one_file(reader, &name, work, &mut w, &state, &mut counts);
                let r = r.and_then(|()| {
                    w.flush()
                        .with_context(|| format!("cannot write {}", path.display()))
                });
                drop(w);
                match r {
                    Ok(()) if !interrupt::requested() => file
                        .commit()
                        .with_context(|| format!("cannot write {}", path.display())),
                    other => other,
                }
            }
            None => one_file(
                reader,
                &name,
                work,
                &mut stdout.lock(),
                &stdout_state,
                &mut counts,
            ),
        };
        // A closed pipe ends the run as it ends every command's (util::streams).
        r?;
        if interrupt::requested() {
            let kept = if args.out.is_some() {
                "; its output file is not written"
            } else {
                ""
            };
            say!(
                "victor label: {name}: interrupted after {} pages{kept}",
                counts.pages
            );
            break;
        }
        if !args.quiet {
            say!("victor label: {name}: {counts}");
        }
        all_ok &= counts.all_ok();
    }
    std::io::stdout()
        .flush()
        .context("cannot write to standard output")?;
    if interrupt::requested() {
        return Ok(ExitCode::from(interrupt::EXIT_STATUS));
    }
    Ok(if all_ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

/// What labels the records of every WARC file: the command's options, the cleaner, the decoding
/// job and the thread pool.
#[derive(Clone, Copy)]
struct Work<'a> {
    args: &'a Args,
    cleaner: &'a Cleaner,
    how: &'a Rendering<'a>,
    pool: &'a rayon::ThreadPool,
}

/// Streams one WARC file's records, labels their pages a chunk at a time and writes them in order.
///
/// The file is read (and decompressed) on a thread of its own while the pool labels the chunk
/// before: reading a gzipped file is serial work, and done between chunks it would leave every
/// labelling thread idle meanwhile.
fn one_file(
    reader: Reader<Box<dyn std::io::BufRead + Send>>,
    name: &str,
    work: Work<'_>,
    out: &mut dyn Write,
    state: &Stream,
    counts: &mut Counts,
) -> anyhow::Result<()> {
    // One chunk waits while one is read and one is labelled: memory stays flat.
    let (tx, rx) = std::sync::mpsc::sync_channel::<Vec<Record>>(1);
    std::thread::scope(|s| {
        let reading = s.spawn(move || read_chunks(reader, name, &tx));
        let r = work.label_chunks(rx, name, out, state, counts);
        // The receiver is gone now, so a reader still sending stops.
        let read = reading
            .join()
            .map_err(|_| anyhow::anyhow!("{name}: the WARC reading thread failed"))?;
        *counts += read;
        r
    })
}

/// Reads a WARC file's records and sends its HTML pages in chunks (at most [`CHUNK`] records and
/// [`CHUNK_BYTES`] of blocks); counts and reports the rest. Stops early when nobody receives.
fn read_chunks(
    reader: Reader<Box<dyn std::io::BufRead + Send>>,
    name: &str,
    tx: &std::sync::mpsc::SyncSender<Vec<Record>>,
) -> Counts {
    let mut counts = Counts::default();
    let mut chunk: Vec<Record> = Vec::with_capacity(CHUNK);
    let mut bytes = 0;
    for rec in reader {
        if interrupt::requested() {
            return counts;
        }
        match rec {
            Ok(rec) => match html_page(&rec) {
                Ok(_) => {
                    bytes += rec.block.len();
                    chunk.push(rec);
                    if chunk.len() == CHUNK || bytes >= CHUNK_BYTES {
                        let full = std::mem::replace(&mut chunk, Vec::with_capacity(CHUNK));
                        bytes = 0;
                        if tx.send(full).is_err() {
                            return counts;
                        }
                    }
                }
                Err(why) => counts.skipped(why),
            },
            Err(e) => {
                counts.broken += 1;
                say!("victor: {name}: broken record {e}");
            }
        }
    }
    if !chunk.is_empty() {
        // A send fails only when the labelling side has stopped (an error it reports, or an
        // interruption): nobody is left to label this chunk.
        let _ = tx.send(chunk);
    }
    counts
}

impl Work<'_> {
    /// Labels the chunks as they come, on the pool, and writes them in order.
    fn label_chunks(
        self,
        rx: std::sync::mpsc::Receiver<Vec<Record>>,
        name: &str,
        out: &mut dyn Write,
        state: &Stream,
        counts: &mut Counts,
    ) -> anyhow::Result<()> {
        let Work {
            args,
            cleaner,
            how,
            pool,
        } = self;
        for chunk in rx {
            if interrupt::requested() {
                break;
            }
            let outs: Vec<Result<Vec<u8>, RecordFailure>> = pool.install(|| {
                chunk
                    .par_iter()
                    .map(|rec| {
                        let mut buf = Vec::new();
                        cleaner
                            .render_record(rec, name, how, &mut buf)
                            .map(|()| buf)
                    })
                    .collect()
            });
            for (rec, r) in chunk.iter().zip(outs) {
                match r {
                    Ok(b) => {
                        state.write(out, args.format, &b)?;
                        counts.pages += 1;
                    }
                    Err(failure) => {
                        let (what, reason) = match failure {
                            RecordFailure::Broken(e) => {
                                counts.broken += 1;
                                ("broken record", e.to_string())
                            }
                            RecordFailure::Render(e) => {
                                counts.failed += 1;
                                ("record", describe(&e))
                            }
                            RecordFailure::NotHtml => {
                                counts.failed += 1;
                                ("record", failure.to_string())
                            }
                        };
                        say!(
                            "victor: {name}: {what} at byte {} ({}): {reason}",
                            rec.offset,
                            rec.header("WARC-Target-URI").unwrap_or("no URI")
                        );
                    }
                }
            }
        }
        Ok(())
    }
}

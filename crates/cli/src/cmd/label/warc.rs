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

use super::{Args, describe, thread_pool};
use crate::util::streams::say;
use crate::util::{inputs, interrupt, output};

/// Records labelled together on the pool (bounded, so memory stays flat).
const CHUNK: usize = 256;

/// Bytes of record blocks in one chunk at most: three chunks are in memory at once.
const CHUNK_BYTES: usize = 8 << 20;

/// The WARC files named, with each one's output file under `--out` (its path relative to the
/// folder it was found in, or its file name, without .warc(.gz), with the format's extension;
/// `-` is `stdin`), their folders made.
fn files(args: &Args) -> anyhow::Result<(Vec<inputs::Input>, Vec<PathBuf>)> {
    let sources = &args.sources;
    let files_from = sources.files_from.as_deref();
    let walk = inputs::collect_warcs(&sources.pages, files_from, args.out.as_deref())?;
    walk.report(args.verbose);
    if walk.pages.is_empty() {
        let kind = inputs::Kind::Warcs;
        return Err(walk.none_of(kind, "label", &sources.pages, files_from));
    }
    let Some(dir) = &args.out else {
        return Ok((walk.pages, Vec::new()));
    };
    output::prepare_dir(dir, "--out")?;
    let outs = victor::inputs::out_paths(&walk.pages, dir, args.format.extension())?;
    for folder in outs.iter().filter_map(|o| o.parent()) {
        std::fs::create_dir_all(folder)
            .with_context(|| format!("cannot create {}", folder.display()))?;
    }
    Ok((walk.pages, outs))
}

/// Labels every WARC input.
pub(super) fn run(args: &Args, cleaner: &Cleaner, how: &Rendering<'_>) -> anyhow::Result<ExitCode> {
    if args.format == Format::Html {
        anyhow::bail!(
            "--format html is for pages, not WARC files: use jsonl, jsonl-text, text or csv"
        );
    }
    let (files, out_paths) = files(args)?;
    let pool = thread_pool(crate::util::values::threads(args.jobs, usize::MAX))?;
    let work = Work {
        args,
        cleaner,
        how,
        pool: &pool,
    };
    let stdout_state = Stream::default();
    let mut all_ok = true;
    for (i, input) in files.iter().enumerate() {
        if interrupt::requested() {
            break;
        }
        let name = input.path.display().to_string();
        let reader = match crate::util::inputs::STREAMS.open_warc(&input.path) {
            Ok(r) => r,
            Err(e) => {
                say!("victor: {name}: cannot read: {e}");
                all_ok = false;
                continue;
            }
        };
        let mut counts = Counts::default();
        // A closed pipe ends the run as it ends every command's (util::streams).
        match out_paths.get(i) {
            Some(path) => to_file(path, reader, &name, work, &mut counts)?,
            None => {
                let out = &mut std::io::stdout().lock();
                one_file(reader, &name, work, out, &stdout_state, &mut counts)?;
            }
        }
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

/// Labels one WARC file into its output file `path`, written by the one writer rule
/// (util::output): a regular file whole into a temporary file beside it, then renamed over
/// `path`, so an interrupted or failed file leaves nothing, neither half an output nor the
/// temporary file; a FIFO or a device as a stream.
fn to_file(
    path: &Path,
    reader: Warc,
    name: &str,
    work: Work<'_>,
    counts: &mut Counts,
) -> anyhow::Result<()> {
    let mut file = output::create(path)?;
    let mut w = BufWriter::new(&mut file);
    let r = one_file(reader, name, work, &mut w, &Stream::default(), counts);
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

/// A WARC file's reader.
type Warc = Reader<Box<dyn std::io::BufRead + Send>>;

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
    reader: Warc,
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
fn read_chunks(reader: Warc, name: &str, tx: &std::sync::mpsc::SyncSender<Vec<Record>>) -> Counts {
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

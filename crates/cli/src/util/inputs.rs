//! Finding and reading input pages and WARC files: the facade's [`victor::inputs`] (folders
//! walked, `--files-from` lists, `-` and FIFOs sniffed for WARC, gzip inflated), with what the
//! command line adds: the clap arguments of a command's pages ([`PageArgs`]) and the report of
//! what a walk passed over ([`Walk::report`]).

use std::path::{Path, PathBuf};

pub(crate) use victor::inputs::{Input, Kind, empty_input, is_stdin, is_stream, joined, page_stem};

/// The process's streams: standard input and the FIFOs named as inputs can be read once only,
/// so the bytes read to sniff them for WARC are kept here for whoever reads them next
/// ([`victor::inputs::Streams`]). One for the process, as standard input is one.
pub(crate) static STREAMS: victor::inputs::Streams = victor::inputs::Streams::new();

/// Reads a page's bytes through [`STREAMS`] ([`victor::inputs::Streams::read_page`]).
pub(crate) fn read_page(path: &Path) -> std::io::Result<Vec<u8>> {
    STREAMS.read_page(path)
}

use super::streams::say;

/// The pages (or WARC files) a set of paths holds, and what walking their folders passed over
/// ([`victor::inputs::Walk`]), reported on standard error.
#[derive(Debug, Default)]
pub(crate) struct Walk {
    /// The pages (or WARC files), in order.
    pub pages: Vec<Input>,
    inner: victor::inputs::Walk,
}

impl From<victor::inputs::Walk> for Walk {
    fn from(mut inner: victor::inputs::Walk) -> Walk {
        Walk {
            pages: std::mem::take(&mut inner.pages),
            inner,
        }
    }
}

impl Walk {
    /// Prints what the walks passed over on standard error: one line with a count per reason,
    /// and with `verbose` one more line per path; nothing when nothing was skipped.
    pub(crate) fn report(&self, verbose: bool) {
        if let Some(line) = self.inner.summary() {
            say!("victor: {line}");
        }
        if verbose {
            for (path, why) in &self.inner.skipped {
                say!("victor: skipped {}: {}", path.display(), why.reason());
            }
        }
    }

    /// The error for a run that found none of `kind`: names the arguments, and what was skipped.
    pub(crate) fn none_of(
        &self,
        kind: Kind,
        verb: &str,
        paths: &[PathBuf],
        files_from: Option<&Path>,
    ) -> anyhow::Error {
        self.inner.none_of(kind, verb, paths, files_from).into()
    }
}

/// The pages named ([`victor::inputs::collect_pages`]).
pub(crate) fn collect_pages(
    paths: &[PathBuf],
    files_from: Option<&Path>,
    out: Option<&Path>,
) -> anyhow::Result<Walk> {
    Ok(victor::inputs::collect_pages(paths, files_from, out)?.into())
}

/// The WARC files named ([`victor::inputs::collect_warcs`]).
pub(crate) fn collect_warcs(
    paths: &[PathBuf],
    files_from: Option<&Path>,
    out: Option<&Path>,
) -> anyhow::Result<Walk> {
    Ok(victor::inputs::collect_warcs(paths, files_from, out)?.into())
}

/// The pages a command reads: files, folders and `--files-from`, shared by `label`, `features`
/// and `bench`.
#[derive(clap::Args, Debug)]
pub(crate) struct PageArgs {
    /// Pages (HTML files, gzip-compressed or not) or folders (walked recursively for *.html,
    /// *.htm, ... and the same with .gz); `-` reads one page from standard input, and so does a
    /// FIFO or a device named (`<(zcat page.html.gz)`, /dev/stdin). An empty page is a failure.
    #[arg(required_unless_present = "files_from")]
    pub(crate) pages: Vec<PathBuf>,
    /// Read more page paths from this file, one a line (`-` for standard input).
    #[arg(long, value_name = "LIST")]
    pub(crate) files_from: Option<PathBuf>,
}

impl PageArgs {
    /// The pages named, as [`collect_pages`] finds them (walks never entering the output folder
    /// `out`); none at all is an error that says what was given and skipped (`verb` names the
    /// command's work: "label", "read").
    pub(crate) fn collect(&self, verb: &str, out: Option<&Path>) -> anyhow::Result<Walk> {
        let walk = collect_pages(&self.pages, self.files_from.as_deref(), out)?;
        if walk.pages.is_empty() {
            return Err(walk.none_of(Kind::Pages, verb, &self.pages, self.files_from.as_deref()));
        }
        Ok(walk)
    }
}

//! Walking the inputs named: files as given, folders walked recursively for pages or WARC files
//! (sorted, never into the output folder), `--files-from` lists; what a walk passed over, with
//! why ([`Skip`]); each input's output file under an output folder ([`out_paths`]).

use std::io::BufRead;
use std::path::{Path, PathBuf};

use super::{Kind, PAGE_EXTENSIONS, STDIN, is_stdin, page_stem};

/// A page found by [`collect_pages`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Input {
    /// The path to read (`-` for standard input).
    pub path: PathBuf,
    /// Where its output goes under an output folder, before the format's extension replaces
    /// its own: for a page found by walking a folder, its path relative to that folder
    /// (`site/a/index.html` under `site` is `a/index.html`); else its file name.
    pub rel: PathBuf,
}

impl Input {
    /// The output file for this page under `dir`, with extension `ext`: its relative path
    /// ([`Input::rel`]) with the name's extensions (and `.gz`) replaced ([`page_stem`]).
    pub fn out_path(&self, dir: &Path, ext: &str) -> PathBuf {
        let folder = self.rel.parent().unwrap_or(Path::new(""));
        let mut name = page_stem(&self.rel);
        name.push(".");
        name.push(ext);
        dir.join(folder).join(name)
    }
}

/// Why a walk passed over a path.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Skip {
    /// A regular file whose name is not a page's ([`PAGE_EXTENSIONS`]).
    OtherName,
    /// A regular file not named as a WARC file (looking for WARC files).
    NotWarcName,
    /// A FIFO, socket or device.
    NotRegular,
    /// A symbolic link whose target does not exist.
    DanglingLink,
    /// A symbolic link that leads back to a folder it is in, to itself, or into a loop of links.
    LinkLoop,
    /// A file or folder that cannot be read (permissions, vanished during the walk).
    Unreadable,
}

impl Skip {
    /// How the one-line summary names the reason (after a count).
    fn summary(self) -> String {
        match self {
            Skip::OtherName => format!(
                "not named as a page (*.{}, optionally .gz)",
                PAGE_EXTENSIONS.join(", *.")
            ),
            Skip::NotWarcName => "not named as a WARC file (*.warc, *.warc.gz)".into(),
            Skip::NotRegular => {
                "FIFO, socket or device (name a FIFO itself, or pipe it into `-`, to read it)"
                    .into()
            }
            Skip::DanglingLink => "dangling link".into(),
            Skip::LinkLoop => "link loop".into(),
            Skip::Unreadable => "unreadable".into(),
        }
    }

    /// How `--verbose` names the reason after a path.
    pub fn reason(self) -> &'static str {
        match self {
            Skip::OtherName => "not named as a page",
            Skip::NotWarcName => "not named as a WARC file",
            Skip::NotRegular => {
                "not a regular file (FIFO, socket or device; name a FIFO itself, or pipe it into `-`, to read it)"
            }
            Skip::DanglingLink => "a link to nothing",
            Skip::LinkLoop => "a link that loops (to a folder it is in, or to itself)",
            Skip::Unreadable => "cannot be read",
        }
    }
}

/// The pages a set of paths holds, and what walking their folders passed over.
#[derive(Debug, Default)]
pub struct Walk {
    /// The pages (or WARC files), in order: each argument in turn (a folder's sorted), then the
    /// list's.
    pub pages: Vec<Input>,
    /// What walking the folders passed over, with why.
    pub skipped: Vec<(PathBuf, Skip)>,
}

impl Walk {
    /// The summary line (`skipped 3 entries in folders: 2 not named as a page (...), 1 link
    /// loop (--verbose lists them)`), if anything was skipped.
    pub fn summary(&self) -> Option<String> {
        if self.skipped.is_empty() {
            return None;
        }
        let mut counts = std::collections::BTreeMap::<Skip, usize>::new();
        for (_, why) in &self.skipped {
            *counts.entry(*why).or_default() += 1;
        }
        let parts: Vec<String> = counts
            .iter()
            .map(|(why, n)| format!("{n} {}", why.summary()))
            .collect();
        let n = self.skipped.len();
        Some(format!(
            "skipped {n} {} in folders: {} (--verbose lists them)",
            if n == 1 { "entry" } else { "entries" },
            parts.join(", ")
        ))
    }

    /// The error for a run that found no page: names the arguments, and what was skipped.
    pub fn nothing_found(
        &self,
        verb: &str,
        paths: &[PathBuf],
        files_from: Option<&Path>,
    ) -> InputError {
        self.none_of(Kind::Pages, verb, paths, files_from)
    }

    /// The error for a run that found none of `kind`: names the arguments, and what was skipped.
    pub fn none_of(
        &self,
        kind: Kind,
        verb: &str,
        paths: &[PathBuf],
        files_from: Option<&Path>,
    ) -> InputError {
        let noun = kind.noun();
        let mut named: Vec<String> = paths.iter().map(|p| p.display().to_string()).collect();
        if let Some(list) = files_from {
            named.push(format!("--files-from {}", list.display()));
        }
        let skipped = self
            .summary()
            .map_or_else(String::new, |s| format!("; {s}"));
        InputError::NoneFound(if named.is_empty() {
            format!(
                "no {noun} to {verb}: give files, folders, `-` for standard input, or --files-from"
            )
        } else {
            format!("no {noun} to {verb} in {}{skipped}", named.join(", "))
        })
    }
}

/// Why a walk's error passed over its path.
fn skip_of(e: &walkdir::Error) -> Skip {
    if e.loop_ancestor().is_some() {
        return Skip::LinkLoop;
    }
    if let Some(path) = e.path()
        && std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink())
        && let Err(followed) = std::fs::metadata(path)
    {
        // A link to itself, or links leading to each other, fail with ELOOP: not dangling.
        #[cfg(unix)]
        if followed.raw_os_error() == Some(libc::ELOOP) {
            return Skip::LinkLoop;
        }
        #[cfg(not(unix))]
        let _ = followed;
        return Skip::DanglingLink;
    }
    Skip::Unreadable
}

/// Walks folder `root`: its files of `kind` (sorted) into `pages`, what it passes over into
/// `skipped`; never into the folder `exclude` (the canonical path of the command's output
/// folder), so that a run writing inside its input folder does not read its own, or an earlier
/// run's, outputs.
fn walk_folder(
    root: &Path,
    kind: Kind,
    exclude: Option<&Path>,
    pages: &mut Vec<Input>,
    skipped: &mut Vec<(PathBuf, Skip)>,
) {
    let mut found: Vec<PathBuf> = Vec::new();
    // The folder walked itself is never passed over: `--out` may be the input folder, where
    // outputs then go beside their pages.
    let outside = |e: &walkdir::DirEntry| match exclude {
        Some(out) if e.depth() > 0 && e.file_type().is_dir() => {
            std::fs::canonicalize(e.path()).map_or(true, |p| p != out)
        }
        _ => true,
    };
    for entry in walkdir::WalkDir::new(root)
        .follow_links(true)
        .into_iter()
        .filter_entry(outside)
    {
        let entry = match entry {
            Ok(e) => e,
            Err(e) => {
                let why = skip_of(&e);
                let path = e
                    .path()
                    .map_or_else(|| root.to_path_buf(), Path::to_path_buf);
                skipped.push((path, why));
                continue;
            }
        };
        let t = entry.file_type();
        if t.is_dir() {
            continue;
        }
        if !t.is_file() {
            skipped.push((entry.into_path(), Skip::NotRegular));
        } else if kind.wants(entry.path()) {
            found.push(entry.into_path());
        } else {
            skipped.push((entry.into_path(), kind.other_name()));
        }
    }
    found.sort();
    pages.extend(found.into_iter().map(|f| {
        Input {
            rel: f
                .strip_prefix(root)
                .map_or_else(|_| file_name(&f), Path::to_path_buf),
            path: f,
        }
    }));
}

/// `paths` for a message: comma-separated, as given.
pub fn joined(paths: &[PathBuf]) -> String {
    let named: Vec<String> = paths.iter().map(|p| p.display().to_string()).collect();
    named.join(", ")
}

/// Why the inputs named make no run.
#[derive(Debug, thiserror::Error)]
pub enum InputError {
    /// `-` named twice.
    #[error("`-` (a page from standard input) can be given only once")]
    StdinTwice,
    /// `-` named with a list read from standard input.
    #[error("standard input cannot hold both a page (`-`) and the list of --files-from -")]
    StdinPageAndList,
    /// The list of paths does not open.
    #[error("cannot open list {}", list.display())]
    OpenList {
        /// The list.
        list: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The list of paths cannot be read.
    #[error("cannot read list {}", list.display())]
    ReadList {
        /// The list.
        list: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// Nothing to read (the message names what was given and what was skipped).
    #[error("{0}")]
    NoneFound(String),
    /// A stream named as an input cannot be read to sniff it for WARC.
    #[error("cannot read {what}")]
    Sniff {
        /// `standard input`, or the stream's path.
        what: String,
        /// Why.
        source: std::io::Error,
    },
    /// WARC files and pages in one run (the message says which and what to do).
    #[error("{0}")]
    Mixed(String),
    /// Two inputs whose outputs would be one file.
    #[error(
        "{} and {} would both write {}: rename one, or label them into separate folders",
        first.display(),
        second.display(),
        out.display()
    )]
    SameOutput {
        /// The first input.
        first: PathBuf,
        /// The second.
        second: PathBuf,
        /// The output both would write.
        out: PathBuf,
    },
    /// An output that would replace one of the pages read.
    #[error(
        "the output of {} would replace the page {}: choose another --out folder or --format",
        input.display(),
        page.display()
    )]
    OverInput {
        /// The input whose output it is.
        input: PathBuf,
        /// The page it would replace.
        page: PathBuf,
    },
}

/// Under the output folder `dir`, each input's output file, in the inputs' order: its path
/// relative to the folder it was found in (or its file name) with extension `ext`
/// ([`Input::out_path`]).
///
/// # Errors
///
/// [`InputError::SameOutput`] for two inputs that would write one file.
pub fn out_paths(inputs: &[Input], dir: &Path, ext: &str) -> Result<Vec<PathBuf>, InputError> {
    let mut seen = std::collections::HashMap::<PathBuf, &Path>::new();
    let mut outs = Vec::with_capacity(inputs.len());
    for input in inputs {
        let out = input.out_path(dir, ext);
        if let Some(other) = seen.insert(out.clone(), &input.path) {
            return Err(InputError::SameOutput {
                first: other.to_path_buf(),
                second: input.path.clone(),
                out,
            });
        }
        outs.push(out);
    }
    Ok(outs)
}

/// Refuses outputs (one per input, as [`out_paths`] gives them) of which one would replace one
/// of the pages read (`--format html --out DIR` with DIR the input folder writes `DIR/a.html`
/// over the page `DIR/a.html`): victor never replaces a file it did not write. Only outputs
/// that exist can be inputs.
///
/// # Errors
///
/// [`InputError::OverInput`] for the first such output.
pub fn refuse_outputs_over_inputs(inputs: &[Input], outs: &[PathBuf]) -> Result<(), InputError> {
    let read: std::collections::HashMap<PathBuf, &Path> = inputs
        .iter()
        .filter_map(|i| Some((std::fs::canonicalize(&i.path).ok()?, i.path.as_path())))
        .collect();
    for (input, out) in inputs.iter().zip(outs) {
        let Ok(canonical) = std::fs::canonicalize(out) else {
            continue;
        };
        if let Some(page) = read.get(&canonical) {
            return Err(InputError::OverInput {
                input: input.path.clone(),
                page: page.to_path_buf(),
            });
        }
    }
    Ok(())
}

/// Expands files and folders (recursively, pages by name, sorted) and an optional list file
/// (`-` for standard input, one path a line) into the pages, with where each page's output goes
/// under an output folder ([`Input::rel`]) and what the walks skipped (unprinted: see
/// [`Walk::summary`]). A page path `-` (one page read from standard input) may appear once, and
/// not with `--files-from -`. A folder's walk never enters `out`, the command's output folder
/// (where it exists): a page named in it directly, or listed, is still read.
pub fn collect_pages(
    paths: &[PathBuf],
    files_from: Option<&Path>,
    out: Option<&Path>,
) -> Result<Walk, InputError> {
    collect(paths, files_from, Kind::Pages, out)
}

/// The WARC files named: files as given, folders walked for `*.warc` and `*.warc.gz` (sorted),
/// and `--files-from`'s paths, as [`collect_pages`] finds pages (`-` is a WARC stream on
/// standard input); walks never enter `out`.
pub fn collect_warcs(
    paths: &[PathBuf],
    files_from: Option<&Path>,
    out: Option<&Path>,
) -> Result<Walk, InputError> {
    collect(paths, files_from, Kind::Warcs, out)
}

/// [`collect_pages`] and [`collect_warcs`].
fn collect(
    paths: &[PathBuf],
    files_from: Option<&Path>,
    kind: Kind,
    out: Option<&Path>,
) -> Result<Walk, InputError> {
    let stdin_pages = paths.iter().filter(|p| is_stdin(p)).count();
    if stdin_pages > 1 {
        return Err(InputError::StdinTwice);
    }
    if stdin_pages == 1 && files_from.is_some_and(is_stdin) {
        return Err(InputError::StdinPageAndList);
    }
    // An output folder that does not exist yet holds nothing to pass over.
    let exclude = out.and_then(|o| std::fs::canonicalize(o).ok());
    let mut walk = Walk::default();
    for p in paths {
        if p.is_dir() {
            let before = walk.skipped.len();
            walk_folder(
                p,
                kind,
                exclude.as_deref(),
                &mut walk.pages,
                &mut walk.skipped,
            );
            walk.skipped[before..].sort();
        } else {
            walk.pages.push(Input {
                path: p.clone(),
                rel: file_name(p),
            });
        }
    }
    if let Some(list) = files_from {
        let reader: Box<dyn BufRead> = if is_stdin(list) {
            Box::new(std::io::stdin().lock())
        } else {
            let file = std::fs::File::open(list).map_err(|source| InputError::OpenList {
                list: list.to_path_buf(),
                source,
            })?;
            Box::new(std::io::BufReader::new(file))
        };
        let paths = read_list(reader).map_err(|source| InputError::ReadList {
            list: list.to_path_buf(),
            source,
        })?;
        walk.pages.extend(paths.into_iter().map(|path| Input {
            rel: file_name(&path),
            path,
        }));
    }
    Ok(walk)
}

/// The paths of a `--files-from` list, the one reader of such lists (`victor label`,
/// `features`, `bench`, `annotate`): one path a line, white space (a `\r` of CRLF line ends included) cut
/// from both ends of each line, blank lines skipped. Nothing else is special: a path that starts
/// with `#` is a path.
pub(super) fn read_list(reader: impl BufRead) -> std::io::Result<Vec<PathBuf>> {
    let mut out = Vec::new();
    for line in reader.lines() {
        let line = line?;
        let t = line.trim();
        if !t.is_empty() {
            out.push(PathBuf::from(t));
        }
    }
    Ok(out)
}

/// A path's file name as a relative path (`-` stays `-`; a path without a name, `page`).
fn file_name(path: &Path) -> PathBuf {
    if is_stdin(path) {
        return PathBuf::from(STDIN);
    }
    path.file_name()
        .map_or_else(|| PathBuf::from("page"), PathBuf::from)
}

//! Finding input pages: files, folders walked recursively, lists of paths (`--files-from`), and
//! `-` for one page read from standard input; and reading them, gzip-compressed or not. WARC
//! files are found the same way ([`collect_warcs`]), and standard input is sniffed for a WARC
//! stream ([`Streams::stdin_is_warc`]). A FIFO or a character device named as an input
//! (`<(zcat page.html.gz)`, `/dev/stdin`) is read as a stream, as `-` is, and sniffed for a WARC
//! stream the same way ([`Streams::stream_is_warc`]); FIFOs met while walking a folder are passed over.
//!
//! Crawls often store pages compressed (`page.html.gz`), so a page whose bytes start with the
//! gzip magic number is decompressed before it reaches the library, which takes the HTML bytes
//! only ([`crate::file`], shared with the importer, `eval` and the tests).
//!
//! A library for the programs that read pages from the command line's kind of inputs: it says
//! nothing itself. What a walk passed over comes back in the [`Walk`] for the caller to report
//! ([`Walk::summary`], [`Skip::reason`]); a run that found nothing is an [`InputError`] whose
//! message names what was given. Standard input and a FIFO can be read once only, so the bytes
//! read to sniff them are kept in a [`Streams`] the caller owns (one for its process, as
//! standard input is one) and given back first to whoever reads them next: the library keeps
//! no state of its own.

use std::ffi::{OsStr, OsString};
use std::io::{BufRead, Read};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use crate::file;

mod walk;

pub use walk::{
    Input, InputError, Skip, Walk, collect_pages, collect_warcs, joined, out_paths,
    refuse_outputs_over_inputs,
};

/// File name extensions taken when walking a folder (also with `.gz` after them, and with a
/// crawler's saved query string after them: `m.html?x=1`). The server-script names (`php`,
/// `asp`, `aspx`, `jsp`) are how crawlers save dynamic pages.
pub const PAGE_EXTENSIONS: &[&str] = &[
    "html", "htm", "xhtml", "xht", "shtml", "php", "asp", "aspx", "jsp",
];

/// Whether a file name looks like a page: a page extension, or one followed by `.gz`; a query
/// string a crawler kept in the name (`m.html?x=1`, `index.php?id=3.gz`) does not count.
fn is_page_name(path: &Path) -> bool {
    let name = without_gz(path).to_string_lossy();
    let before_query = name.split_once('?').map_or(&*name, |(page, _)| page);
    Path::new(before_query)
        .extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| PAGE_EXTENSIONS.iter().any(|x| x.eq_ignore_ascii_case(e)))
}

/// Whether a file is named like a WARC file: `*.warc` or `*.warc.gz` (any case).
/// The rest of the name may be any bytes.
pub fn is_warc_name(path: &Path) -> bool {
    let ext_is = |p: &Path, ext: &str| p.extension().is_some_and(|e| e.eq_ignore_ascii_case(ext));
    ext_is(path, "warc")
        || (ext_is(path, "gz")
            && path
                .file_stem()
                .is_some_and(|s| ext_is(Path::new(s), "warc")))
}

/// What a walk of folders looks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// Pages ([`PAGE_EXTENSIONS`], optionally `.gz`).
    Pages,
    /// WARC files (`*.warc`, `*.warc.gz`).
    Warcs,
}

impl Kind {
    /// Whether a file's name is one of this kind's.
    fn wants(self, path: &Path) -> bool {
        match self {
            Kind::Pages => is_page_name(path),
            Kind::Warcs => is_warc_name(path),
        }
    }

    /// Why a regular file of another name is passed over.
    fn other_name(self) -> Skip {
        match self {
            Kind::Pages => Skip::OtherName,
            Kind::Warcs => Skip::NotWarcName,
        }
    }

    /// The inputs' name in messages.
    fn noun(self) -> &'static str {
        match self {
            Kind::Pages => "pages",
            Kind::Warcs => "WARC files",
        }
    }
}

/// Whether folder `dir` holds (at any depth) WARC files and pages, by their names; the walk stops
/// once both are seen. Entries that cannot be read are passed over here: the walk that collects
/// the inputs reports them.
pub fn folder_holds(dir: &Path) -> (bool, bool) {
    let (mut warcs, mut pages) = (false, false);
    for entry in walkdir::WalkDir::new(dir)
        .follow_links(true)
        .into_iter()
        .flatten()
    {
        if entry.file_type().is_file() {
            warcs |= is_warc_name(entry.path());
            pages |= is_page_name(entry.path());
            if warcs && pages {
                break;
            }
        }
    }
    (warcs, pages)
}

/// The path without a trailing `.gz` (as a file name: `a/b.html.gz` -> `b.html`), else the path.
fn without_gz(path: &Path) -> &Path {
    match path.extension().and_then(|e| e.to_str()) {
        // A path with an extension has a stem: the default is never taken.
        Some(e) if e.eq_ignore_ascii_case("gz") => Path::new(path.file_stem().unwrap_or_default()),
        _ => path,
    }
}

/// The name an output file takes after its input: the file name without its extension (and
/// without `.gz` before that), `stdin` for `-`. A saved query string stays in the name
/// (`m.html?x=1` -> `m?x=1`), so that two queries of one page keep two outputs. The name keeps
/// the input's bytes as they are, also where they are not UTF-8 (on Unix a file name is any
/// bytes: `bad\xffname.html` -> `bad\xffname`).
pub fn page_stem(path: &Path) -> OsString {
    if is_stdin(path) {
        return "stdin".into();
    }
    let name = without_gz(path);
    if let Some((page, query)) = name.file_name().and_then(split_query) {
        let mut stem = Path::new(&page)
            .file_stem()
            .map_or_else(|| OsString::from("page"), OsStr::to_os_string);
        stem.push("?");
        stem.push(query);
        return stem;
    }
    name.file_stem()
        .map_or_else(|| "page".into(), OsStr::to_os_string)
}

/// A file name split at its first `?` (a crawler's saved query string), byte for byte.
#[cfg(unix)]
fn split_query(name: &OsStr) -> Option<(OsString, OsString)> {
    use std::os::unix::ffi::OsStrExt;
    let bytes = name.as_bytes();
    let at = bytes.iter().position(|&b| b == b'?')?;
    let (page, query) = bytes.split_at(at);
    let query = query.get(1..)?;
    Some((
        OsStr::from_bytes(page).to_os_string(),
        OsStr::from_bytes(query).to_os_string(),
    ))
}

/// A file name split at its first `?` (a crawler's saved query string); a name that is not
/// Unicode, which only Unix allows, has no query here.
#[cfg(not(unix))]
fn split_query(name: &OsStr) -> Option<(OsString, OsString)> {
    let (page, query) = name.to_str()?.split_once('?')?;
    Some((page.into(), query.into()))
}

/// The page path that stands for standard input.
pub const STDIN: &str = "-";

/// Whether a page path stands for standard input.
pub fn is_stdin(path: &Path) -> bool {
    path == Path::new(STDIN)
}

/// Whether a path names a stream: a FIFO or a character device (links followed).
pub fn is_stream(path: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        std::fs::metadata(path).is_ok_and(|m| {
            let t = m.file_type();
            t.is_fifo() || t.is_char_device()
        })
    }
    #[cfg(not(unix))]
    {
        let _ = path;
        false
    }
}

/// How many bytes of a stream [`Streams::stdin_is_warc`] and [`Streams::stream_is_warc`] read
/// to tell (a gzip header with a file name, and the first line).
const SNIFF_BYTES: u64 = 8 << 10;

/// The streams a run reads, which can be read once only: the first bytes of standard input and
/// of the FIFOs and devices named as inputs, read to sniff them for a WARC stream, kept here and
/// given back first to whoever reads the stream next. A program makes one for its process (the
/// `victor` command keeps one in a `static`: [`Streams::new`] is `const`) and reads every input
/// through it; the library keeps none of its own.
#[derive(Debug, Default)]
pub struct Streams {
    /// The first bytes of standard input, read by [`Streams::stdin_is_warc`].
    stdin_head: Mutex<Vec<u8>>,
    /// The streams [`Streams::stream_is_warc`] has sniffed: whoever reads such a path next
    /// ([`Streams::read_page`], [`Streams::open_stream`]) takes it from here, first bytes and all.
    sniffed: Mutex<Vec<Sniffed>>,
}

/// A stream named as an input that [`Streams::stream_is_warc`] opened and read the first bytes
/// of.
#[derive(Debug)]
struct Sniffed {
    path: PathBuf,
    head: Vec<u8>,
    rest: file::Opened,
}

impl Streams {
    /// No stream read yet.
    pub const fn new() -> Streams {
        Streams {
            stdin_head: Mutex::new(Vec::new()),
            sniffed: Mutex::new(Vec::new()),
        }
    }

    /// The lock on the first bytes of standard input; a panic while it was held is an error
    /// (the bytes may be lost).
    fn stdin_head(&self) -> std::io::Result<std::sync::MutexGuard<'_, Vec<u8>>> {
        self.stdin_head
            .lock()
            .map_err(|_| std::io::Error::other("the first bytes of standard input were lost"))
    }

    /// The lock on the sniffed streams; a panic while it was held is an error (the bytes may be
    /// lost).
    fn sniffed(&self) -> std::io::Result<std::sync::MutexGuard<'_, Vec<Sniffed>>> {
        self.sniffed
            .lock()
            .map_err(|_| std::io::Error::other("the first bytes of a stream were lost"))
    }

    /// Whether standard input holds a WARC stream, plain or gzipped
    /// ([`crate::warc::starts_warc`]): reads its first bytes (up to 8 KB, or to its end), which
    /// [`Streams::stdin`] gives back first.
    pub fn stdin_is_warc(&self) -> std::io::Result<bool> {
        let mut head = self.stdin_head()?;
        if head.is_empty() {
            std::io::stdin()
                .lock()
                .take(SNIFF_BYTES)
                .read_to_end(&mut head)?;
        }
        Ok(crate::warc::starts_warc(&head))
    }

    /// Standard input, with the bytes [`Streams::stdin_is_warc`] read from it first.
    pub fn stdin(&self) -> std::io::Result<impl Read + Send + 'static> {
        let head = std::mem::take(&mut *self.stdin_head()?);
        Ok(std::io::Cursor::new(head).chain(std::io::stdin()))
    }

    /// Whether the stream named `path` (a FIFO or a character device) holds a WARC stream,
    /// plain or gzipped, as [`Streams::stdin_is_warc`] tells for standard input: reads its
    /// first bytes (up to 8 KB), which [`Streams::read_page`] or [`Streams::open_stream`] give
    /// back first.
    pub fn stream_is_warc(&self, path: &Path) -> std::io::Result<bool> {
        let mut rest = file::Opened::open(path)?;
        let mut head = Vec::new();
        (&mut rest).take(SNIFF_BYTES).read_to_end(&mut head)?;
        let warc = crate::warc::starts_warc(&head);
        self.sniffed()?.push(Sniffed {
            path: path.to_path_buf(),
            head,
            rest,
        });
        Ok(warc)
    }

    /// The stream named `path` ([`file::Opened`]), with the bytes [`Streams::stream_is_warc`]
    /// read from it first if it did.
    pub fn open_stream(&self, path: &Path) -> std::io::Result<Box<dyn Read + Send>> {
        let mut all = self.sniffed()?;
        if let Some(k) = all.iter().position(|s| s.path == path) {
            let s = all.swap_remove(k);
            return Ok(Box::new(std::io::Cursor::new(s.head).chain(s.rest)));
        }
        drop(all);
        Ok(Box::new(file::Opened::open(path)?))
    }

    /// Reads a page's bytes: the file, all of standard input for `-`, or all of a stream named
    /// (a FIFO or a character device, at most [`file::MAX_PAGE_BYTES`]); decompressed if they are
    /// gzip (whatever the file is called; [`crate::file`]).
    pub fn read_page(&self, path: &Path) -> std::io::Result<Vec<u8>> {
        let stream: Box<dyn Read> = if is_stdin(path) {
            Box::new(self.stdin()?)
        } else if self.sniffed()?.iter().any(|s| s.path == path) {
            self.open_stream(path)?
        } else {
            return file::read_page_file(path);
        };
        let mut bytes = Vec::new();
        stream
            .take(file::MAX_PAGE_BYTES.saturating_add(1))
            .read_to_end(&mut bytes)?;
        if bytes.len() as u64 > file::MAX_PAGE_BYTES {
            return Err(std::io::Error::new(
                std::io::ErrorKind::InvalidData,
                format!(
                    "the stream holds more than {} MiB",
                    file::MAX_PAGE_BYTES >> 20
                ),
            ));
        }
        file::inflate(bytes, file::MAX_PAGE_BYTES)
    }
}

/// Why a page's bytes (after decompression) are an empty input, if they are: none, or nothing
/// but white space ([`crate::check_input`], the rule the Python package follows too). `label`
/// and `features` report such a page as a failure, not as a page that keeps nothing; the reason
/// names a FIFO that no program wrote to.
pub fn empty_input(path: &Path, bytes: &[u8]) -> Option<String> {
    let empty = crate::check_input(bytes).err()?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if !is_stdin(path) && std::fs::metadata(path).is_ok_and(|m| m.file_type().is_fifo()) {
            return Some(format!(
                "empty input ({}): nothing came through the FIFO (no program opened it for writing within {} s, or it wrote nothing)",
                empty.what(),
                file::FIFO_WAIT.as_secs()
            ));
        }
    }
    Some(empty.to_string())
}

/// What a run's inputs are (`victor label --input`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
pub enum InputKind {
    /// WARC files by name (*.warc, *.warc.gz), pages otherwise.
    Auto,
    /// HTML pages.
    Html,
    /// WARC files.
    Warc,
}

impl InputKind {
    /// Whether the inputs named are WARC files: always for `warc`, never for `html`, and for
    /// `auto` as [`Streams::holds_warcs`] tells from their names and first bytes.
    ///
    /// # Errors
    ///
    /// [`Streams::holds_warcs`]'s.
    pub fn warcs(
        self,
        streams: &Streams,
        paths: &[PathBuf],
        files_from: Option<&Path>,
    ) -> Result<bool, InputError> {
        match self {
            InputKind::Warc => Ok(true),
            InputKind::Html => Ok(false),
            InputKind::Auto => streams.holds_warcs(paths, files_from),
        }
    }
}

impl Streams {
    /// Whether the inputs named are WARC files, as `victor label --input auto` decides: every input
    /// is a file named *.warc or *.warc.gz, a folder holding such files (and no pages), or a stream
    /// (standard input, a FIFO, a device) holding a WARC stream, plain or gzipped (sniffed: the
    /// bytes read are given back to whoever reads it next). A mix of WARC files and pages is
    /// refused, and so is a folder holding both.
    ///
    /// # Errors
    ///
    /// [`InputError::Sniff`] for a stream that cannot be read, [`InputError::Mixed`] for a mix.
    pub fn holds_warcs(
        &self,
        paths: &[PathBuf],
        files_from: Option<&Path>,
    ) -> Result<bool, InputError> {
        let (mut warcs, mut pages) = (0, 0);
        // The first stream found to hold WARC, for the message refusing a mix.
        let mut warc_stream: Option<String> = None;
        for p in paths {
            let warc = if is_stdin(p) || is_stream(p) {
                let what = if is_stdin(p) {
                    "standard input".to_string()
                } else {
                    p.display().to_string()
                };
                // A FIFO or a device named (`<(zcat crawl.warc.gz)`) is sniffed as `-` is.
                let sniffed = if is_stdin(p) {
                    self.stdin_is_warc()
                } else {
                    self.stream_is_warc(p)
                };
                let warc = sniffed.map_err(|source| InputError::Sniff {
                    what: what.clone(),
                    source,
                })?;
                if warc {
                    warc_stream.get_or_insert(what);
                }
                warc
            } else if p.is_dir() {
                match folder_holds(p) {
                    (true, true) => {
                        return Err(InputError::Mixed(format!(
                            "{} holds both WARC files and pages: label them separately \
                             (--input warc takes only its WARC files, --input html only its pages)",
                            p.display()
                        )));
                    }
                    (warc, _) => warc,
                }
            } else {
                is_warc_name(p)
            };
            if warc {
                warcs += 1;
            } else {
                pages += 1;
            }
        }
        if warcs > 0 && (pages > 0 || files_from.is_some()) {
            return Err(InputError::Mixed(match warc_stream {
                Some(stream) => format!(
                    "{stream} holds a WARC stream, the other inputs are pages: \
                     label them separately (--input warc reads streams as WARC)"
                ),
                None => {
                    "WARC files and pages in one run: label them separately (or say --input warc)"
                        .to_string()
                }
            }));
        }
        Ok(warcs > 0)
    }

    /// The WARC file an input names, to read record by record: standard input for `-`, a stream
    /// named (a FIFO, a device) with the bytes sniffed from it first, else the file.
    ///
    /// # Errors
    ///
    /// The error of opening it.
    pub fn open_warc(
        &self,
        path: &Path,
    ) -> std::io::Result<crate::warc::Reader<Box<dyn BufRead + Send>>> {
        use crate::warc::Reader;
        if is_stdin(path) {
            self.stdin().and_then(Reader::from_read)
        } else if is_stream(path) {
            self.open_stream(path).and_then(Reader::from_read)
        } else {
            Reader::open(path)
        }
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::walk::read_list;
    use super::{Streams, is_page_name, page_stem};

    #[test]
    fn a_list_is_one_path_a_line_trimmed_without_blank_lines() {
        let list = b"a.html\r\n  b c.html \n\n \t\n#d.html\nlast.html";
        let paths = read_list(&list[..]).expect("read");
        let want = ["a.html", "b c.html", "#d.html", "last.html"];
        assert_eq!(paths, want.map(std::path::PathBuf::from));
    }

    #[test]
    fn compressed_pages_are_found_and_named_without_gz() {
        assert!(is_page_name(Path::new("a/b.html.gz")));
        assert!(is_page_name(Path::new("b.HTM")));
        assert!(!is_page_name(Path::new("b.txt.gz")));
        assert!(!is_page_name(Path::new("b.gz")));
        assert!(!is_page_name(Path::new("README")));
        assert!(is_page_name(Path::new("m.html?x=1")));
        assert!(is_page_name(Path::new("index.php?id=3.gz")));
        assert!(is_page_name(Path::new("a.xht")));
        assert!(!is_page_name(Path::new("m.txt?x=1.html")));
        assert_eq!(page_stem(Path::new("m.html?x=1")), "m?x=1");
        assert_eq!(page_stem(Path::new("m.html?x=1.gz")), "m?x=1");
        assert_eq!(page_stem(Path::new("x/page.html.gz")), "page");
        assert_eq!(page_stem(Path::new("x/page.html")), "page");
        assert_eq!(page_stem(Path::new("-")), "stdin");
    }

    #[cfg(unix)]
    #[test]
    fn a_fifo_without_writer_reads_as_empty_and_a_folder_is_refused() {
        let tmp = tempfile::tempdir().expect("tempdir");
        let fifo = tmp.path().join("fifo.html");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        assert!(made.expect("mkfifo runs").success());
        // Not waited on for long: empty, and `label` says why.
        let streams = Streams::new();
        let bytes = streams.read_page(&fifo).expect("a FIFO reads as a stream");
        assert!(bytes.is_empty());
        let why = super::empty_input(&fifo, &bytes).expect("empty");
        assert!(why.contains("FIFO"), "{why}");
        let err = streams.read_page(tmp.path()).expect_err("a folder");
        assert!(err.to_string().contains("folder"), "{err}");
        let page = tmp.path().join("p.html");
        std::fs::write(&page, b"<p>x</p>").expect("write");
        assert_eq!(streams.read_page(&page).expect("a file"), b"<p>x</p>");
    }
}

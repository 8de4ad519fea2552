//! Reading WARC files (ISO 28500, WARC/1.0 and 1.1) record by record, and the HTML pages in them.
//!
//! [`Reader`] streams: it holds one record's block at a time, so memory stays flat on a
//! multi-gigabyte file; a gzipped file (`.warc.gz`, one gzip member per record as Common Crawl
//! writes them, or any number of members) is decompressed as it is read, member after member; a
//! member that does not decompress is reported and reading goes on at the next member. A
//! record whose header is malformed is reported as a [`RecordError`] with its offset and the
//! reader goes on at the next `WARC/` version line; a file cut short ends with an error for its
//! last record. A record whose `Content-Length` is too large (its block runs into the records
//! after it, or past the end of the file) is found out by what follows its block (not the CRLF
//! CRLF and next version line that end a record) and reported as [`RecordError::Overrun`];
//! reading goes on at the first `WARC/1.` line inside the block, so the records it swallowed
//! are read after all (a length that ends exactly where a later record's block ends cannot be
//! told from a record that holds records, and is taken as written). Offsets count bytes of the uncompressed WARC
//! stream.
//!
//! [`html_page`] picks the pages: `response` records with an HTTP message whose `Content-Type`
//! is HTML (the HTTP header stripped, its `charset` kept for the decoder), and `resource`
//! records whose WARC `Content-Type` is HTML. [`HtmlPage::decoded`] undoes the body's
//! `Transfer-Encoding: chunked` and `Content-Encoding` (gzip, deflate, br; see `crate::http`).
//!
//! Written here rather than taken from a crate, after measuring the two maintained ones on WARC
//! files of the 2,961 shared pages (226 MB of records; `eval/warc.md`, `eval/warc-bench`).
//! `fastwarc` 2.0 reads gzipped files at the same speed (both spend the time in zlib-rs) and
//! uncompressed ones a fifth slower, but stops for good at a junk line, at a `Content-Length` that
//! is not a number or too long, and at a record cut short inside the file (every record after it
//! lost), returns the last record of a file cut short as if whole, needs a seekable input (no
//! standard input), and brings zstd's C library, lz4 and a brotli encoder. `warc` 0.4 reads about
//! four times slower, gives no offsets, keeps returning one error after a gzipped file cut short,
//! and its `from_path` fails on every file (it opens with `create` but not `write`). The format
//! itself is small: a version line, `Name: value` lines and a block of `Content-Length` bytes.

use std::borrow::Cow;
use std::io::{self, BufRead, BufReader, Read};
use std::ops::ControlFlow;
use std::path::Path;

mod counts;
mod label;

use crate::http::decode_body;
pub use crate::http::{BodyError, Codings};
pub use counts::Counts;
pub use label::RecordFailure;

/// A record whose block is larger than this is skipped (reported, not held in memory).
pub const MAX_RECORD: u64 = 256 << 20;

/// One WARC record.
#[derive(Clone, Debug, Default)]
pub struct Record {
    /// Where the record starts, in bytes of the uncompressed WARC stream.
    pub offset: u64,
    /// The header fields in their order: names as written, values trimmed.
    pub headers: Vec<(String, String)>,
    /// The record's block (`Content-Length` bytes).
    pub block: Vec<u8>,
}

impl Record {
    /// The value of a header field, the name compared without case.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// `WARC-Type` (`response`, `request`, `resource`, `warcinfo`, ...).
    pub fn warc_type(&self) -> Option<&str> {
        self.header("WARC-Type")
    }
}

/// Why a record could not be read.
#[derive(Debug, thiserror::Error)]
pub enum RecordError {
    /// Reading (or decompressing) the file failed; the rest of the file is lost.
    #[error("at byte {offset}: {source}")]
    Io {
        /// Where reading stopped.
        offset: u64,
        /// The error.
        source: io::Error,
    },
    /// The record's header is not a WARC header.
    #[error("at byte {offset}: {reason}")]
    Malformed {
        /// Where the record starts.
        offset: u64,
        /// What is wrong.
        reason: String,
    },
    /// The file ends inside the record.
    #[error(
        "at byte {offset}: the file ends inside the record ({missing} bytes of its block missing)"
    )]
    Truncated {
        /// Where the record starts.
        offset: u64,
        /// Bytes of the block that are not there.
        missing: u64,
    },
    /// A gzip member does not decompress: its records are lost, reading goes on at the next
    /// member (offsets after it count the bytes that could be read).
    #[error(
        "at byte {offset}: a gzip member does not decompress ({reason}); reading goes on at the next member"
    )]
    Gzip {
        /// Where reading stopped.
        offset: u64,
        /// The decompressor's error.
        reason: String,
    },
    /// The block is over [`MAX_RECORD`] bytes: skipped.
    #[error("at byte {offset}: a record of {len} bytes, over the limit of {MAX_RECORD}: skipped")]
    TooLarge {
        /// Where the record starts.
        offset: u64,
        /// Its `Content-Length`.
        len: u64,
    },
    /// The `Content-Length` runs past the record: the block takes in a `WARC/1.` line and does
    /// not end where a record ends. The record is skipped and reading goes on at that line.
    #[error(
        "at byte {offset}: Content-Length {len} runs past the record into the next one; {skipped} bytes skipped, reading goes on at byte {resumed}"
    )]
    Overrun {
        /// Where the record starts.
        offset: u64,
        /// Its `Content-Length`.
        len: u64,
        /// Bytes skipped: from the record's start to where reading goes on.
        skipped: u64,
        /// Where reading goes on (the next `WARC/1.` line).
        resumed: u64,
    },
}

impl RecordError {
    /// Whether the reader can go on after this error (the file is not cut short or unreadable).
    pub fn recoverable(&self) -> bool {
        matches!(
            self,
            RecordError::Malformed { .. }
                | RecordError::TooLarge { .. }
                | RecordError::Gzip { .. }
                | RecordError::Overrun { .. }
        )
    }
}

/// A streaming reader of WARC records (see the module docs).
pub struct Reader<R> {
    inner: Replay<R>,
    offset: u64,
    line: Vec<u8>,
    done: bool,
    /// A version line met while skipping a malformed record: the next record starts with it.
    pending: Option<(u64, Vec<u8>)>,
    /// An error met reading past a whole record's block: reported at the next call.
    deferred: Option<io::Error>,
}

/// A byte stream with bytes put back in front of it: the part of an overrunning block that
/// belongs to the records after it is read again from here.
struct Replay<R> {
    back: Vec<u8>,
    /// How much of `back` was read.
    pos: usize,
    inner: R,
}

impl<R> Replay<R> {
    /// Puts `bytes` back, to be read before anything else.
    fn unread(&mut self, mut bytes: Vec<u8>) {
        if let Some(rest) = self.back.get(self.pos..) {
            bytes.extend_from_slice(rest);
        }
        self.back = bytes;
        self.pos = 0;
    }

    /// The bytes put back and not read yet (empty when there are none).
    fn replayed(&self) -> &[u8] {
        // `consume` resets `back` once `pos` reaches its end, so `pos` is within it.
        debug_assert!(self.pos <= self.back.len());
        self.back.get(self.pos..).unwrap_or(&[])
    }
}

impl<R: BufRead> Read for Replay<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let rest = self.replayed();
        if rest.is_empty() {
            return self.inner.read(buf);
        }
        let n = rest.len().min(buf.len());
        if let (Some(to), Some(from)) = (buf.get_mut(..n), rest.get(..n)) {
            to.copy_from_slice(from);
        }
        self.consume(n);
        Ok(n)
    }
}

impl<R: BufRead> BufRead for Replay<R> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        if self.pos < self.back.len() {
            return Ok(self.replayed());
        }
        self.inner.fill_buf()
    }

    fn consume(&mut self, n: usize) {
        if self.pos < self.back.len() {
            // `fill_buf` gave the put-back bytes, so `n` counts among them.
            self.pos += n;
            if self.pos >= self.back.len() {
                self.back = Vec::new();
                self.pos = 0;
            }
        } else {
            self.inner.consume(n);
        }
    }
}

/// What follows a block.
struct After {
    /// The bytes read after the block: blank lines, and the junk line last when `ends` is false
    /// (a version line that ends them is the reader's pending line).
    between: Vec<u8>,
    /// Whether a record ends there: blank lines, then a version line or the end of the stream.
    ends: bool,
}

impl After {
    /// Whether the record ends as the standard writes it: CRLF CRLF (or LF LF), then the next
    /// version line or the end. A length that ran into a later record ends otherwise, unless it
    /// happens to end exactly where a later record's block does.
    fn exact(&self) -> bool {
        self.ends && matches!(self.between.as_slice(), b"\r\n\r\n" | b"\n\n")
    }
}

/// Where the first line starting `WARC/1.` begins in a block (a block starts a line).
fn version_line_in(block: &[u8]) -> Option<usize> {
    if block.starts_with(b"WARC/1.") {
        return Some(0);
    }
    memchr::memmem::find(block, b"\nWARC/1.").map(|i| i + 1)
}

impl Reader<Box<dyn BufRead + Send>> {
    /// Opens a WARC file, gzipped (recognised by its first bytes) or not: a regular file, or a
    /// FIFO or a character device read as a stream ([`victor_features::file::Opened`]: a FIFO
    /// is opened without waiting long for its writer); a folder is refused.
    pub fn open(path: &Path) -> io::Result<Self> {
        Self::from_read(victor_features::file::Opened::open(path)?)
    }

    /// A reader over a byte stream, gzipped (recognised by its first bytes) or not.
    pub fn from_read(r: impl Read + Send + 'static) -> io::Result<Self> {
        let mut buf = BufReader::with_capacity(1 << 16, r);
        let gz = buf.fill_buf()?.starts_with(&[0x1f, 0x8b]);
        let inner: Box<dyn BufRead + Send> = if gz {
            Box::new(BufReader::with_capacity(1 << 16, Members::new(buf)))
        } else {
            Box::new(buf)
        };
        Ok(Reader::new(inner))
    }
}

/// The error a gzip member that does not decompress gives (inside an `io::Error`).
#[derive(Debug)]
struct LostMember(String);

impl std::fmt::Display for LostMember {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "a gzip member does not decompress: {}", self.0)
    }
}

impl std::error::Error for LostMember {}

/// Gzip members one after another, as `MultiGzDecoder` reads them, except that a member that does
/// not decompress gives one error ([`LostMember`]) and reading resumes at the next member's
/// header (`1f 8b 08`) instead of ending: a WARC file gzipped per record loses only the records
/// of the broken member.
struct Members<R: BufRead> {
    /// The member being read; `None` only while switching members.
    member: Option<flate2::bufread::GzDecoder<R>>,
}

impl<R: BufRead> Members<R> {
    fn new(inner: R) -> Self {
        Members {
            member: Some(flate2::bufread::GzDecoder::new(inner)),
        }
    }

    /// Skips the compressed stream up to the next gzip member header (or its end).
    fn skip_to_header(r: &mut R) -> io::Result<()> {
        loop {
            let buf = r.fill_buf()?;
            if buf.is_empty() {
                return Ok(());
            }
            // The header may be split across two fills: keep the last two bytes for the next.
            let (skip, found) = match memchr::memmem::find(buf, b"\x1f\x8b\x08") {
                Some(i) => (i, true),
                None => (buf.len().saturating_sub(2).max(1), false),
            };
            r.consume(skip);
            if found {
                return Ok(());
            }
        }
    }
}

impl<R: BufRead> Read for Members<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if buf.is_empty() {
            return Ok(0);
        }
        loop {
            let Some(member) = self.member.as_mut() else {
                return Ok(0);
            };
            match member.read(buf) {
                Ok(0) => {
                    // The member ended: the next one, if the stream goes on.
                    let Some(member) = self.member.take() else {
                        return Ok(0);
                    };
                    let mut inner = member.into_inner();
                    if inner.fill_buf()?.is_empty() {
                        return Ok(0);
                    }
                    self.member = Some(flate2::bufread::GzDecoder::new(inner));
                }
                Ok(n) => return Ok(n),
                Err(e) => {
                    let Some(member) = self.member.take() else {
                        return Err(e);
                    };
                    let mut inner = member.into_inner();
                    Self::skip_to_header(&mut inner)?;
                    if inner.fill_buf()?.is_empty() {
                        // No member after it: the file is cut short (or ends in junk).
                        return Err(e);
                    }
                    self.member = Some(flate2::bufread::GzDecoder::new(inner));
                    return Err(io::Error::new(
                        io::ErrorKind::InvalidData,
                        LostMember(e.to_string()),
                    ));
                }
            }
        }
    }
}

impl<R: BufRead> Reader<R> {
    /// A reader over an uncompressed WARC stream.
    pub fn new(inner: R) -> Self {
        Reader {
            inner: Replay {
                back: Vec::new(),
                pos: 0,
                inner,
            },
            offset: 0,
            line: Vec::new(),
            done: false,
            pending: None,
            deferred: None,
        }
    }

    /// Reads one line (with its end) into `self.line`; 0 at the end of the stream.
    fn read_line(&mut self) -> io::Result<usize> {
        self.line.clear();
        let n = (&mut self.inner)
            .take(64 << 10)
            .read_until(b'\n', &mut self.line)?;
        self.offset += n as u64;
        Ok(n)
    }

    fn io_error(&mut self, source: io::Error) -> Option<Result<Record, RecordError>> {
        if let Some(lost) = source
            .get_ref()
            .and_then(|e| e.downcast_ref::<LostMember>())
        {
            // The record in progress is lost with its member; the next member starts a record.
            let reason = lost.0.clone();
            let offset = self.offset;
            self.resync();
            return Some(Err(RecordError::Gzip { offset, reason }));
        }
        self.done = true;
        Some(Err(RecordError::Io {
            offset: self.offset,
            source,
        }))
    }

    /// Skips to the next `WARC/` version line (kept for the next record) or the end.
    fn resync(&mut self) {
        loop {
            match self.read_line() {
                Ok(0) | Err(_) => return,
                Ok(n) if self.line.starts_with(b"WARC/") => {
                    self.pending = Some((self.offset - n as u64, self.line.clone()));
                    return;
                }
                Ok(_) => {}
            }
        }
    }

    fn malformed(&mut self, offset: u64, reason: String) -> Option<Result<Record, RecordError>> {
        self.resync();
        Some(Err(RecordError::Malformed { offset, reason }))
    }

    /// Reads what follows a whole block: blank lines, then the next version line (kept for the
    /// next record) or the end, as a record ends; else up to a line that is not blank. Blank
    /// lines are kept up to 64 KB (more counts as junk: put back, they are skipped as ever).
    fn after_block(&mut self) -> io::Result<After> {
        let mut between = Vec::new();
        loop {
            let n = self.read_line()?;
            if n == 0 {
                return Ok(After {
                    between,
                    ends: true,
                });
            }
            if self.line.starts_with(b"WARC/") {
                self.pending = Some((self.offset - n as u64, self.line.clone()));
                return Ok(After {
                    between,
                    ends: true,
                });
            }
            between.extend_from_slice(&self.line);
            if !self.line.trim_ascii().is_empty() || between.len() > 64 << 10 {
                return Ok(After {
                    between,
                    ends: false,
                });
            }
        }
    }

    /// After a whole block of the record at `start`: `None` when the record ends there (what
    /// did not end it is put back, for the next call to report); else the
    /// [`RecordError::Overrun`] that goes back to where `candidate` says, when the record does
    /// not end exactly ([`After::exact`]). `candidate` gets the bytes read after the block (the
    /// next version line included) and gives where the first `WARC/1.` line that starts inside
    /// the block begins, with the bytes from there on (a line cut by the block's end counts).
    fn end_of_block(
        &mut self,
        start: u64,
        len: u64,
        candidate: impl FnOnce(&[u8]) -> Option<(u64, Vec<u8>)>,
    ) -> Option<RecordError> {
        let after = match self.after_block() {
            Ok(a) => a,
            Err(e) => {
                // The record is whole; what follows fails at the next call.
                self.deferred = Some(e);
                return None;
            }
        };
        if !after.exact() {
            let mut tail = after.between.clone();
            if let Some((_, line)) = &self.pending {
                tail.extend_from_slice(line);
            }
            if let Some((at, back)) = candidate(&tail) {
                self.pending = None;
                return self.overrun(start, len, at, back);
            }
        }
        if !after.ends {
            self.unread(after.between);
        }
        None
    }

    /// Puts bytes read back in front of the stream (the offset goes back with them).
    fn unread(&mut self, bytes: Vec<u8>) {
        self.offset -= bytes.len() as u64;
        self.inner.unread(bytes);
    }

    /// The record at `start` with `Content-Length` `len` ran past its end: reading goes on at
    /// `resumed`, with `back` (the bytes from there on that were read) read again.
    fn overrun(
        &mut self,
        start: u64,
        len: u64,
        resumed: u64,
        back: Vec<u8>,
    ) -> Option<RecordError> {
        self.unread(back);
        debug_assert_eq!(self.offset, resumed);
        Some(RecordError::Overrun {
            offset: start,
            len,
            skipped: resumed - start,
            resumed,
        })
    }

    /// A whole block was read: the record, unless what follows shows its `Content-Length` ran
    /// into the records after it ([`Self::end_of_block`]).
    fn checked(
        &mut self,
        rec: Record,
        len: u64,
        block_start: u64,
    ) -> Option<Result<Record, RecordError>> {
        let block = &rec.block;
        let candidate = |tail: &[u8]| {
            let at = version_line_in(block).or_else(|| {
                // A version line that the block's end cuts: its last line, ended by `tail`.
                let at = memchr::memrchr(b'\n', block).map_or(0, |i| i + 1);
                let cut = block.get(at..).filter(|c| !c.is_empty())?;
                let mut probe = cut.to_vec();
                probe.extend(tail.iter().take(8));
                probe.starts_with(b"WARC/1.").then_some(at)
            })?;
            let mut back = block.get(at..)?.to_vec();
            back.extend_from_slice(tail);
            Some((block_start + at as u64, back))
        };
        match self.end_of_block(rec.offset, len, candidate) {
            Some(e) => Some(Err(e)),
            None => Some(Ok(rec)),
        }
    }

    /// Skips the block of a record over [`MAX_RECORD`] bytes, keeping (up to [`MAX_RECORD`]
    /// bytes) from the first `WARC/1.` line in it, in case the length is wrong and ran into the
    /// records after it.
    fn skip_large(&mut self, start: u64, len: u64) -> Option<Result<Record, RecordError>> {
        let mut left = len;
        let mut line_start = true;
        // Where the kept bytes start, and the bytes.
        let mut kept: Option<(u64, Vec<u8>)> = None;
        // The last line read when the block's end cut it (with where it starts).
        let mut cut_line: Option<(u64, Vec<u8>)> = None;
        while left > 0 {
            self.line.clear();
            let r = (&mut self.inner)
                .take(left.min(64 << 10))
                .read_until(b'\n', &mut self.line);
            let n = match r {
                Ok(0) => break,
                Ok(n) => n,
                Err(e) => return self.io_error(e),
            };
            let at = self.offset;
            self.offset += n as u64;
            left -= n as u64;
            match &mut kept {
                Some((_, k)) if k.len() + n <= MAX_RECORD as usize => {
                    k.extend_from_slice(&self.line);
                }
                Some(_) => kept = None,
                None if line_start && self.line.starts_with(b"WARC/1.") => {
                    kept = Some((at, self.line.clone()));
                }
                None => {}
            }
            cut_line = (line_start && !self.line.ends_with(b"\n")).then(|| (at, self.line.clone()));
            line_start = self.line.ends_with(b"\n");
        }
        if left > 0 {
            if let Some((at, back)) = kept {
                return self.overrun(start, len, at, back).map(Err);
            }
            self.done = true;
            return Some(Err(RecordError::Truncated {
                offset: start,
                missing: left,
            }));
        }
        let candidate = |tail: &[u8]| match (kept, cut_line) {
            (Some((at, mut back)), _) => {
                back.extend_from_slice(tail);
                Some((at, back))
            }
            (None, Some((at, mut line))) => {
                line.extend_from_slice(tail);
                line.starts_with(b"WARC/1.").then_some((at, line))
            }
            (None, None) => None,
        };
        let e = self.end_of_block(start, len, candidate);
        Some(Err(
            e.unwrap_or(RecordError::TooLarge { offset: start, len })
        ))
    }

    /// The next version line and its offset, after the blank lines that end the previous
    /// record; `Break` with what the iterator returns at the end of the stream or on an error.
    fn version_line(&mut self) -> ControlFlow<Early, (u64, Vec<u8>)> {
        loop {
            let start = self.offset;
            match self.read_line() {
                Ok(0) => {
                    self.done = true;
                    return ControlFlow::Break(None);
                }
                Ok(_) if self.line.trim_ascii().is_empty() => {}
                Ok(_) => return ControlFlow::Continue((start, self.line.clone())),
                Err(e) => return ControlFlow::Break(self.io_error(e)),
            }
        }
    }

    /// Reads the header lines of the record at `start` into `rec`, up to the blank line that
    /// ends them (a folded line continues the value before it); `Break` with what the iterator
    /// returns for a header cut short, malformed, or running into the next record.
    fn read_headers(&mut self, start: u64, rec: &mut Record) -> ControlFlow<Early> {
        loop {
            match self.read_line() {
                Ok(0) => {
                    self.done = true;
                    return ControlFlow::Break(Some(Err(RecordError::Truncated {
                        offset: start,
                        missing: 0,
                    })));
                }
                Ok(_) => {}
                Err(e) => return ControlFlow::Break(self.io_error(e)),
            }
            let line = self.line.trim_ascii_end();
            if line.is_empty() {
                break;
            }
            if line.starts_with(b"WARC/") {
                let offset = self.offset - self.line.len() as u64;
                self.pending = Some((offset, self.line.clone()));
                return ControlFlow::Break(Some(Err(RecordError::Malformed {
                    offset: start,
                    reason: "the header does not end before the next record".into(),
                })));
            }
            let text = String::from_utf8_lossy(line);
            match text.split_once(':') {
                Some((name, value)) => rec
                    .headers
                    .push((name.trim().to_string(), value.trim().to_string())),
                // A continuation line (folded header value).
                None if line.first().is_some_and(|b| b.is_ascii_whitespace()) => {
                    if let Some((_, v)) = rec.headers.last_mut() {
                        v.push(' ');
                        v.push_str(text.trim());
                    }
                }
                None => {
                    let reason = format!("a header line without ':': {text:?}");
                    return ControlFlow::Break(self.malformed(start, reason));
                }
            }
        }
        ControlFlow::Continue(())
    }
}

/// What [`Reader::next`] returns when a step of reading a record ends it early: an item, or
/// `None` at the end of the stream.
type Early = Option<Result<Record, RecordError>>;

impl<R: BufRead> Iterator for Reader<R> {
    type Item = Result<Record, RecordError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        if let Some(e) = self.deferred.take() {
            return self.io_error(e);
        }
        // The version line, after the blank lines that end the previous record.
        let (start, version) = match self.pending.take() {
            Some(p) => p,
            None => match self.version_line() {
                ControlFlow::Continue(line) => line,
                ControlFlow::Break(item) => return item,
            },
        };
        if !version.starts_with(b"WARC/") {
            let shown = String::from_utf8_lossy(version.get(..40).unwrap_or(&version))
                .trim()
                .to_string();
            return self.malformed(start, format!("not a WARC record (starts {shown:?})"));
        }
        let mut rec = Record {
            offset: start,
            ..Record::default()
        };
        if let ControlFlow::Break(item) = self.read_headers(start, &mut rec) {
            return item;
        }
        let Some(len) = rec.header("Content-Length").map(str::to_string) else {
            return self.malformed(start, "no Content-Length".into());
        };
        let Ok(len) = len.parse::<u64>() else {
            return self.malformed(start, format!("Content-Length {len:?} is not a number"));
        };
        if len > MAX_RECORD {
            return self.skip_large(start, len);
        }
        let block_start = self.offset;
        // The length is within MAX_RECORD, so it fits in usize.
        rec.block.reserve(len as usize);
        let n = match (&mut self.inner).take(len).read_to_end(&mut rec.block) {
            Ok(n) => n as u64,
            Err(e) => return self.io_error(e),
        };
        self.offset += n;
        if n < len {
            // The stream ends inside the block: a file cut short, or a length that ran past the
            // records after it to the end.
            if let Some(at) = version_line_in(&rec.block) {
                let mut back = rec.block;
                back.drain(..at);
                return self
                    .overrun(start, len, block_start + at as u64, back)
                    .map(Err);
            }
            self.done = true;
            return Some(Err(RecordError::Truncated {
                offset: start,
                missing: len - n,
            }));
        }
        self.checked(rec, len, block_start)
    }
}

/// Whether the first bytes of a stream are the start of a WARC file: a `WARC/1.` version line,
/// plain or as the start of a gzip member. `head` may be cut anywhere (it is a sniff of a stream
/// whose kind is not known: a gzip member that does not inflate this far is not taken for WARC).
pub fn starts_warc(head: &[u8]) -> bool {
    const VERSION: &[u8] = b"WARC/1.";
    if !head.starts_with(&[0x1f, 0x8b]) {
        return head.starts_with(VERSION);
    }
    let mut first = [0u8; VERSION.len()];
    let mut n = 0;
    let mut gz = flate2::bufread::GzDecoder::new(head);
    while let Some(rest) = first.get_mut(n..).filter(|r| !r.is_empty()) {
        match gz.read(rest) {
            Ok(0) | Err(_) => break,
            Ok(k) => n += k,
        }
    }
    first.get(..n) == Some(VERSION)
}

/// Why a record holds no page: the ones that are not asked for are counted by kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Skip {
    /// A `response` or `resource` whose content is not HTML.
    NotHtml,
    /// A `request`, `warcinfo`, `metadata`, `revisit`, ... record, or a response that is not HTTP.
    NotPage,
}

/// The HTML page in a record: its body, the charset its HTTP header declared and the body's
/// codings.
#[derive(Clone, Copy, Debug)]
pub struct HtmlPage<'a> {
    /// The HTTP body as archived, codings not undone (or the `resource` record's block).
    pub body: &'a [u8],
    /// The `charset` parameter of the HTTP `Content-Type`, if any.
    pub charset: Option<&'a str>,
    /// The body's `Transfer-Encoding` and `Content-Encoding`.
    pub codings: Codings<'a>,
    /// Whether the record says its block was cut (`WARC-Truncated`).
    pub truncated: bool,
}

impl<'a> HtmlPage<'a> {
    /// The body with its transfer and content codings undone: the page's bytes (borrowed when
    /// the body has no coding).
    pub fn decoded(&self) -> Result<Cow<'a, [u8]>, BodyError> {
        decode_body(self.body, self.codings, self.truncated)
    }
}

/// Whether a media type (`text/html; charset=...`) is HTML.
fn is_html(content_type: &str) -> bool {
    let mime = content_type.split(';').next().unwrap_or("").trim();
    mime.eq_ignore_ascii_case("text/html") || mime.eq_ignore_ascii_case("application/xhtml+xml")
}

/// The `charset` parameter of a `Content-Type` value.
fn charset_of(content_type: &str) -> Option<&str> {
    content_type.split(';').skip(1).find_map(|p| {
        let (k, v) = p.split_once('=')?;
        k.trim()
            .eq_ignore_ascii_case("charset")
            .then(|| v.trim().trim_matches(|c| c == '"' || c == '\''))
            .filter(|v| !v.is_empty())
    })
}

/// The HTML page of a record (see the module docs), or why there is none.
pub fn html_page(rec: &Record) -> Result<HtmlPage<'_>, Skip> {
    let kind = rec.warc_type().unwrap_or("");
    if kind.eq_ignore_ascii_case("resource") {
        return match rec.header("Content-Type") {
            Some(ct) if is_html(ct) => Ok(HtmlPage {
                body: &rec.block,
                charset: charset_of(ct),
                codings: Codings::default(),
                truncated: rec.header("WARC-Truncated").is_some(),
            }),
            _ => Err(Skip::NotHtml),
        };
    }
    if !kind.eq_ignore_ascii_case("response") {
        return Err(Skip::NotPage);
    }
    // The HTTP message: a status line, header lines, a blank line, the body.
    let block = rec.block.as_slice();
    if !block.starts_with(b"HTTP/") {
        return Err(Skip::NotPage);
    }
    let mut pos = 0;
    let mut content_type: Option<&str> = None;
    let mut codings = Codings::default();
    let mut first = true;
    loop {
        // `pos` is at most the block's length: it only moves past a line break found in it.
        let Some((_, rest)) = block.split_at_checked(pos) else {
            return Err(Skip::NotPage);
        };
        let Some(nl) = memchr::memchr(b'\n', rest) else {
            // The header never ends: no body.
            return Err(Skip::NotPage);
        };
        let (line, _) = rest.split_at(nl);
        let line = line.trim_ascii_end();
        pos += nl + 1;
        if line.is_empty() {
            break;
        }
        if first {
            first = false;
            continue;
        }
        let Some(colon) = memchr::memchr(b':', line) else {
            continue;
        };
        let (name, value) = line.split_at(colon);
        // `value` starts with the colon.
        let value = value.split_first().map_or(&[][..], |(_, v)| v);
        let value = || std::str::from_utf8(value).ok().map(str::trim);
        let name = name.trim_ascii();
        if name.eq_ignore_ascii_case(b"Content-Type") {
            content_type = value();
        } else if name.eq_ignore_ascii_case(b"Content-Encoding") {
            codings.content = value();
        } else if name.eq_ignore_ascii_case(b"Transfer-Encoding") {
            codings.transfer = value();
        }
    }
    match content_type {
        Some(ct) if is_html(ct) => Ok(HtmlPage {
            // Just past the blank line's break, so at most the block's length.
            body: block
                .split_at_checked(pos)
                .map_or(&[][..], |(_, body)| body),
            charset: charset_of(ct),
            codings,
            truncated: rec.header("WARC-Truncated").is_some(),
        }),
        _ => Err(Skip::NotHtml),
    }
}

#[cfg(test)]
mod tests;

//! Reading what victor is given, and writing what it makes.
//!
//! Reading a page file: the bytes of a regular file, or of a stream (a FIFO or a character
//! device: `<(zcat page.html.gz)`, `/dev/stdin`), inflated when they are gzip. Crawls and
//! benchmark sets store pages compressed (`page.html.gz`), so every reader of page files (the
//! CLI's `label`, `features` and `bench`, the importer, `eval`, `sweep`, `cv`, and the tests that
//! walk the shared sets) goes through [`read_page_file`]: bytes that start with the gzip magic
//! number are inflated, whatever the file is called, and anything else passes through as it is.
//! Inflation stops at [`MAX_PAGE_BYTES`]: a small file that inflates to gigabytes (a "zip bomb")
//! is an error of that page, not an exhausted machine; so does a stream (`/dev/zero` ends there).
//! A FIFO is opened without waiting ([`Opened`]): a program that opens it for writing within
//! [`FIFO_WAIT`] is read to its end, else the FIFO reads as empty. A socket, a block device or a
//! folder is refused with the reason.
//!
//! Writing a file: every file victor writes follows one rule, in [`mod@write`] ([`Output`],
//! [`write_file`]): a regular file (or nothing) is written atomically beside itself and renamed
//! into place, a symbolic link is followed to its target, a FIFO, a character device or `-` is
//! written as a stream, and anything else is refused; nothing is renamed over what is not a
//! regular file.

use std::io::Read;
use std::path::Path;
use std::time::{Duration, Instant};

pub mod write;

pub use write::{
    Destination, Output, STDOUT, TMP_PREFIX, destination, temp_builder, temp_file_in, write_file,
};

/// Largest page, in bytes after decompression, that a gzip-compressed page may inflate to.
pub const MAX_PAGE_BYTES: u64 = 256 << 20;

/// The two bytes every gzip member starts with.
const GZIP_MAGIC: [u8; 2] = [0x1f, 0x8b];

/// Reads a page file whole ([`read_input`]) and inflates it if it is gzip ([`inflate`] with
/// [`MAX_PAGE_BYTES`]).
///
/// # Errors
/// The file cannot be opened or read, is neither a regular file nor a stream (the message says
/// what it is), a stream holds more than [`MAX_PAGE_BYTES`], or the bytes are broken gzip data
/// or gzip data that inflates past the limit.
pub fn read_page_file(path: &Path) -> std::io::Result<Vec<u8>> {
    inflate(read_input(path)?, MAX_PAGE_BYTES)
}

/// The bytes inflated if they start with the gzip magic number (all members of a multi-member
/// file), else the bytes as they are.
///
/// # Errors
/// Broken gzip data ("bad gzip data: ..."), or more than `max` bytes after decompression.
pub fn inflate(bytes: Vec<u8>, max: u64) -> std::io::Result<Vec<u8>> {
    if !bytes.starts_with(&GZIP_MAGIC) {
        return Ok(bytes);
    }
    // One more byte than the limit shows that the limit is passed.
    let cap = usize::try_from(max.saturating_add(1)).unwrap_or(usize::MAX);
    let mut out = Vec::with_capacity(inflated_size_hint(&bytes, max));
    let bad = |why: &dyn std::fmt::Display| {
        std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            format!("bad gzip data: {why}"),
        )
    };
    // zlib's own gzip reader, one member after the other (a file may hold several), writing
    // into the room reserved for the whole page: flate2's `Read` adapters copied the bytes
    // through zlib's window and `read_to_end` zeroed every chunk of room before it was
    // written (a fifth of the instructions of inflating a page, eval/SPEED.md).
    let mut rest = bytes.as_slice();
    while !rest.is_empty() {
        let mut z = flate2::Decompress::new_gzip(15);
        loop {
            if out.len() == out.capacity() {
                if out.len() >= cap {
                    break;
                }
                let room = out.capacity().max(4096).min(cap - out.len());
                out.reserve_exact(room);
            }
            let read = z.total_in();
            let wrote = z.total_out();
            let input = rest.get(read as usize..).unwrap_or_default();
            let status = z
                .decompress_vec(input, &mut out, flate2::FlushDecompress::None)
                .map_err(|e| bad(&e))?;
            if status == flate2::Status::StreamEnd {
                break;
            }
            // No progress with room to write: the input ended inside the stream.
            if z.total_in() == read && z.total_out() == wrote && out.len() < out.capacity() {
                return Err(bad(&"unexpected end of the gzip stream"));
            }
        }
        if out.len() >= cap {
            break;
        }
        rest = rest.get(z.total_in() as usize..).unwrap_or_default();
    }
    if out.len() as u64 > max {
        let limit = size_name(max);
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            format!("gzip data inflates past {limit}"),
        ));
    }
    Ok(out)
}

/// The room to reserve for a gzip file's inflated bytes: the size its last member's trailer
/// gives (ISIZE, the inflated size modulo 2^32: the whole size for the usual file of one
/// member under 4 GiB), so that inflating needs one allocation; at least four times the
/// compressed size, and never more than the limit or deflate's largest ratio (1032 to 1)
/// allow, as the trailer is the input's word.
fn inflated_size_hint(gz: &[u8], max: u64) -> usize {
    let trailer = gz
        .len()
        .checked_sub(4)
        .and_then(|k| gz.get(k..))
        .and_then(|t| <[u8; 4]>::try_from(t).ok())
        .map_or(0, u32::from_le_bytes);
    let most = gz.len().saturating_mul(1032);
    let limit = usize::try_from(max.saturating_add(1)).unwrap_or(usize::MAX);
    (trailer as usize)
        .saturating_add(1)
        .max(gz.len().saturating_mul(4))
        .min(most)
        .min(limit)
}

/// What a path is, for the messages that refuse it (`a FIFO (named pipe)`, `a folder`).
pub fn kind_of(t: std::fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if t.is_fifo() {
            return "a FIFO (named pipe)";
        }
        if t.is_socket() {
            return "a socket";
        }
        if t.is_block_device() {
            return "a block device";
        }
        if t.is_char_device() {
            return "a character device";
        }
    }
    if t.is_dir() {
        "a folder"
    } else if t.is_symlink() {
        "a symbolic link"
    } else if t.is_file() {
        "a regular file"
    } else {
        "not a regular file"
    }
}

/// The error for a path that can be read neither as a file nor as a stream.
fn unreadable(t: std::fs::FileType) -> std::io::Error {
    let kind = kind_of(t);
    let text = if kind.starts_with("not ") {
        kind.to_string()
    } else {
        format!("not a regular file but {kind}")
    };
    std::io::Error::new(std::io::ErrorKind::InvalidInput, text)
}

/// Whether a file type is read and written as a stream: a FIFO or a character device.
fn is_stream(t: std::fs::FileType) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        t.is_fifo() || t.is_char_device()
    }
    #[cfg(not(unix))]
    {
        let _ = t;
        false
    }
}

/// How long reading a FIFO that no program has opened for writing yet waits for one before it
/// takes the FIFO as empty (`mkfifo f; victor label f` with no writer ends, it does not hang).
pub const FIFO_WAIT: Duration = Duration::from_secs(2);

/// How often a FIFO without a writer is looked at again within [`FIFO_WAIT`].
const FIFO_POLL: Duration = Duration::from_millis(10);

/// A path opened for reading the way victor reads what it is named: a regular file, or a stream
/// (a FIFO or a character device) read to its end. A folder, a socket or a block device is
/// refused. A FIFO is opened without waiting for a writer; one that no program writes to within
/// [`FIFO_WAIT`] reads as empty ([`Opened::no_writer`]).
#[derive(Debug)]
pub struct Opened {
    /// Bytes read while waiting for a FIFO's writer, given back first.
    head: std::io::Cursor<Vec<u8>>,
    file: std::fs::File,
    stream: bool,
    no_writer: bool,
}

impl Opened {
    /// Opens `path` (links followed) for reading.
    ///
    /// # Errors
    /// The path cannot be opened, or is neither a regular file, a FIFO nor a character device
    /// (the message says what it is).
    pub fn open(path: &Path) -> std::io::Result<Opened> {
        let meta = std::fs::metadata(path)?;
        if !meta.is_file() && !is_stream(meta.file_type()) {
            return Err(unreadable(meta.file_type()));
        }
        let mut options = std::fs::OpenOptions::new();
        options.read(true);
        #[cfg(unix)]
        {
            // Opening a FIFO does not wait for a writer (nor a terminal become the controlling
            // one); what was opened is checked below.
            use std::os::unix::fs::OpenOptionsExt;
            options.custom_flags(libc::O_NONBLOCK | libc::O_NOCTTY);
        }
        let file = options.open(path)?;
        let t = file.metadata()?.file_type();
        if t.is_file() {
            return Ok(Opened {
                head: std::io::Cursor::new(Vec::new()),
                file,
                stream: false,
                no_writer: false,
            });
        }
        if !is_stream(t) {
            return Err(unreadable(t));
        }
        let (head, no_writer) = if is_fifo(t) {
            wait_for_writer(&file)?
        } else {
            (Vec::new(), false)
        };
        blocking(&file)?;
        Ok(Opened {
            head: std::io::Cursor::new(head),
            file,
            stream: true,
            no_writer,
        })
    }

    /// Whether the path is a stream (a FIFO or a character device), not a regular file.
    pub fn is_stream(&self) -> bool {
        self.stream
    }

    /// Whether the path is a FIFO that no program opened for writing within [`FIFO_WAIT`]
    /// (it reads as empty).
    pub fn no_writer(&self) -> bool {
        self.no_writer
    }

    /// All the bytes: a regular file whole, a stream to its end but no more than `max` bytes.
    ///
    /// # Errors
    /// Reading fails, or a stream holds more than `max` bytes.
    pub fn read_all(mut self, max: u64) -> std::io::Result<Vec<u8>> {
        if !self.stream {
            let len = self.file.metadata().map_or(0, |m| m.len());
            let mut bytes = Vec::with_capacity(usize::try_from(len).unwrap_or(0));
            self.file.read_to_end(&mut bytes)?;
            return Ok(bytes);
        }
        let mut bytes = Vec::new();
        (&mut self)
            .take(max.saturating_add(1))
            .read_to_end(&mut bytes)?;
        if bytes.len() as u64 > max {
            return Err(std::io::Error::new(
                std::io::ErrorKind::InvalidData,
                format!("the stream holds more than {}", size_name(max)),
            ));
        }
        Ok(bytes)
    }
}

impl Read for Opened {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.head.read(buf)?;
        if n > 0 {
            return Ok(n);
        }
        self.file.read(buf)
    }
}

/// Whether a file type is a FIFO.
fn is_fifo(t: std::fs::FileType) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        t.is_fifo()
    }
    #[cfg(not(unix))]
    {
        let _ = t;
        false
    }
}

/// Waits up to [`FIFO_WAIT`] for a program to open the FIFO `file` (opened non-blocking) for
/// writing: a read that would block says a writer is there, bytes say one was; a read of
/// nothing says none has come yet (Linux reads a FIFO without writers as its end). Returns the
/// bytes read meanwhile, and whether no writer came.
fn wait_for_writer(mut file: &std::fs::File) -> std::io::Result<(Vec<u8>, bool)> {
    let deadline = Instant::now() + FIFO_WAIT;
    let mut buf = vec![0; 64 << 10];
    loop {
        match file.read(&mut buf) {
            Ok(0) if Instant::now() < deadline => std::thread::sleep(FIFO_POLL),
            Ok(0) => return Ok((Vec::new(), true)),
            Ok(n) => {
                buf.truncate(n);
                return Ok((buf, false));
            }
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => return Ok((Vec::new(), false)),
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
}

/// Makes reads of a stream opened non-blocking wait for their bytes again.
fn blocking(file: &std::fs::File) -> std::io::Result<()> {
    #[cfg(unix)]
    {
        use rustix::fs::{OFlags, fcntl_getfl, fcntl_setfl};
        let flags = fcntl_getfl(file)?;
        fcntl_setfl(file, flags.difference(OFlags::NONBLOCK))?;
    }
    #[cfg(not(unix))]
    let _ = file;
    Ok(())
}

/// A size for a message: `256 MiB`, or `1000 bytes` below a mebibyte.
fn size_name(n: u64) -> String {
    if n >= 1 << 20 {
        format!("{} MiB", n >> 20)
    } else {
        format!("{n} bytes")
    }
}

/// Reads what `path` names whole ([`Opened`]): a regular file, or a FIFO or a character device
/// to its end (at most [`MAX_PAGE_BYTES`]); refuses a folder, a socket or a block device with the
/// reason, without ever waiting on it for long.
///
/// # Errors
/// As [`Opened::open`] and [`Opened::read_all`].
pub fn read_input(path: &Path) -> std::io::Result<Vec<u8>> {
    Opened::open(path)?.read_all(MAX_PAGE_BYTES)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    fn gzip(data: &[u8]) -> Vec<u8> {
        let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        enc.write_all(data).expect("gzip");
        enc.finish().expect("gzip")
    }

    #[test]
    fn plain_bytes_pass_through_and_gzip_is_inflated() {
        let page = b"<p>Hello</p>".to_vec();
        assert_eq!(inflate(page.clone(), 100).expect("plain"), page);
        assert_eq!(inflate(gzip(&page), 100).expect("gzip"), page);
        let mut two = gzip(b"<p>one</p>");
        two.extend(gzip(b"<p>two</p>"));
        assert_eq!(inflate(two, 100).expect("members"), b"<p>one</p><p>two</p>");
    }

    #[test]
    fn the_room_reserved_is_the_trailers_size_within_what_the_input_allows() {
        let text = b"<p>words</p>".repeat(1000);
        let gz = gzip(&text);
        // One member: its trailer's size, and the byte that shows the limit is not passed.
        assert_eq!(inflated_size_hint(&gz, 1 << 20), text.len() + 1);
        assert_eq!(inflate(gz.clone(), 1 << 20).expect("gzip"), text);
        // A trailer that claims 4 GiB of a 30-byte file: no more than deflate's ratio, nor
        // than the limit, is reserved,
        let mut forged = gzip(b"<p>x</p>");
        let n = forged.len();
        forged[n - 4..].copy_from_slice(&u32::MAX.to_le_bytes());
        assert_eq!(inflated_size_hint(&forged, 1 << 30), n * 1032);
        assert_eq!(inflated_size_hint(&forged, 100), 101);
        // and the size the trailer lies about is caught when inflating.
        let err = inflate(forged, 100).expect_err("forged size");
        assert!(err.to_string().contains("bad gzip data"), "{err}");
        // Too short to hold a trailer: four times its size.
        assert_eq!(inflated_size_hint(&[0x1f, 0x8b], 100), 8);
    }

    #[test]
    fn broken_or_oversized_gzip_is_an_error_that_says_why() {
        let err = inflate(b"\x1f\x8bnot gzip".to_vec(), 100).expect_err("broken");
        assert!(err.to_string().contains("bad gzip data"), "{err}");
        // A stream cut short (a crawl's truncated record) is refused, not read in part.
        let text: Vec<u8> = (0..2_000u32)
            .flat_map(|i| i.to_string().into_bytes())
            .collect();
        let whole = gzip(&text);
        let cut = whole[..whole.len() / 2].to_vec();
        let err = inflate(cut, 1 << 20).expect_err("truncated");
        assert!(err.to_string().contains("bad gzip data"), "{err}");
        let bomb = gzip(&vec![b'a'; 5_000]);
        assert!(bomb.len() < 200);
        let err = inflate(bomb.clone(), 1_000).expect_err("too big");
        assert!(
            err.to_string().contains("inflates past 1000 bytes"),
            "{err}"
        );
        assert_eq!(inflate(bomb, 5_000).expect("at the cap").len(), 5_000);
    }

    #[test]
    fn a_gzipped_file_reads_as_its_page_and_a_folder_is_refused() {
        let dir = tempfile::tempdir().expect("tempdir");
        let p = dir.path().join("a.html.gz");
        std::fs::write(&p, gzip(b"<p>x</p>")).expect("write");
        assert_eq!(read_page_file(&p).expect("read"), b"<p>x</p>");
        let err = read_page_file(dir.path()).expect_err("folder");
        assert!(err.to_string().contains("a folder"), "{err}");
    }

    #[cfg(unix)]
    #[test]
    fn a_fifo_or_a_device_reads_as_a_stream_and_a_fifo_without_writer_as_empty() {
        let dir = tempfile::tempdir().expect("tempdir");
        let fifo = dir.path().join("f.html");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        assert!(made.expect("mkfifo runs").success());
        // No writer: empty after the wait, and said so.
        let started = Instant::now();
        let opened = Opened::open(&fifo).expect("opened without waiting for a writer");
        assert!(opened.is_stream() && opened.no_writer());
        assert!(started.elapsed() < FIFO_WAIT + Duration::from_secs(5));
        assert!(opened.read_all(100).expect("read").is_empty());
        // A writer that comes a little later is read to its end, gzip inflated.
        let writer = {
            let fifo = fifo.clone();
            std::thread::spawn(move || {
                std::thread::sleep(Duration::from_millis(300));
                let mut f = std::fs::OpenOptions::new()
                    .write(true)
                    .open(&fifo)
                    .expect("open for writing");
                f.write_all(&gzip(b"<p>first</p>")).expect("write");
            })
        };
        assert_eq!(read_page_file(&fifo).expect("read"), b"<p>first</p>");
        writer.join().expect("writer");
        // Character devices: /dev/null is empty, /dev/zero ends at the limit.
        assert!(read_input(Path::new("/dev/null")).expect("null").is_empty());
        let zero = Opened::open(Path::new("/dev/zero")).expect("zero");
        let err = zero.read_all(1000).expect_err("endless");
        assert!(err.to_string().contains("more than 1000 bytes"), "{err}");
    }

    #[cfg(unix)]
    #[test]
    fn a_socket_is_refused_with_what_it_is() {
        let dir = tempfile::tempdir().expect("tempdir");
        let sock = dir.path().join("s.html");
        let _listener = std::os::unix::net::UnixListener::bind(&sock).expect("bind");
        let err = read_page_file(&sock).expect_err("a socket");
        assert!(
            err.to_string().contains("not a regular file but a socket"),
            "{err}"
        );
    }
}

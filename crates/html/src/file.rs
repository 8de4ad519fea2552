//! Reading a page file: the bytes of a regular file, inflated when they are gzip.
//!
//! Crawls and benchmark sets store pages compressed (`page.html.gz`), so every reader of page
//! files (the CLI's `label`, `features` and `bench`, the importer, `eval`, `sweep`, `cv`, and the
//! tests that walk the shared sets) goes through [`read_page_file`]: bytes that start with the
//! gzip magic number are inflated, whatever the file is called, and anything else passes through
//! as it is. Inflation stops at [`MAX_PAGE_BYTES`]: a small file that inflates to gigabytes
//! (a "zip bomb") is an error of that page, not an exhausted machine. A FIFO, a socket, a device
//! or a folder is refused with the reason, without ever waiting on it.
//!
//! Writing a file atomically: every file victor writes (outputs, annotated sets, reports,
//! bundles) is first written whole to a temporary file beside its target, named
//! [`TMP_PREFIX`]`*`, and then renamed over it, so no reader ever sees half a file and a failure
//! leaves the old file as it was ([`write_atomic`], [`temp_file_in`], [`temp_builder`]).

use std::io::{Read, Write};
use std::path::Path;

/// How the temporary files of atomic writes are named (`.victor-tmp-XXXXXX`): hidden, and
/// recognisable as victor's should a crash or a second Ctrl-C leave one behind.
pub const TMP_PREFIX: &str = ".victor-tmp-";

/// A temporary file or folder builder named `prefix*`, whose results get `mode` less the umask
/// (0666 for files, 0777 for folders: the permissions any new file or folder gets), not the
/// owner-only ones of temporary files.
pub fn temp_builder(prefix: &str, mode: u32) -> tempfile::Builder<'_, '_> {
    let mut b = tempfile::Builder::new();
    b.prefix(prefix);
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        b.permissions(std::fs::Permissions::from_mode(mode));
    }
    #[cfg(not(unix))]
    let _ = mode;
    b
}

/// A new temporary file in `dir` ([`TMP_PREFIX`]), to be renamed over its target when written
/// whole (`persist`); dropped unrenamed, on an error or an interruption, it is removed.
///
/// # Errors
/// The file cannot be created in `dir`.
pub fn temp_file_in(dir: &Path) -> std::io::Result<tempfile::NamedTempFile> {
    temp_builder(TMP_PREFIX, 0o666).tempfile_in(dir)
}

/// Writes `bytes` to `path` atomically: a temporary file in the same folder ([`temp_file_in`]),
/// then a rename over `path`. The folder must exist.
///
/// # Errors
/// The temporary file cannot be created or written, or not renamed into place.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let mut tmp = temp_file_in(dir)?;
    tmp.write_all(bytes)?;
    tmp.persist(path).map_err(|e| e.error)?;
    Ok(())
}

/// Largest page, in bytes after decompression, that a gzip-compressed page may inflate to.
pub const MAX_PAGE_BYTES: u64 = 256 << 20;

/// The two bytes every gzip member starts with.
const GZIP_MAGIC: [u8; 2] = [0x1f, 0x8b];

/// Reads a page file whole and inflates it if it is gzip ([`inflate`] with [`MAX_PAGE_BYTES`]).
///
/// # Errors
/// The file cannot be opened or read, is not a regular file (the message says what it is), or
/// holds broken gzip data or gzip data that inflates past the limit.
pub fn read_page_file(path: &Path) -> std::io::Result<Vec<u8>> {
    inflate(read_regular_file(path)?, MAX_PAGE_BYTES)
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
    let mut out = Vec::with_capacity(inflated_size_hint(&bytes, max));
    // The `bufread` decoder reads the slice where it lies (the `read` one copies it through a
    // buffer of its own first).
    flate2::bufread::MultiGzDecoder::new(bytes.as_slice())
        .take(max.saturating_add(1))
        .read_to_end(&mut out)
        .map_err(|e| std::io::Error::new(e.kind(), format!("bad gzip data: {e}")))?;
    if out.len() as u64 > max {
        let limit = if max >= 1 << 20 {
            format!("{} MiB", max >> 20)
        } else {
            format!("{max} bytes")
        };
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

/// What a path that is not a regular file is, for the message that refuses it (`a FIFO`).
fn kind_of(t: std::fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if t.is_fifo() {
            return "a FIFO (named pipe)";
        }
        if t.is_socket() {
            return "a socket";
        }
        if t.is_block_device() || t.is_char_device() {
            return "a device";
        }
    }
    if t.is_dir() {
        "a folder"
    } else {
        "not a regular file"
    }
}

/// The error for a path that is not a regular file.
fn not_regular(t: std::fs::FileType) -> std::io::Error {
    let kind = kind_of(t);
    let text = if kind.starts_with("not ") {
        kind.to_string()
    } else {
        format!("not a regular file but {kind}")
    };
    std::io::Error::new(std::io::ErrorKind::InvalidInput, text)
}

/// Reads a regular file whole; refuses a FIFO, a socket, a device or a folder with the reason,
/// without ever waiting on it (a FIFO is opened non-blocking and checked before it is read).
pub fn read_regular_file(path: &Path) -> std::io::Result<Vec<u8>> {
    let meta = std::fs::metadata(path)?;
    if !meta.is_file() {
        return Err(not_regular(meta.file_type()));
    }
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        // Should the path have become a FIFO since the check, opening does not wait for a
        // writer; the check below then refuses it.
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK);
    }
    let mut file = options.open(path)?;
    let meta = file.metadata()?;
    if !meta.is_file() {
        return Err(not_regular(meta.file_type()));
    }
    let mut bytes = Vec::with_capacity(usize::try_from(meta.len()).unwrap_or(0));
    file.read_to_end(&mut bytes)?;
    Ok(bytes)
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
}

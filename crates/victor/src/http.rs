//! HTTP bodies as WARC files keep them: sent with `Transfer-Encoding: chunked` and compressed
//! with `Content-Encoding: gzip`, `deflate` or `br`, as the server sent them (wget, Heritrix and
//! browsertrix keep these raw bytes; Common Crawl keeps some). [`decode_body`] undoes the
//! transfer coding and then the content codings, last applied first.
//!
//! Archives also hold bodies that were decoded before they were written while the header still
//! names the coding. A step that fails on bytes that already read as markup (a `<` first, after
//! white space and a byte-order mark) keeps those bytes: they were decoded already. A record that
//! says it was cut (`WARC-Truncated`) keeps what decodes before the cut; any other failure is an
//! error with the reason.
//!
//! Archives also hold chunked bodies whose header lost its `Transfer-Encoding` (the chunk sizes
//! would then show in the text: `Reg 3e8 arding`). A body without that header whose every byte
//! parses as chunk framing ([`strictly_chunked`]) is de-chunked.

use std::borrow::Cow;
use std::io::{self, Read};

/// A decoded body larger than this is refused (a compressed body can expand a thousandfold).
pub(crate) const MAX_BODY: usize = 64 << 20;

/// Why a body does not decode.
#[derive(Debug, thiserror::Error)]
pub enum BodyError {
    /// The chunked transfer coding is broken.
    #[error("the chunked body is broken: {0}")]
    Chunked(&'static str),
    /// A content coding does not decode.
    #[error("the {coding} body does not decode: {reason}")]
    Decode {
        /// `gzip`, `deflate` or `br`.
        coding: &'static str,
        /// The decoder's error.
        reason: String,
    },
    /// A coding this reader does not know (`compress`, `zstd`, ...).
    #[error("unsupported coding {0:?}")]
    Unsupported(String),
    /// The decoded body is over `MAX_BODY` bytes.
    #[error("the decoded body is over {MAX_BODY} bytes")]
    TooLarge,
}

/// The codings of a body, as its HTTP header names them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Codings<'a> {
    /// The `Transfer-Encoding` value (`chunked`, or a list ending with it).
    pub transfer: Option<&'a str>,
    /// The `Content-Encoding` value (`gzip`, `deflate`, `br`, or a list of them).
    pub content: Option<&'a str>,
}

impl Codings<'_> {
    /// Whether the body is sent as it is (no coding other than `identity`).
    pub fn is_identity(&self) -> bool {
        [self.transfer, self.content]
            .into_iter()
            .flatten()
            .flat_map(|v| v.split(','))
            .all(|c| {
                let c = c.trim();
                c.is_empty() || c.eq_ignore_ascii_case("identity")
            })
    }
}

/// One coding to undo.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Coding {
    Chunked,
    Gzip,
    Deflate,
    Brotli,
}

impl Coding {
    fn parse(name: &str) -> Result<Option<Coding>, BodyError> {
        let n = name.trim();
        Ok(Some(if n.eq_ignore_ascii_case("chunked") {
            Coding::Chunked
        } else if n.eq_ignore_ascii_case("gzip") || n.eq_ignore_ascii_case("x-gzip") {
            Coding::Gzip
        } else if n.eq_ignore_ascii_case("deflate") {
            Coding::Deflate
        } else if n.eq_ignore_ascii_case("br") {
            Coding::Brotli
        } else if n.is_empty() || n.eq_ignore_ascii_case("identity") {
            return Ok(None);
        } else {
            return Err(BodyError::Unsupported(n.to_string()));
        }))
    }

    fn name(self) -> &'static str {
        match self {
            Coding::Chunked => "chunked",
            Coding::Gzip => "gzip",
            Coding::Deflate => "deflate",
            Coding::Brotli => "br",
        }
    }
}

/// Whether bytes read as markup: `<` first, after white space and a UTF-8 byte-order mark.
fn looks_like_markup(bytes: &[u8]) -> bool {
    let b = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    b.iter()
        .find(|c| !c.is_ascii_whitespace())
        .is_some_and(|&c| c == b'<')
}

/// The body with its codings undone (see the module docs). `truncated`: the record says it was
/// cut, so a coding that breaks off at its end keeps what decoded before.
pub(crate) fn decode_body<'a>(
    body: &'a [u8],
    codings: Codings<'_>,
    truncated: bool,
) -> Result<Cow<'a, [u8]>, BodyError> {
    let names_chunked = codings.transfer.is_some_and(|t| {
        t.split(',')
            .any(|c| matches!(Coding::parse(c), Ok(Some(Coding::Chunked))))
    });
    if !names_chunked && let Some(dechunked) = strictly_chunked(body) {
        // Chunk framing archived without its header: undone first, then the rest as named.
        let rest = decode_body(&dechunked, codings, truncated)?.into_owned();
        return Ok(Cow::Owned(rest));
    }
    if codings.is_identity() || body.is_empty() {
        return Ok(Cow::Borrowed(body));
    }
    // The codings in the order they were applied: content codings, then transfer codings.
    let mut steps = Vec::with_capacity(2);
    for list in [codings.content, codings.transfer].into_iter().flatten() {
        for name in list.split(',') {
            if let Some(c) = Coding::parse(name)? {
                steps.push(c);
            }
        }
    }
    let mut cur: Cow<'a, [u8]> = Cow::Borrowed(body);
    for &coding in steps.iter().rev() {
        let mut out = Vec::new();
        match undo(coding, &cur, truncated, &mut out) {
            Ok(()) => cur = Cow::Owned(out),
            // Bytes that read as markup were decoded before they were archived.
            Err(_) if looks_like_markup(&cur) => break,
            Err(e) => return Err(e),
        }
    }
    Ok(cur)
}

/// Undoes one coding of `input` into `out`.
fn undo(coding: Coding, input: &[u8], truncated: bool, out: &mut Vec<u8>) -> Result<(), BodyError> {
    let r = match coding {
        Coding::Chunked => return dechunk(input, truncated, out),
        Coding::Gzip => read_limited(flate2::bufread::MultiGzDecoder::new(input), out),
        // `deflate` is a zlib stream by the HTTP standard; some servers send raw deflate.
        Coding::Deflate if is_zlib_header(input) => {
            read_limited(flate2::bufread::ZlibDecoder::new(input), out)
        }
        Coding::Deflate => read_limited(flate2::bufread::DeflateDecoder::new(input), out),
        Coding::Brotli => read_limited(brotli_decompressor::Decompressor::new(input, 4096), out),
    };
    match r {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == io::ErrorKind::OutOfMemory => Err(BodyError::TooLarge),
        // A record cut short keeps what decoded before the cut.
        Err(_) if truncated && !out.is_empty() => Ok(()),
        Err(e) => Err(BodyError::Decode {
            coding: coding.name(),
            reason: e.to_string(),
        }),
    }
}

/// Whether bytes start with a zlib header (deflate, a valid check value).
fn is_zlib_header(b: &[u8]) -> bool {
    match b {
        [cmf, flg, ..] => cmf & 0x0f == 8 && (u16::from(*cmf) << 8 | u16::from(*flg)) % 31 == 0,
        _ => false,
    }
}

/// Reads a decoder to its end into `out`, refusing more than [`MAX_BODY`] bytes (reported as
/// `OutOfMemory`). A stream that ends before the decoder expects is an `UnexpectedEof` error.
fn read_limited(r: impl Read, out: &mut Vec<u8>) -> io::Result<()> {
    let limit = MAX_BODY as u64 + 1;
    let n = r.take(limit).read_to_end(out)?;
    if n as u64 >= limit {
        return Err(io::Error::new(io::ErrorKind::OutOfMemory, "body too large"));
    }
    Ok(())
}

/// The body de-chunked if the whole of it is chunk framing, strictly: a size line of 1 to 16
/// hexadecimal digits and CRLF, that many bytes and CRLF, again and again (at least one chunk
/// with data), then `0` CRLF, trailer field lines each ending CRLF, and CRLF; nothing after but
/// line ends. Anything else (extensions, bare LF, a size that does not fit, a missing last chunk)
/// is `None`: a body as sent.
pub(crate) fn strictly_chunked(body: &[u8]) -> Option<Vec<u8>> {
    // Cheap refusal of the common case: a page starts with markup, not a hex digit.
    if !body.first().is_some_and(u8::is_ascii_hexdigit) {
        return None;
    }
    let mut out = Vec::new();
    let mut rest = body;
    loop {
        let nl = memchr::memmem::find(rest.get(..18.min(rest.len()))?, b"\r\n")?;
        let (digits, after) = rest.split_at(nl);
        if digits.is_empty() || !digits.iter().all(u8::is_ascii_hexdigit) {
            return None;
        }
        let size = usize::from_str_radix(std::str::from_utf8(digits).ok()?, 16).ok()?;
        let after = after.get(2..)?;
        if size == 0 {
            // Trailer field lines (`Name: value`), then the empty line; then only line ends.
            let mut t = after;
            loop {
                let end = memchr::memmem::find(t, b"\r\n")?;
                let (line, next) = t.split_at(end);
                t = next.get(2..)?;
                if line.is_empty() {
                    break;
                }
                if !line.contains(&b':') {
                    return None;
                }
            }
            let only_line_ends = t.iter().all(|&b| b == b'\r' || b == b'\n');
            return (only_line_ends && !out.is_empty()).then_some(out);
        }
        if out.len().saturating_add(size) > MAX_BODY {
            return None;
        }
        let data = after.get(..size)?;
        rest = after.get(size..)?.strip_prefix(b"\r\n")?;
        out.extend_from_slice(data);
    }
}

/// Undoes the chunked transfer coding: hexadecimal sizes (with optional `;extensions`), each
/// followed by that many bytes and a line end, up to the size 0 (trailer fields after it are
/// dropped).
fn dechunk(mut input: &[u8], truncated: bool, out: &mut Vec<u8>) -> Result<(), BodyError> {
    let cut = |out: &Vec<u8>, why| {
        if truncated && !out.is_empty() {
            Ok(())
        } else {
            Err(BodyError::Chunked(why))
        }
    };
    out.reserve(input.len());
    loop {
        let Some(nl) = memchr::memchr(b'\n', input) else {
            return cut(out, "the body ends inside a chunk size line");
        };
        let (line, rest) = input.split_at(nl);
        // `rest` starts with the line break.
        let rest = rest.split_first().map_or(&[][..], |(_, r)| r);
        let size = line
            .split(|&b| b == b';')
            .next()
            .unwrap_or_default()
            .trim_ascii();
        let size = std::str::from_utf8(size)
            .ok()
            .filter(|s| !s.is_empty())
            .and_then(|s| usize::from_str_radix(s, 16).ok());
        let Some(size) = size else {
            return cut(out, "a chunk size that is not a hexadecimal number");
        };
        if size == 0 {
            return Ok(());
        }
        if out.len().saturating_add(size) > MAX_BODY {
            return Err(BodyError::TooLarge);
        }
        let Some((data, after)) = rest.split_at_checked(size) else {
            out.extend_from_slice(rest);
            return cut(out, "the body ends inside a chunk");
        };
        out.extend_from_slice(data);
        input = after
            .strip_prefix(b"\r\n")
            .or_else(|| after.strip_prefix(b"\n"))
            .unwrap_or(after);
        if input.is_empty() {
            // The last chunk and its size 0 are missing.
            return cut(out, "the body ends before its last chunk");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    const HTML: &[u8] =
        b"<html><body><p>Some text that is long enough to compress.</p></body></html>";
    /// `HTML` compressed by Python's `brotli.compress(HTML, quality=5)` (no brotli encoder among
    /// the dependencies).
    const BROTLI: &[u8] = b"\x1b\x4a\x00\x00\x04\xfe\x67\x47\xfa\x80\x0a\xa4\x7d\x91\x00\x5b\xd8\x3a\x08\xce\x31\x0e\x5c\xa6\xbf\x16\xd8\x64\x97\x61\x63\xec\xcc\x24\x1c\xa7\xb0\x92\x60\x2d\x3d\x1c\xc5\x53\xee\x34\xd7\xff\x90\x45\x20\xc1\x65\xa9\x9d\x22\x63\x8f\x47\x91\x95\x83\x00";

    fn gzip(b: &[u8]) -> Vec<u8> {
        let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        e.write_all(b).unwrap();
        e.finish().unwrap()
    }

    fn chunked(b: &[u8], size: usize) -> Vec<u8> {
        let mut out = Vec::new();
        for c in b.chunks(size) {
            out.extend_from_slice(format!("{:x};ext=1\r\n", c.len()).as_bytes());
            out.extend_from_slice(c);
            out.extend_from_slice(b"\r\n");
        }
        out.extend_from_slice(b"0\r\nX-Trailer: 1\r\n\r\n");
        out
    }

    fn codings<'a>(transfer: Option<&'a str>, content: Option<&'a str>) -> Codings<'a> {
        Codings { transfer, content }
    }

    #[test]
    fn undoes_chunked_then_gzip_deflate_and_br() {
        let gz = gzip(HTML);
        let body = chunked(&gz, 7);
        let got = decode_body(&body, codings(Some("chunked"), Some("gzip")), false).unwrap();
        assert_eq!(&*got, HTML);
        let mut z = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::fast());
        z.write_all(HTML).unwrap();
        let z = z.finish().unwrap();
        assert_eq!(
            &*decode_body(&z, codings(None, Some("deflate")), false).unwrap(),
            HTML
        );
        let mut d = flate2::write::DeflateEncoder::new(Vec::new(), flate2::Compression::fast());
        d.write_all(HTML).unwrap();
        let d = d.finish().unwrap();
        assert_eq!(
            &*decode_body(&d, codings(None, Some("Deflate")), false).unwrap(),
            HTML
        );
        // Two content codings, undone last first.
        let gz_z = gzip(&z);
        let got = decode_body(&gz_z, codings(None, Some("deflate, gzip")), false).unwrap();
        assert_eq!(&*got, HTML);
        assert_eq!(
            &*decode_body(BROTLI, codings(None, Some("br")), false).unwrap(),
            HTML
        );
        assert_eq!(
            &*decode_body(&chunked(HTML, 5), codings(Some("chunked"), None), false).unwrap(),
            HTML
        );
        // No coding: the body itself, not a copy.
        assert!(matches!(
            decode_body(HTML, codings(None, Some("identity")), false),
            Ok(Cow::Borrowed(_))
        ));
    }

    #[test]
    fn bodies_decoded_before_archiving_are_kept_and_broken_ones_refused() {
        // The header says gzip and chunked but the archive holds the decoded page.
        let got = decode_body(HTML, codings(Some("chunked"), Some("gzip")), false).unwrap();
        assert_eq!(&*got, HTML);
        // A gzip body cut in the middle: an error, unless the record says it was truncated.
        let gz = gzip(&HTML.repeat(50));
        let cut = &gz[..gz.len() / 2];
        let e = decode_body(cut, codings(None, Some("gzip")), false).unwrap_err();
        assert!(matches!(e, BodyError::Decode { coding: "gzip", .. }), "{e}");
        let partial = decode_body(cut, codings(None, Some("gzip")), true).unwrap();
        assert!(!partial.is_empty() && HTML.repeat(50).starts_with(&partial));
        // Garbage that is neither gzip nor markup.
        assert!(decode_body(b"\x00\x01garbage", codings(None, Some("br")), false).is_err());
        assert!(decode_body(b"zz\r\nabc", codings(Some("chunked"), None), false).is_err());
        let c = chunked(HTML, 10);
        let e = decode_body(&c[..c.len() - 30], codings(Some("chunked"), None), false).unwrap_err();
        assert!(matches!(e, BodyError::Chunked(_)), "{e}");
        assert!(matches!(
            decode_body(&gz, codings(None, Some("zstd")), false),
            Err(BodyError::Unsupported(c)) if c == "zstd"
        ));
    }

    #[test]
    fn chunk_framing_without_its_header_is_undone_strictly() {
        let page = b"<p>Regarding the chunks</p>";
        let mut body = b"3\r\n<p>\r\n6\r\nRegard\r\n".to_vec();
        body.extend_from_slice(b"12\r\ning the chunks</p>\r\n0\r\n\r\n");
        let got = decode_body(&body, codings(None, None), false).unwrap();
        assert_eq!(&*got, page);
        // With trailers and trailing line ends, and under a content coding the header names.
        let gz = gzip(page);
        let mut framed = Vec::new();
        for c in gz.chunks(9) {
            framed.extend_from_slice(format!("{:X}\r\n", c.len()).as_bytes());
            framed.extend_from_slice(c);
            framed.extend_from_slice(b"\r\n");
        }
        framed.extend_from_slice(b"0\r\nX-Trailer: 1\r\n\r\n\r\n");
        let got = decode_body(&framed, codings(None, Some("gzip")), false).unwrap();
        assert_eq!(&*got, page);
        // Not whole framing: kept as it is.
        for not in [
            &b"3\r\n<p>\r\n6\r\nRegard\r\n"[..],  // no last chunk
            b"3\n<p>\n0\n\n",                     // bare LF
            b"3;x=1\r\n<p>\r\n0\r\n\r\n",         // an extension
            b"4\r\n<p>\r\n0\r\n\r\n",             // a size that does not fit
            b"3\r\n<p>\r\n0\r\n\r\n<p>after</p>", // text after the framing
            b"0\r\n\r\n",                         // no data
            b"cafe\r\nbabe",                      // a page that starts with hex
        ] {
            let got = decode_body(not, codings(None, None), false).unwrap();
            assert_eq!(&*got, not, "{:?}", String::from_utf8_lossy(not));
        }
    }

    #[test]
    fn a_body_that_expands_past_the_limit_is_refused() {
        let zeros = vec![0u8; MAX_BODY + 10];
        let gz = gzip(&zeros);
        assert!(gz.len() < MAX_BODY / 100);
        assert!(matches!(
            decode_body(&gz, codings(None, Some("gzip")), false),
            Err(BodyError::TooLarge)
        ));
    }
}

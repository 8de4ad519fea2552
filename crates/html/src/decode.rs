//! Reading a page: raw bytes -> text, detecting the encoding the way browsers do.
//!
//! Order of evidence:
//! 1. a byte-order mark (UTF-8, UTF-16LE, UTF-16BE) wins; without one, bytes laid out as UTF-16
//!    (a NUL byte in most code units of the first 4 KiB, on one side) are UTF-16 of that byte
//!    order when their `<meta>` declares UTF-16, or when, read so, the first 4 KiB are markup
//!    (a `<` and a `>`, no broken code units, under 2 % control characters): a page saved as
//!    "Unicode" by Windows tools without its mark is text, not binary data;
//! 2. bytes that are valid UTF-8 and contain multi-byte sequences are UTF-8, whatever a `<meta>`
//!    says (real windows-1252 text is almost never valid UTF-8; pages whose meta tag lies, as 257
//!    pages of L3S-GN1 do, come out right);
//! 3. bytes that are *mostly* UTF-8 (multi-byte sequences, whole or cut short, at least twice
//!    the lone bytes no sequence explains) are UTF-8 too, whatever a `<meta>` says: a UTF-8 page
//!    with a stray legacy byte (a pasted `\x92`) or mangled sequences keeps its text instead of
//!    turning every `’` into mojibake;
//! 4. a `<meta charset>` or `http-equiv="Content-Type"` declaration in the first 4 KiB (UTF-16
//!    declared in an ASCII-compatible document means UTF-8, as in HTML5). A page declared UTF-8
//!    that is not valid UTF-8 goes to the guess of 5: a legacy encoding other than windows-1252
//!    wins over the declaration (windows-1251 bytes under a copied `<meta charset=utf-8>`);
//!    otherwise its invalid bytes are read as in 3 (`coverage\x92s` is `coverage’s`, not
//!    `coverage�s`);
//! 5. a statistical guess for undeclared legacy encodings (`chardetng`, fed only the bytes it
//!    scores: the non-ASCII ones and the ASCII around them), except that a page whose text
//!    (outside tags, scripts and style sheets) is ASCII with a few symbol bytes (under 1 in 200
//!    letters: `©`, `£`, `§`, curly quotes) is windows-1252, the web's usual encoding for them,
//!    when the guess is another single-byte encoding: a handful of bytes is too little evidence
//!    for a language, and chardetng reads `£3,000` as Polish `Ł3,000` or `§§§` as Thai letters;
//! 6. UTF-8 as the last resort (pure ASCII).
//!
//! Binary data is refused with an error rather than turned into pages of replacement characters:
//! a file that starts with the signature of a common binary format (images, PDF, archives,
//! executables, fonts), or whose first 4 KiB hold more than 1 % NUL bytes or 2 % other control
//! characters. A few stray NUL bytes in a page are not binary: browsers ignore them in the text
//! (so does segmentation, which drops control characters), and refusing the page would lose its
//! text from the corpus.

use std::borrow::Cow;
use std::sync::LazyLock;

use crate::within::Within;
use encoding_rs::{Encoding, UTF_8};
use regex::bytes::Regex;

/// How the encoding was decided.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum EncodingSource {
    /// A byte-order mark.
    Bom,
    /// The bytes are valid UTF-8 (with non-ASCII content).
    ValidUtf8,
    /// A `<meta>` declaration.
    Meta,
    /// Mostly valid UTF-8: invalid bytes read as windows-1252.
    MostlyUtf8,
    /// chardetng's guess.
    Guess,
    /// ASCII text with a few symbol bytes: windows-1252 rather than chardetng's guess.
    SparseSymbols,
    /// No byte-order mark nor declaration, but the bytes are laid out as UTF-16 (a NUL byte in
    /// most code units, on one side) and read so they are markup.
    Utf16Layout,
    /// Nothing to go on: ASCII, decoded as UTF-8.
    Default,
}

/// A decoded document.
#[derive(Clone, Debug)]
pub struct Decoded<'a> {
    /// The text (borrowed when the input was UTF-8 already).
    pub text: Cow<'a, str>,
    /// The encoding used.
    pub encoding: &'static Encoding,
    /// How it was chosen.
    pub source: EncodingSource,
    /// Whether malformed sequences were met: replaced by U+FFFD, or, in a page read as UTF-8,
    /// a lone byte read as windows-1252.
    pub had_errors: bool,
}

/// Why bytes could not be read as a page.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DecodeError {
    /// The input looks like binary data, not text.
    #[error("not an HTML page: binary data ({0})")]
    Binary(&'static str),
}

const SNIFF_LEN: usize = 4096;

/// Decodes raw page bytes. See the module docs for the rules.
pub fn decode(bytes: &[u8]) -> Result<Decoded<'_>, DecodeError> {
    decode_with_charset(bytes, None)
}

/// Decodes raw page bytes whose transport declared a charset (the `charset` of an HTTP
/// `Content-Type` header, as a WARC response record carries it): the declaration takes the place
/// of the page's `<meta>` in rule 4 of the module docs (a transport declaration outranks the
/// document's own, as in browsers), and the byte-order mark and the UTF-8 rules still come first.
/// A label `encoding_rs` does not know is ignored; UTF-16 declared for bytes without a byte-order
/// mark is read as UTF-8, as for `<meta>`.
pub fn decode_with_charset<'a>(
    bytes: &'a [u8],
    charset: Option<&str>,
) -> Result<Decoded<'a>, DecodeError> {
    let http = charset
        .and_then(|c| Encoding::for_label(c.trim().as_bytes()))
        .map(Encoding::output_encoding);
    if let Some((enc, bom_len)) = Encoding::for_bom(bytes) {
        // The mark was found at the start of `bytes`.
        let rest = bytes.within(bom_len..);
        return Ok(decode_as(enc, rest, EncodingSource::Bom));
    }
    if let Some((enc, source)) = utf16_without_bom(bytes) {
        return Ok(decode_as(enc, bytes, source));
    }
    check_not_binary(bytes)?;
    if let Ok(s) = simdutf8::basic::from_utf8(bytes) {
        let source = if s.is_ascii() {
            // Declared legacy encodings agree with ASCII; report what the page declared.
            if prescan_meta(bytes).is_some() {
                EncodingSource::Meta
            } else {
                EncodingSource::Default
            }
        } else {
            EncodingSource::ValidUtf8
        };
        return Ok(Decoded {
            text: Cow::Borrowed(s),
            encoding: UTF_8,
            source,
            had_errors: false,
        });
    }
    if let Some(text) = mostly_utf8(bytes) {
        return Ok(Decoded {
            text: Cow::Owned(text),
            encoding: UTF_8,
            source: EncodingSource::MostlyUtf8,
            had_errors: true,
        });
    }
    let (enc, source) = match http.or_else(|| prescan_meta(bytes)) {
        // Declared UTF-8 but not valid UTF-8 (nor mostly): the declaration is wrong or the page
        // has a stray legacy byte. What detection says decides: a legacy encoding other than
        // windows-1252 (windows-1251 Cyrillic under a copied `<meta charset=utf-8>`) is read as
        // such; windows-1252 is what the UTF-8 reading below gives the stray bytes anyway.
        //
        // Overlong forms and surrogates (`C0 AF`, `ED A0 80`) are UTF-8 that a careless encoder
        // wrote, not legacy text: a page made of UTF-8 and such sequences is read as declared,
        // each of them U+FFFD as browsers read them, not re-detected (chardetng would take the
        // bytes for Chinese or Japanese and turn the whole page into mojibake).
        Some(enc) if enc == UTF_8 && forbidden_utf8(bytes) => (UTF_8, EncodingSource::Meta),
        Some(enc) if enc == UTF_8 => match guess_legacy(bytes) {
            (guess, source) if guess != UTF_8 && guess != encoding_rs::WINDOWS_1252 => {
                (guess, source)
            }
            _ => (UTF_8, EncodingSource::Meta),
        },
        Some(enc) => (enc, EncodingSource::Meta),
        None => guess_legacy(bytes),
    };
    if enc == UTF_8 {
        // Declared UTF-8, but not valid: a legacy byte or two in a UTF-8 page.
        return Ok(Decoded {
            text: Cow::Owned(utf8_with_fallback(bytes)),
            encoding: enc,
            source,
            had_errors: true,
        });
    }
    Ok(decode_as(enc, bytes, source))
}

/// Whether `label` names a charset (`utf-8`, `latin1`, `Shift_JIS`: the WHATWG labels, any
/// case, white space around them ignored), as [`decode_with_charset`] reads them; it ignores a
/// label that does not, as a browser ignores a header's, so a caller that takes a charset from a
/// user checks it here first.
pub fn known_charset(label: &str) -> bool {
    Encoding::for_label(label.trim().as_bytes()).is_some()
}

/// `bytes` decoded as `enc` (no byte-order mark left in them), with where `enc` came from.
fn decode_as<'a>(enc: &'static Encoding, bytes: &'a [u8], source: EncodingSource) -> Decoded<'a> {
    let (text, had_errors) = enc.decode_without_bom_handling(bytes);
    Decoded {
        text,
        encoding: enc,
        source,
        had_errors,
    }
}

/// chardetng's guess for bytes that are not UTF-8, or windows-1252 for ASCII text with a few
/// symbol bytes (see the module docs, rule 5).
fn guess_legacy(bytes: &[u8]) -> (&'static Encoding, EncodingSource) {
    let mut det = chardetng::EncodingDetector::new(chardetng::Iso2022JpDetection::Deny);
    det.feed(&detector_sample(bytes), true);
    let guess = det.guess(None, chardetng::Utf8Detection::Allow);
    if guess != encoding_rs::WINDOWS_1252 && guess.is_single_byte() && sparse_symbols(bytes) {
        (encoding_rs::WINDOWS_1252, EncodingSource::SparseSymbols)
    } else {
        (guess, EncodingSource::Guess)
    }
}

/// UTF-16 without a byte-order mark, when the bytes look like it: in the first 4 KiB most code
/// units have a NUL high byte (ASCII markup) on one side and few on the other, and read as
/// UTF-16 of that byte order they hold a `<meta>` declaring UTF-16 (any byte order: the bytes
/// tell which; [`EncodingSource::Meta`]) or, undeclared, are markup: a `<` and a `>`, no broken
/// code unit, under 2 % control characters ([`EncodingSource::Utf16Layout`]).
fn utf16_without_bom(bytes: &[u8]) -> Option<(&'static Encoding, EncodingSource)> {
    let head = bytes.get(..SNIFF_LEN.min(bytes.len()) & !1)?;
    let enc = utf16_layout(head)?;
    // The head may end inside a surrogate pair: only whole pairs are judged.
    let (text, broken) = enc.decode_without_bom_handling(head);
    if meta_label(text.as_bytes())
        .is_some_and(|d| d == encoding_rs::UTF_16LE || d == encoding_rs::UTF_16BE)
    {
        return Some((enc, EncodingSource::Meta));
    }
    let judged = text.trim_end_matches('\u{fffd}');
    let controls = judged
        .chars()
        .filter(|c| c.is_control() && !matches!(c, '\t' | '\n' | '\r' | '\x0c'))
        .count();
    let markup = judged.contains('<') && judged.contains('>');
    let whole = !broken || !judged.contains('\u{fffd}');
    (markup && whole && controls * 50 <= judged.chars().count())
        .then_some((enc, EncodingSource::Utf16Layout))
}

/// The UTF-16 byte order whose layout `head` (an even number of bytes) has: most code units
/// with a NUL byte on one side (ASCII in UTF-16), few on the other; at least 8 code units.
fn utf16_layout(head: &[u8]) -> Option<&'static Encoding> {
    let units = head.len() / 2;
    if units < 8 {
        return None;
    }
    // The NUL bytes at even and at odd places, in one branch-free pass over the code units.
    let (mut even, mut odd) = (0usize, 0usize);
    for unit in head.chunks_exact(2) {
        if let &[a, b] = unit {
            even += usize::from(a == 0);
            odd += usize::from(b == 0);
        }
    }
    if odd * 10 >= units * 6 && even * 10 < units {
        Some(encoding_rs::UTF_16LE)
    } else if even * 10 >= units * 6 && odd * 10 < units {
        Some(encoding_rs::UTF_16BE)
    } else {
        None
    }
}

/// ASCII bytes kept on either side of a run of non-ASCII bytes in [`detector_sample`].
const DETECTOR_CONTEXT: usize = 64;

/// What chardetng needs to see of a page: every byte above ASCII with the [`DETECTOR_CONTEXT`]
/// ASCII bytes around it, the pieces joined by a space. chardetng scores pairs of bytes of which
/// one at least is not ASCII ("pairs of ASCII bytes never contribute to the detection", its
/// documentation says, ISO-2022-JP apart, which is denied here), and its state at a non-ASCII
/// byte depends on the word around it, so long ASCII stretches (markup, scripts, English text)
/// only cost time: on CleanEval's undeclared legacy pages it fed on every byte and took half of
/// the labeling time. The whole page when the pieces would cover most of it anyway.
fn detector_sample(bytes: &[u8]) -> Cow<'_, [u8]> {
    let mut sample: Vec<u8> = Vec::new();
    let mut piece: Option<(usize, usize)> = None;
    for (i, _) in bytes.iter().enumerate().filter(|(_, b)| !b.is_ascii()) {
        let (from, to) = (
            i.saturating_sub(DETECTOR_CONTEXT),
            (i + 1 + DETECTOR_CONTEXT).min(bytes.len()),
        );
        piece = match piece {
            Some((start, end)) if from <= end => Some((start, to)),
            Some((start, end)) => {
                push_piece(&mut sample, bytes, start, end);
                Some((from, to))
            }
            None => Some((from, to)),
        };
    }
    if let Some((start, end)) = piece {
        push_piece(&mut sample, bytes, start, end);
    }
    if sample.len() * 5 >= bytes.len() * 4 {
        Cow::Borrowed(bytes)
    } else {
        Cow::Owned(sample)
    }
}

/// Appends `bytes[start..end]` to a detector sample, after a space when it is not the first.
fn push_piece(sample: &mut Vec<u8>, bytes: &[u8], start: usize, end: usize) {
    if !sample.is_empty() {
        sample.push(b' ');
    }
    sample.extend_from_slice(bytes.within(start..end));
}

/// The page as UTF-8, when it is mostly UTF-8: its multi-byte sequences, whole or cut short
/// (a lead byte and continuation bytes, then the sequence breaks off), are at least two and at
/// least twice the lone bytes that no UTF-8 sequence explains. `None` otherwise.
///
/// Windows-1252 text almost never holds a lead byte followed by a continuation byte (`â€` for
/// `E2 80`), so whole and cut sequences are UTF-8's evidence, lone bytes legacy text's.
fn mostly_utf8(bytes: &[u8]) -> Option<String> {
    let (mut utf8, mut lone) = (0usize, 0usize);
    utf8_runs(bytes, |run| match run {
        Utf8Run::Valid(s) => utf8 += count_multibyte(s.as_bytes()),
        Utf8Run::Cut => utf8 += 1,
        // Counted byte by byte, as lone bytes, here: rule 3 weighs them as it always has;
        // under a UTF-8 declaration [`forbidden_utf8`] counts them as UTF-8.
        Utf8Run::Forbidden(raw) => lone += raw.len(),
        Utf8Run::Lone(_) => lone += 1,
    });
    (utf8 >= 2 && utf8 >= 2 * lone).then(|| utf8_with_fallback(bytes))
}

/// Whether invalid UTF-8 is UTF-8 written with forbidden sequences (overlong forms, surrogates,
/// code points past U+10FFFF): at least one of them, and they, the multi-byte sequences and the
/// cut ones at least twice the lone bytes (as in [`mostly_utf8`], with the forbidden sequences
/// counted as UTF-8's evidence: legacy text almost never holds a lead byte followed by the two
/// or three continuation bytes they need).
fn forbidden_utf8(bytes: &[u8]) -> bool {
    let (mut utf8, mut forbidden, mut lone) = (0usize, 0usize, 0usize);
    utf8_runs(bytes, |run| match run {
        Utf8Run::Valid(s) => utf8 += count_multibyte(s.as_bytes()),
        Utf8Run::Cut => utf8 += 1,
        Utf8Run::Forbidden(_) => forbidden += 1,
        Utf8Run::Lone(_) => lone += 1,
    });
    forbidden >= 1 && utf8 + forbidden >= 2 * lone
}

/// Invalid UTF-8 read as well as it goes: a cut multi-byte sequence becomes U+FFFD, a forbidden
/// sequence what browsers make of it (U+FFFD for each of its bytes, as the WHATWG decoder
/// does), a lone byte its windows-1252 character (the usual stray byte in a UTF-8 page: `\x92`
/// for `’`).
fn utf8_with_fallback(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len() + 16);
    utf8_runs(bytes, |run| match run {
        Utf8Run::Valid(s) => out.push_str(s),
        Utf8Run::Cut => out.push('\u{fffd}'),
        Utf8Run::Forbidden(raw) => out.push_str(&UTF_8.decode_without_bom_handling(raw).0),
        Utf8Run::Lone(b) => {
            let byte = [b];
            let (text, _) = encoding_rs::WINDOWS_1252.decode_without_bom_handling(&byte);
            out.push_str(&text);
        }
    });
    out
}

/// A piece of possibly invalid UTF-8.
enum Utf8Run<'a> {
    /// Valid UTF-8.
    Valid(&'a str),
    /// A multi-byte sequence cut short (two or more bytes, or the input's end).
    Cut,
    /// A sequence shaped as UTF-8 (a lead byte and its continuation bytes) that UTF-8 forbids:
    /// an overlong form, a surrogate, a code point past U+10FFFF.
    Forbidden(&'a [u8]),
    /// A byte no UTF-8 sequence explains.
    Lone(u8),
}

/// The length of the forbidden UTF-8 sequence `bad` starts with, if it starts with one: an
/// overlong form (`C0`/`C1`, `E0 80..9F`, `F0 80..8F`), a surrogate (`ED A0..BF`) or a code
/// point past U+10FFFF (`F4 90..BF`, `F5..F7`), each with all its continuation bytes.
fn forbidden_len(bad: &[u8]) -> Option<usize> {
    let cont = |b: &u8| (0x80..=0xbf).contains(b);
    let (&lead, rest) = bad.split_first()?;
    let second = *rest.first()?;
    let len = match (lead, second) {
        (0xc0 | 0xc1, 0x80..=0xbf) => 2,
        (0xe0, 0x80..=0x9f) | (0xed, 0xa0..=0xbf) => 3,
        (0xf0, 0x80..=0x8f) | (0xf4, 0x90..=0xbf) | (0xf5..=0xf7, 0x80..=0xbf) => 4,
        _ => return None,
    };
    bad.get(1..len)?.iter().all(cont).then_some(len)
}

/// Splits `bytes` into valid runs, cut sequences and lone bytes, in order.
fn utf8_runs<'a>(bytes: &'a [u8], mut f: impl FnMut(Utf8Run<'a>)) {
    let mut rest = bytes;
    loop {
        match simdutf8::compat::from_utf8(rest) {
            Ok(s) => {
                if !s.is_empty() {
                    f(Utf8Run::Valid(s));
                }
                return;
            }
            Err(e) => {
                let (good, bad) = rest.split_at(e.valid_up_to());
                // `good` is valid UTF-8 up to the error, as the error says.
                if let Ok(s) = simdutf8::basic::from_utf8(good)
                    && !s.is_empty()
                {
                    f(Utf8Run::Valid(s));
                }
                if let Some(len) = forbidden_len(bad) {
                    let (raw, after) = bad.split_at(len);
                    f(Utf8Run::Forbidden(raw));
                    rest = after;
                    continue;
                }
                let skip = e.error_len().unwrap_or(bad.len()).clamp(1, bad.len());
                let (raw, after) = bad.split_at(skip);
                match raw {
                    [b] => f(Utf8Run::Lone(*b)),
                    _ => f(Utf8Run::Cut),
                }
                rest = after;
            }
        }
    }
}

/// Lead bytes of multi-byte UTF-8 sequences in valid UTF-8.
fn count_multibyte(valid: &[u8]) -> usize {
    valid.iter().filter(|&&b| b >= 0xc0).count()
}

/// Whether the page's text outside tags, scripts and style sheets has fewer than one byte above
/// ASCII for every 200 ASCII letters (and at least one such byte). Code is not text: a page
/// with a short paragraph of Czech or Russian and a long inline script is not "ASCII with a few
/// symbols".
fn sparse_symbols(bytes: &[u8]) -> bool {
    static CODE: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"(?is-u)<(script|style)\b.*?</(script|style)\s*>").expect("a valid expression")
    });
    let mut high = 0usize;
    let mut letters = 0usize;
    let mut count = |text: &[u8]| {
        let mut in_tag = false;
        for &b in text {
            match b {
                b'<' => in_tag = true,
                b'>' => in_tag = false,
                _ if in_tag => {}
                0x80.. => high += 1,
                _ if b.is_ascii_alphabetic() => letters += 1,
                _ => {}
            }
        }
    };
    let mut from = 0;
    for m in CODE.find_iter(bytes) {
        count(bytes.within(from..m.start()));
        from = m.end();
    }
    count(bytes.within(from..));
    high > 0 && high * 200 < letters
}

fn check_not_binary(bytes: &[u8]) -> Result<(), DecodeError> {
    let head = bytes.within(..SNIFF_LEN.min(bytes.len()));
    if head.is_empty() {
        return Ok(());
    }
    if let Some(kind) = binary_signature(head) {
        return Err(DecodeError::Binary(kind));
    }
    // Both counts in one branch-free pass over the head.
    let (mut nul, mut controls) = (0usize, 0usize);
    for &b in head {
        nul += usize::from(b == 0);
        controls +=
            usize::from(b < 0x20 && !matches!(b, b'\t' | b'\n' | b'\r' | b'\x0c' | b'\x1b'));
    }
    if nul * 100 > head.len() {
        // UTF-16 that is not markup (utf16_without_bom took the rest): named, as a reader
        // might take it for text.
        if utf16_layout(head.within(..head.len() & !1)).is_some() {
            return Err(DecodeError::Binary(
                "NUL bytes, laid out as UTF-16 without a byte-order mark but not HTML when read so",
            ));
        }
        return Err(DecodeError::Binary("NUL bytes"));
    }
    if controls * 50 > head.len() {
        return Err(DecodeError::Binary("control characters"));
    }
    Ok(())
}

/// The kind of file whose signature (magic number) starts `head`, for common binary formats a
/// crawl fetches under an HTML name. Text formats (SVG, JSON, XML) are not listed: they are text.
fn binary_signature(head: &[u8]) -> Option<&'static str> {
    const SIGNATURES: &[(&[u8], &str)] = &[
        (b"\x89PNG\r\n\x1a\n", "a PNG image"),
        (b"\xff\xd8\xff", "a JPEG image"),
        (b"GIF87a", "a GIF image"),
        (b"GIF89a", "a GIF image"),
        (b"%PDF-", "a PDF document"),
        (b"PK\x03\x04", "a ZIP archive"),
        (b"\x1f\x8b", "gzip data"),
        (b"\x7fELF", "an executable"),
        (b"MZ\x90\0", "an executable"),
        (b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1", "an Office document"),
        (b"wOFF", "a web font"),
        (b"wOF2", "a web font"),
        (b"7z\xbc\xaf\x27\x1c", "a 7-Zip archive"),
    ];
    if head.len() >= 12 && head.starts_with(b"RIFF") && &head[8..12] == b"WEBP" {
        return Some("a WebP image");
    }
    SIGNATURES
        .iter()
        .find(|(magic, _)| head.starts_with(magic))
        .map(|&(_, kind)| kind)
}

/// The encoding a `<meta>` tag in the first 4 KiB declares, if it names one encoding_rs knows.
pub(crate) fn prescan_meta(bytes: &[u8]) -> Option<&'static Encoding> {
    let enc = meta_label(bytes)?;
    // HTML5: a UTF-16 declaration in an ASCII-compatible document means UTF-8; x-user-defined
    // means windows-1252.
    if enc == encoding_rs::UTF_16LE || enc == encoding_rs::UTF_16BE {
        return Some(UTF_8);
    }
    if enc == encoding_rs::X_USER_DEFINED {
        return Some(encoding_rs::WINDOWS_1252);
    }
    Some(enc)
}

/// The encoding a `<meta>` tag in the first 4 KiB names, as named (UTF-16 stays UTF-16).
fn meta_label(bytes: &[u8]) -> Option<&'static Encoding> {
    static META: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r#"(?i-u)<meta\b[^>]*?charset\s*=\s*["']?\s*([a-z0-9_:.+-]+)"#)
            .expect("constant regex compiles")
    });
    let head = bytes.within(..SNIFF_LEN.min(bytes.len()));
    let caps = META.captures(head)?;
    Encoding::for_label(caps.get(1)?.as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lying_meta_with_utf8_bytes_decodes_as_utf8() {
        let page = "<html><head><meta http-equiv=\"Content-Type\" content=\"text/html; charset=ISO-8859-1\"></head><body>Kosovo\u{2019}s</body></html>";
        let d = decode(page.as_bytes()).expect("decodes");
        assert_eq!(d.encoding, UTF_8);
        assert_eq!(d.source, EncodingSource::ValidUtf8);
        assert!(d.text.contains("Kosovo\u{2019}s"));
    }

    #[test]
    fn overlong_and_surrogate_utf8_under_a_utf8_declaration_is_replacement_characters() {
        // Each forbidden sequence as the WHATWG decoder reads it: U+FFFD for each byte.
        for (bad, fffd) in [
            (&b"\xc0\xaf"[..], 2),
            (b"\xe0\x80\xaf", 3),
            (b"\xed\xa0\x80", 3),
            (b"\xed\xbf\xbf\xed\xa0\x80", 6),
            (b"\xf0\x80\x80\xaf", 4),
            (b"\xf4\x90\x80\x80", 4),
        ] {
            let mut page =
                b"<html><head><meta charset=\"utf-8\"><title>T</title></head><body><p>".to_vec();
            for k in 0..20 {
                page.extend_from_slice(format!("Paragraph {k} of plain text ").as_bytes());
                page.extend_from_slice(bad);
                page.extend_from_slice(" caf\u{e9} ".as_bytes());
            }
            page.extend_from_slice(b"</p></body></html>");
            let d = decode(&page).expect("decodes");
            assert_eq!(d.encoding, UTF_8, "{bad:x?}");
            assert_eq!(
                d.text.matches('\u{fffd}').count(),
                20 * fffd,
                "{bad:x?}: {}",
                d.text
            );
            assert_eq!(d.text.matches("caf\u{e9}").count(), 20, "{bad:x?}");
            assert_eq!(d.text, String::from_utf8_lossy(&page), "{bad:x?}");
        }
    }

    #[test]
    fn meta_charset_is_honoured_for_legacy_bytes() {
        let mut page = b"<meta charset=windows-1252><p>caf".to_vec();
        page.push(0xe9);
        page.extend_from_slice(b" \x93quoted\x94</p>");
        let d = decode(&page).expect("decodes");
        assert_eq!(d.encoding, encoding_rs::WINDOWS_1252);
        assert_eq!(d.source, EncodingSource::Meta);
        assert!(d.text.contains("caf\u{e9} \u{201c}quoted\u{201d}"));
    }

    #[test]
    fn undeclared_legacy_bytes_are_guessed() {
        // Cyrillic in windows-1251 without any declaration.
        let text = "Привет, как дела? Это проверка кодировки страницы без объявления.";
        let (bytes, _, _) = encoding_rs::WINDOWS_1251.encode(text);
        let mut page = b"<html><body><p>".to_vec();
        page.extend_from_slice(&bytes);
        page.extend_from_slice(b"</p></body></html>");
        let d = decode(&page).expect("decodes");
        assert_eq!(d.source, EncodingSource::Guess);
        assert!(d.text.contains(text), "{}", d.text);
    }

    #[test]
    fn bom_wins_and_utf16_is_transcoded() {
        let mut page = vec![0xff, 0xfe];
        for u in "<p>h\u{e9}</p>".encode_utf16() {
            page.extend_from_slice(&u.to_le_bytes());
        }
        let d = decode(&page).expect("decodes");
        assert_eq!(d.encoding, encoding_rs::UTF_16LE);
        assert_eq!(d.text, "<p>h\u{e9}</p>");
        let mut page = vec![0xef, 0xbb, 0xbf];
        page.extend_from_slice(b"<p>x</p>");
        assert_eq!(decode(&page).expect("decodes").text, "<p>x</p>");
    }

    #[test]
    fn binary_is_refused_and_empty_is_fine() {
        assert!(matches!(
            decode(b"\x7fELF\x02\x01\x01\0\0\0"),
            Err(DecodeError::Binary(_))
        ));
        let d = decode(b"").expect("empty decodes");
        assert_eq!(d.text, "");
    }

    #[test]
    fn http_charset_outranks_meta_but_not_utf8() {
        // "Привет" in windows-1251 under a page that declares (wrongly) ISO-8859-1.
        let mut page = b"<meta charset=iso-8859-1><p>".to_vec();
        page.extend_from_slice(&[0xcf, 0xf0, 0xe8, 0xe2, 0xe5, 0xf2]);
        let d = decode_with_charset(&page, Some("windows-1251")).unwrap();
        assert!(d.text.contains("Привет"), "{}", d.text);
        let d = decode_with_charset(&page, None).unwrap();
        assert!(!d.text.contains("Привет"));
        // An unknown label is ignored; valid UTF-8 stays UTF-8 whatever the header says.
        let d = decode_with_charset(&page, Some("no-such-charset")).unwrap();
        assert!(!d.text.contains("Привет"));
        let utf8 = "<p>Привет</p>".as_bytes();
        let d = decode_with_charset(utf8, Some("windows-1251")).unwrap();
        assert!(d.text.contains("Привет"));
    }
}

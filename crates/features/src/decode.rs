//! Reading a page: raw bytes -> text, detecting the encoding the way browsers do.
//!
//! Order of evidence:
//! 1. a byte-order mark (UTF-8, UTF-16LE, UTF-16BE) wins;
//! 2. bytes that are valid UTF-8 and contain multi-byte sequences are UTF-8, whatever a `<meta>`
//!    says (real windows-1252 text is almost never valid UTF-8; pages whose meta tag lies, as 257
//!    pages of L3S-GN1 do, come out right);
//! 3. a `<meta charset>` or `http-equiv="Content-Type"` declaration in the first 4 KiB (UTF-16
//!    declared in an ASCII-compatible document means UTF-8, as in HTML5);
//! 4. a statistical guess for undeclared legacy encodings (`chardetng`);
//! 5. UTF-8 as the last resort (pure ASCII).
//!
//! Binary data (NUL bytes or many control characters at the start) is refused with an error
//! rather than turned into pages of replacement characters.

use std::borrow::Cow;
use std::sync::LazyLock;

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
    /// chardetng's guess.
    Guess,
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
    /// Whether malformed sequences were replaced by U+FFFD.
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
    if let Some((enc, bom_len)) = Encoding::for_bom(bytes) {
        let rest = bytes.get(bom_len..).unwrap_or_default();
        let (text, had_errors) = enc.decode_without_bom_handling(rest);
        return Ok(Decoded {
            text,
            encoding: enc,
            source: EncodingSource::Bom,
            had_errors,
        });
    }
    check_not_binary(bytes)?;
    if let Ok(s) = std::str::from_utf8(bytes) {
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
    let (enc, source) = match prescan_meta(bytes) {
        Some(enc) => (enc, EncodingSource::Meta),
        None => {
            let mut det = chardetng::EncodingDetector::new(chardetng::Iso2022JpDetection::Deny);
            det.feed(bytes, true);
            (
                det.guess(None, chardetng::Utf8Detection::Allow),
                EncodingSource::Guess,
            )
        }
    };
    let (text, had_errors) = enc.decode_without_bom_handling(bytes);
    Ok(Decoded {
        text,
        encoding: enc,
        source,
        had_errors,
    })
}

fn check_not_binary(bytes: &[u8]) -> Result<(), DecodeError> {
    let head = bytes.get(..SNIFF_LEN.min(bytes.len())).unwrap_or_default();
    if head.is_empty() {
        return Ok(());
    }
    if head.contains(&0) {
        return Err(DecodeError::Binary("NUL bytes"));
    }
    let controls = head
        .iter()
        .filter(|&&b| b < 0x20 && !matches!(b, b'\t' | b'\n' | b'\r' | b'\x0c' | b'\x1b'))
        .count();
    if controls * 50 > head.len() {
        return Err(DecodeError::Binary("control characters"));
    }
    Ok(())
}

/// The encoding a `<meta>` tag in the first 4 KiB declares, if it names one encoding_rs knows.
pub fn prescan_meta(bytes: &[u8]) -> Option<&'static Encoding> {
    static META: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r#"(?i-u)<meta\b[^>]*?charset\s*=\s*["']?\s*([a-z0-9_:.+-]+)"#)
            .expect("constant regex compiles")
    });
    let head = bytes.get(..SNIFF_LEN.min(bytes.len())).unwrap_or_default();
    let caps = META.captures(head)?;
    let label = caps.get(1)?.as_bytes();
    let enc = Encoding::for_label(label)?;
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
}

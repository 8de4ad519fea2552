//! Reading tags out of the gaps between the spans that the tokenizer reports.
//!
//! The tokenizer ([`super::lex`]) reports text, comments and doctypes with their source
//! locations; whatever lies between two reported spans is markup: start tags, end tags, and the
//! brackets of CDATA sections. This module splits such a gap into tags and reads the two
//! attributes victor keeps (`class`, `id`). It follows the HTML5 tokenizer's rules for tag names
//! and quoted attribute values; the tokenizer has already decided where text ends, so a gap
//! never holds text.

use memchr::memchr;

/// A tag read from a gap.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RawTag<'a> {
    /// `<name attrs>` or `<name attrs/>`.
    Start {
        /// The name as written (any case).
        name: &'a [u8],
        /// The bytes between the name and the closing `>` (attributes, possibly a final `/`).
        attrs: &'a [u8],
        /// Whether the tag ended with `/>`.
        self_closing: bool,
    },
    /// `</name ...>`.
    End {
        /// The name as written (any case).
        name: &'a [u8],
    },
}

/// Iterator over the tags of a gap, with their byte ranges relative to the gap.
pub struct Tags<'a> {
    buf: &'a [u8],
    pos: usize,
}

/// Splits a gap into tags.
pub fn tags(gap: &[u8]) -> Tags<'_> {
    Tags { buf: gap, pos: 0 }
}

#[inline]
fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r' | b'\x0c')
}

/// Position of the `>` that ends a tag whose attributes start at `i`, honouring quoted values.
fn tag_end(buf: &[u8], mut i: usize) -> Option<usize> {
    // States of the tokenizer after the tag name, reduced to what decides where the tag ends.
    let mut after_eq = false;
    while i < buf.len() {
        let b = buf[i];
        match b {
            b'>' => return Some(i),
            b'=' => after_eq = true,
            b'"' | b'\'' if after_eq => {
                i = i + 1 + memchr(b, buf.get(i + 1..)?)?;
                after_eq = false;
            }
            _ if is_space(b) => {}
            _ => {
                if after_eq {
                    // An unquoted value runs to white space or `>`.
                    while i + 1 < buf.len() && !is_space(buf[i + 1]) && buf[i + 1] != b'>' {
                        i += 1;
                    }
                }
                after_eq = false;
            }
        }
        i += 1;
    }
    None
}

/// Position (relative to `attrs`) of the first `<` where an attribute name would start: after
/// white space or a closing quote, outside any quoted value.
///
/// HTML5 reads such a `<` as part of an attribute name and goes on to the next `>`. Browsers
/// before HTML5 (Gecko's old tokenizer, and Internet Explorer) ended the tag there instead and
/// read the `<` again as the start of the next tag. Where the two disagree, a quote left open
/// in a value has usually made HTML5 swallow a stretch of the page into one tag.
pub fn stray_lt(attrs: &[u8]) -> Option<usize> {
    // Nearly every tag has no `<` at all: one vectorized search settles it.
    memchr(b'<', attrs)?;
    let mut i = 0;
    let mut after_eq = false;
    // Whether the previous byte ended an attribute (white space, closing quote): a name may start.
    let mut boundary = true;
    while i < attrs.len() {
        let b = attrs[i];
        match b {
            b'<' if boundary && !after_eq => return Some(i),
            b'=' => {
                after_eq = true;
                boundary = false;
            }
            b'"' | b'\'' if after_eq => {
                i = i + 1 + memchr(b, attrs.get(i + 1..)?)?;
                after_eq = false;
                boundary = true;
            }
            _ if is_space(b) || b == b'/' => boundary = true,
            _ => {
                if after_eq {
                    while i + 1 < attrs.len() && !is_space(attrs[i + 1]) && attrs[i + 1] != b'>' {
                        i += 1;
                    }
                    after_eq = false;
                    boundary = false;
                } else {
                    boundary = false;
                }
            }
        }
        i += 1;
    }
    None
}

/// Whether a doctype (its source, `<!DOCTYPE` to `>`) sets HTML5's force-quirks flag: a missing
/// name, a keyword other than `PUBLIC`/`SYSTEM` after the name, an identifier without quotes or
/// cut short by `>`, or junk between the public and system identifiers. The tokenizer reports the
/// doctype's name and identifiers but not this flag; quirks mode decides, for instance, whether
/// `<table>` closes an open `<p>`.
pub fn doctype_forces_quirks(src: &[u8]) -> bool {
    let Some(body) = src.get(9..).and_then(|b| b.strip_suffix(b">")) else {
        // Cut off by the end of the document.
        return true;
    };
    let skip_space = |mut i: usize| {
        while body.get(i).is_some_and(|&b| is_space(b)) {
            i += 1;
        }
        i
    };
    // A quoted identifier starting at `i`: the position after its closing quote.
    let quoted = |i: usize| -> Option<usize> {
        let q = *body.get(i)?;
        if q != b'"' && q != b'\'' {
            return None;
        }
        Some(i + 2 + memchr(q, body.get(i + 1..)?)?)
    };
    let mut i = skip_space(0);
    if i >= body.len() {
        return true;
    }
    while body.get(i).is_some_and(|&b| !is_space(b)) {
        i += 1;
    }
    i = skip_space(i);
    if i >= body.len() {
        return false;
    }
    // Fewer than six bytes left: no keyword, which the empty slice says (it matches neither).
    let keyword = body.get(i..i + 6).unwrap_or_default();
    let public = keyword.eq_ignore_ascii_case(b"public");
    if !public && !keyword.eq_ignore_ascii_case(b"system") {
        return true;
    }
    let Some(after) = quoted(skip_space(i + 6)) else {
        return true;
    };
    if public {
        let j = skip_space(after);
        if j < body.len() && quoted(j).is_none() {
            return true;
        }
    }
    // Junk after the system identifier makes a bogus doctype, not a quirky one.
    false
}

impl<'a> Iterator for Tags<'a> {
    type Item = (RawTag<'a>, std::ops::Range<usize>);

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            let rel = memchr(b'<', self.buf.get(self.pos..)?)?;
            let start = self.pos + rel;
            let buf = self.buf;
            let mut i = start + 1;
            let end_tag = buf.get(i) == Some(&b'/');
            if end_tag {
                i += 1;
            }
            if !buf.get(i).is_some_and(u8::is_ascii_alphabetic) {
                // `<!`, `<?`, `</>` and friends: the tokenizer reported them as comments or they are
                // CDATA brackets; skip to the next `<`.
                self.pos = i;
                continue;
            }
            let name_start = i;
            while i < buf.len() && !is_space(buf[i]) && buf[i] != b'/' && buf[i] != b'>' {
                i += 1;
            }
            let name = &buf[name_start..i];
            let Some(close) = tag_end(buf, i) else {
                // A tag cut off by the end of the input is dropped, as HTML5 drops it.
                self.pos = buf.len();
                return None;
            };
            self.pos = close + 1;
            let tag = if end_tag {
                RawTag::End { name }
            } else {
                let attrs = &buf[i..close];
                let self_closing = attrs.last() == Some(&b'/');
                RawTag::Start {
                    name,
                    attrs,
                    self_closing,
                }
            };
            return Some((tag, start..close + 1));
        }
    }
}

/// Iterator over `(name, value)` pairs of an attribute region; values are raw (quotes removed,
/// entities not decoded).
pub struct Attrs<'a> {
    buf: &'a [u8],
    pos: usize,
}

/// Reads the attributes of a start tag.
pub fn attrs(region: &[u8]) -> Attrs<'_> {
    Attrs {
        buf: region,
        pos: 0,
    }
}

/// What the attribute reader makes of each byte: [`SPACE`] for HTML white space, [`NAME_END`]
/// for the bytes that end an attribute name (white space, `/`, `=`), [`GAP`] for those skipped
/// between attributes (white space, `/`). One table read a byte instead of five comparisons.
static ATTR_BYTES: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        let space = matches!(c, b' ' | b'\t' | b'\n' | b'\r' | b'\x0c');
        if space {
            t[b] |= SPACE | NAME_END | GAP;
        }
        if c == b'/' {
            t[b] |= NAME_END | GAP;
        }
        if c == b'=' {
            t[b] |= NAME_END;
        }
        b += 1;
    }
    t
};
const SPACE: u8 = 1;
const NAME_END: u8 = 2;
const GAP: u8 = 4;

/// The position of the first byte of `buf` at or after `from` whose [`ATTR_BYTES`] class has
/// (`want` true) or lacks (`want` false) the bits `mask`; `buf.len()` when none.
#[inline(always)]
fn first(buf: &[u8], from: usize, mask: u8, want: bool) -> usize {
    buf.get(from..)
        .and_then(|rest| {
            rest.iter()
                .position(|&b| (ATTR_BYTES[usize::from(b)] & mask != 0) == want)
        })
        .map_or(buf.len(), |k| from + k)
}

impl<'a> Iterator for Attrs<'a> {
    type Item = (&'a [u8], &'a [u8]);

    fn next(&mut self) -> Option<Self::Item> {
        let buf = self.buf;
        let i = first(buf, self.pos, GAP, false);
        if i >= buf.len() {
            self.pos = i;
            return None;
        }
        let name_start = i;
        // A name may begin with `=`; it ends at white space, `/`, `>` or a later `=`.
        let i = first(buf, i + 1, NAME_END, true);
        let name = buf.get(name_start..i).unwrap_or_default();
        let j = first(buf, i, SPACE, false);
        if buf.get(j) != Some(&b'=') {
            self.pos = i;
            return Some((name, &[]));
        }
        let j = first(buf, j + 1, SPACE, false);
        let value = match buf.get(j) {
            Some(&q @ (b'"' | b'\'')) => {
                let v0 = j + 1;
                let v1 = buf
                    .get(v0..)
                    .and_then(|r| memchr(q, r))
                    .map_or(buf.len(), |k| v0 + k);
                self.pos = (v1 + 1).min(buf.len());
                buf.get(v0.min(v1)..v1).unwrap_or_default()
            }
            _ => {
                let v1 = first(buf, j, SPACE, true);
                self.pos = v1;
                buf.get(j..v1).unwrap_or_default()
            }
        };
        Some((name, value))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all(gap: &str) -> Vec<String> {
        tags(gap.as_bytes())
            .map(|(t, r)| match t {
                RawTag::Start {
                    name,
                    attrs,
                    self_closing,
                } => format!(
                    "<{}|{}|{}>@{}..{}",
                    String::from_utf8_lossy(name),
                    String::from_utf8_lossy(attrs),
                    self_closing,
                    r.start,
                    r.end
                ),
                RawTag::End { name } => format!("</{}>", String::from_utf8_lossy(name)),
            })
            .collect()
    }

    #[test]
    fn splits_gaps_into_tags() {
        assert_eq!(
            all("</b><i class=\"x>y\">"),
            vec!["</b>", "<i| class=\"x>y\"|false>@4..19"]
        );
        assert_eq!(all("<br/>"), vec!["<br|/|true>@0..5"]);
        assert_eq!(all("<![CDATA[]]><p>"), vec!["<p||false>@12..15"]);
        assert_eq!(all("</div foo='>'>"), vec!["</div>"]);
        assert_eq!(all("<a href=x>y>"), vec!["<a| href=x|false>@0..10"]);
        // cut off by the end of the input: dropped
        assert_eq!(all("<div class=\"abc"), Vec::<String>::new());
    }

    #[test]
    fn finds_a_stray_lt_where_an_attribute_name_would_start() {
        // after white space, after a closing quote
        assert_eq!(stray_lt(b" src=\"x\" <b"), Some(9));
        assert_eq!(stray_lt(b" alt=\"x\"<br"), Some(8));
        // a quote left open: the value runs to the next quote, the `<` after it counts
        assert_eq!(
            stray_lt(b" src=\"/te.x='y';\nvar t = [\"a\"]; i < n"),
            Some(34)
        );
        // inside quoted or unquoted values, or inside a name: not stray
        assert_eq!(stray_lt(b" title=\"a < b\" href=a<b"), None);
        assert_eq!(stray_lt(b" a<b"), None);
        assert_eq!(stray_lt(b" a= <b"), None);
        assert_eq!(stray_lt(b""), None);
    }

    #[test]
    fn doctypes_that_force_quirks() {
        let q = |s: &str| doctype_forces_quirks(s.as_bytes());
        assert!(!q("<!DOCTYPE html>"));
        assert!(!q(
            "<!doctype HTML PUBLIC \"-//W3C//DTD HTML 4.01//EN\" \"http://x\">"
        ));
        assert!(!q("<!DOCTYPE html SYSTEM 'about:legacy-compat'>"));
        assert!(!q("<!DOCTYPE html PUBLIC \"-//W3C//DTD HTML 4.01//EN\">"));
        assert!(!q("<!DOCTYPE html SYSTEM \"x\" junk>"));
        assert!(q("<!DOCTYPE>"));
        assert!(q("<!DOCTYPE html"));
        assert!(q("<!DOCTYPE html PUBLIC>"));
        assert!(q("<!DOCTYPE html PUBLIC -//W3C//DTD>"));
        assert!(q("<!DOCTYPE html nonsense>"));
        // the identifier is cut short by `>` (a BBC page of l3s-gn1)
        assert!(q("<!doctype html public \"-//wsi library v1.27-->"));
        assert!(q("<!DOCTYPE html PUBLIC \"a\" junk>"));
    }

    #[test]
    fn reads_attributes() {
        let got: Vec<(String, String)> = attrs(b" id=main CLASS = 'a b' checked data-x=\"1\" /")
            .map(|(n, v)| {
                (
                    String::from_utf8_lossy(n).into_owned(),
                    String::from_utf8_lossy(v).into_owned(),
                )
            })
            .collect();
        let want = [
            ("id", "main"),
            ("CLASS", "a b"),
            ("checked", ""),
            ("data-x", "1"),
        ];
        assert_eq!(got.len(), want.len());
        for ((gn, gv), (wn, wv)) in got.iter().zip(want) {
            assert_eq!((gn.as_str(), gv.as_str()), (wn, wv));
        }
    }
}

//! Reading broken pages as their authors meant them: a corpus wrapper around the document, an
//! unclosed raw-text element that swallowed the page, and offsets in a repaired document
//! mapped back to the original.

use super::*;

/// Length of a corpus wrapper's start tag at the very start of `html` (white space and a
/// byte-order mark before it included), or 0 (see the module docs, "Corpus wrappers"): the
/// first tag is the start tag of an element HTML does not know, and the document ends with
/// its end tag.
pub(super) fn wrapper_len(html: &str) -> usize {
    let trimmed = html.trim_start_matches(|c: char| c.is_whitespace() || c == '\u{feff}');
    let skipped = html.len() - trimmed.len();
    let bytes = trimmed.as_bytes();
    if bytes.get(1).is_none_or(|b| !b.is_ascii_alphabetic()) {
        return 0;
    }
    // The wrapper is one tag; find its end honouring quotes.
    let Some((RawTag::Start { name, .. }, r)) = scan::tags(bytes).next() else {
        return 0;
    };
    if r.start != 0 || r.end >= 64 * 1024 || Tag::lookup(name).is_some() {
        return 0;
    }
    let tail = trimmed.trim_end().as_bytes();
    let closes = tail.len() >= name.len() + 3
        && tail.ends_with(b">")
        && tail
            .get(tail.len() - name.len() - 3..tail.len() - name.len() - 1)
            .is_some_and(|t| t == b"</")
        && tail
            .get(tail.len() - name.len() - 1..tail.len() - 1)
            .is_some_and(|t| t.eq_ignore_ascii_case(name));
    if closes { skipped + r.end } else { 0 }
}

/// Where to end an unclosed raw-text element: the first tag inside its content that cannot
/// belong inside it. `None` when its content holds no markup (nothing was swallowed).
pub(super) fn recovery_cut(doc: &str, content_start: usize, tag: Tag) -> Option<usize> {
    let bytes = doc.as_bytes();
    let content = bytes.get(content_start..)?;
    let mut i = 0;
    while let Some(k) = memchr::memchr(b'<', content.get(i..)?) {
        let at = i + k;
        let rest = &content[at + 1..];
        let (is_end, name_from) = if rest.first() == Some(&b'/') {
            (true, 1)
        } else {
            (false, 0)
        };
        // A name starts after `<`, or after `</` when `rest` starts with `/`.
        let name_len = rest
            .within(name_from..)
            .iter()
            .take_while(|b| b.is_ascii_alphanumeric())
            .count();
        let starts_tag = rest.get(name_from).is_some_and(|b| b.is_ascii_alphabetic())
            || (!is_end && rest.first() == Some(&b'!'));
        if starts_tag {
            let name = &rest[name_from..name_from + name_len];
            if tag != Tag::NOSCRIPT || !noscript_may_hold(name) {
                return Some(content_start + at);
            }
        }
        i = at + 1;
    }
    None
}

/// Whether the rest of a tag after a stray `<` is long enough to hide page content: it spans a
/// line break or holds another `<`. (A short `<img alt="x"<br>` loses nothing either way, and
/// there victor keeps to the HTML5 reading.)
pub(super) fn swallows_markup(rest: &[u8]) -> bool {
    rest.len() > 1 && rest[1..].iter().any(|&b| b == b'\n' || b == b'<')
}

/// Maps an offset in the repaired document back to the original.
pub(super) fn original_offset(insertions: &[Insertion], pos: usize) -> usize {
    let mut shift = 0;
    for &(at, len) in insertions {
        if at + shift < pos {
            shift += len;
        }
    }
    pos.saturating_sub(shift)
}

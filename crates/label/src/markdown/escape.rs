//! Escaping text that Markdown would read as syntax, so that the rendered Markdown shows the
//! page's text. Only what CommonMark (and GFM tables) would misread is escaped: `*`, `` ` ``, `_`
//! where it could start or end emphasis, `\` before punctuation, `<` before a tag, `&` before an
//! entity, `](`, `|` in table cells, and what would start a block at the start of a line
//! (`#`, `>`, `-`, `+`, `=`, `1.`, `~~~`).

/// Where the text goes.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Esc {
    /// It starts a paragraph or list item line: block syntax there is escaped.
    pub line_start: bool,
    /// It goes in a table cell: `|` is escaped.
    pub cell: bool,
    /// It goes in a link's text: brackets are escaped.
    pub link: bool,
}

/// Appends `text` to `out`, escaped for `esc`; `prev` is the character before it in the output.
pub(super) fn push_escaped(out: &mut String, text: &str, esc: Esc) {
    let bytes = text.as_bytes();
    let mut start = 0;
    if esc.line_start {
        start = line_start(out, text);
    }
    let mut last = start;
    let mut prev: Option<char> = out.chars().next_back();
    let rest = text.get(start..).unwrap_or("");
    for (k, c) in rest.char_indices() {
        let i = start + k;
        let next = bytes.get(i + 1).copied();
        let escape = match c {
            '*' | '`' => true,
            // At the end of the text, the next block may go on with punctuation or a tag name.
            '\\' => next.is_none_or(|n| n.is_ascii_punctuation()),
            '_' => {
                !(prev.is_some_and(char::is_alphanumeric)
                    && text
                        .get(i + 1..)
                        .and_then(|s| s.chars().next())
                        .is_some_and(char::is_alphanumeric))
            }
            '<' => next.is_none_or(|n| n.is_ascii_alphabetic() || matches!(n, b'/' | b'!' | b'?')),
            '&' => is_entity(bytes.get(i + 1..).unwrap_or_default()),
            ']' => esc.link || next == Some(b'('),
            '[' => esc.link,
            '|' => esc.cell,
            _ => false,
        };
        if escape {
            out.push_str(text.get(last..i).unwrap_or(""));
            out.push('\\');
            last = i;
        }
        prev = Some(c);
    }
    out.push_str(text.get(last..).unwrap_or(""));
}

/// Escapes what would start a block at the start of a line; returns how many bytes of `text`
/// it wrote.
fn line_start(out: &mut String, text: &str) -> usize {
    let b = text.as_bytes();
    let first = b.first().copied();
    let second = b.get(1).copied();
    let spaced = |n: Option<u8>| n.is_none_or(|c| c == b' ');
    match first {
        Some(b'#') => {
            // `#` to `######` then a space or the end: a heading.
            let run = b.iter().take_while(|&&c| c == b'#').count();
            if run <= 6 && spaced(b.get(run).copied()) {
                out.push('\\');
            }
            0
        }
        Some(b'>') => {
            out.push('\\');
            0
        }
        Some(c @ (b'-' | b'+' | b'=')) => {
            if spaced(second) || b.iter().all(|&x| x == c || x == b' ') {
                out.push('\\');
            }
            0
        }
        Some(b'~') if b.starts_with(b"~~~") => {
            out.push('\\');
            0
        }
        Some(b'0'..=b'9') => {
            let run = b.iter().take_while(|c| c.is_ascii_digit()).count();
            if run <= 9
                && matches!(b.get(run), Some(b'.' | b')'))
                && spaced(b.get(run + 1).copied())
            {
                out.push_str(text.get(..run).unwrap_or(""));
                out.push('\\');
                return run;
            }
            0
        }
        _ => 0,
    }
}

/// Whether the bytes after a `&` read as an entity: `#123;`, `#x1F;` or `name;`.
fn is_entity(rest: &[u8]) -> bool {
    let body = rest.strip_prefix(b"#").unwrap_or(rest);
    let n = body
        .iter()
        .take(32)
        .take_while(|c| c.is_ascii_alphanumeric())
        .count();
    n > 0 && body.get(n) == Some(&b';')
}

/// The longest run of backticks in `s`.
pub(super) fn longest_backtick_run(s: &str) -> usize {
    let mut best = 0;
    let mut run = 0;
    for c in s.bytes() {
        if c == b'`' {
            run += 1;
            best = best.max(run);
        } else {
            run = 0;
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    fn esc(text: &str, e: Esc) -> String {
        let mut s = String::new();
        push_escaped(&mut s, text, e);
        s
    }

    #[test]
    fn escapes_only_what_markdown_would_read() {
        let plain = Esc::default();
        assert_eq!(esc("2*3 and `x` a\\*", plain), "2\\*3 and \\`x\\` a\\\\\\*");
        assert_eq!(esc("snake_case _em_", plain), "snake_case \\_em\\_");
        assert_eq!(esc("a <b> & &amp; c<3", plain), "a \\<b> & \\&amp; c<3");
        assert_eq!(esc("[1] [a](b)", plain), "[1] [a\\](b)");
        let start = Esc {
            line_start: true,
            ..plain
        };
        assert_eq!(esc("# not a heading", start), "\\# not a heading");
        assert_eq!(esc("#hashtag", start), "#hashtag");
        assert_eq!(esc("- not an item", start), "\\- not an item");
        assert_eq!(esc("-5 degrees", start), "-5 degrees");
        assert_eq!(esc("1984. A year", start), "1984\\. A year");
        assert_eq!(esc("> not a quote", start), "\\> not a quote");
        assert_eq!(esc("===", start), "\\===");
        let cell = Esc {
            cell: true,
            ..plain
        };
        assert_eq!(esc("a|b", cell), "a\\|b");
    }
}

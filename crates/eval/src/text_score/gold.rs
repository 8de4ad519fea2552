//! Reading gold-standard files the way the acceptance scorer does.
//!
//! Gold files are plain text, one paragraph per line, often with a marker such as `<p>`, `<h>`,
//! `<l>` or `<s>` in front of a line, and sometimes a first line `URL: ...`. [`gold_text`]
//! mirrors `score.py`'s `gold_text`: split lines as Python's `str.splitlines()` does, drop a
//! first line whose left-stripped text starts with `URL:`, strip from each line the leading run
//! of markers matched by `^\s*(?:<\s*/?\s*[a-z][a-z0-9]{0,9}\s*/?\s*>\s*)+` (case-insensitive),
//! and join the lines with `\n`. The pattern is parsed by hand: it has no backtracking that
//! matters, and Python's `\s` (which includes U+001C–U+001F) and case-insensitive `[a-z]`
//! (which includes `İ`, `ı`, `ſ` and the Kelvin sign) differ from the `regex` crate's.
//!
//! Files are decoded as UTF-8 with invalid bytes replaced by U+FFFD, like Python's
//! `read_text(errors="replace")`; the replacement character separates tokens either way.

use std::io;
use std::path::{Path, PathBuf};

/// A file that could not be read.
#[derive(Debug, thiserror::Error)]
#[error("cannot read {}: {source}", path.display())]
pub struct ReadError {
    /// The file.
    pub path: PathBuf,
    /// What went wrong.
    #[source]
    pub source: io::Error,
}

/// Reads a file as UTF-8, replacing invalid byte sequences with U+FFFD.
pub fn read_text_lossy(path: &Path) -> Result<String, ReadError> {
    let bytes = std::fs::read(path).map_err(|source| ReadError {
        path: path.to_path_buf(),
        source,
    })?;
    Ok(match String::from_utf8(bytes) {
        Ok(text) => text,
        Err(err) => String::from_utf8_lossy(err.as_bytes()).into_owned(),
    })
}

/// Reads a gold-standard file and returns its text without markers (see [`gold_text`]).
pub fn read_gold(path: &Path) -> Result<String, ReadError> {
    read_text_lossy(path).map(|raw| gold_text(&raw))
}

/// The text of a gold-standard file: the `URL:` line dropped and line markers stripped, lines
/// joined with `\n` (the scorer's `gold_text`).
pub fn gold_text(raw: &str) -> String {
    let mut out = String::with_capacity(raw.len());
    let mut lines = PyLines { rest: raw }.peekable();
    if lines
        .peek()
        .is_some_and(|first| first.trim_start_matches(is_py_space).starts_with("URL:"))
    {
        lines.next();
    }
    for (i, line) in lines.enumerate() {
        if i > 0 {
            out.push('\n');
        }
        out.push_str(strip_markers(line));
    }
    out
}

/// Python's `str.isspace()` (and `re`'s `\s`): Unicode `White_Space` plus U+001C–U+001F.
fn is_py_space(c: char) -> bool {
    c.is_whitespace() || ('\u{1c}'..='\u{1f}').contains(&c)
}

/// A line boundary of Python's `str.splitlines()` (`\r\n` is handled by the caller).
fn is_line_break(c: char) -> bool {
    matches!(
        c,
        '\n' | '\r'
            | '\u{b}'
            | '\u{c}'
            | '\u{1c}'
            | '\u{1d}'
            | '\u{1e}'
            | '\u{85}'
            | '\u{2028}'
            | '\u{2029}'
    )
}

/// The lines of a string as Python's `str.splitlines()` gives them: no empty line after a
/// final line break, none at all for an empty string.
struct PyLines<'a> {
    /// The text not yet split.
    rest: &'a str,
}

impl<'a> Iterator for PyLines<'a> {
    type Item = &'a str;

    fn next(&mut self) -> Option<&'a str> {
        if self.rest.is_empty() {
            return None;
        }
        match self.rest.char_indices().find(|&(_, c)| is_line_break(c)) {
            None => Some(std::mem::take(&mut self.rest)),
            Some((i, c)) => {
                let (line, tail) = self.rest.split_at(i);
                let skip = if tail.starts_with("\r\n") {
                    2
                } else {
                    c.len_utf8()
                };
                // `tail` starts with the break, `\r\n` or `c`, which `skip` measures.
                debug_assert!(tail.is_char_boundary(skip));
                self.rest = tail.get(skip..).unwrap_or("");
                Some(line)
            }
        }
    }
}

/// `line` without its leading run of markers, or unchanged (leading spaces kept) if it starts
/// with none.
fn strip_markers(line: &str) -> &str {
    let mut rest = line.trim_start_matches(is_py_space);
    let mut found = false;
    while let Some(after) = one_marker(rest) {
        rest = after;
        found = true;
    }
    if found { rest } else { line }
}

/// A letter of the scorer's case-insensitive `[a-z]`: ASCII letters and the four characters
/// whose case mappings reach them.
fn is_marker_letter(c: char) -> bool {
    c.is_ascii_alphabetic() || matches!(c, '\u{130}' | '\u{131}' | '\u{17f}' | '\u{212a}')
}

/// If `s` starts with one marker `<\s*/?\s*[a-z][a-z0-9]{0,9}\s*/?\s*>\s*`, what follows it.
fn one_marker(s: &str) -> Option<&str> {
    let s = s.strip_prefix('<')?.trim_start_matches(is_py_space);
    let s = s
        .strip_prefix('/')
        .unwrap_or(s)
        .trim_start_matches(is_py_space);
    let mut name = s.char_indices();
    let (_, first) = name.next()?;
    if !is_marker_letter(first) {
        return None;
    }
    let name_len = name
        .take(9)
        .take_while(|&(_, c)| is_marker_letter(c) || c.is_ascii_digit())
        .last()
        .map_or(first.len_utf8(), |(i, c)| i + c.len_utf8());
    let s = s.get(name_len..)?.trim_start_matches(is_py_space);
    let s = s
        .strip_prefix('/')
        .unwrap_or(s)
        .trim_start_matches(is_py_space);
    Some(s.strip_prefix('>')?.trim_start_matches(is_py_space))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn drops_url_line_and_markers() {
        let raw = "  URL: http://x.test/a\n<h> Title\n<p>Body <b>text</b>\n\n<l>item\nplain";
        assert_eq!(gold_text(raw), "Title\nBody <b>text</b>\n\nitem\nplain");
    }

    #[test]
    fn url_only_on_the_first_line() {
        assert_eq!(gold_text("<p>a\nURL: b"), "a\nURL: b");
        assert_eq!(gold_text("url: b\nc"), "url: b\nc");
    }

    #[test]
    fn marker_runs_and_spacing() {
        assert_eq!(strip_markers(" < / P > <s/>  x <p>"), "x <p>");
        assert_eq!(strip_markers("<h1><a2345678901>x"), "<a2345678901>x");
        assert_eq!(strip_markers("<a234567890>x"), "x");
        assert_eq!(strip_markers("  <1p>x"), "  <1p>x");
        assert_eq!(strip_markers("<>x"), "<>x");
        assert_eq!(strip_markers("<\u{212a}>x"), "x");
        assert_eq!(strip_markers("\u{1f}<p>x"), "x");
        assert_eq!(strip_markers("<p"), "<p");
    }

    #[test]
    fn splits_lines_like_python() {
        let lines: Vec<&str> = PyLines {
            rest: "a\r\nb\rc\u{2028}d\u{1c}e\n\nf\n",
        }
        .collect();
        assert_eq!(lines, ["a", "b", "c", "d", "e", "", "f"]);
        assert_eq!(PyLines { rest: "" }.count(), 0);
        assert_eq!(PyLines { rest: "\n" }.collect::<Vec<_>>(), [""]);
        assert_eq!(gold_text("\n<p>x\r\n"), "\nx");
    }
}

//! Text gold standards: reading gold files and cutting them into gold segments.
//!
//! Gold files are read leniently: UTF-8 (invalid bytes replaced), a BOM dropped, true UTF-16
//! decoded, and the dragnet mangling undone: some of its files are UTF-16LE text re-encoded
//! byte by byte into UTF-8, so they start with `ÿþ` and have a NUL after every character.
//! Each line is one segment; CleanEval lines carry a `<h>`/`<p>`/`<l>` marker
//! ([`SegmentKind::split_marker`]), plain-text gold has none.

use crate::align::{GoldSegment, SegmentKind};

/// The text of a gold file, whatever of the encodings above it is in.
pub(crate) fn gold_text(bytes: &[u8]) -> String {
    if let Some(rest) = bytes.strip_prefix(&[0xFF, 0xFE]) {
        return utf16(rest, u16::from_le_bytes);
    }
    if let Some(rest) = bytes.strip_prefix(&[0xFE, 0xFF]) {
        return utf16(rest, u16::from_be_bytes);
    }
    let text = String::from_utf8_lossy(bytes);
    let text = text.strip_prefix('\u{feff}').unwrap_or(&text);
    match text.strip_prefix("ÿþ").or_else(|| text.strip_prefix("þÿ")) {
        Some(rest) => rest.chars().filter(|&c| c != '\0').collect(),
        None => text.to_string(),
    }
}

fn utf16(bytes: &[u8], unit: fn([u8; 2]) -> u16) -> String {
    let units: Vec<u16> = bytes
        .chunks_exact(2)
        .map(|c| {
            unit([
                c.first().copied().unwrap_or(0),
                c.get(1).copied().unwrap_or(0),
            ])
        })
        .collect();
    String::from_utf16_lossy(&units)
}

/// CleanEval gold: one segment per non-blank line, kind from its marker (unmarked lines are
/// [`SegmentKind::Unmarked`], i.e. text).
pub(crate) fn marked_segments(gold: &str) -> Vec<GoldSegment<&str, SegmentKind>> {
    gold.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let (kind, text) = SegmentKind::split_marker(l.trim_start());
            GoldSegment::new(text, kind)
        })
        .collect()
}

/// The start of the line that separates an article from its user comments in a Dragnet gold
/// file (`!@#$%^&*()  COMMENTS`).
pub(crate) const COMMENTS_SEPARATOR: &str = "!@#$%^&*()";

/// Plain-text gold: one [`SegmentKind::Unmarked`] segment per non-blank line, up to a line that
/// starts with the comments separator (`!@#$%^&*()`).
///
/// The Dragnet data keeps a page's user comments after that line in some gold files; its
/// guideline (and the shared copy's README) counts comments as boilerplate, so they are not
/// imported as content: otherwise a few pages teach a model to keep the comments that every
/// other page drops.
pub(crate) fn plain_segments(gold: &str) -> Vec<GoldSegment<&str, SegmentKind>> {
    gold.lines()
        .take_while(|l| !l.trim_start().starts_with(COMMENTS_SEPARATOR))
        .filter(|l| !l.trim().is_empty())
        .map(|l| GoldSegment::new(l, SegmentKind::Unmarked))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encodings_of_gold_files() {
        assert_eq!(gold_text(b"\xEF\xBB\xBFHello\n"), "Hello\n");
        assert_eq!(gold_text(b"caf\xE9"), "caf\u{fffd}");
        assert_eq!(gold_text(b"\xFF\xFEH\0i\0"), "Hi");
        assert_eq!(gold_text(b"\xFE\xFF\0H\0i"), "Hi");
        // UTF-16LE bytes read as Latin-1 and written as UTF-8 (dragnet id 39 and others).
        let mangled = "ÿþT\0h\0e\0 \0e\0n\0d\0\r\0\n\0".as_bytes();
        assert_eq!(gold_text(mangled), "The end\r\n");
    }

    #[test]
    fn segments_from_lines() {
        let gold = "<h>Title\n\n<p>First para.\n<l>* item\nunmarked\n";
        let segs = marked_segments(gold);
        let got: Vec<(&str, SegmentKind)> = segs.iter().map(|s| (s.text, s.tag)).collect();
        assert_eq!(
            got,
            [
                ("Title", SegmentKind::Header),
                ("First para.", SegmentKind::Paragraph),
                ("* item", SegmentKind::ListItem),
                ("unmarked", SegmentKind::Unmarked)
            ]
        );
        let plain = plain_segments("<h>kept as text\r\n\nsecond");
        let got: Vec<&str> = plain.iter().map(|s| s.text).collect();
        assert_eq!(got, ["<h>kept as text", "second"]);
        assert!(plain.iter().all(|s| s.tag == SegmentKind::Unmarked));
    }

    #[test]
    fn plain_gold_ends_at_the_comments_separator() {
        let gold = "Headline\nBody.\n!@#$%^&*()  COMMENTS\nJean\nNice post!\n";
        let got: Vec<&str> = plain_segments(gold).iter().map(|s| s.text).collect();
        assert_eq!(got, ["Headline", "Body."]);
        // Only a line that starts with it: the characters inside a line are text.
        let got: Vec<&str> = plain_segments("a !@#$%^&*() b\nc")
            .iter()
            .map(|s| s.text)
            .collect();
        assert_eq!(got, ["a !@#$%^&*() b", "c"]);
    }
}

//! What a gold segment is: its text plus a small tag saying which label its blocks earn.
//!
//! The aligner is generic over the tag so that importers can keep their source's own
//! vocabulary (CleanEval's `<h>`/`<p>`/`<l>`, L3S-GN1's `sel0`…`sel5`) and decide late how it
//! maps to [`Label`]. [`SegmentKind`] covers the gold standards the project reads; [`Label`]
//! itself is a tag too.

use crate::Label;
use victor_features::within::Within;

/// A tag carried by gold segments: small, copyable, comparable, and mapped to a block label.
///
/// Segments whose tag maps to [`Label::Other`] are *not-content* gold (L3S-GN1 gives the
/// boilerplate runs of a page too): they anchor the alignment like any other segment, but
/// blocks aligned to them count as not content.
pub trait GoldTag: Copy + Eq + std::fmt::Debug {
    /// The label that blocks aligned to this tag earn.
    fn label(self) -> Label;
}

impl GoldTag for Label {
    fn label(self) -> Label {
        self
    }
}

/// The kinds of gold segment found in the gold standards the project imports.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SegmentKind {
    /// A heading (`<h>` in CleanEval, the headline `sel1` in L3S-GN1): [`Label::Header`].
    Header,
    /// A paragraph of running text (`<p>`, L3S-GN1 full text `sel2`): [`Label::Text`].
    Paragraph,
    /// A list item (`<l>` in CleanEval): [`Label::Text`].
    ListItem,
    /// Supplemental content (L3S-GN1 `sel3`: captions, datelines): [`Label::Text`]. Importers
    /// that do not count it as content should tag it [`SegmentKind::NotContent`] instead.
    Supplemental,
    /// Content without a marker (dragnet lines, unmarked CleanEval lines): [`Label::Text`].
    Unmarked,
    /// Text known to be boilerplate (L3S-GN1 `sel0`, unwrapped runs): [`Label::Other`].
    NotContent,
}

impl SegmentKind {
    /// Splits a gold line of the form `<h>text`, `<p>text`, `<l>text` or `<s>text` (the format
    /// of the CleanEval and L3S-GN1 gold files in the shared data) into its kind and text.
    ///
    /// A line without one of these markers is [`SegmentKind::Unmarked`] and keeps all its text.
    ///
    /// ```
    /// use victor_annotations::SegmentKind;
    ///
    /// assert_eq!(SegmentKind::split_marker("<h>Why?"), (SegmentKind::Header, "Why?"));
    /// assert_eq!(SegmentKind::split_marker("plain"), (SegmentKind::Unmarked, "plain"));
    /// ```
    pub fn split_marker(line: &str) -> (SegmentKind, &str) {
        let kind = match line.get(..3) {
            Some("<h>") => SegmentKind::Header,
            Some("<p>") => SegmentKind::Paragraph,
            Some("<l>") => SegmentKind::ListItem,
            Some("<s>") => SegmentKind::Supplemental,
            _ => return (SegmentKind::Unmarked, line),
        };
        // The marker matched: three ASCII bytes.
        (kind, line.within(3..))
    }
}

impl GoldTag for SegmentKind {
    fn label(self) -> Label {
        match self {
            SegmentKind::Header => Label::Header,
            SegmentKind::Paragraph
            | SegmentKind::ListItem
            | SegmentKind::Supplemental
            | SegmentKind::Unmarked => Label::Text,
            SegmentKind::NotContent => Label::Other,
        }
    }
}

/// One gold segment: a paragraph (or heading, list item, boilerplate run) of gold text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GoldSegment<S, T> {
    /// The segment's text, as the gold standard gives it.
    pub text: S,
    /// What the segment is.
    pub tag: T,
}

impl<S, T> GoldSegment<S, T> {
    /// A segment with this text and tag.
    pub fn new(text: S, tag: T) -> Self {
        Self { text, tag }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markers_and_labels() {
        assert_eq!(
            SegmentKind::split_marker("<l>* Fast"),
            (SegmentKind::ListItem, "* Fast")
        );
        assert_eq!(
            SegmentKind::split_marker("<s>16 Jan"),
            (SegmentKind::Supplemental, "16 Jan")
        );
        assert_eq!(
            SegmentKind::split_marker("<p>"),
            (SegmentKind::Paragraph, "")
        );
        assert_eq!(
            SegmentKind::split_marker("<x>y"),
            (SegmentKind::Unmarked, "<x>y")
        );
        assert_eq!(
            SegmentKind::split_marker("<h"),
            (SegmentKind::Unmarked, "<h")
        );
        assert_eq!(SegmentKind::split_marker("é"), (SegmentKind::Unmarked, "é"));
        assert_eq!(SegmentKind::Header.label(), Label::Header);
        assert_eq!(SegmentKind::Supplemental.label(), Label::Text);
        assert_eq!(SegmentKind::NotContent.label(), Label::Other);
        assert_eq!(Label::Text.label(), Label::Text);
    }
}

//! L3S-GN1: gold segments from the annotators' DOM (`blocks/<id>.html`).
//!
//! The annotated file is the page re-serialised by the annotation tool, with each labelled
//! text run wrapped in an element of class `x-nc-selN` (in practice a `<span>`): 1 headline,
//! 2 full text, 3 supplemental, 0/4/5 not content. It is segmented with victor's own
//! segmenter; each of its blocks becomes one gold segment whose kind comes from the innermost
//! `x-nc-selN` ancestor (none: not content). Text under an `x-nc-invisible` element is left
//! out. The not-content segments stay in: aligned to the original page, they anchor the
//! boilerplate, so that content text repeated in a teaser is not taken for the article.

use victor_features::Page;

use crate::align::{GoldSegment, SegmentKind};

/// How supplemental runs (`x-nc-sel3`: captions, datelines) count.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
pub enum Supplemental {
    /// As content (text), as Bevendorff et al. (2023) do.
    #[default]
    Text,
    /// As not content.
    Other,
}

/// One gold segment per block of the annotated page, in page order (invisible text left out).
pub(crate) fn annotated_segments(
    annotated: &Page,
    supplemental: Supplemental,
) -> Vec<GoldSegment<&str, SegmentKind>> {
    let mut segments = Vec::with_capacity(annotated.blocks.len());
    for b in &annotated.blocks {
        let mut selection = None;
        let mut invisible = false;
        for (_, e) in annotated.ancestors(b.parent) {
            let class = annotated.class_of(e);
            if class.is_empty() {
                continue;
            }
            if has_class(class, "x-nc-invisible") {
                invisible = true;
                break;
            }
            if selection.is_none() {
                selection = selection_of(class);
            }
        }
        if invisible {
            continue;
        }
        let kind = match selection {
            Some(1) => SegmentKind::Header,
            Some(2) => SegmentKind::Paragraph,
            Some(3) => match supplemental {
                Supplemental::Text => SegmentKind::Supplemental,
                Supplemental::Other => SegmentKind::NotContent,
            },
            _ => SegmentKind::NotContent,
        };
        segments.push(GoldSegment::new(annotated.block_text(b), kind));
    }
    segments
}

/// Whether the (lowercased) class attribute holds `name` as one of its words.
fn has_class(class: &str, name: &str) -> bool {
    class.split_ascii_whitespace().any(|c| c == name)
}

/// N of the first `x-nc-selN` class word, if any.
fn selection_of(class: &str) -> Option<u8> {
    class.split_ascii_whitespace().find_map(|c| {
        let n = c.strip_prefix("x-nc-sel")?;
        match n.as_bytes() {
            [d] if d.is_ascii_digit() => Some(d - b'0'),
            _ => None,
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(html: &str, supplemental: Supplemental) -> Vec<(String, SegmentKind)> {
        let page = victor_features::segment(html).unwrap();
        annotated_segments(&page, supplemental)
            .into_iter()
            .map(|s| (s.text.to_string(), s.tag))
            .collect()
    }

    #[test]
    fn innermost_selection_decides_and_invisible_text_is_dropped() {
        let html = r#"<body><div>Menu</div>
            <h1><span class="x-nc-sel1">Headline</span></h1>
            <span class="x-nc-sel3">16 Jan</span>
            <p><span class="x-nc-sel2">Body <a href="/">link</a> <span class="x-nc-sel0">ad</span></span></p>
            <label class="x-nc-invisible">hidden</label>
            <div class="box X-NC-SEL5">comment</div>
            <span class="x-nc-sel4">related</span>"#;
        use SegmentKind::{Header, NotContent, Paragraph, Supplemental as Sup};
        let got = kinds(html, Supplemental::Text);
        let want = [
            ("Menu", NotContent),
            ("Headline", Header),
            ("16 Jan", Sup),
            ("Body", Paragraph),
            ("link", Paragraph),
            ("ad", NotContent),
            ("comment", NotContent),
            ("related", NotContent),
        ];
        let want: Vec<(String, SegmentKind)> =
            want.iter().map(|(t, k)| (t.to_string(), *k)).collect();
        assert_eq!(got, want);
        let got = kinds(html, Supplemental::Other);
        assert_eq!(got[2], ("16 Jan".to_string(), NotContent));
    }

    #[test]
    fn class_words() {
        assert_eq!(selection_of("foo x-nc-sel2"), Some(2));
        assert_eq!(selection_of("x-nc-sel12 x-nc-linearized"), None);
        assert!(has_class("a x-nc-invisible", "x-nc-invisible"));
        assert!(!has_class("x-nc-invisibles", "x-nc-invisible"));
    }
}

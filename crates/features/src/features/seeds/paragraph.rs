//! jusText's paragraphs over victor's blocks (seed `002`, "Introduction"): the page is split at
//! the block-level tags a browser formats as blocks and at a sequence of two or more `<br>`s.
//! victor's blocks are finer (every tag ends one), so a paragraph is a run of consecutive
//! blocks: a new one starts where the tags between two blocks include one of those tags, or two
//! `<br>`s.
//!
//! The seed's list is BLOCKQUOTE, CAPTION, CENTER, COL, COLGROUP, DD, DIV, DL, DT, FIELDSET,
//! FORM, H1 to H6, LEGEND, LI, OPTGROUP, OPTION, P, PRE, TABLE, TD, TEXTAREA, TFOOT, TH, THEAD,
//! TR, UL. `OL` and `BODY` (as in the Python implementation) and HTML5's sectioning elements
//! (ARTICLE, ASIDE, FOOTER, HEADER, MAIN, NAV, SECTION, FIGURE, FIGCAPTION, ADDRESS), which the
//! seed predates and browsers format as blocks too, are added.

use std::ops::Range;

use crate::features::structure::TagSet;
use victor_html::Page;
use victor_html::Tag;
use victor_html::within::Within;

/// The tags that separate paragraphs (see the module docs).
pub const PARAGRAPH_TAGS: &[&str] = &[
    "blockquote",
    "caption",
    "center",
    "col",
    "colgroup",
    "dd",
    "div",
    "dl",
    "dt",
    "fieldset",
    "form",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "legend",
    "li",
    "optgroup",
    "option",
    "p",
    "pre",
    "table",
    "td",
    "textarea",
    "tfoot",
    "th",
    "thead",
    "tr",
    "ul",
    "ol",
    "body",
    "article",
    "aside",
    "footer",
    "header",
    "main",
    "nav",
    "section",
    "figure",
    "figcaption",
    "address",
];

/// The set of [`PARAGRAPH_TAGS`].
pub fn paragraph_tags() -> TagSet {
    let mut set = TagSet::default();
    for name in PARAGRAPH_TAGS {
        if let Some(t) = Tag::lookup(name.as_bytes()) {
            set.insert(t);
        }
    }
    set
}

/// Splits a page's blocks into paragraphs: the ranges of block indices, in order, covering
/// every block (`out` is cleared first).
pub fn paragraphs(page: &Page, out: &mut Vec<Range<usize>>) {
    out.clear();
    let tags = paragraph_tags();
    let mut start = 0;
    for (i, b) in page.blocks.iter().enumerate() {
        let mut brs = 0u32;
        let mut split = false;
        for s in page.block_splits(b) {
            if s.tag == Tag::BR {
                brs += u32::from(s.opened) + u32::from(s.closed);
            } else if tags.contains(s.tag) {
                split = true;
            }
        }
        if i > start && (split || brs >= 2) {
            out.push(start..i);
            start = i;
        }
    }
    if start < page.blocks.len() {
        out.push(start..page.blocks.len());
    }
}

/// What jusText and Kimatu measure on a paragraph.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ParaStats {
    /// Characters of its text (the blocks' text joined by a space where the page had white
    /// space between them).
    pub chars: u32,
    /// Characters inside `<a>` elements.
    pub link_chars: u32,
    /// Links: the runs of its blocks inside `<a>` (a link split by inline tags counts once).
    pub links: u32,
    /// Words: white-space separated tokens.
    pub words: u32,
    /// Words in the stop-word list.
    pub stop_words: u32,
    /// Sentence-ending punctuation: `.`, `!`, `?` (and `…`) ending a word that is not a
    /// number, an initial or a single-letter abbreviation.
    pub punct: u32,
    /// It contains a copyright sign (`©`, or an unexpanded `&copy`).
    pub copyright: bool,
}

impl ParaStats {
    /// Measures the paragraph of blocks `range`, counting stop words from `stop` (hashes of
    /// lowercase words, as [`crate::features::lexicon::word_hash`] computes them).
    pub fn of(
        page: &Page,
        range: Range<usize>,
        stop: Option<&rustc_hash::FxHashSet<u64>>,
    ) -> ParaStats {
        let mut s = ParaStats::default();
        let mut prev_anchor = false;
        for (k, b) in page.blocks.within(range.clone()).iter().enumerate() {
            let t = page.block_text(b);
            let n = t.chars().count() as u32;
            let sep = u32::from(k > 0 && b.space_before);
            s.chars += n + sep;
            if b.in_anchor {
                s.link_chars += n;
                let opens = page
                    .block_splits(b)
                    .iter()
                    .any(|sp| sp.tag == Tag::A && sp.opened > 0);
                if !prev_anchor || opens {
                    s.links += 1;
                }
            }
            prev_anchor = b.in_anchor;
            if t.contains('©') || t.contains("&copy") {
                s.copyright = true;
            }
            for w in t.split_ascii_whitespace() {
                s.words += 1;
                if stop.is_some_and(|set| set.contains(&crate::features::lexicon::word_hash(w))) {
                    s.stop_words += 1;
                }
                if ends_sentence(w) {
                    s.punct += 1;
                }
            }
        }
        s
    }

    /// Share of the characters inside links.
    pub fn link_density(&self) -> f64 {
        if self.chars == 0 {
            0.0
        } else {
            f64::from(self.link_chars) / f64::from(self.chars)
        }
    }

    /// Share of the words that are stop words.
    pub fn stop_density(&self) -> f64 {
        if self.words == 0 {
            0.0
        } else {
            f64::from(self.stop_words) / f64::from(self.words)
        }
    }
}

/// Whether a word ends a sentence: it ends in `.`, `!`, `?` or `…` (closing quotes and
/// brackets aside), and is not a number (`3.`), an initial or a one-letter abbreviation
/// (`J.`, `e.g.`).
pub fn ends_sentence(word: &str) -> bool {
    let w = word.trim_end_matches(['"', '\'', '”', '’', '»', ')', ']']);
    let Some(last) = w.chars().last() else {
        return false;
    };
    if !matches!(last, '.' | '!' | '?' | '…') {
        return false;
    }
    let body = w.trim_end_matches(['.', '!', '?', '…']);
    if last == '.' {
        let letters = body.chars().filter(|c| c.is_alphabetic()).count();
        if letters <= 1 || body.contains('.') || body.chars().all(|c| c.is_ascii_digit()) {
            return false;
        }
    }
    !body.is_empty()
}

#[cfg(test)]
mod tests {
    use super::*;
    fn page(html: &str) -> victor_html::Page {
        crate::segment(html).expect("segment")
    }

    #[test]
    fn paragraphs_split_at_block_tags_and_double_br_only() {
        let p = page(
            "<body><p>One <b>bold</b> word.</p><div>Two<br>still two<br><br>three</div><span>three too</span></body>",
        );
        let mut out = Vec::new();
        paragraphs(&p, &mut out);
        let texts: Vec<String> = out
            .iter()
            .map(|r| {
                p.blocks[r.clone()]
                    .iter()
                    .map(|b| p.block_text(b))
                    .collect::<Vec<_>>()
                    .join("|")
            })
            .collect();
        // `</div>` ends a paragraph too.
        assert_eq!(
            texts,
            ["One|bold|word.", "Two|still two", "three", "three too"]
        );
    }

    #[test]
    fn stats_count_links_and_punctuation() {
        let p = page(
            "<p>See <a href=x>the <b>long</b> link</a> here. And e.g. 3. Then J. Smith left!</p>",
        );
        let s = ParaStats::of(&p, 0..p.blocks.len(), None);
        assert_eq!(s.links, 1);
        assert_eq!(s.link_chars, "the".len() as u32 + 4 + 4);
        assert_eq!(s.punct, 2, "here. and left! only");
        assert_eq!(s.words, 12);
    }
}

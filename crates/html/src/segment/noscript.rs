//! Crawler views: a page whose content sits inside `<noscript>`.
//!
//! victor parses as a browser with scripting on does: the content of `<noscript>` is raw text
//! and never becomes a block. That is right for the usual tracking pixel or "please enable
//! JavaScript", but JavaScript applications ship the page's whole text there for crawlers and
//! script-less browsers: a Discourse forum's posts are in `<noscript data-path=...>` while the
//! visible tree holds a splash screen (18 of the 90 forum pages of wcxb's `dev` split had none of
//! their gold text in victor's blocks). When the text inside a page's `<noscript>` elements
//! outweighs the text of its blocks, the page is parsed again as a script-less browser would
//! parse it: each such `<noscript>` read as a `<div>`.
//!
//! The start and end tags are rewritten in place with tags of the same length (`<noscript` as
//! `<div` and five spaces, `</noscript>` as `</div` and five spaces and `>`, both valid HTML),
//! so that every block's byte offsets still point into the document as it was.

use crate::within::Within;
use memchr::memmem;

/// Words the `<noscript>` text must hold before a page is parsed again for it.
const MIN_WORDS: usize = 100;

/// How many times the visible blocks' words the `<noscript>` text must hold.
const OUTWEIGH: usize = 2;

/// A `<noscript>` element's start tag (from `<`) and end tag (from `<`), in bytes.
struct Span {
    start: usize,
    end: usize,
}

/// The `<noscript>` elements of a document whose text counts: their start and end tags, and
/// the words of text (outside markup) between them. An unclosed one counts for nothing. One
/// pass over the document for the lower-case name (an upper-case `<NOSCRIPT>` is not looked
/// for); its content is raw text, so no `<noscript>` holds another.
fn spans(html: &str) -> (Vec<Span>, usize) {
    let bytes = html.as_bytes();
    let mut out = Vec::new();
    let mut words = 0;
    let mut open: Option<(usize, usize)> = None;
    for at in memmem::find_iter(bytes, b"noscript") {
        let next = bytes.get(at + b"noscript".len()).copied();
        let before = |n: usize| at.checked_sub(n).and_then(|i| bytes.get(i)).copied();
        if before(1) == Some(b'<') {
            // A start tag; the name must end here (`<noscripts>` is another tag).
            if open.is_none() && matches!(next, Some(b'>' | b' ' | b'\t' | b'\n' | b'\r' | b'/')) {
                open = Some((at - 1, at + b"noscript".len()));
            }
        } else if before(1) == Some(b'/')
            && before(2) == Some(b'<')
            && next == Some(b'>')
            && let Some((start, after)) = open.take()
        {
            let end = at - 2;
            words += text_words(bytes.within(after..end));
            out.push(Span { start, end });
        }
    }
    (out, words)
}

/// Words of text in a piece of HTML: runs of alphanumeric characters outside `<...>` and
/// outside `&lt;...&gt;`. Escaped tags are markup too: a page saved from a browser's document
/// with scripting on holds each `<noscript>`'s raw text escaped (`&lt;div class="alert"&gt;`,
/// `&lt;img src="...tracking URL..."&gt;`), and counted as text the words of those tags' URLs
/// outweighed a Japanese page's visible text (readability-tests' yahoo-4), whose crawler view
/// then showed the escaped tags as text.
fn text_words(html: &[u8]) -> usize {
    let (mut words, mut in_tag, mut in_word) = (0, false, false);
    let mut rest = html;
    while let Some((&b, after)) = rest.split_first() {
        rest = after;
        match b {
            b'<' => {
                in_tag = true;
                in_word = false;
            }
            b'>' => in_tag = false,
            b'&' if rest.starts_with(b"lt;") => {
                rest = rest.within(3..);
                in_tag = true;
                in_word = false;
            }
            b'&' if rest.starts_with(b"gt;") => {
                rest = rest.within(3..);
                in_tag = false;
            }
            _ if in_tag => {}
            _ if b.is_ascii_alphanumeric() || b >= 0x80 => {
                if !in_word {
                    words += 1;
                    in_word = true;
                }
            }
            _ => in_word = false,
        }
    }
    words
}

/// The document read as a script-less browser reads it (each counted `<noscript>` as a `<div>`,
/// bytes in place), when the text of its `<noscript>` elements outweighs `visible_words()`, the
/// words of the blocks the scripted parse found (counted only for a page with `<noscript>`);
/// else `None`.
pub(super) fn crawler_view(html: &str, visible_words: impl FnOnce() -> usize) -> Option<String> {
    let (spans, words) = spans(html);
    if words < MIN_WORDS || words < OUTWEIGH.saturating_mul(visible_words()) {
        return None;
    }
    let mut doc = html.as_bytes().to_vec();
    for s in &spans {
        doc.get_mut(s.start..s.start + b"<noscript".len())?
            .copy_from_slice(b"<div     ");
        doc.get_mut(s.end..s.end + b"</noscript>".len())?
            .copy_from_slice(b"</div     >");
    }
    // Only ASCII bytes were replaced by ASCII bytes.
    String::from_utf8(doc).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(n: usize) -> String {
        (0..n).map(|i| format!("word{i} ")).collect()
    }

    #[test]
    fn a_page_whose_text_is_in_noscript_is_read_without_scripts() {
        let html = format!(
            "<body><div>Loading</div><noscript data-path=\"/t/1\"><p>{}</p></noscript></body>",
            words(150)
        );
        let view = crawler_view(&html, || 1).expect("the crawler view");
        assert_eq!(view.len(), html.len());
        assert!(view.contains("<div      data-path=\"/t/1\"><p>word0"));
        assert!(view.contains("</div     ></body>"));
    }

    #[test]
    fn escaped_tags_in_noscript_are_markup_not_words() {
        // The raw text of a scripted parse, escaped by the tool that saved the page: tracking
        // pixels whose URLs are many "words", and a short notice.
        let pixel = "&lt;div style=\"position:absolute;\"&gt;&lt;img width=1 src=\"http://b.example/b?P=a1b2&amp;T=16lu%2fX%3d14%2fE%3d20%2fR%3djp%2fK%3d5%2fV%3d2.1\"&gt;&lt;/div&gt;";
        assert_eq!(text_words(pixel.as_bytes()), 0);
        assert_eq!(text_words(b"&lt;p&gt;JavaScript is off&lt;/p&gt;"), 3);
        let html = format!(
            "<body><p>短い本文です。</p>{}</body>",
            format!("<noscript>{pixel}</noscript>").repeat(40)
        );
        assert!(crawler_view(&html, || 1).is_none());
    }

    #[test]
    fn a_page_with_its_text_visible_or_a_small_noscript_is_left_alone() {
        let small = "<body><p>Text</p><noscript><img src=x>Enable JavaScript</noscript></body>";
        assert!(crawler_view(small, || 1).is_none());
        let big = format!("<body><noscript><p>{}</p></noscript></body>", words(150));
        assert!(crawler_view(&big, || 500).is_none(), "the page shows more");
        assert!(crawler_view(&big, || 10).is_some());
        let unclosed = format!("<body><noscript><p>{}</p></body>", words(150));
        assert!(crawler_view(&unclosed, || 0).is_none());
        let other = format!("<body><noscripts>{}</noscripts></body>", words(150));
        assert!(crawler_view(&other, || 0).is_none());
    }
}

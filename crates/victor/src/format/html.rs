//! `--format html`: the original page with every block highlighted by its label, probabilities
//! on hover ([`render_html`]); for pages, not WARC records.

use std::fmt::Write as _;
use std::io;

use victor_core::{Label, Probs};
use victor_features::within::Within;
use victor_features::{Block, Page, Tag};

use super::{Item, Spec, debug_check_lengths};

/// The HTML format.
pub(super) struct Html;

impl Spec for Html {
    fn extension(&self) -> &'static str {
        "html"
    }

    fn render(&self, item: &Item<'_>, out: &mut Vec<u8>) -> io::Result<()> {
        let lp = item.lp;
        let html = render_html(
            &lp.processed.decoded.text,
            &lp.processed.page,
            &lp.labels,
            &lp.probs,
        );
        out.extend_from_slice(html.as_bytes());
        Ok(())
    }
}

/// Where `render_html` puts its tags: right after the `<head>` start tag when the page has one
/// before its first block, else right after the `<!DOCTYPE ...>` (a document's first thing must
/// stay its doctype, or browsers render it in quirks mode), else at the start.
fn injection_point(doc: &str, limit: usize) -> usize {
    let limit = limit.min(doc.len());
    let head = doc.as_bytes().within(..limit);
    let lower: Vec<u8> = head.iter().map(u8::to_ascii_lowercase).collect();
    let find = |needle: &[u8], from: usize| -> Option<usize> {
        lower
            .get(from..)?
            .windows(needle.len())
            .position(|w| w == needle)
            .map(|i| i + from)
    };
    // The end of the start tag that begins at `start`: just past its `>`.
    let tag_end = |start: usize| -> Option<usize> {
        lower
            .get(start..)?
            .iter()
            .position(|&c| c == b'>')
            .map(|i| start + i + 1)
    };
    let mut from = 0;
    while let Some(i) = find(b"<head", from) {
        let next = lower.get(i + 5).copied();
        if matches!(
            next,
            Some(b'>' | b'/') | Some(b' ' | b'\t' | b'\n' | b'\r' | 0x0c)
        ) {
            if let Some(end) = tag_end(i) {
                return end;
            }
            break;
        }
        from = i + 5;
    }
    // A doctype never closed (a page cut short) runs to the end of what was searched.
    find(b"<!doctype", 0).map_or(0, |i| tag_end(i).unwrap_or(limit))
}

/// The original page with every block highlighted by its label, probabilities on hover
/// (`--format html`). Scripts are disabled by a content security policy, so the page renders
/// as a static picture of what victor kept. The tags victor adds go inside `<head>` (or after
/// the doctype), never before the doctype.
pub fn render_html(doc: &str, page: &Page, labels: &[Label], probs: &[Probs]) -> String {
    debug_check_lengths(page, labels, probs);
    let mut out = String::with_capacity(doc.len() + page.blocks.len() * 120 + 1024);
    let first_block = page
        .blocks
        .iter()
        .map(|b| b.source.start as usize)
        .min()
        .unwrap_or(doc.len());
    let at = injection_point(doc, first_block);
    let at = if doc.is_char_boundary(at) { at } else { 0 };
    out.push_str(&doc[..at]);
    out.push_str(
        "<meta charset=\"utf-8\"><meta http-equiv=\"Content-Security-Policy\" content=\"script-src 'none'\">\
         <style>.victor-header{background:#fcd34d !important;color:#000 !important}\
         .victor-text{background:#86efac !important;color:#000 !important}\
         .victor-other{background:#fecaca !important;color:#555 !important;text-decoration:line-through}</style>\n",
    );
    let mut pos = at;
    for (i, b) in page.blocks.iter().enumerate() {
        let (s, e) = (b.source.start as usize, b.source.end as usize);
        if s < pos
            || e > doc.len()
            || !doc.is_char_boundary(s)
            || !doc.is_char_boundary(e)
            || b.in_pre && in_textarea(page, b)
        {
            continue;
        }
        out.push_str(&doc[pos..s]);
        let l = labels.get(i).copied().unwrap_or(Label::Other);
        let p = probs.get(i).copied().unwrap_or([0.0, 0.0, 1.0]);
        let _ = write!(
            out,
            "<span class=\"victor-{}\" title=\"{}: header {:.3} text {:.3} other {:.3}\">",
            l.as_str(),
            l.as_str(),
            p[0],
            p[1],
            p[2]
        );
        out.push_str(&doc[s..e]);
        out.push_str("</span>");
        pos = e;
    }
    // `pos` is 0 or the end of a block checked above to be in the document.
    out.push_str(doc.within(pos..));
    out
}

fn in_textarea(page: &Page, b: &Block) -> bool {
    page.ancestors(b.parent)
        .any(|(_, e)| e.tag == Tag::TEXTAREA)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn page(html: &str) -> Page {
        victor_features::segment(html).expect("segments")
    }

    #[test]
    fn html_output_wraps_blocks() {
        let doc = "<p>Hello <b>world</b>!</p>";
        let p = page(doc);
        let probs = [[0.1, 0.8, 0.1], [0.0, 0.1, 0.9], [0.2, 0.7, 0.1]];
        let labels = [Label::Text, Label::Other, Label::Text];
        let h = render_html(doc, &p, &labels, &probs);
        assert!(h.contains("<p><span class=\"victor-text\" title=\"text: header 0.100 text 0.800 other 0.100\">Hello</span> <b><span class=\"victor-other\""));
        assert!(h.ends_with("!</span></p>"));
    }

    #[test]
    fn html_output_keeps_the_doctype_first_and_its_tags_in_head() {
        let doc =
            "<!DOCTYPE html>\n<html><head><title>T</title></head><body><p>Hello</p></body></html>";
        let p = page(doc);
        let n = p.blocks.len();
        let h = render_html(doc, &p, &vec![Label::Text; n], &vec![[0.0, 1.0, 0.0]; n]);
        assert!(
            h.starts_with("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">"),
            "{h}"
        );
        // No head: right after the doctype.
        let doc = "<!doctype html><p>Hello</p>";
        let p = page(doc);
        let h = render_html(doc, &p, &[Label::Text], &[[0.0, 1.0, 0.0]]);
        assert!(h.starts_with("<!doctype html><meta charset="), "{h}");
        // A page cut inside its doctype (found by tests/fuzz_pages.rs).
        let doc = "<!DOCTYPE htm";
        let p = page(doc);
        let h = render_html(doc, &p, &[], &[]);
        assert!(h.starts_with("<!DOCTYPE htm<meta charset="), "{h}");
        // <header> is not <head>; no doctype: at the start.
        let doc = "<header>Top</header><p>Hello</p>";
        let p = page(doc);
        let n = p.blocks.len();
        let h = render_html(doc, &p, &vec![Label::Text; n], &vec![[0.0, 1.0, 0.0]; n]);
        assert!(h.starts_with("<meta charset="), "{h}");
        assert!(h.contains("<header><span class=\"victor-text\""), "{h}");
    }
}

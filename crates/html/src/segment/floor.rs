//! The floor under the segmenter's cost: victor's tokenizer and tree builder alone, the work
//! any extractor pays before it can look at a page (resiliparse's lexbor, html5ever, a
//! browser). No attribute is read, no text is copied, decoded or collapsed, no block is made:
//! every tag goes to the tree under its name, every piece of text asks the tree where it goes.
//! `victor bench` times it; eval/SPEED.md counts its instructions and gives victor's whole run
//! as a multiple of it.

use super::lex::{Event, Lexer};
use super::tags::Tag;
use super::tree::{TokenAttrs, Tree};
use crate::within::Within;

/// Tokenizes a document and builds its tree; returns the number of elements. Names the table
/// of known tags lacks all take one unknown tag (the segmenter interns each); tags the gap
/// scanner reads otherwise than the tokenizer (an attribute name starting with `=`) are read
/// as the tokenizer reads them.
pub fn tokenize_and_build(html: &str) -> usize {
    let mut tree = Tree::default();
    tree.reset();
    let doc = html.as_bytes();
    Lexer::new(doc).run(|event| {
        match event {
            Event::Tag(t) => {
                let name = doc.within(t.name.clone());
                let tag = t
                    .name_hash
                    .and_then(Tag::lookup_hashed)
                    .or_else(|| Tag::lookup(name))
                    .unwrap_or(Tag(Tag::FIRST_UNKNOWN));
                if t.end_tag {
                    tree.end(tag);
                } else {
                    let attrs = doc.within(t.name.end..t.range.end.saturating_sub(1));
                    let token = TokenAttrs {
                        self_closing: attrs.last() == Some(&b'/'),
                        ..TokenAttrs::default()
                    };
                    tree.start(tag, 0..0, 0..0, token);
                }
                // The segmenter hands these to its blocks; nothing reads them here.
                tree.pending.clear();
            }
            Event::Text { range, .. } => {
                let has_text = doc
                    .within(range)
                    .iter()
                    .any(|&b| !matches!(b, b' ' | b'\t' | b'\n' | b'\r' | b'\x0c'));
                tree.text(has_text);
            }
            Event::Comment(_) | Event::Doctype { .. } => {}
        }
        true
    });
    tree.elements.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_floor_builds_the_segmenters_tree() {
        let html = "<html><head><title>T</title></head><body><div class=a><p>One <b>two\
                    </b><p>three<table><tr><td>x</table></div><custom-el>y</custom-el></body>";
        let page = super::super::segment(html).expect("segments");
        assert_eq!(tokenize_and_build(html), page.elements.len());
        assert_eq!(tokenize_and_build(""), 1);
    }
}

//! The oracle both segmenter tests compare with: the text nodes html5ever builds outside the
//! elements victor excludes, each with its tag path, white space collapsed as the segmenter
//! collapses it.

use html5ever::tendril::TendrilSink;
use markup5ever_rcdom::{Handle, NodeData, RcDom};
use victor_html::{Props, Tag};

/// The segmenter's white-space rule, restated.
pub fn collapse(s: &str) -> String {
    let mut out = String::new();
    let mut space = false;
    for c in s.chars() {
        if c.is_whitespace() {
            space = true;
            continue;
        }
        if c.is_control() || matches!(c, '\u{200b}' | '\u{feff}' | '\u{ad}') {
            continue;
        }
        if space && !out.is_empty() {
            out.push(' ');
        }
        space = false;
        out.push(c);
    }
    out
}

fn walk(node: &Handle, path: &mut Vec<String>, out: &mut Vec<(String, String)>) {
    match &node.data {
        NodeData::Text { contents } => {
            let t = collapse(&contents.borrow());
            if !t.is_empty() {
                out.push((path.join("/"), t));
            }
        }
        NodeData::Element { name, .. } => {
            let local: &str = &name.local;
            if Tag::lookup(local.as_bytes()).is_some_and(|t| t.is(Props::EXCLUDED)) {
                return;
            }
            path.push(local.to_ascii_lowercase());
            for c in node.children.borrow().iter() {
                walk(c, path, out);
            }
            path.pop();
        }
        NodeData::Document => {
            for c in node.children.borrow().iter() {
                walk(c, path, out);
            }
        }
        _ => {}
    }
}

/// `(tag path, text)` of every text node html5ever builds outside excluded elements.
pub fn html5ever_blocks(html: &str) -> Vec<(String, String)> {
    let dom = html5ever::parse_document(RcDom::default(), Default::default()).one(html);
    let mut out = Vec::new();
    walk(&dom.document, &mut Vec::new(), &mut out);
    out
}

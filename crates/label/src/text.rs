//! Turning labelled blocks back into text: the kept blocks as lines, joined as the page had
//! them (the output formats that carry more than the text are the facade's `victor::output`).
//!
//! Kept blocks (header or text) are joined the way the page had them: with a space where the
//! page had white space (or dropped text) between them, glued where it had none (`<b>W</b>ord`),
//! and on a new line where a block-level tag or a `<br>` intervened, or where the label changes
//! between header and text. So the text output holds one paragraph a line, no word glued to its
//! neighbour and none split.

use victor_core::Label;
use victor_features::{Block, Page};
use victor_features::{Props, Tag};

/// How a kept block connects to the previous kept block.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Join {
    Glue,
    Space,
    Line,
}

fn join_between(page: &Page, blocks: &[Block], prev: usize, next: usize, labels: &[Label]) -> Join {
    let mut join = Join::Glue;
    for (k, b) in blocks.iter().enumerate().take(next + 1).skip(prev + 1) {
        for s in page.block_splits(b) {
            if s.tag == Tag::BR || s.tag.is(Props::BLOCK) {
                return Join::Line;
            }
        }
        if b.space_before || (k < next && labels.get(k).is_some_and(|l| !l.is_content())) {
            join = Join::Space;
        }
    }
    if labels.get(prev) != labels.get(next) {
        return Join::Line;
    }
    join
}

/// The paragraph marker of CleanEval's gold standard for a paragraph starting at `block`.
pub(crate) fn marker(page: &Page, block: &Block, label: Label) -> &'static str {
    if label == Label::Header {
        return "<h>";
    }
    if page.ancestors(block.parent).any(|(_, e)| e.tag == Tag::LI) {
        "<l>"
    } else {
        "<p>"
    }
}

/// One output line of the kept text, with the block it starts at and its label.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Line {
    /// The text.
    pub text: String,
    /// Its first block.
    pub first: usize,
    /// The label of its blocks.
    pub label: Label,
}

/// The kept text as lines, joined as [`render_text`] joins them; with `doc`, the title of an
/// `<abbr>` or `<acronym>` follows its text in parentheses ([`abbr_title`]).
pub(crate) fn text_lines(page: &Page, labels: &[Label], doc: Option<&str>) -> Vec<Line> {
    let mut lines: Vec<Line> = Vec::new();
    for (i, l, join) in kept_joins(page, labels) {
        match (join, lines.last_mut()) {
            (Join::Line, _) | (_, None) => lines.push(Line {
                text: String::new(),
                first: i,
                label: l,
            }),
            (Join::Space, Some(line)) => line.text.push(' '),
            (Join::Glue, Some(_)) => {}
        }
        if let (Some(line), Some(b)) = (lines.last_mut(), page.blocks.get(i)) {
            line.text.push_str(page.block_text(b));
            if let Some(title) = doc.and_then(|d| abbr_title(d, page, b)) {
                line.text.push_str(" (");
                line.text.push_str(title);
                line.text.push(')');
            }
        }
    }
    lines
}

/// The kept (content) blocks of a page in order, each with its label and how it joins the kept
/// block before it (the first one starts a line).
pub(crate) fn kept_joins<'a>(
    page: &'a Page,
    labels: &'a [Label],
) -> impl Iterator<Item = (usize, Label, Join)> + 'a {
    let blocks = &page.blocks;
    let mut prev: Option<usize> = None;
    (0..blocks.len()).filter_map(move |i| {
        let l = labels.get(i).copied().unwrap_or(Label::Other);
        if !l.is_content() {
            return None;
        }
        let join = match prev {
            None => Join::Line,
            Some(p) => join_between(page, blocks, p, i, labels),
        };
        prev = Some(i);
        Some((i, l, join))
    })
}

/// Appends the kept text of a page to `out`: one paragraph a line; with `markers`, each line
/// starts with CleanEval's `<h>`, `<p>` or `<l>`.
pub fn render_text(page: &Page, labels: &[Label], markers: bool, out: &mut String) {
    let mut any = false;
    for (i, l, join) in kept_joins(page, labels) {
        let Some(b) = page.blocks.get(i) else {
            continue;
        };
        match join {
            Join::Line => {
                if any {
                    out.push('\n');
                }
                if markers {
                    out.push_str(marker(page, b, l));
                }
            }
            Join::Space => out.push(' '),
            Join::Glue => {}
        }
        out.push_str(page.block_text(b));
        any = true;
    }
    if any {
        out.push('\n');
    }
}

/// The `title` of the `<abbr>` or `<acronym>` whose text is block `b` (its start tag is the
/// last tag before the block's text in the decoded document): Kitten writes it after the text
/// (seed 003, section 3.3; `--linearize`).
pub(crate) fn abbr_title<'d>(doc: &'d str, page: &Page, b: &Block) -> Option<&'d str> {
    let el = page.element(b.parent);
    if el.tag != Tag::ABBR && el.tag != Tag::ACRONYM {
        return None;
    }
    let before = doc.get(..b.source.start as usize)?;
    let open = before.rfind('<')?;
    let tag = before.get(open..)?;
    let lower = tag.to_ascii_lowercase();
    if !(lower.starts_with("<abbr") || lower.starts_with("<acronym")) {
        return None;
    }
    let at = lower.find("title")?;
    let rest = tag
        .get(at + 5..)?
        .trim_start()
        .strip_prefix('=')?
        .trim_start();
    let value = match rest.chars().next()? {
        q @ ('"' | '\'') => {
            let body = rest.get(1..)?;
            body.get(..body.find(q)?)?
        }
        _ => rest.get(..rest.find(|c: char| c.is_whitespace() || c == '>')?)?,
    };
    let value = value.trim();
    (!value.is_empty()).then_some(value)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn page(html: &str) -> Page {
        victor_features::segment(html).expect("segments")
    }

    #[test]
    fn joins_blocks_as_the_page_had_them() {
        let p = page(
            "<h1>Title</h1><p>Hello <b>W</b>ord and <a>a link</a>, more.</p><div>menu</div><p>Next<br>line</p>",
        );
        let texts: Vec<&str> = p.blocks.iter().map(|b| p.block_text(b)).collect();
        assert_eq!(
            texts,
            [
                "Title", "Hello", "W", "ord and", "a link", ", more.", "menu", "Next", "line"
            ]
        );
        use Label::*;
        let labels = [Header, Text, Text, Text, Other, Text, Other, Text, Text];
        let mut s = String::new();
        render_text(&p, &labels, false, &mut s);
        assert_eq!(s, "Title\nHello Word and , more.\nNext\nline\n");
        let mut s = String::new();
        render_text(&p, &labels, true, &mut s);
        assert_eq!(s, "<h>Title\n<p>Hello Word and , more.\n<p>Next\n<p>line\n");
        let mut s = String::new();
        render_text(&p, &[Other; 9], false, &mut s);
        assert_eq!(s, "");
    }

    #[test]
    fn list_items_get_l_markers() {
        let p = page("<ul><li>one</li><li>two</li></ul>");
        let mut s = String::new();
        render_text(&p, &[Label::Text, Label::Text], true, &mut s);
        assert_eq!(s, "<l>one\n<l>two\n");
    }
}

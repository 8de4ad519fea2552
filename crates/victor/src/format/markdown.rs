//! `--format markdown`: the kept blocks as Markdown with the page's structure, as
//! [`crate::MarkdownStyle::render`] (over `victor_label::render_markdown`) writes them; also the
//! `markdown` field of the JSON-lines formats. Pages on one stream are set apart by a blank line.

use std::io;

use super::{Item, Spec};
use crate::MarkdownStyle;

/// The Markdown format.
pub(super) struct Markdown;

/// A labelled page's Markdown in the run's style (`--links`, `--emphasis`), links resolved
/// against the page's URL.
pub(super) fn of(item: &Item<'_>) -> String {
    let style = MarkdownStyle {
        links: item.how.links,
        emphasis: item.how.emphasis,
    };
    style.render(item.lp, item.url)
}

impl Spec for Markdown {
    fn extension(&self) -> &'static str {
        "md"
    }

    fn render(&self, item: &Item<'_>, out: &mut Vec<u8>) -> io::Result<()> {
        out.extend_from_slice(of(item).as_bytes());
        Ok(())
    }

    fn blank_line_between_pages(&self) -> bool {
        true
    }
}

//! `--format text` and `--format cleaneval`: the kept blocks, one paragraph a line, as
//! `victor_label::render_text_with` writes them (CleanEval's `<h>`, `<p>`, `<l>` markers for
//! `cleaneval`; Kitten's lists and tables with `--linearize`). Pages on one stream are set apart
//! by a blank line.

use std::io;

use victor_label::{TextOptions, render_text_with};

use super::{Item, Spec};

/// The text formats: plain, or with CleanEval's markers.
pub(super) struct Text {
    /// CleanEval's paragraph markers (`--format cleaneval`).
    pub(super) markers: bool,
}

impl Spec for Text {
    fn extension(&self) -> &'static str {
        "txt"
    }

    fn render(&self, item: &Item<'_>, out: &mut Vec<u8>) -> io::Result<()> {
        let lp = item.lp;
        let mut s = String::new();
        let opts = TextOptions {
            markers: self.markers,
            linearize: item
                .how
                .linearize
                .then_some(lp.processed.decoded.text.as_ref()),
        };
        render_text_with(&lp.processed.page, &lp.labels, opts, &mut s);
        out.extend_from_slice(s.as_bytes());
        Ok(())
    }

    fn blank_line_between_pages(&self) -> bool {
        true
    }
}

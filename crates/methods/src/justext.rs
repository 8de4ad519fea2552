//! jusText as a labeler (seed `002`). The classification itself lives in
//! [`victor_features::seeds::justext`] (re-exported here), where it is also the
//! `justext` feature module; see its docs for the stages and the seed's rules.

use rustc_hash::FxHashSet;
use victor_core::Label;
use victor_features::Page;

pub(crate) use victor_features::seeds::justext::*;

/// Labels a page with jusText: the blocks of good paragraphs are kept (as `header` inside a
/// heading element, else `text`), the others are `other`.
pub(crate) fn label(
    page: &Page,
    stop: Option<&FxHashSet<u64>>,
    params: &Params,
    out: &mut Vec<Label>,
) {
    let mut classes = Vec::new();
    block_classes(page, stop, params, &mut classes);
    let heading = crate::in_heading(page);
    out.clear();
    out.extend(classes.iter().enumerate().map(|(i, c)| {
        if *c == Class::Good {
            crate::kept(&heading, page, i)
        } else {
            Label::Other
        }
    }));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testutil::{kept, page};
    use victor_features::StopWords;

    const PROSE: &str = "It was the best of times and it was the worst of times, it was the age of \
        wisdom and it was the age of foolishness, it was the epoch of belief.";

    fn english() -> FxHashSet<u64> {
        StopWords::new()
            .get("en")
            .cloned()
            .expect("english stop words")
    }

    #[test]
    fn headings_before_good_text_are_kept() {
        let html = format!(
            "<body><div><a href=/>Home</a> <a href=/n>News</a></div>\
             <h2>A short heading</h2><p>{PROSE} {PROSE}</p>\
             <div>Share this</div><h3>Related</h3><ul><li><a href=1>Other story one</a></li></ul></body>"
        );
        let p = page(&html);
        let mut labels = Vec::new();
        label(&p, Some(&english()), &Params::default(), &mut labels);
        let k = kept(&p, &labels);
        assert_eq!(k.first().map(String::as_str), Some("A short heading"));
        assert!(k.iter().any(|t| t.starts_with("It was the best")));
        assert!(
            !k.iter()
                .any(|t| t == "Home" || t == "Related" || t == "Share this"),
            "{k:?}"
        );
        let h = p
            .blocks
            .iter()
            .position(|b| p.block_text(b) == "A short heading")
            .unwrap_or(0);
        assert_eq!(labels[h], Label::Header);
    }

    #[test]
    fn link_lists_and_copyright_are_dropped_and_prose_kept() {
        let html = format!(
            "<body><ul><li><a href=a>Politics</a></li><li><a href=b>Sports</a></li></ul>\
             <p>{PROSE} {PROSE}</p><p>{PROSE}</p><p>© 2024 The Daily Example, all rights reserved by the company and its partners forever.</p></body>"
        );
        let p = page(&html);
        let mut labels = Vec::new();
        label(&p, Some(&english()), &Params::default(), &mut labels);
        let k = kept(&p, &labels);
        assert_eq!(k.len(), 2, "{k:?}");
    }
}

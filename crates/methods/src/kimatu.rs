//! Kimatu as a labeler (seed `000`). The blocks, ratios and steps live in
//! [`victor_features::seeds::kimatu`] (re-exported here), where the relevance is
//! also the `kimatu` feature module; see its docs for the seed's rules and constants.

use victor_core::Label;
use victor_features::Page;

use crate::paragraph::paragraphs;
pub(crate) use victor_features::seeds::kimatu::*;

/// Labels a page with Kimatu: the blocks of kept elements are kept (`header` inside a heading
/// element, else `text`), the others are `other`.
pub(crate) fn label(page: &Page, params: &Params, out: &mut Vec<Label>) {
    let mut paras = Vec::new();
    paragraphs(page, &mut paras);
    let keep = keep_elements(page, &paras, params);
    let heading = crate::in_heading(page);
    out.clear();
    out.resize(page.blocks.len(), Label::Other);
    for (r, k) in paras.iter().zip(&keep) {
        if *k {
            for i in r.clone() {
                out[i] = crate::kept(&heading, page, i);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testutil::{kept, page};

    const PROSE: &str = "The council met on Tuesday to discuss the new budget. Members argued for hours \
        about the cost of the bridge, and the mayor promised a decision by spring. Residents who \
        attended said they were not convinced.";

    fn article_page(extra: &str) -> String {
        format!(
            "<body><div class=nav><a href=/>Home</a> <a href=/w>World</a></div>\
             <div class=nav><a href=/s>Sports</a> <a href=/b>Business</a></div>\
             <h1>Bridge budget debated</h1>\
             <div class=story><p>{PROSE}</p><p>{PROSE}</p><p>{PROSE}</p></div>{extra}\
             <div class=foot><a href=/t>Terms</a> | <a href=/p>Privacy</a></div></body>"
        )
    }

    #[test]
    fn keeps_the_article_and_its_header_and_drops_navigation() {
        let p = page(&article_page(""));
        let mut labels = Vec::new();
        label(&p, &Params::default(), &mut labels);
        let k = kept(&p, &labels);
        assert_eq!(
            k.first().map(String::as_str),
            Some("Bridge budget debated"),
            "{k:?}"
        );
        assert_eq!(k.iter().filter(|t| t.starts_with("The council")).count(), 3);
        assert!(
            !k.iter()
                .any(|t| ["Home", "Sports", "Terms", "Privacy"].contains(&t.as_str())),
            "{k:?}"
        );
    }

    #[test]
    fn quotes_of_the_article_are_dropped() {
        let quote = format!(
            "<div class=comments><blockquote>{PROSE}</blockquote><blockquote>{PROSE}</blockquote></div>"
        );
        let p = page(&article_page(&quote));
        let mut labels = Vec::new();
        label(&p, &Params::default(), &mut labels);
        let k = kept(&p, &labels);
        assert_eq!(
            k.iter().filter(|t| t.starts_with("The council")).count(),
            3,
            "{k:?}"
        );
    }
}

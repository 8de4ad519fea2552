//! # victor-methods: the seeds' other cleaners as labelers over victor's blocks
//!
//! Three rule-based page cleaners from victor's seeds, each a function from a segmented
//! [`Page`] to one [`Label`] per block, so that they are scored, rendered and compared exactly
//! like the CRF (`victor label --method`, `victor eval --method`):
//!
//! - [`Method::Justext`]: jusText (seed `002`): context-free classification of paragraphs by length,
//!   link density and stop-word density, heading pre-processing, context-sensitive
//!   classification, heading post-processing;
//! - [`Method::Bte`]: Finn's body text extraction as improved in seed `004`: the span of the tag/word
//!   token sequence with the most words inside and tags outside, found in linear time as a
//!   maximum-sum subarray;
//! - [`Method::Kimatu`]: Kimatu (seed `000`): blocks of the same appearance, the content-relevance ratio,
//!   sure candidates above 0.32, then the seed's bootstrapping steps.
//!
//! jusText and Kimatu work on jusText's notion of a paragraph (module `paragraph`): the text between
//! block-level tags or two `<br>`s, a run of victor's finer blocks. Their decisions are mapped
//! back: every block of a kept paragraph is kept.
//!
//! The library is plain: no printing, no global state; [`Methods`] keeps the per-thread caches
//! (stop-word lists).

#![forbid(unsafe_code)]
#![warn(missing_docs)]
#![deny(unreachable_pub)]
#![warn(unnameable_types)]

mod bte;
mod justext;
mod kimatu;
mod paragraph;

use victor_core::Label;
use victor_features::Page;
use victor_features::{StopWords, iso639_1};

/// A labeling method other than the CRF.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Method {
    /// jusText: paragraphs classified by length, link density and stop-word density.
    Justext,
    /// Body text extraction: the span with the most words inside and tags outside.
    Bte,
    /// Kimatu: blocks of the same appearance and their content-relevance ratio.
    Kimatu,
}

impl Method {
    /// Every method, in the order of the documentation.
    pub const ALL: [Method; 3] = [Method::Justext, Method::Bte, Method::Kimatu];

    /// The method's name on the command line.
    pub const fn name(self) -> &'static str {
        match self {
            Method::Justext => "justext",
            Method::Bte => "bte",
            Method::Kimatu => "kimatu",
        }
    }
}

/// Per-thread state of the methods: the stop-word lists, loaded on first use.
#[derive(Debug, Default)]
pub struct Methods {
    stop_words: Option<StopWords>,
}

impl Methods {
    /// Methods with nothing loaded yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// Labels every block of `page` with `method` into `out` (cleared first). `language` is the
    /// page's language as an ISO 639-3 code (whatlang's, as victor's language identification
    /// gives it); jusText takes its stop words from it and falls back to its
    /// language-independent mode without.
    pub fn label(
        &mut self,
        method: Method,
        page: &Page,
        language: Option<&str>,
        out: &mut Vec<Label>,
    ) {
        match method {
            Method::Justext => {
                let stop = language
                    .and_then(iso639_1)
                    .and_then(|code| self.stop_words.get_or_insert_with(StopWords::new).get(code));
                justext::label(page, stop, &justext::Params::default(), out);
            }
            Method::Bte => bte::label(page, out),
            Method::Kimatu => kimatu::label(page, &kimatu::Params::default(), out),
        }
    }
}

/// Marginals for labels that come without probabilities: one-hot rows in [`Label::ALL`] order
/// (header, text, other), so thresholding them at any T in (0, 1] gives the labels back.
pub fn one_hot(labels: &[Label], out: &mut Vec<[f64; 3]>) {
    out.clear();
    out.extend(labels.iter().map(|l| match l {
        Label::Header => [1.0, 0.0, 0.0],
        Label::Text => [0.0, 1.0, 0.0],
        Label::Other => [0.0, 0.0, 1.0],
    }));
}

pub(crate) use victor_features::seeds::in_heading;

/// The label of a kept block: `header` inside a heading element, else `text`.
#[inline]
pub(crate) fn kept(heading: &[bool], page: &Page, block: usize) -> Label {
    let parent = page.blocks.get(block).map_or(0, |b| b.parent as usize);
    if heading.get(parent).copied().unwrap_or(false) {
        Label::Header
    } else {
        Label::Text
    }
}

#[cfg(test)]
pub(crate) mod testutil {
    use victor_core::Label;
    use victor_features::Page;

    /// A hand-made page segmented as victor segments pages.
    pub(crate) fn page(html: &str) -> Page {
        victor_features::segment(html).expect("segment")
    }

    /// The kept text of a page under labels, one kept block a line.
    pub(crate) fn kept(page: &Page, labels: &[Label]) -> Vec<String> {
        page.blocks
            .iter()
            .zip(labels)
            .filter(|(_, l)| l.is_content())
            .map(|(b, _)| page.block_text(b).to_string())
            .collect()
    }
}

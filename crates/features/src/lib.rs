//! # victor-features: blocks -> features -> CRF attributes
//!
//! The second step of victor's pipeline, after the Victor paper (Spousta, Marek, Pecina 2008),
//! section 3.2. The first step, HTML bytes to a [`Page`] of blocks ([`decode()`],
//! [`segment()`]), is the `victor-html` crate's; its names are re-exported here, so that one
//! `use victor_features::...` reaches the whole first stage:
//!
//! 1. [`decode()`]: raw bytes to text, with browser-like encoding detection (`victor-html`);
//! 2. [`segment()`]: text to a [`Page`] of blocks, each with its ancestors in the tree a browser
//!    would build (`victor-html`);
//! 3. [`Extractor`]: blocks to a [`FeatureTable`] of raw and discretized values, by modules that
//!    a [`FeatureConfig`] switches on and bins;
//!
//! The library is plain: bytes in, values out; no global state, no printing, typed errors.

#![forbid(unsafe_code)]
#![warn(missing_docs)]
#![deny(unreachable_pub)]
#![recursion_limit = "512"]

mod config;
mod features;
mod profile;
mod template;

pub use victor_html::{file, within};

pub use config::{
    ConfigError, DEFAULT_CONFIG_JSON, FEATURE_VERSION, FeatureConfig, KeywordGroup, LangIdConfig,
    LangIdMethod,
};
pub use features::lexicon::{BlockTokens, StopWords, block_tokens, is_cjk, iso639_1, word_hash};
pub use features::seeds;
pub use features::structure::top_down;
pub use features::{Candidates, Column, Extractor, FeatureTable, Kind, Module, Schema};
pub use profile::{PROFILE_DIMS, PROFILE_VERSION, PageProfile, profile_names};
pub use template::{
    BOUNDARY, DEFAULT_TEMPLATE, Line, MAX_MACROS, Macro, ParsedAttr, Template, TemplateError,
    boundary_code, boundary_offset,
};
pub use victor_html::{Ancestors, Block, Element, ElementId, Page, Split};
pub use victor_html::{
    Collect, DEFAULT_MAX_BLOCKS, SegmentError, Segmenter, segment, tokenize_and_build,
    tokenize_only,
};
pub use victor_html::{Declared, Head, Mark, Props, Tag};
pub use victor_html::{
    DecodeError, Decoded, EncodingSource, decode, decode_with_charset, known_charset,
};

/// Why a page could not be read.
#[derive(Debug, thiserror::Error)]
pub enum PageError {
    /// The bytes are not a text document.
    #[error(transparent)]
    Decode(#[from] DecodeError),
    /// The parser gave up.
    #[error(transparent)]
    Segment(#[from] SegmentError),
}

/// A page read from bytes: its decoded text, its blocks, and their features.
#[derive(Debug)]
pub struct Processed<'a> {
    /// The decoded document (block offsets refer to it).
    pub decoded: Decoded<'a>,
    /// The blocks.
    pub page: Page,
    /// Their features.
    pub table: FeatureTable,
}

/// Runs the whole first stage on one page: decode, segment, extract features.
pub fn process<'a>(
    bytes: &'a [u8],
    segmenter: &mut Segmenter,
    extractor: &Extractor,
) -> Result<Processed<'a>, PageError> {
    process_with_charset(bytes, None, segmenter, extractor)
}

/// [`process`] for a page whose transport declared a charset (see [`decode_with_charset`]).
pub fn process_with_charset<'a>(
    bytes: &'a [u8],
    charset: Option<&str>,
    segmenter: &mut Segmenter,
    extractor: &Extractor,
) -> Result<Processed<'a>, PageError> {
    let decoded = decode_with_charset(bytes, charset)?;
    let page = segmenter.segment(&decoded.text)?;
    let table = extractor.extract(&page);
    Ok(Processed {
        decoded,
        page,
        table,
    })
}

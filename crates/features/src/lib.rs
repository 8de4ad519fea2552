//! # victor-features: HTML bytes -> blocks -> features -> CRF attributes
//!
//! The first stage of victor's pipeline, after the Victor paper (Spousta, Marek, Pecina 2008),
//! section 3:
//!
//! 1. [`decode()`]: raw bytes to text, with browser-like encoding detection;
//! 2. [`segment()`]: text to a [`Page`] of blocks, each with its ancestors in the tree a browser
//!    would build (victor's own HTML5 tokenizer; an open-element stack places the text);
//! 3. [`features`]: blocks to a [`FeatureTable`] of raw and discretized values, by modules that
//!    a [`FeatureConfig`] switches on and bins;
//!
//! The library is plain: bytes in, values out; no global state, no printing, typed errors.

#![forbid(unsafe_code)]
#![warn(missing_docs)]
#![recursion_limit = "512"]

pub mod config;
pub mod decode;
pub mod features;
pub mod page;
pub mod segment;
pub mod template;

pub use config::{ConfigError, FEATURE_VERSION, FeatureConfig, LangIdMethod};
pub use decode::{DecodeError, Decoded, decode, decode_with_charset};
pub use features::{Column, Extractor, FeatureTable, Kind, Schema};
pub use page::{Block, Element, ElementId, Page, Split};
pub use segment::tags::Tag;
pub use segment::{DEFAULT_MAX_BLOCKS, SegmentError, Segmenter, segment};
pub use template::{DEFAULT_TEMPLATE, Template, TemplateError};

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

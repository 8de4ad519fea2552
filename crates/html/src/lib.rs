//! # victor-html: HTML bytes -> decoded text -> blocks
//!
//! The first step of victor's pipeline, after the Victor paper (Spousta, Marek, Pecina 2008),
//! section 3.1:
//!
//! 1. [`decode()`]: raw bytes to text, with browser-like encoding detection;
//! 2. [`segment()`]: text to a [`Page`] of blocks, each with its ancestors in the tree a browser
//!    would build (victor's own HTML5 tokenizer; an open-element stack places the text).
//!
//! Reading page files (gzip included) and writing files atomically live here too ([`mod@file`]), as
//! does the in-bounds slicing every stage uses ([`within`]). The features of the blocks are the
//! next crate's job (`victor-features`).
//!
//! The library is plain: bytes in, blocks out; no global state, no printing, typed errors.

#![forbid(unsafe_code)]
#![warn(missing_docs)]
#![deny(unreachable_pub)]
#![recursion_limit = "512"]

mod decode;
mod element_id;
pub mod file;
mod page;
// The segmenter's items are `pub` for its own submodules; what other crates use is re-exported
// below. `unreachable_pub` is allowed there until the tokenizer work curates that module.
#[allow(unreachable_pub)]
mod segment;
pub mod within;

pub use decode::{
    DecodeError, Decoded, EncodingSource, decode, decode_with_charset, known_charset,
};
pub use element_id::ElementId;
pub use page::{Ancestors, Block, Element, Page, Split};
pub use segment::declared::Declared;
pub use segment::head::{Head, Mark};
pub use segment::tags::{KNOWN_TAGS, Props, Tag};
pub use segment::{
    Collect, DEFAULT_MAX_BLOCKS, SegmentError, Segmenter, segment, tokenize_and_build,
    tokenize_only,
};

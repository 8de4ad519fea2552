//! # victor-features: HTML bytes -> blocks -> features -> CRF attributes
//!
//! The first stage of victor's pipeline, after the Victor paper (Spousta, Marek, Pecina 2008),
//! section 3:
//!
//! 1. [`decode`]: raw bytes to text, with browser-like encoding detection;
//! 2. [`segment`]: text to a [`Page`] of blocks, each with its ancestors in the tree a browser
//!    would build (lol_html tokenizes; an HTML5 open-element stack places the text);
//!
//! The library is plain: bytes in, values out; no global state, no printing, typed errors.

#![recursion_limit = "512"]

pub mod decode;
pub mod page;
pub mod segment;

pub use decode::{DecodeError, Decoded, decode};
pub use page::{Block, Element, ElementId, Page, Split};
pub use segment::tags::Tag;
pub use segment::{SegmentError, Segmenter, segment};

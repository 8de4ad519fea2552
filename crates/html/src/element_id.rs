//! The name of an element of a page's tree: its index in [`Page::elements`](crate::Page).
//!
//! In a module of its own because both the page ([`crate::Page`]) and what the parse collects
//! beside it ([`crate::Head`]) name elements, and the page holds a `Head`: with the name in
//! `page.rs`, the two files would need each other.

/// Index of an element in [`Page::elements`](crate::Page::elements). Element 0 is the document
/// root (`#document`).
pub type ElementId = u32;

//! What the segmenter reads from a start tag's attributes: a hash for HTML5's "same attributes"
//! test, whether the element marks the main content or hides itself, and which tags a
//! `<noscript>` holds without holding content.

use super::*;

/// A hash of one attribute (name in any case, raw value). The hashes of a tag's attributes are
/// added up, so the sum does not depend on their order, as HTML5's "same attributes" test.
pub(super) fn attr_hash(name: &[u8], value: &[u8]) -> u64 {
    // FNV-1a over the lowercased name and a separator, then the value eight bytes at a time
    // (values such as URLs are long), then a final mix so that sums of different attribute
    // sets rarely collide.
    const PRIME: u64 = 0x0100_0000_01b3;
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in name {
        h = (h ^ u64::from(b.to_ascii_lowercase())).wrapping_mul(PRIME);
    }
    h = (h ^ 0xff).wrapping_mul(PRIME);
    let mut words = value.chunks_exact(8);
    for w in &mut words {
        let mut x = [0u8; 8];
        x.copy_from_slice(w);
        h = (h ^ u64::from_le_bytes(x))
            .wrapping_mul(PRIME)
            .rotate_left(29);
    }
    for &b in words.remainder() {
        h = (h ^ u64::from(b)).wrapping_mul(PRIME);
    }
    h ^= (value.len() as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    h ^= h >> 33;
    h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
    h ^ (h >> 33)
}

/// Elements of svg and MathML inside which HTML is parsed as HTML (besides svg's `title`, a
/// known tag): HTML tags there do not break out of the foreign content.
pub(super) const INTEGRATION_POINTS: &[&str] = &[
    "foreignobject",
    "desc",
    "mi",
    "mo",
    "mn",
    "ms",
    "mtext",
    "annotation-xml",
];

/// The attribute names the segmenter acts on. A start tag's attributes are told apart once,
/// by length before any comparison (most names, `src`, `alt`, `data-*`, are none of these),
/// instead of each test comparing every name again.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum AttrName {
    Class,
    Id,
    Href,
    Onclick,
    Hidden,
    AriaHidden,
    Style,
    Role,
    Itemprop,
    Rel,
    /// Any other name.
    Other,
}

impl AttrName {
    /// The kind of an attribute name (any ASCII case).
    #[inline(always)]
    pub(crate) fn of(name: &[u8]) -> AttrName {
        let is = |known: &[u8]| name.eq_ignore_ascii_case(known);
        match name.len() {
            2 if is(b"id") => AttrName::Id,
            3 if is(b"rel") => AttrName::Rel,
            4 if is(b"href") => AttrName::Href,
            4 if is(b"role") => AttrName::Role,
            5 if is(b"class") => AttrName::Class,
            5 if is(b"style") => AttrName::Style,
            6 if is(b"hidden") => AttrName::Hidden,
            7 if is(b"onclick") => AttrName::Onclick,
            8 if is(b"itemprop") => AttrName::Itemprop,
            11 if is(b"aria-hidden") => AttrName::AriaHidden,
            _ => AttrName::Other,
        }
    }
}

/// Whether an attribute marks its element as the page's main content: `role="main"` or
/// `role="article"` (ARIA landmarks), `itemprop="articleBody"`, `"text"` or `"reviewBody"`
/// (schema.org's body of an article, a post, a review). Values compare case-insensitively; an
/// `itemprop` may list several names.
#[inline]
pub(super) fn marks_main(name: AttrName, value: &[u8]) -> bool {
    match name {
        AttrName::Role => {
            let v = value.trim_ascii();
            v.eq_ignore_ascii_case(b"main") || v.eq_ignore_ascii_case(b"article")
        }
        AttrName::Itemprop => value.split(|&b| is_html_space(b)).any(|w| {
            w.eq_ignore_ascii_case(b"articlebody")
                || w.eq_ignore_ascii_case(b"text")
                || w.eq_ignore_ascii_case(b"reviewbody")
        }),
        _ => false,
    }
}

/// Whether an attribute makes its element invisible: `hidden`, `aria-hidden="true"`, or a
/// `style` with `display:none` / `visibility:hidden` (white space and case ignored).
#[inline]
pub(super) fn hides(name: AttrName, value: &[u8]) -> bool {
    match name {
        AttrName::Hidden => true,
        AttrName::AriaHidden => value.eq_ignore_ascii_case(b"true"),
        AttrName::Style if value.len() >= 12 => style_hides(value),
        _ => false,
    }
}

/// Whether a `style` value says `display:none` or `visibility:hidden` (white space and case
/// ignored, the first 1,024 bytes read).
fn style_hides(value: &[u8]) -> bool {
    let mut squeezed = [0u8; 256];
    let mut n = 0;
    for &b in value.iter().take(1024) {
        if !is_html_space(b) && n < squeezed.len() {
            squeezed[n] = b.to_ascii_lowercase();
            n += 1;
        }
    }
    let s = &squeezed[..n];
    let has = |pat: &[u8]| s.windows(pat.len()).any(|w| w == pat);
    has(b"display:none") || has(b"visibility:hidden")
}

/// Tags that pages put inside `<noscript>` (tracking pixels, fallback links, styles).
pub(super) fn noscript_may_hold(name: &[u8]) -> bool {
    const INSIDE: &[&[u8]] = &[
        b"img",
        b"a",
        b"iframe",
        b"br",
        b"link",
        b"meta",
        b"style",
        b"span",
        b"div",
        b"p",
        b"b",
        b"i",
        b"font",
        b"center",
        b"object",
        b"param",
        b"embed",
        b"strong",
        b"em",
        b"small",
        b"noscript",
    ];
    INSIDE.iter().any(|n| n.eq_ignore_ascii_case(name))
}

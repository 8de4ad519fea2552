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

/// Whether an attribute marks its element as the page's main content: `role="main"` or
/// `role="article"` (ARIA landmarks), `itemprop="articleBody"`, `"text"` or `"reviewBody"`
/// (schema.org's body of an article, a post, a review). Values compare case-insensitively; an
/// `itemprop` may list several names.
pub(super) fn marks_main(name: &[u8], value: &[u8]) -> bool {
    if name.eq_ignore_ascii_case(b"role") {
        let v = value.trim_ascii();
        return v.eq_ignore_ascii_case(b"main") || v.eq_ignore_ascii_case(b"article");
    }
    if name.eq_ignore_ascii_case(b"itemprop") {
        return value.split(|&b| is_html_space(b)).any(|w| {
            w.eq_ignore_ascii_case(b"articlebody")
                || w.eq_ignore_ascii_case(b"text")
                || w.eq_ignore_ascii_case(b"reviewbody")
        });
    }
    false
}

/// Whether an attribute makes its element invisible: `hidden`, `aria-hidden="true"`, or a
/// `style` with `display:none` / `visibility:hidden` (white space and case ignored).
pub(super) fn hides(name: &[u8], value: &[u8]) -> bool {
    if name.eq_ignore_ascii_case(b"hidden") {
        return true;
    }
    if name.eq_ignore_ascii_case(b"aria-hidden") {
        return value.eq_ignore_ascii_case(b"true");
    }
    if !name.eq_ignore_ascii_case(b"style") || value.len() < 12 {
        return false;
    }
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

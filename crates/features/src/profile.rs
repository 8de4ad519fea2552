//! A page's profile: a short vector of page-level statistics that says what kind of page it is.
//!
//! An adapted bundle applies the user's guideline where pages are like the user's and the base
//! bundle's knowledge elsewhere; the gate that decides (`victor_label`'s `gate`) reads this
//! vector. It describes the page as markup and layout, not as words, so that it holds across
//! languages and sites: which tags the page is built of (a thread repeats `article` or `li`, a
//! shop has forms and buttons, a 2007 page has `font` and table cells, documentation has `pre`
//! and `code`), how much text it holds and in how long runs, how much of it is link text, and
//! what its structured data declares it to be ([`Declared`]).
//!
//! Every value is a plain number of one page, cheap to compute from the [`Page`] the segmenter
//! made (one pass over its elements and one over its blocks); the gate standardises them. The
//! layout is versioned ([`PROFILE_VERSION`]): a bundle's stored profiles and gate are read only
//! by the victor that computes the same vector.

use victor_html::{Declared, KNOWN_TAGS, Page, Tag};

/// The version of the profile's layout, recorded with every stored profile and gate.
pub const PROFILE_VERSION: &str = "page-profile-1";

/// The groups of tags whose shares of the page's elements the profile holds, each with its
/// name in [`PROFILE_NAMES`]. A tag in no group counts only in the element total.
const TAG_GROUPS: &[(&str, &[&str])] = &[
    ("a", &["a"]),
    ("p", &["p"]),
    ("div", &["div"]),
    ("span", &["span"]),
    ("li", &["li"]),
    ("list", &["ul", "ol", "menu", "dir"]),
    ("dl", &["dl", "dt", "dd"]),
    (
        "table",
        &[
            "table", "tbody", "thead", "tfoot", "tr", "td", "th", "caption", "col", "colgroup",
        ],
    ),
    ("h1", &["h1"]),
    ("h2-h6", &["h2", "h3", "h4", "h5", "h6"]),
    ("img", &["img", "picture", "source"]),
    ("figure", &["figure", "figcaption"]),
    ("br-hr", &["br", "hr"]),
    (
        "form",
        &[
            "form", "input", "button", "select", "option", "optgroup", "textarea", "label",
            "fieldset", "legend",
        ],
    ),
    ("script", &["script", "noscript", "template"]),
    ("style-link", &["style", "link"]),
    ("meta", &["meta"]),
    (
        "embed",
        &["iframe", "embed", "object", "video", "audio", "canvas"],
    ),
    ("svg", &["svg", "math"]),
    ("article-main", &["article", "main"]),
    ("section", &["section"]),
    ("nav", &["nav"]),
    ("header-footer", &["header", "footer"]),
    ("aside", &["aside"]),
    ("time", &["time"]),
    (
        "legacy",
        &[
            "font", "center", "big", "strike", "tt", "marquee", "blink", "nobr",
        ],
    ),
    ("bold", &["b", "strong"]),
    ("italic", &["i", "em", "cite"]),
    ("code", &["pre", "code", "kbd", "samp", "var"]),
    ("quote", &["blockquote", "q"]),
    ("small", &["small", "sup", "sub"]),
];

/// Values after the tag groups: the unknown tags' share, then sizes, text and flags.
const OTHER_NAMES: [&str; 10] = [
    "unknown-tags",
    "log-elements",
    "log-blocks",
    "log-text",
    "link-text",
    "log-block-length",
    "long-block-text",
    "hidden",
    "recovered",
    "noscript-view",
];

/// Values in a profile.
pub const PROFILE_DIMS: usize = TAG_GROUPS.len() + OTHER_NAMES.len() + Declared::ALL.len();

/// A block of at least this many bytes of text is a long one (`long-block-text`): about 30
/// words of English, a sentence or two, where navigation, buttons and teasers are shorter.
const LONG_BLOCK_BYTES: usize = 200;

/// The names of the profile's values, in order: `tag:GROUP` for the share of the page's
/// elements that are tags of that group, then `unknown-tags`, the sizes (`log-elements`,
/// `log-blocks`, `log-text`), `link-text` (the share of the blocks' text in links),
/// `log-block-length`, `long-block-text` (the share of the text in blocks of at least 200
/// bytes), `hidden` (the share of elements marked invisible), `recovered`, `noscript-view`, and
/// `declared:KIND` for the kind the page declares.
pub fn profile_names() -> Vec<String> {
    let mut names: Vec<String> = TAG_GROUPS.iter().map(|(g, _)| format!("tag:{g}")).collect();
    names.extend(OTHER_NAMES.iter().map(|n| n.to_string()));
    names.extend(
        Declared::ALL
            .iter()
            .map(|d| format!("declared:{}", d.name())),
    );
    names
}

/// Which group each known tag counts in (`u8::MAX`: none), built once from [`TAG_GROUPS`].
fn group_of_tag() -> &'static [u8; KNOWN_TAGS] {
    static TABLE: std::sync::OnceLock<[u8; KNOWN_TAGS]> = std::sync::OnceLock::new();
    TABLE.get_or_init(|| {
        let mut t = [u8::MAX; KNOWN_TAGS];
        for (g, (_, tags)) in TAG_GROUPS.iter().enumerate() {
            for name in *tags {
                if let Some(tag) = Tag::lookup(name.as_bytes()) {
                    t[tag.0 as usize] = g as u8;
                }
            }
        }
        t
    })
}

/// A page's profile: [`PROFILE_DIMS`] values named by [`profile_names`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PageProfile(pub [f32; PROFILE_DIMS]);

impl PageProfile {
    /// The profile of a segmented page.
    pub fn of(page: &Page) -> PageProfile {
        let groups = group_of_tag();
        let mut counts = [0u32; TAG_GROUPS.len()];
        let (mut unknown, mut hidden) = (0u32, 0u32);
        // Element 0 is the document's root, not a tag of the page.
        let elements = page.elements.get(1..).unwrap_or_default();
        for e in elements {
            match groups.get(e.tag.0 as usize) {
                Some(&g) if g != u8::MAX => counts[g as usize] += 1,
                Some(_) => {}
                None => unknown += 1,
            }
            hidden += u32::from(e.hidden);
        }
        let total = elements.len().max(1) as f32;
        let mut v = [0f32; PROFILE_DIMS];
        // Shares as square roots: a share's spread grows with its size, and the root evens it
        // out (a page with 1% forms and one with 4% differ as much as 25% and 36%).
        for (slot, &c) in v.iter_mut().zip(&counts) {
            *slot = (c as f32 / total).sqrt();
        }
        let (mut text, mut link, mut long) = (0usize, 0usize, 0usize);
        for b in &page.blocks {
            let n = (b.text.end - b.text.start) as usize;
            text += n;
            if b.in_anchor {
                link += n;
            }
            if n >= LONG_BLOCK_BYTES {
                long += n;
            }
        }
        let blocks = page.blocks.len();
        let share = |part: usize| part as f32 / text.max(1) as f32;
        let others = [
            (unknown as f32 / total).sqrt(),
            (1.0 + elements.len() as f32).ln(),
            (1.0 + blocks as f32).ln(),
            (1.0 + text as f32).ln(),
            share(link),
            (1.0 + text as f32 / blocks.max(1) as f32).ln(),
            share(long),
            (hidden as f32 / total).sqrt(),
            f32::from(u8::from(page.recovered)),
            f32::from(u8::from(page.noscript_view)),
        ];
        let at = TAG_GROUPS.len();
        v[at..at + others.len()].copy_from_slice(&others);
        v[at + others.len() + page.declared.index() as usize] = 1.0;
        PageProfile(v)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn page(html: &str) -> Page {
        victor_html::segment(html).expect("segments")
    }

    fn value(p: &PageProfile, name: &str) -> f32 {
        let i = profile_names()
            .iter()
            .position(|n| n == name)
            .expect("a profile value of that name");
        p.0[i]
    }

    #[test]
    fn names_match_the_values_and_every_group_names_known_tags() {
        assert_eq!(profile_names().len(), PROFILE_DIMS);
        for (g, tags) in TAG_GROUPS {
            for t in *tags {
                assert!(
                    Tag::lookup(t.as_bytes()).is_some(),
                    "{g}: {t} is no known tag"
                );
            }
        }
    }

    #[test]
    fn an_article_and_a_shop_form_differ_where_they_should() {
        let article = page(
            "<html><head><title>t</title></head><body><article><h1>Title</h1>\
             <p>A long paragraph of running text that goes on and on about one thing, then \
             another, and yet another, until it is well past two hundred bytes of text, which is \
             what a long block is, and then some more words to be sure of it.</p><p>More.</p></article></body></html>",
        );
        let shop = page(
            "<html><body><form><input><input><button>Buy</button><select><option>1\
             <option>2</select></form><a href=/x>Cart</a></body></html>",
        );
        let (a, s) = (PageProfile::of(&article), PageProfile::of(&shop));
        assert!(value(&a, "tag:p") > value(&s, "tag:p"));
        assert!(value(&s, "tag:form") > 0.5 && value(&a, "tag:form") == 0.0);
        assert!(value(&a, "long-block-text") > 0.8 && value(&s, "long-block-text") == 0.0);
        assert!(value(&s, "link-text") > 0.0 && value(&a, "link-text") == 0.0);
        assert_eq!(value(&a, "declared:none"), 1.0);
        assert!(a.0.iter().chain(&s.0).all(|x| x.is_finite()));
    }

    #[test]
    fn an_empty_page_has_a_finite_profile() {
        let p = PageProfile::of(&page(""));
        assert!(p.0.iter().all(|x| x.is_finite()));
        assert_eq!(value(&p, "declared:none"), 1.0);
    }
}

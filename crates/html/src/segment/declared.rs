//! What a page declares itself to be: its schema.org `@type` (JSON-LD) and its Open Graph
//! `og:type`.
//!
//! What counts as content depends on the kind of page (a thread's posts, a listing's items, a
//! product's description), and a block and its neighbours do not show the kind. Most pages of
//! today's web say it in their structured data: on wcxb's `dev` pages, 50 of 70 product pages
//! declare a `Product`, 36 of 91 forum pages a `DiscussionForumPosting` or `QAPage`, and most
//! articles an `Article` type or `og:type` `article`. The segmenter reads them as it parses:
//! `"@type"` in the text of each `<script>` (JSON-LD), `og:type` in each `<meta>` tag's
//! attributes, and keeps the most telling kind; the rest of the page is not searched.

use std::sync::LazyLock;

use crate::within::Within;
use memchr::memmem;

/// The markers, each searcher built once: a page calls [`in_script`] and [`in_meta`] for every
/// `<script>` and `<meta>`, and building a searcher costs more than most searches.
static TYPE_MARKER: LazyLock<memmem::Finder<'static>> =
    LazyLock::new(|| memmem::Finder::new(b"\"@type\""));
static OG_TYPE: LazyLock<memmem::Finder<'static>> =
    LazyLock::new(|| memmem::Finder::new(b"og:type"));
static CONTENT: LazyLock<memmem::Finder<'static>> =
    LazyLock::new(|| memmem::Finder::new(b"content="));

/// The kind of page a document declares, most telling first.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Declared {
    /// A discussion: `DiscussionForumPosting`, `QAPage`, `Question`, `SocialMediaPosting`.
    Forum,
    /// A product: `Product`, `Offer`, `AggregateOffer`, `og:type` `product`.
    Product,
    /// A list of things: `ItemList`, `CollectionPage`, `SearchResultsPage`, `OfferCatalog`,
    /// `og:type` `product.group`.
    List,
    /// An article: `Article`, `NewsArticle`, `BlogPosting`, `Recipe`, ..., `og:type` `article`.
    Article,
    /// Only a generic declaration: `WebPage`, `WebSite`, `og:type` `website`, ...
    Website,
    /// Nothing declared.
    #[default]
    None,
}

impl Declared {
    /// Every value, in the order of [`Declared::index`].
    pub const ALL: [Declared; 6] = [
        Declared::Forum,
        Declared::Product,
        Declared::List,
        Declared::Article,
        Declared::Website,
        Declared::None,
    ];

    /// The value's name (the feature's category).
    pub const fn name(self) -> &'static str {
        match self {
            Declared::Forum => "forum",
            Declared::Product => "product",
            Declared::List => "list",
            Declared::Article => "article",
            Declared::Website => "website",
            Declared::None => "none",
        }
    }

    /// The value's position in [`Declared::ALL`].
    pub const fn index(self) -> u8 {
        self as u8
    }

    /// The kind a schema.org type or an `og:type` names (`None` for the rest).
    fn of_type(name: &[u8]) -> Option<Declared> {
        let kind = match name {
            b"DiscussionForumPosting" | b"QAPage" | b"Question" | b"SocialMediaPosting" => {
                Declared::Forum
            }
            b"Product" | b"Offer" | b"AggregateOffer" | b"ProductGroup" | b"product" => {
                Declared::Product
            }
            b"ItemList" | b"CollectionPage" | b"SearchResultsPage" | b"OfferCatalog"
            | b"product.group" => Declared::List,
            b"Article" | b"NewsArticle" | b"BlogPosting" | b"Blog" | b"Report" | b"TechArticle"
            | b"ScholarlyArticle" | b"Recipe" | b"HowTo" | b"article" => Declared::Article,
            b"WebPage" | b"WebSite" | b"website" | b"AboutPage" | b"ContactPage" => {
                Declared::Website
            }
            _ => return None,
        };
        Some(kind)
    }
}

/// At most this many markers of each kind are read (a page of thousands of JSON-LD items
/// repeats the same few types).
const MAX_MARKERS: usize = 64;

/// The most telling kind among the `"@type"` values of a script's text (JSON-LD).
pub(crate) fn in_script(text: &[u8]) -> Declared {
    let mut best = Declared::None;
    for at in TYPE_MARKER.find_iter(text).take(MAX_MARKERS) {
        // A match of the marker: it ends within the text.
        let rest = text.within(at + b"\"@type\"".len()..);
        if let Some(k) = type_values(rest).filter_map(Declared::of_type).min() {
            best = best.min(k);
        }
    }
    best
}

/// The kind a `<meta>` tag's attributes declare: `property="og:type" content="article"`.
pub(crate) fn in_meta(attrs: &[u8]) -> Declared {
    if OG_TYPE.find(attrs).is_none() {
        return Declared::None;
    }
    CONTENT
        .find(attrs)
        .and_then(|c| quoted(attrs.within(c + b"content=".len()..)))
        .and_then(Declared::of_type)
        .unwrap_or(Declared::None)
}

/// The string or strings after `"@type"`: `: "Product"` or `: ["Article", "NewsArticle"]`.
fn type_values(rest: &[u8]) -> impl Iterator<Item = &[u8]> {
    let rest = skip_space(rest);
    let rest = match rest.split_first() {
        Some((b':', r)) => skip_space(r),
        _ => &[][..],
    };
    let (list, single) = match rest.split_first() {
        Some((b'[', r)) => {
            let end = r.iter().position(|&b| b == b']').unwrap_or(0).min(512);
            (&r[..end], None)
        }
        _ => (&[][..], quoted(rest)),
    };
    let listed = list
        .split(|&b| b == b',')
        .filter_map(|item| quoted(skip_space(item)));
    single.into_iter().chain(listed)
}

/// The text of a string that starts `s` (`"x"` or `'x'`), at most 64 bytes long.
fn quoted(s: &[u8]) -> Option<&[u8]> {
    let (&q, rest) = s.split_first()?;
    if q != b'"' && q != b'\'' {
        return None;
    }
    let end = rest.iter().take(64).position(|&b| b == q)?;
    rest.get(..end)
}

fn skip_space(s: &[u8]) -> &[u8] {
    let n = s.iter().take_while(|b| b.is_ascii_whitespace()).count();
    &s[n..]
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What a whole document declares, read from its raw bytes: [`in_script`] over all of it,
    /// [`in_meta`] over each `<meta>` (the segmenter reads the same from its tags as it parses).
    fn declared(html: &str) -> Declared {
        let bytes = html.as_bytes();
        let mut best = in_script(bytes);
        for at in memmem::find_iter(bytes, b"<meta").take(4 * MAX_MARKERS) {
            let rest = bytes.within(at..);
            let tag = &rest[..rest.iter().position(|&b| b == b'>').unwrap_or(rest.len())];
            best = best.min(in_meta(tag));
        }
        best
    }

    #[test]
    fn json_ld_and_open_graph_types_are_read_and_the_most_telling_wins() {
        let article = r#"<meta property="og:type" content="article"><script type="application/ld+json">{"@type": "WebPage"}</script>"#;
        assert_eq!(declared(article), Declared::Article);
        let product = r#"<script>{"@context":"https://schema.org","@type":"Product","offers":{"@type":"Offer"}}</script><meta property='og:type' content='website'>"#;
        assert_eq!(declared(product), Declared::Product);
        let thread = r#"{"@type" : ["DiscussionForumPosting", "Article"]}"#;
        assert_eq!(declared(thread), Declared::Forum);
        let list = r#"<meta property="og:type" content="product.group">"#;
        assert_eq!(declared(list), Declared::List);
        assert_eq!(declared("<p>no markers</p>"), Declared::None);
        assert_eq!(declared(r#"{"@type": "Person"}"#), Declared::None);
        assert_eq!(declared(r#""@type": ["#), Declared::None, "cut short");
    }

    #[test]
    fn the_segmenter_reads_them_from_scripts_and_meta_tags_as_it_parses() {
        let html = r#"<html><head><meta property="og:type" content="article">
            <script type="application/ld+json">{"@context": "https://schema.org",
            "@type": "Product", "name": "A chair"}</script></head>
            <body><p>"@type": "DiscussionForumPosting" in the text is no declaration</p></body></html>"#;
        let page = crate::segment(html).expect("segments");
        assert_eq!(page.declared, Declared::Product);
        let plain = crate::segment("<p>Nothing declared</p>").expect("segments");
        assert_eq!(plain.declared, Declared::None);
    }
}

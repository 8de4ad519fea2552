//! What a page says about itself as a document: its headline, authors, dates, site and address,
//! as its `<meta>`, `<link>` and `<time>` tags, its JSON-LD scripts and its `rel`/`itemprop`
//! attributes give them.
//!
//! The segmenter collects them as it parses, in the same pass that reads [`super::declared`]:
//! only the tags named above have their attributes read again, and only a few small strings
//! are stored a page (the first value of each kind, a capped copy of the JSON-LD text). Making
//! sense of them (which headline, which date) is the `metadata` module of `victor-label`.

use crate::element_id::ElementId;
use crate::segment::attrs::AttrName;
use crate::segment::scan;
use memchr::memmem;

/// The JSON-LD text kept a page, at most (bytes); longer scripts are skipped.
const MAX_JSON_LD: usize = 256 * 1024;

/// At most this many marked elements and `<time>` values are kept a page.
const MAX_MARKS: usize = 32;

/// What an element's own attributes say it holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Mark {
    /// The author: `rel="author"`, `itemprop="author"`, a link to `/author/...`.
    Author,
    /// The publication date: `itemprop="datePublished"`, `<time pubdate>`.
    Published,
    /// The headline: `itemprop="headline"`.
    Headline,
}

/// The document's own statements about itself ([`crate::Page::head`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Head {
    /// `og:title` or `twitter:title`.
    pub og_title: Option<String>,
    /// `og:site_name` (or `application-name`).
    pub site_name: Option<String>,
    /// `<meta name="author">`, `article:author` or `itemprop="author" content`.
    pub author: Option<String>,
    /// The publication date a `<meta>` gives: `article:published_time`, `datePublished`,
    /// `date`, `pubdate`, `dc.date`, ...
    pub published: Option<String>,
    /// The date of the last change a `<meta>` gives: `article:modified_time`, `dateModified`.
    pub modified: Option<String>,
    /// `<link rel="canonical" href>`.
    pub canonical: Option<String>,
    /// `og:url`.
    pub og_url: Option<String>,
    /// The text of the page's JSON-LD scripts, one after the other (a NUL between, which JSON text cannot hold), capped.
    pub json_ld: String,
    /// `<time datetime>` values in document order, with their element and whether the element
    /// marks a publication date (`pubdate`, `itemprop="datePublished"`).
    pub times: Vec<(ElementId, String, bool)>,
    /// Elements marked by their attributes ([`Mark`]), in document order.
    pub marked: Vec<(ElementId, Mark)>,
    /// The `<h1>` elements, in document order (the headline's candidates: listed here so that
    /// finding them does not take a pass over all the page's elements).
    pub h1s: Vec<ElementId>,
}

/// A `<meta>` tag's contribution: which field its `name`/`property`/`itemprop` names.
fn meta_field(key: &[u8]) -> Option<Field> {
    let k = key.to_ascii_lowercase();
    Some(match k.as_slice() {
        b"og:title" | b"twitter:title" => Field::OgTitle,
        b"og:site_name" | b"application-name" => Field::SiteName,
        b"author" | b"article:author" | b"dc.creator" | b"sailthru.author" | b"parsely-author"
        | b"byl" => Field::Author,
        b"article:published_time"
        | b"datepublished"
        | b"date"
        | b"pubdate"
        | b"publishdate"
        | b"publish-date"
        | b"publish_date"
        | b"dc.date"
        | b"dc.date.issued"
        | b"dcterms.date"
        | b"dcterms.created"
        | b"sailthru.date"
        | b"parsely-pub-date"
        | b"og:published_time"
        | b"article.published"
        | b"citation_publication_date"
        | b"citation_date"
        | b"citation_online_date"
        | b"release_date"
        | b"ms.date" => Field::Published,
        b"article:modified_time"
        | b"datemodified"
        | b"og:updated_time"
        | b"last-modified"
        | b"dcterms.modified" => Field::Modified,
        b"og:url" => Field::OgUrl,
        // Any other name of a publication date (`published`, `w-published-date`,
        // `article.publish_time`), not the publisher.
        _ if memmem::find(&k, b"publish").is_some() && memmem::find(&k, b"publisher").is_none() => {
            Field::Published
        }
        _ => return None,
    })
}

#[derive(Clone, Copy)]
enum Field {
    OgTitle,
    SiteName,
    Author,
    Published,
    Modified,
    OgUrl,
}

impl Head {
    /// Reads a `<meta>` tag's attributes.
    pub(crate) fn on_meta(&mut self, attrs: &[u8]) {
        let mut field = None;
        let mut content: &[u8] = &[];
        for (name, value) in scan::attrs(attrs) {
            if name.eq_ignore_ascii_case(b"content") {
                content = value;
            } else if name.eq_ignore_ascii_case(b"name")
                || name.eq_ignore_ascii_case(b"property")
                || name.eq_ignore_ascii_case(b"itemprop")
            {
                field = field.or_else(|| meta_field(value));
            }
        }
        let Some(field) = field else { return };
        let slot = match field {
            Field::OgTitle => &mut self.og_title,
            Field::SiteName => &mut self.site_name,
            Field::Author => &mut self.author,
            Field::Published => &mut self.published,
            Field::Modified => &mut self.modified,
            Field::OgUrl => &mut self.og_url,
        };
        set_once(slot, content);
    }

    /// Reads a `<link>` tag's attributes (`rel="canonical"`).
    pub(crate) fn on_link(&mut self, attrs: &[u8]) {
        if self.canonical.is_some() || memmem::find(attrs, b"anonical").is_none() {
            return;
        }
        let mut canonical = false;
        let mut href: &[u8] = &[];
        for (name, value) in scan::attrs(attrs) {
            if name.eq_ignore_ascii_case(b"rel") {
                canonical = value.eq_ignore_ascii_case(b"canonical");
            } else if name.eq_ignore_ascii_case(b"href") {
                href = value;
            }
        }
        if canonical {
            set_once(&mut self.canonical, href);
        }
    }

    /// Reads a `<time>` tag's attributes: its `datetime`, kept with the element it opened.
    pub(crate) fn on_time(&mut self, attrs: &[u8], elem: ElementId) {
        if self.times.len() >= MAX_MARKS {
            return;
        }
        let mut datetime: &[u8] = &[];
        let mut published = false;
        for (name, value) in scan::attrs(attrs) {
            if name.eq_ignore_ascii_case(b"datetime") {
                datetime = value;
            } else if name.eq_ignore_ascii_case(b"pubdate") {
                published = true;
            } else if name.eq_ignore_ascii_case(b"itemprop") {
                published |= value.eq_ignore_ascii_case(b"datePublished");
            }
        }
        let mut v = None;
        set_once(&mut v, datetime);
        if let Some(v) = v {
            self.times.push((elem, v, published));
        }
    }

    /// Keeps a marked element.
    pub(crate) fn on_mark(&mut self, elem: ElementId, mark: Mark) {
        if self.marked.len() < MAX_MARKS {
            self.marked.push((elem, mark));
        }
    }

    /// Keeps a script's text when it is JSON-LD (starts with `{` or `[` and names `@context`
    /// or `@type`).
    pub(crate) fn on_script(&mut self, text: &[u8]) {
        let t = text.trim_ascii_start();
        if !matches!(t.first(), Some(b'{' | b'[')) || memmem::find(t, b"\"@").is_none() {
            return;
        }
        if self.json_ld.len() + t.len() > MAX_JSON_LD {
            return;
        }
        if let Ok(s) = std::str::from_utf8(t) {
            if !self.json_ld.is_empty() {
                self.json_ld.push('\0');
            }
            self.json_ld.push_str(s);
        }
    }
}

/// What a start tag's `rel` or `itemprop` value marks ([`Mark`]).
pub(crate) fn mark_of(name: AttrName, value: &[u8]) -> Option<Mark> {
    match name {
        AttrName::Rel => value
            .split(|b| b.is_ascii_whitespace())
            .any(|w| w.eq_ignore_ascii_case(b"author"))
            .then_some(Mark::Author),
        // A link to an author's page: `href=".../author/name"` (or `/authors/`).
        AttrName::Href => {
            // From each slash (a URL holds a few; a searcher's set-up would cost more than the
            // search on a value this short).
            let found = value.len() < 300
                && memchr::memchr_iter(b'/', value).any(|at| {
                    value.get(at + 1..at + 7) == Some(b"author")
                        && matches!(
                            value.get(at + 7..at + 9),
                            Some([b'/', _]) | Some([b's', b'/'])
                        )
                });
            found.then_some(Mark::Author)
        }
        AttrName::Itemprop => match value {
            b"author" | b"creator" => Some(Mark::Author),
            b"datePublished" => Some(Mark::Published),
            b"headline" => Some(Mark::Headline),
            _ => None,
        },
        _ => None,
    }
}

/// Stores `value` (entities decoded, white space collapsed, at most 1 KB) in an empty slot.
fn set_once(slot: &mut Option<String>, value: &[u8]) {
    if slot.is_some() || value.is_empty() || value.len() > 1024 {
        return;
    }
    let Ok(s) = std::str::from_utf8(value) else {
        return;
    };
    let decoded = htmlize::unescape(s);
    let mut out = String::with_capacity(decoded.len());
    for w in decoded.split_whitespace() {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(w);
    }
    if !out.is_empty() {
        *slot = Some(out);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_segmenter_collects_meta_link_time_json_ld_and_marks() {
        let html = r#"<html><head><title>T | Site</title>
            <meta property="og:title" content="Big &amp; news">
            <meta property="og:site_name" content="The Site">
            <meta name="author" content="Ann Lee">
            <meta property="article:published_time" content="2024-03-05T10:00:00Z">
            <meta property="article:modified_time" content="2024-04-01">
            <meta property="og:url" content="https://x.org/a">
            <link rel="canonical" href="https://x.org/a?b=1&amp;c=2">
            <script type="application/ld+json">{"@type": "NewsArticle", "headline": "H"}</script>
            <script>var x = {"a": 1};</script>
            </head><body><h1 itemprop="headline">H</h1>
            <a rel="author" href="/u/ann">Ann Lee</a>
            <time datetime="2024-03-05" pubdate>March 5</time><time datetime="2024-03-06">x</time>
            </body></html>"#;
        let page = crate::segment(html).expect("segments");
        let h = &page.head;
        assert_eq!(h.og_title.as_deref(), Some("Big & news"));
        assert_eq!(h.site_name.as_deref(), Some("The Site"));
        assert_eq!(h.author.as_deref(), Some("Ann Lee"));
        assert_eq!(h.published.as_deref(), Some("2024-03-05T10:00:00Z"));
        assert_eq!(h.modified.as_deref(), Some("2024-04-01"));
        assert_eq!(h.og_url.as_deref(), Some("https://x.org/a"));
        assert_eq!(h.canonical.as_deref(), Some("https://x.org/a?b=1&c=2"));
        assert!(h.json_ld.contains("\"headline\": \"H\""));
        assert!(!h.json_ld.contains("var x"), "only JSON-LD");
        assert_eq!(h.times.len(), 2);
        assert_eq!(h.times[0].1, "2024-03-05");
        assert!(h.times[0].2 && !h.times[1].2);
        let marks: Vec<Mark> = h.marked.iter().map(|m| m.1).collect();
        assert_eq!(marks, vec![Mark::Headline, Mark::Author]);
        let (e, _) = h.marked[1];
        assert_eq!(page.element(e).tag, crate::Tag::A);
    }
}

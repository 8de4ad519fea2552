//! The site a page belongs to, for cross-validation folds that keep a site's pages together.
//!
//! Pages of one site share their boilerplate: the same menus, footers, "related stories" boxes
//! and even phrases. When a cross-validation puts pages of one site on both sides of a fold,
//! the model is scored on boilerplate it has already seen, and the estimate is optimistic for
//! pages of new sites. Measured with `victor cv work/dev-import/dragnet-train --folds 5 --c2 10`
//! (773 pages; 296 sites found, 139 pages without a URL): expected-F1 text F1 .948 with page
//! folds, .934 with `--folds-by site`; Viterbi .925 and .914.
//!
//! A page's site is the host of its URL: the record's `url` when the importer knew it, else the
//! URL the page declares for itself (`<link rel="canonical">` or `<meta property="og:url">` in
//! its first 64 KiB). The host is lowercased and loses its port and a leading `www.`; it is not
//! reduced to a registrable domain (`news.bbc.co.uk` and `bbc.co.uk` are two sites), which
//! would need the public suffix list. Pages with neither URL have no site: each is its own
//! group.

use std::sync::LazyLock;

use regex::bytes::Regex;

/// How much of the page is searched for a declared URL (it belongs in the `<head>`).
pub(crate) const DECLARED_URL_WINDOW: usize = 64 * 1024;

static LINK_OR_META: LazyLock<Regex> = LazyLock::new(|| {
    // A <link> or <meta> start tag (no '>' inside); which one declares the URL is checked below.
    // Byte-wise (`-u`): legacy-encoded bytes in another attribute must not hide the tag.
    Regex::new(r"(?i-u)<(?:link|meta)\b[^>]*>").unwrap_or_else(|e| unreachable!("{e}"))
});
static ATTRIBUTE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r#"(?i)\b(rel|property|name|href|content)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))"#,
    )
    .unwrap_or_else(|e| unreachable!("{e}"))
});

/// The host of an absolute `http(s)://` (or scheme-relative `//`) URL, normalised as the module
/// docs say; `None` for anything else.
pub(crate) fn url_host(url: &str) -> Option<String> {
    let url = url.trim();
    let rest = if let Some(i) = url.find("://") {
        let scheme = &url[..i];
        if !scheme.eq_ignore_ascii_case("http") && !scheme.eq_ignore_ascii_case("https") {
            return None;
        }
        &url[i + 3..]
    } else {
        url.strip_prefix("//")?
    };
    let authority = rest.split(['/', '?', '#']).next().unwrap_or("");
    let host_port = authority.rsplit('@').next().unwrap_or("");
    let host = match host_port.rfind(':') {
        Some(i) if host_port[i + 1..].bytes().all(|b| b.is_ascii_digit()) => &host_port[..i],
        _ => host_port,
    };
    let host = host.trim_end_matches('.').to_ascii_lowercase();
    let host = host.strip_prefix("www.").unwrap_or(&host);
    let valid = !host.is_empty()
        && host.contains('.')
        && host
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'.' || b == b'-');
    valid.then(|| host.to_string())
}

/// The URL a page declares for itself: the `href` of `<link rel="canonical">` or the `content`
/// of `<meta property="og:url">` (or `name="og:url"`), whichever comes first in the first
/// [`DECLARED_URL_WINDOW`] bytes.
pub(crate) fn declared_url(html: &[u8]) -> Option<String> {
    let head = &html[..html.len().min(DECLARED_URL_WINDOW)];
    for tag in LINK_OR_META.find_iter(head) {
        let (mut is_url, mut value) = (false, None);
        for c in ATTRIBUTE.captures_iter(tag.as_bytes()) {
            let v = c
                .get(2)
                .or(c.get(3))
                .or(c.get(4))
                .map_or(&b""[..], |m| m.as_bytes());
            let name = c.get(1).map_or(&b""[..], |m| m.as_bytes());
            if name.eq_ignore_ascii_case(b"rel") {
                is_url |= v
                    .split(|b| b.is_ascii_whitespace())
                    .any(|t| t.eq_ignore_ascii_case(b"canonical"));
            } else if name.eq_ignore_ascii_case(b"property") || name.eq_ignore_ascii_case(b"name") {
                is_url |= v.eq_ignore_ascii_case(b"og:url");
            } else {
                value = Some(v);
            }
        }
        if let (true, Some(v)) = (is_url, value) {
            return Some(String::from_utf8_lossy(v).trim().to_string());
        }
    }
    None
}

/// The site of a page: the host of `record_url` if it has one, else of the URL the page's
/// bytes declare ([`declared_url`]); `None` when neither gives a host.
pub(crate) fn site_key(record_url: Option<&str>, html: &[u8]) -> Option<String> {
    record_url
        .and_then(url_host)
        .or_else(|| declared_url(html).as_deref().and_then(url_host))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hosts_are_normalised() {
        assert_eq!(
            url_host("http://www.Example.COM:8080/a/b?c#d").as_deref(),
            Some("example.com")
        );
        assert_eq!(
            url_host("https://user@news.bbc.co.uk/x").as_deref(),
            Some("news.bbc.co.uk")
        );
        assert_eq!(
            url_host("//blog.example.org").as_deref(),
            Some("blog.example.org")
        );
        assert_eq!(url_host("ftp://example.com/"), None);
        assert_eq!(url_host("/relative/path"), None);
        assert_eq!(url_host("http://localhost/"), None);
        assert_eq!(url_host("http:///nohost"), None);
    }

    #[test]
    fn declared_urls_are_found_in_either_tag_and_attribute_order() {
        let a = br#"<html><head><LINK href="http://www.a.com/story" REL="canonical"></head>"#;
        assert_eq!(declared_url(a).as_deref(), Some("http://www.a.com/story"));
        let b = b"<meta content='https://b.org/x' property='og:url'><link rel=canonical href=http://c.net/>";
        assert_eq!(declared_url(b).as_deref(), Some("https://b.org/x"));
        let c = br#"<link rel="stylesheet" href="http://cdn.d.com/s.css"><meta name="og:url" content="http://e.com/">"#;
        assert_eq!(declared_url(c).as_deref(), Some("http://e.com/"));
        let latin1 = b"<link title=\"caf\xe9\" rel=\"canonical\" href=\"http://f.com/\">";
        assert_eq!(declared_url(latin1).as_deref(), Some("http://f.com/"));
        assert_eq!(declared_url(b"<p>no head</p>"), None);
        assert_eq!(declared_url(b"\xff\xfe<link rel=canonical>"), None);
        let mut late = vec![b' '; DECLARED_URL_WINDOW];
        late.extend_from_slice(br#"<link rel="canonical" href="http://late.com/">"#);
        assert_eq!(declared_url(&late), None);
    }

    #[test]
    fn the_record_url_wins_over_the_declared_one() {
        let html = br#"<link rel="canonical" href="http://declared.com/">"#;
        assert_eq!(
            site_key(Some("http://www.record.com/p"), html).as_deref(),
            Some("record.com")
        );
        assert_eq!(site_key(None, html).as_deref(), Some("declared.com"));
        assert_eq!(
            site_key(Some("not a url"), html).as_deref(),
            Some("declared.com")
        );
        assert_eq!(site_key(None, b"<p>x</p>"), None);
    }
}

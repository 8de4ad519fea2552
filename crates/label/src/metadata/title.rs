//! The headline: the page's `h1` or first header block when the page's declared titles
//! (JSON-LD `headline`, `og:title`, `<title>`) confirm it, else the declared titles in that
//! order, with site-name prefixes and suffixes (`| Site`, `- Site`) removed.

use victor_core::Label;
use victor_features::{ElementId, Page};

use super::json_ld::LdFacts;
use super::{aside, words};

/// Separators between a headline and the site's name in `<title>` and `og:title`.
const SEPARATORS: &[&str] = &[
    " | ", " - ", " – ", " — ", " :: ", " · ", " • ", " » ", " « ", " // ", " ~ ",
];

/// The headline of a page (see the module's documentation).
pub(crate) fn title(
    page: &Page,
    labels: &[Label],
    ld: &LdFacts,
    sitename: Option<&str>,
    url: Option<&str>,
) -> Option<String> {
    let site = site_words(sitename, url);
    let t = pick(page, labels, ld, &site)?;
    // The site's name repeated in an `h1` ("Headline – Site"), then a tag line after the
    // headline ("Headline | Top 19 Companies", "Headline - Personally Tested"): readers, and
    // wcxb's gold, take the headline alone (dev: 838 to 844 of 1,056).
    let t = strip_site(&t, &site);
    Some(first_part(&t).to_string())
}

/// The part of a title before its first ` | ` or ` - ` when that part has two words or more.
fn first_part(title: &str) -> &str {
    let cut = [" | ", " - "].iter().filter_map(|s| title.find(s)).min();
    match cut {
        Some(k) if title[..k].split_whitespace().count() >= 2 => title[..k].trim(),
        _ => title,
    }
}

/// The headline before the last clean-up of [`title`].
fn pick(page: &Page, labels: &[Label], ld: &LdFacts, site: &[Vec<String>]) -> Option<String> {
    let raw = [
        ld.headline.as_deref(),
        page.head.og_title.as_deref(),
        page.title.as_deref(),
    ];
    let declared: Vec<String> = raw
        .into_iter()
        .flatten()
        .map(|t| strip_site(&super::clean_text(t), site))
        .filter(|t| !t.is_empty())
        .collect();
    // The parts of the declared titles between separators.
    let parts: Vec<Vec<String>> = raw
        .into_iter()
        .flatten()
        .flat_map(split_parts)
        .map(words)
        .filter(|w| !w.is_empty())
        .collect();
    let confirmed = |cand: &str| {
        let w = words(cand);
        declared.iter().any(|d| similar(cand, d)) || parts.contains(&w)
    };
    let h1s = h1_texts(page, labels);
    if let Some((h1, _)) = h1s
        .iter()
        .find(|h| declared.iter().any(|d| similar(&h.0, d)))
    {
        return Some(h1.clone());
    }
    // An h1 that shares most of its words with a declared title.
    if let Some((h1, _)) = h1s.first()
        && !names_site(h1, site)
        && declared.iter().any(|d| overlap(h1, d) >= 0.5)
    {
        return Some(h1.clone());
    }
    if let Some((h1, _)) = h1s.iter().find(|h| confirmed(&h.0)) {
        return Some(h1.clone());
    }
    declared
        .into_iter()
        .next()
        .map(|d| longest_part(&d))
        .or_else(|| h1s.into_iter().next().map(|h| h.0))
        .or_else(|| first_header(page, labels))
}

/// A title's parts between separators.
fn split_parts(title: &str) -> Vec<&str> {
    let mut parts: Vec<&str> = vec![title];
    for sep in SEPARATORS {
        // A separator's middle character is looked for first (a `char` search is cheap, a
        // `&str` pattern builds a searcher every time).
        if sep
            .trim()
            .chars()
            .next()
            .is_some_and(|c| !title.contains(c))
        {
            continue;
        }
        parts = parts.iter().flat_map(|p| p.split(sep)).collect();
    }
    parts
}

/// The words of the site's name and of the URL's host (without `www` and the top-level
/// domain), which a title's prefix or suffix may repeat.
fn site_words(sitename: Option<&str>, url: Option<&str>) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    if let Some(s) = sitename {
        out.push(words(s));
    }
    if let Some(host) = url
        .and_then(|u| u.split_once("://"))
        .map(|(_, r)| r.split(['/', '?', '#']).next().unwrap_or(""))
    {
        let labels: Vec<&str> = host.split('.').filter(|l| *l != "www").collect();
        if let Some((_, rest)) = labels.split_last()
            && !rest.is_empty()
        {
            out.push(words(&rest.join(" ")));
            out.push(vec![rest.concat().to_lowercase()]);
        }
    }
    out.retain(|w| !w.is_empty());
    out
}

/// A part of a title that names the site: its words are the site's, or run together they
/// spell the host.
fn names_site(part: &str, site: &[Vec<String>]) -> bool {
    let w = words(part);
    if w.is_empty() {
        return true;
    }
    let joined = w.concat();
    site.iter().any(|s| {
        *s == w
            || s.concat() == joined
            || (w.len() <= 4 && joined.len() >= 3 && s.concat().contains(&joined))
            || (s.len() <= 4
                && !s.is_empty()
                && joined.contains(&s.concat())
                && w.len() <= s.len() + 2)
    })
}

/// A title without the parts that name the site; the longest part when one of several parts
/// is left... none named the site, the whole title.
pub(crate) fn strip_site(title: &str, site: &[Vec<String>]) -> String {
    let parts = split_parts(title);
    if parts.len() < 2 {
        return title.trim().to_string();
    }
    // Drop site parts from both ends.
    let mut lo = 0;
    let mut hi = parts.len();
    while hi > lo + 1 && names_site(parts[hi - 1], site) {
        hi -= 1;
    }
    while hi > lo + 1 && names_site(parts[lo], site) {
        lo += 1;
    }
    if hi - lo == parts.len() {
        return title.trim().to_string();
    }
    // What is left, as the title wrote it.
    let (Some(first), Some(last)) = (parts.get(lo), parts.get(hi - 1)) else {
        return title.trim().to_string();
    };
    let start = first.as_ptr() as usize - title.as_ptr() as usize;
    let end = last.as_ptr() as usize - title.as_ptr() as usize + last.len();
    title.get(start..end).unwrap_or(title).trim().to_string()
}

/// Two titles name the same headline: most of the shorter one's words are in the longer one.
fn similar(a: &str, b: &str) -> bool {
    let (a, b) = (words(a), words(b));
    if a.is_empty() || b.is_empty() {
        return false;
    }
    let (short, long) = if a.len() <= b.len() {
        (&a, &b)
    } else {
        (&b, &a)
    };
    let shared = short.iter().filter(|w| long.contains(w)).count();
    shared * 10 >= short.len() * 8 && shared * 2 >= long.len()
}

/// The longest of a title's parts between separators (the first of the longest), which is the
/// headline when the rest are a site's name or a tag line.
fn longest_part(title: &str) -> String {
    let parts = split_parts(title);
    let mut best = title;
    let mut most = 0;
    for p in &parts {
        let n = words(p).len();
        if n > most {
            most = n;
            best = p;
        }
    }
    best.trim().to_string()
}

/// The share of `a`'s words that are in `b`.
fn overlap(a: &str, b: &str) -> f64 {
    let (a, b) = (words(a), words(b));
    if a.is_empty() {
        return 0.0;
    }
    a.iter().filter(|w| b.contains(w)).count() as f64 / a.len() as f64
}

/// The texts of the page's `h1` elements outside comments and footers, in document order
/// (at most 8), the first one whose blocks the labels keep first.
fn h1_texts(page: &Page, labels: &[Label]) -> Vec<(String, bool)> {
    let main = super::main_elem(page, labels);
    let mut out: Vec<(ElementId, String, bool)> = Vec::new();
    // The elements under each outermost h1, as ranges of ids: an element's descendants follow
    // it, one after the other (elements come in document order, after their parents), so the
    // range ends at the first later element whose parent lies before the h1. The parse listed
    // the h1s ([`victor_features::Head::h1s`]).
    let mut h1s: Vec<std::ops::Range<ElementId>> = Vec::new();
    for &h in &page.head.h1s {
        if h1s.last().is_some_and(|r| r.contains(&h)) {
            continue;
        }
        let mut end = h as usize + 1;
        while page.elements.get(end).is_some_and(|e| e.parent >= h) {
            end += 1;
        }
        h1s.push(h..end as ElementId);
    }
    if h1s.is_empty() {
        return Vec::new();
    }
    // Blocks come in document order, so their h1 ranges are met in order too.
    let mut next = 0;
    for (i, b) in page.blocks.iter().enumerate() {
        while h1s.get(next).is_some_and(|r| r.end <= b.parent) {
            next += 1;
        }
        let Some(r) = h1s.get(next).filter(|r| r.contains(&b.parent)) else {
            if next >= h1s.len() {
                break;
            }
            continue;
        };
        let h = r.start;
        let kept = labels.get(i).is_some_and(|l| l.is_content());
        match out.last_mut() {
            Some((e, text, k)) if *e == h => {
                if b.space_before || !page.block_splits(b).is_empty() {
                    text.push(' ');
                }
                text.push_str(page.block_text(b));
                *k |= kept;
            }
            _ => {
                if out.len() >= 8 {
                    break;
                }
                if aside(page, h, main) {
                    continue;
                }
                out.push((h, page.block_text(b).to_string(), kept));
            }
        }
    }
    out.retain(|(_, t, _)| {
        let n = t.split_whitespace().count();
        n > 0 && n <= 40
    });
    if let Some(k) = out.iter().position(|h| h.2) {
        let h = out.remove(k);
        out.insert(0, h);
    }
    out.into_iter()
        .map(|(_, t, k)| (t.trim().to_string(), k))
        .collect()
}

/// The first block the labels keep as a header.
fn first_header(page: &Page, labels: &[Label]) -> Option<String> {
    let i = labels.iter().position(|&l| l == Label::Header)?;
    let b = page.blocks.get(i)?;
    let t = page.block_text(b).trim();
    (!t.is_empty() && t.split_whitespace().count() <= 40).then(|| t.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn site_names_are_cut_from_either_end() {
        let site = site_words(Some("The Daily"), Some("https://www.thedaily.com/a"));
        assert_eq!(strip_site("A headline | The Daily", &site), "A headline");
        assert_eq!(strip_site("The Daily - A headline", &site), "A headline");
        assert_eq!(strip_site("TheDaily.com — A headline", &site), "A headline");
        assert_eq!(
            strip_site("Left - right: a headline", &site),
            "Left - right: a headline"
        );
    }
}

//! A document's metadata: its headline, authors, publication date, site name and canonical
//! address, from what the page says about itself ([`victor_features::Head`]: `<meta>`,
//! `<link>`, `<time>`, JSON-LD, `rel`/`itemprop` marks) and from its labelled blocks (the
//! `h1` and header blocks the CRF kept, byline blocks, dates written in the text).
//!
//! The author and site name take the first source that gives a value, in an order chosen on
//! the `dev` pages of wcxb (`eval/metadata.md`); the title compares its sources, as a reader
//! would find the headline at the top of the content; the date is the one most groups of
//! evidence name (`published`, on the `dev` pages of htmldate's set and wcxb).

mod date;
mod json_ld;
mod published;
mod title;

use memchr::memmem;
use serde::Serialize;
use std::sync::LazyLock;
use victor_core::Label;
use victor_features::{ElementId, Mark, Page, Tag};

use json_ld::LdFacts;
pub use published::DateSource;

/// A page's metadata (every field `None` when the page does not give it).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Metadata {
    /// The headline, site-name prefixes and suffixes removed.
    pub title: Option<String>,
    /// The authors' names, joined with `, `.
    pub author: Option<String>,
    /// The publication date, ISO 8601 (`YYYY-MM-DD`, `THH:MM...` when the page gives the time).
    pub date: Option<String>,
    /// Where the date came from (`None` when there is no date).
    pub date_source: Option<DateSource>,
    /// The site's name.
    pub sitename: Option<String>,
    /// The canonical URL (`link rel=canonical`, else `og:url`).
    pub canonical: Option<String>,
}

/// How many blocks from the start of the content a byline or a written date is looked for.
const NEAR_TOP: usize = 40;

/// What is known of a page beyond its HTML, for its metadata.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PageContext<'a> {
    /// The URL the page was fetched from (a WARC record's `WARC-Target-URI`), whose path may
    /// hold its date when the page declares no canonical URL.
    pub url: Option<&'a str>,
    /// When the page was fetched, ISO 8601 (a WARC record's `WARC-Date`): no date after it (a
    /// day of slack for time zones) is the page's. `None` bounds the date by the present, as
    /// the system clock reads it. A file's modification time is not used: it says when the
    /// file was written (a copy, a checkout, an unpacked archive), not when the page was
    /// fetched, and would refuse true dates.
    pub fetched: Option<&'a str>,
}

/// The metadata of a labelled page: `labels` holds one label a block.
pub fn metadata(page: &Page, labels: &[Label]) -> Metadata {
    metadata_with(page, labels, PageContext::default())
}

/// [`metadata`] with what is known of the page beyond its HTML: its URL and when it was
/// fetched.
pub fn metadata_with(page: &Page, labels: &[Label], ctx: PageContext<'_>) -> Metadata {
    let head = &page.head;
    let ld = LdFacts::read(&head.json_ld);
    let sitename = head
        .site_name
        .clone()
        .or_else(|| ld.site_name.clone())
        .filter(|s| !s.is_empty());
    let canonical = head
        .canonical
        .clone()
        .or_else(|| head.og_url.clone())
        .filter(|u| u.starts_with("http"));
    let title = title::title(page, labels, &ld, sitename.as_deref(), canonical.as_deref());
    let author = author(page, labels, &ld, sitename.as_deref());
    let date = published::published(page, labels, &ld, canonical.as_deref(), ctx);
    Metadata {
        title,
        author,
        date: date.as_ref().map(|d| d.0.iso()),
        date_source: date.map(|d| d.1),
        sitename,
        canonical,
    }
}

/// A text as a page declares it, entities decoded (twice encoded ones too: `&amp;#038;`),
/// white space collapsed.
pub(crate) fn clean_text(s: &str) -> String {
    let mut s = std::borrow::Cow::Borrowed(s);
    for _ in 0..2 {
        if s.contains('&') {
            s = std::borrow::Cow::Owned(htmlize::unescape(s.as_ref()).into_owned());
        }
    }
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Words (alphanumeric runs, lowercased) of a text, for comparisons.
pub(crate) fn words(s: &str) -> Vec<String> {
    s.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect()
}

/// Searchers for words in class and id attributes, built once (a `str::contains` builds its
/// searcher on every call, and these run for every ancestor of many blocks).
type Finders = LazyLock<Vec<memmem::Finder<'static>>>;

/// The searchers of `words`.
fn finders(words: &'static [&'static str]) -> Vec<memmem::Finder<'static>> {
    words
        .iter()
        .map(|w| memmem::Finder::new(w.as_bytes()))
        .collect()
}

/// Whether an element's class or id holds one of the words of `names`.
fn named(page: &Page, e: &victor_features::Element, names: &[memmem::Finder<'static>]) -> bool {
    let (c, i) = (page.class_of(e).as_bytes(), page.id_of(e).as_bytes());
    (!c.is_empty() || !i.is_empty())
        && names
            .iter()
            .any(|n| n.find(c).is_some() || n.find(i).is_some())
}

/// Whether any element of the page may have a class or id holding one of the words of `names`
/// (the page's attribute text holds one; `false` means none has).
fn on_page(page: &Page, names: &[memmem::Finder<'static>]) -> bool {
    names
        .iter()
        .any(|n| n.find(page.attrs.as_bytes()).is_some())
}

/// Whether an element or one of its ancestors is `tag`, or has a class or id holding one of
/// `names`.
fn within(
    page: &Page,
    elem: ElementId,
    tag: Option<Tag>,
    names: &[memmem::Finder<'static>],
) -> bool {
    let e = page.element(elem);
    let hit =
        |e: &victor_features::Element| tag.is_some_and(|t| e.tag == t) || named(page, e, names);
    hit(e) || page.ancestors(elem).any(|(_, e)| hit(e))
}

/// Class and id words of the elements whose dates and names are not the document's.
const ASIDE: &[&str] = &[
    "comment",
    "footer",
    "related",
    "sidebar",
    "reply",
    "recommend",
];
static ASIDE_NAMES: Finders = LazyLock::new(|| finders(ASIDE));

/// Class and id words of a byline's element.
static BYLINE_NAMES: Finders = LazyLock::new(|| finders(&["author", "byline"]));

/// Class and id words of a forum post's author.
static USER_NAMES: Finders = LazyLock::new(|| finders(&["username"]));

/// Whether a block lies in comments, a footer, or a sidebar (whose dates and names are not the
/// document's). `main` holds the elements of the first and the last block the labels keep: an
/// element that holds both is a wrapper of the content, not an aside, whatever its class says
/// (`story-sidebar-mode`, `has-comments`); nor is a `<footer>` inside an `<article>`, which
/// HTML gives the article's byline and date.
fn aside(page: &Page, elem: ElementId, main: Option<(ElementId, ElementId)>) -> bool {
    let holds = |id: ElementId, m: ElementId| m == id || page.ancestors(m).any(|(a, _)| a == id);
    let wraps =
        |id: ElementId| main.is_some_and(|(first, last)| holds(id, first) && holds(id, last));
    for (id, e) in std::iter::once((elem, page.element(elem))).chain(page.ancestors(elem)) {
        let hit = if e.tag == Tag::FOOTER {
            !page.ancestors(id).any(|(_, a)| a.tag == Tag::ARTICLE)
        } else {
            named(page, e, &ASIDE_NAMES)
        };
        if hit && !wraps(id) {
            return true;
        }
    }
    false
}

/// The elements of the first and the last block the labels keep (the content's bounds), if
/// any.
fn main_elem(page: &Page, labels: &[Label]) -> Option<(ElementId, ElementId)> {
    let first = labels.iter().position(|l| l.is_content())?;
    let last = labels.iter().rposition(|l| l.is_content())?;
    Some((
        page.blocks.get(first)?.parent,
        page.blocks.get(last)?.parent,
    ))
}

/// The index of the first block the labels keep (0 when none).
fn first_kept(labels: &[Label]) -> usize {
    labels.iter().position(|l| l.is_content()).unwrap_or(0)
}

/// The blocks around the start of the content: from a few before the first kept block (the
/// headline and byline often sit just above the text) to [`NEAR_TOP`] after it.
fn near_top(page: &Page, labels: &[Label]) -> std::ops::Range<usize> {
    let first = first_kept(labels);
    let start = first.saturating_sub(NEAR_TOP);
    start..(first + NEAR_TOP).min(page.blocks.len())
}

// ---------------------------------------------------------------------------------------------
// Author

/// Words that introduce a byline, in the languages of the data.
const BYLINE: &[&str] = &[
    "by",
    "von",
    "par",
    "por",
    "di",
    "da",
    "door",
    "av",
    "af",
    "autor",
    "autore",
    "auteur",
    "author",
    "authored by",
    "written by",
    "posted by",
    "article by",
    "started by",
    "thread starter",
    "geschrieben von",
    "écrit par",
    "escrito por",
    "scritto da",
    "verfasst von",
    "text:",
    "texte:",
];

/// Words that stand where a name should.
const GENERIC: &[&str] = &[
    "author",
    "authors",
    "autor",
    "auteur",
    "autore",
    "unknown",
    "anonymous",
    "admin",
    "administrator",
    "editor",
    "staff",
    "by",
];

/// The authors: JSON-LD `author` names, `<meta name=author>`, an element marked
/// `rel`/`itemprop="author"`, a byline block ("By ...", "Von ...", "Par ...").
fn author(page: &Page, labels: &[Label], ld: &LdFacts, sitename: Option<&str>) -> Option<String> {
    let main = main_elem(page, labels);
    // A declared author that is the site itself (an organization) gives way to a byline.
    let site = sitename.map(words);
    let names_site = |a: &String| site.as_ref().is_some_and(|s| *s == words(a));
    let declared = ld
        .author
        .as_deref()
        .and_then(clean_author)
        .or_else(|| page.head.author.as_deref().and_then(clean_author));
    if let Some(a) = declared.as_ref().filter(|a| !names_site(a)) {
        return Some(a.clone());
    }
    // Elements marked as the author: the first one's text outside comments.
    for &(elem, mark) in &page.head.marked {
        if mark != Mark::Author || aside(page, elem, main) {
            continue;
        }
        let text = element_text(page, elem, 12);
        if let Some(a) = shown_author(&text) {
            return Some(a);
        }
    }
    byline(page, labels)
        .or_else(|| signed(page, main))
        .or(declared)
}

/// Words that open an author's signature wherever it stands (often below the article).
const SIGNED: &[&str] = &[
    "written by",
    "article by",
    "authored by",
    "words by",
    "geschrieben von",
    "écrit par",
    "escrito por",
    "scritto da",
];

/// An author's signature anywhere on the page outside asides: a short block that starts with
/// a word of [`SIGNED`] ("Written by Ann Lee", or "Written by" with the name in the next
/// block), for articles whose byline is an author box at the end.
fn signed(page: &Page, main: Option<(ElementId, ElementId)>) -> Option<String> {
    page.blocks.iter().enumerate().find_map(|(i, b)| {
        let text = page.block_text(b);
        if text.len() > 80 {
            return None;
        }
        let rest = SIGNED_OPENERS.after(text)?;
        let name = if rest.is_empty() {
            page.blocks.get(i + 1).map_or("", |b| page.block_text(b))
        } else {
            rest
        };
        shown_author(name).filter(|_| !aside(page, b.parent, main))
    })
}

/// The text of an element's blocks (at most `max_words` words; `""` when longer).
fn element_text(page: &Page, elem: ElementId, max_words: usize) -> String {
    let mut out = String::new();
    for b in &page.blocks {
        if b.parent != elem && !page.ancestors(b.parent).any(|(id, _)| id == elem) {
            if !out.is_empty() {
                break;
            }
            continue;
        }
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(page.block_text(b));
        if out.split_whitespace().count() > max_words {
            return String::new();
        }
    }
    out
}

/// A byline among the blocks near the top of the content: a short block that starts with a
/// byline word, or sits in an element whose class names the author or byline.
fn byline(page: &Page, labels: &[Label]) -> Option<String> {
    let main = main_elem(page, labels);
    let range = near_top(page, labels);
    // Most pages name no element `byline` or `username`: one search of the page's attribute
    // text says so, and spares a walk up the ancestors of every short block.
    let bylines = on_page(page, &BYLINE_NAMES);
    let users = on_page(page, &USER_NAMES);
    for i in range {
        let b = &page.blocks[i];
        let text = page.block_text(b);
        let n = text.split_whitespace().count();
        if n == 0 || n > 12 {
            continue;
        }
        let lower: String = text.chars().take(24).collect::<String>().to_lowercase();
        for w in BYLINE {
            if let Some(rest) = lower.strip_prefix(w)
                && (rest.is_empty()
                    || rest.starts_with(' ')
                    || rest.starts_with(':')
                    || w.ends_with(':'))
            {
                // The byline word's length in the text as in its lowercase form (or no match).
                let Some(rest) = text.get(w.len()..) else {
                    continue;
                };
                let rest = rest.trim_start_matches([' ', ':']);
                // A byline on its own ("By" then the name in the next block).
                let name = if rest.is_empty() {
                    page.blocks
                        .get(i + 1)
                        .map(|b| page.block_text(b))
                        .unwrap_or("")
                } else {
                    rest
                };
                if let Some(a) = shown_author(name)
                    && !aside(page, b.parent, main)
                {
                    return Some(a);
                }
            }
        }
        if n <= 5
            && bylines
            && within(page, b.parent, None, &BYLINE_NAMES)
            && let Some(a) = shown_author(text)
            && !aside(page, b.parent, main)
        {
            return Some(a);
        }
    }
    // A forum post's author: a short block in an element classed `username`, only when no
    // byline is found (login forms class their labels so too).
    if !users {
        return None;
    }
    near_top(page, labels).find_map(|i| {
        let b = &page.blocks[i];
        let text = page.block_text(b);
        (text.split_whitespace().count() <= 3
            && within(page, b.parent, None, &USER_NAMES)
            && !aside(page, b.parent, main))
        .then(|| shown_author(text))
        .flatten()
    })
}

/// Texts that stand where a byline's name should: page furniture that follows a byline word
/// or sits in an element classed `author` ("By submitting...", a search box, "Skip to
/// content").
const FURNITURE: &[&str] = &[
    "search",
    "account",
    "sections",
    "reviews",
    "courses",
    "scripts",
    "industry",
    "written",
    "here",
    "via",
    "on",
    "menu",
    "home",
    "login",
    "username",
    "screen name",
    "post",
    "reply",
    "share",
    "comments",
    "updated",
    "last updated",
    "published",
    "skip to content",
    "get in touch",
    "learn more",
    "read more",
    "date within",
    "topic author",
];

/// Job titles that follow a name in a byline or an author box ("Ann Lee Tech Reporter"): the
/// last word a title ends with.
const ROLES: &[&str] = &[
    "writer",
    "reporter",
    "editor",
    "correspondent",
    "columnist",
    "journalist",
    "contributor",
    "coordinator",
    "producer",
    "manager",
    "director",
    "executive",
    "strategist",
    "specialist",
    "analyst",
    "moderator",
    "ambassador",
    "intern",
    "photographer",
    "blogger",
    "consultant",
    "researcher",
];

/// Words that may stand before a job title's last word ("Senior Research Executive").
const ROLE_WORDS: &[&str] = &[
    "senior",
    "junior",
    "staff",
    "tech",
    "technology",
    "science",
    "health",
    "content",
    "marketing",
    "managing",
    "contributing",
    "associate",
    "assistant",
    "deputy",
    "chief",
    "lead",
    "head",
    "research",
    "political",
    "news",
    "sports",
    "business",
    "digital",
    "social",
    "media",
    "editorial",
    "freelance",
    "guest",
    "community",
    "product",
    "copy",
    "travel",
    "food",
    "finance",
    "legal",
    "medical",
    "data",
    "seo",
    "creative",
    "special",
    "technical",
    "principal",
];

/// An author's name as the page's text shows it (a byline, an author box, a marked element):
/// [`clean_author`], then a job title after the name cut ("Ann Lee Tech Reporter"), and a
/// forum's avatar letter and status dropped ("J Offline JonB wrote", "JonB J").
fn shown_author(s: &str) -> Option<String> {
    let a = clean_author(s)?;
    let mut w: Vec<&str> = a.split_whitespace().collect();
    // A sentence or a question ("I dove into the...", "What is ...?"), not a name: names
    // capitalise most of their words.
    let upper = w
        .iter()
        .filter(|x| x.starts_with(|c: char| c.is_uppercase()))
        .count();
    if a.ends_with('?') || w.len() >= 3 && upper * 2 < w.len() {
        return None;
    }
    // A forum's avatar initial and online status before the name, "wrote" after it.
    if w.len() >= 3
        && w[0].chars().count() == 1
        && matches!(w[1].to_lowercase().as_str(), "offline" | "online")
    {
        w.drain(..2);
        if let Some(k) = w.iter().position(|x| x.eq_ignore_ascii_case("wrote")) {
            w.truncate(k);
        }
    }
    // The avatar initial after the name: "JonB J".
    if w.len() == 2
        && w[1].chars().count() == 1
        && w[0].chars().next().is_some_and(|c| {
            c.to_lowercase()
                .eq(w[1].chars().flat_map(char::to_lowercase))
        })
    {
        w.pop();
    }
    let is = |list: &[&str], x: &str| list.contains(&x.to_lowercase().as_str());
    if w.len() >= 3 && w.last().is_some_and(|x| is(ROLES, x)) {
        let mut k = w.len() - 1;
        while k > 2 && (is(ROLES, w[k - 1]) || is(ROLE_WORDS, w[k - 1])) {
            k -= 1;
        }
        w.truncate(k);
    }
    (!w.is_empty()).then(|| w.join(" "))
}

/// Whether a text is a month's or a weekday's name (a date's word, not a name).
fn calendar_word(s: &str) -> bool {
    const DAYS: &[&str] = &[
        "monday",
        "tuesday",
        "wednesday",
        "thursday",
        "friday",
        "saturday",
        "sunday",
    ];
    !s.contains(' ') && (date::month_of(s).is_some() || DAYS.contains(&s))
}

/// An author's name as a page writes it, cleaned: a leading byline word dropped, a trailing
/// date or role cut, URLs and e-mail addresses refused, at most 10 words a name (a list of
/// names, as JSON-LD's are joined, at most 40).
pub(crate) fn clean_author(s: &str) -> Option<String> {
    let mut s = s.trim();
    let lower = s.to_lowercase();
    for w in BYLINE {
        if let Some(rest) = lower.strip_prefix(w)
            && (rest.starts_with(' ') || rest.starts_with(':'))
        {
            if let Some(r) = s.get(w.len()..) {
                s = r.trim_start_matches([' ', ':']);
            }
            break;
        }
    }
    // Cut at a date, a separator or a line of other facts.
    let cut = s
        .find(['|', '•', '·', '\n', '—', '–'])
        .or_else(|| s.find(" - "))
        .or_else(|| s.find(" on "))
        .or_else(|| s.find(" am "))
        .or_else(|| s.find(" le "))
        .unwrap_or(s.len());
    let mut s = s[..cut]
        .trim()
        .trim_matches([',', ';', ':', '.', ' '])
        .trim();
    if let Some(k) = s.find(" updated").or_else(|| s.find(" published")) {
        s = s[..k].trim();
    }
    // Cut before a number that follows the name (a forum's reputation and badges).
    if let Some(k) = s
        .match_indices(' ')
        .map(|(k, _)| k)
        .find(|&k| s[k + 1..].starts_with(|c: char| c.is_ascii_digit()))
    {
        s = s[..k].trim();
    }
    let lone = s.to_lowercase();
    let lone = lone.trim_end_matches([':', '.']);
    if BYLINE.contains(&lone)
        || GENERIC.contains(&lone)
        || FURNITURE.contains(&lone)
        || calendar_word(lone)
    {
        return None;
    }
    // A sentence ("submitting your email to subscribe"), not a name; a template's placeholder
    // (`page.head.extra.author`, `{{ author }}`).
    let n = s.split_whitespace().count();
    if n >= 4 && s.starts_with(|c: char| c.is_lowercase())
        || s.contains("{{")
        || n == 1 && s.matches('.').count() >= 2 && s.contains("author")
    {
        return None;
    }
    if s.is_empty()
        || s.contains("://")
        || s.starts_with('/')
        || s.contains('@') && !s.starts_with('@')
        || s.split([',', ';'])
            .any(|p| p.split_whitespace().count() > 10)
        || s.split_whitespace().count() > 40
        || !s.chars().any(char::is_alphabetic)
        || date::in_text(s).is_some()
    {
        return None;
    }
    Some(s.to_string())
}

/// Words that open a block ([`SIGNED`], [`published::ANNOUNCED`]) with the first bytes they can start
/// with: these searches run over every block of the page, and most blocks are refused on their
/// first byte without trying each word.
struct Openers {
    words: &'static [&'static str],
    /// Whether a text whose first byte is this one may start with one of the words (in any
    /// case, as [`after_word`] compares it).
    first: [bool; 256],
}

impl Openers {
    fn new(words: &'static [&'static str]) -> Openers {
        let mut first = [false; 256];
        for w in words {
            if let Some(&b) = w.as_bytes().first() {
                first[usize::from(b.to_ascii_lowercase())] = true;
                first[usize::from(b.to_ascii_uppercase())] = true;
            }
        }
        Openers { words, first }
    }

    /// Whether `text` may start with one of the words (its first byte says it may).
    fn may_open(&self, text: &str) -> bool {
        text.trim_start()
            .as_bytes()
            .first()
            .is_some_and(|&b| self.first[usize::from(b)])
    }

    /// The rest of `text` after the first of the words it starts with ([`after_word`]).
    fn after<'t>(&self, text: &'t str) -> Option<&'t str> {
        if !self.may_open(text) {
            return None;
        }
        self.words.iter().find_map(|w| after_word(text, w))
    }
}

static SIGNED_OPENERS: LazyLock<Openers> = LazyLock::new(|| Openers::new(SIGNED));

/// The rest of `text` after `word` (lowercase) when the text starts with it, in any case,
/// and the word ends there (a space, a colon or the end follows); spaces and colons after it
/// skipped.
fn after_word<'t>(text: &'t str, word: &str) -> Option<&'t str> {
    let text = text.trim_start();
    // Most texts fail on their first byte (`é` and `É` share theirs, as do other Latin
    // letters of two bytes).
    let (t0, w0) = (text.as_bytes().first()?, word.as_bytes().first()?);
    if !t0.eq_ignore_ascii_case(w0) {
        return None;
    }
    let mut chars = text.char_indices();
    for w in word.chars() {
        let (_, c) = chars.next()?;
        if !c.to_lowercase().eq(std::iter::once(w)) {
            return None;
        }
    }
    let rest = chars.next().map_or("", |(k, _)| &text[k..]);
    (rest.is_empty() || rest.starts_with([' ', ':'])).then(|| rest.trim_start_matches([' ', ':']))
}

#[cfg(test)]
mod tests;

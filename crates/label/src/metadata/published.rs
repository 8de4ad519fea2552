//! The date a page was first published, and where it came from ([`DateSource`]).
//!
//! A page gives its date in several places, each wrong now and then: declared for machines
//! (JSON-LD `datePublished`, `<meta property="article:published_time">`, microdata), in its
//! address (`/2024/03/05/`), in a `<time datetime>` element, or written in its text near the
//! headline or at the top of the content. The candidates are gathered in groups of evidence
//! that fail independently (the address; the declarations; the microdata; what the page shows
//! around its headline; what it shows at the top of its content; a date announced as the
//! publication's, "Veröffentlicht am ..."), and the date named by the most groups wins, ties
//! going to the likelier source. Where no group names one, the dates a page shows in the laxer
//! sense of an aside, then any date it writes, then the declared date of its last change.
//!
//! A date is the page's **original publication**: the declared modification date is a last
//! resort, an update shown ("Updated March 5, 2024") too, and a date before the web (1995) or
//! after the page was fetched ([`PageContext::fetched`], else the present) is never taken.
//! Why these rules: `eval/metadata.md` (issue 62), measured on the `dev` pages of htmldate's
//! set and of wcxb.

use serde::Serialize;

use super::date::{self, Date};
use super::*;

/// Where a page's date came from: the `date_source` field of the JSON outputs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum DateSource {
    /// The page's JSON-LD: its article's `datePublished` (or `dateCreated`), or, when nothing
    /// else gives a date, its `dateModified`.
    JsonLd,
    /// A `<meta>` tag (`article:published_time`, `dc.date`, `date`, ...; `article:modified_time`
    /// when nothing else gives a date) or an element marked `itemprop="datePublished"`.
    Meta,
    /// A `<time datetime>` element.
    Time,
    /// The page's address: its canonical URL (`link rel=canonical`, `og:url`) or the URL it
    /// was fetched from ([`PageContext::url`]), `/2024/03/05/`, `/2024-03-05-title`.
    Url,
    /// A date written in the page's text: near the headline, at the top of the content, after
    /// a word that announces it ("Posted on", "Veröffentlicht am"), or anywhere on the page when
    /// nothing else gives one.
    Text,
}

impl DateSource {
    /// The name the JSON outputs give it: `json-ld`, `meta`, `time`, `url`, `text`.
    pub fn as_str(self) -> &'static str {
        match self {
            DateSource::JsonLd => "json-ld",
            DateSource::Meta => "meta",
            DateSource::Time => "time",
            DateSource::Url => "url",
            DateSource::Text => "text",
        }
    }
}

/// The groups of evidence whose votes are counted: candidates of one group often repeat each
/// other (a CMS writes the same date into its JSON-LD and its `<meta>`), those of different
/// groups fail apart.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Group {
    Url,
    Declared,
    Microdata,
    Headline,
    Top,
    Announced,
}

/// The earliest date taken: before the web, a date is a page's topic, not its publication.
const FIRST_DAY: (u32, u32, u32) = (1995, 1, 1);

/// A clock that reads before this day is wrong (this code was written later): it bounds no
/// date.
const CLOCK_SANE: (u32, u32, u32) = (2024, 1, 1);

/// The days a page's date may lie after its fetch: a page dated in a time zone ahead of the
/// crawler's.
const SLACK_DAYS: i64 = 1;

/// The latest date a page can have: the day it was fetched, else today by the system clock
/// (when the clock is sane), a day of slack added; `None` bounds nothing.
fn last_day(fetched: Option<&str>) -> Option<i64> {
    let day = match fetched.and_then(date::machine) {
        Some(d) => date::days(d.y, d.m, d.d),
        None => {
            let now = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .ok()?;
            let today = i64::try_from(now.as_secs() / 86_400).ok()?;
            let (y, m, d) = CLOCK_SANE;
            (today >= date::days(y, m, d)).then_some(today)?
        }
    };
    Some(day + SLACK_DAYS)
}

/// The page's publication date and its source ([`DateSource`]; the module's rules).
pub(super) fn published(
    page: &Page,
    labels: &[Label],
    ld: &LdFacts,
    canonical: Option<&str>,
    ctx: PageContext<'_>,
) -> Option<(Date, DateSource)> {
    let head = &page.head;
    let last = last_day(ctx.fetched);
    let (y0, m0, d0) = FIRST_DAY;
    let first = date::days(y0, m0, d0);
    let plausible = |d: &Date| {
        let n = date::days(d.y, d.m, d.d);
        n >= first && last.is_none_or(|l| n <= l)
    };
    let keep = |d: Option<Date>| d.filter(&plausible);
    let times = Times::of(page, &plausible);
    let top_range = near_top(page, labels);
    let shown_top = Shown {
        first: shown_dates(page, top_range.clone(), true, &plausible).0,
        range: top_range,
    };
    let (time_near_headline, text_near_headline) =
        near_headline(page, &times, &shown_top, &plausible);
    let url =
        keep(canonical.and_then(date::in_url)).or_else(|| keep(ctx.url.and_then(date::in_url)));
    // In the order ties are broken: the address and what the page shows by its headline were
    // the surest on the `dev` pages, then the declarations, then the top of the content.
    let candidates = [
        (url, DateSource::Url, Group::Url),
        (time_near_headline, DateSource::Time, Group::Headline),
        (text_near_headline, DateSource::Text, Group::Headline),
        (
            keep(ld.published.as_deref().and_then(date::machine)),
            DateSource::JsonLd,
            Group::Declared,
        ),
        (
            keep(head.published.as_deref().and_then(date::machine)),
            DateSource::Meta,
            Group::Declared,
        ),
        (keep(marked_date(page)), DateSource::Meta, Group::Microdata),
        (times.marked(), DateSource::Time, Group::Microdata),
        (times.shown_in(0..usize::MAX), DateSource::Time, Group::Top),
        (
            shown_top.first.clone().map(|t| t.1),
            DateSource::Text,
            Group::Top,
        ),
        (
            keep(announced_date(page)),
            DateSource::Text,
            Group::Announced,
        ),
    ];
    // Each group votes once for each day it names; an ambiguous date (`03/05/2024`) counts
    // for both its readings, and takes the one more groups name.
    let names = |c: &Date, d: &Date| c.same_day(d) || c.swapped().is_some_and(|s| s.same_day(d));
    let votes = |d: &Date| {
        let mut groups: Vec<Group> = Vec::new();
        for (c, _, g) in &candidates {
            if c.as_ref().is_some_and(|c| names(c, d)) && !groups.contains(g) {
                groups.push(*g);
            }
        }
        groups.len()
    };
    let mut best: Option<(usize, Date, DateSource)> = None;
    for (c, source, _) in &candidates {
        let Some(c) = c else { continue };
        for reading in std::iter::once(c.clone()).chain(c.swapped()) {
            let v = votes(&reading);
            if best.as_ref().is_none_or(|b| v > b.0) {
                best = Some((v, reading, *source));
            }
        }
    }
    if let Some((_, d, source)) = best {
        return Some((d, source));
    }
    lax_date(page, labels, &plausible)
        .or_else(|| any_date(page, &plausible).map(|d| (d, DateSource::Text)))
        .or_else(|| {
            keep(ld.modified.as_deref().and_then(date::machine)).map(|d| (d, DateSource::JsonLd))
        })
        .or_else(|| {
            keep(head.modified.as_deref().and_then(date::machine)).map(|d| (d, DateSource::Meta))
        })
}

/// The page's `<time datetime>` dates that are plausible, each with its element, its first
/// block and whether it is marked as the publication's (`pubdate`,
/// `itemprop="datePublished"`), in document order. Whether a time lies in an aside or a
/// quotation, or gives an update's date, is asked only of the times a search reaches (a listing
/// has dozens of them).
struct Times<'p> {
    page: &'p Page,
    all: Vec<(ElementId, Date, usize, bool)>,
}

impl<'p> Times<'p> {
    fn of(page: &'p Page, plausible: &dyn Fn(&Date) -> bool) -> Times<'p> {
        let mut all = Vec::new();
        // The first block of each time: the first block whose element opened at or after the
        // time's (blocks before it sit in elements opened before it). Times come in document
        // order, so the search goes on from the last one's block.
        let mut k = 0;
        for (elem, value, is_pub) in &page.head.times {
            let Some(d) = date::machine(value).filter(plausible) else {
                continue;
            };
            while page.blocks.get(k).is_some_and(|b| b.parent < *elem) {
                k += 1;
            }
            all.push((*elem, d, k, *is_pub));
        }
        Times { page, all }
    }

    /// The first time whose first block is in `blocks`, outside comments and footers (the
    /// strict sense of [`aside`]) and quotations (`<blockquote>`: an embedded post's date),
    /// that is not an update's.
    fn shown_in(&self, blocks: std::ops::Range<usize>) -> Option<Date> {
        let page = self.page;
        self.all
            .iter()
            .filter(|t| blocks.contains(&t.2))
            .find(|t| !quoted(page, t.0) && !aside(page, t.0, None) && !update_time(page, t.0, t.2))
            .map(|t| t.1.clone())
    }

    /// The first time marked as the publication's, outside quotations.
    fn marked(&self) -> Option<Date> {
        self.all
            .iter()
            .find(|t| t.3 && !quoted(self.page, t.0))
            .map(|t| t.1.clone())
    }
}

/// Whether an element lies in a quotation (`<blockquote>`: an embedded tweet or a cited
/// post, whose date is not the page's).
fn quoted(page: &Page, elem: ElementId) -> bool {
    within(page, elem, Some(Tag::BLOCKQUOTE), &[])
}

/// How many blocks before a headline's first block, and after it, its date is looked for: a
/// dateline stands just above the headline or in the byline under it.
const BEFORE_HEADLINE: usize = 3;
const AFTER_HEADLINE: usize = 10;

/// The headlines whose surroundings are searched, at most (a page's first `h1`s).
const HEADLINES: usize = 3;

/// The first publication date written in a range of blocks ([`shown_dates`]) and the block
/// that holds it: it answers, without a scan of their own, the searches of the ranges inside it.
struct Shown {
    range: std::ops::Range<usize>,
    first: Option<(usize, Date)>,
}

impl Shown {
    /// The first publication date written in `window`, when this range's scan says it: the
    /// window lies inside the range and does not start after the date's block (its first date
    /// is then this one, or none when the date lies past the window).
    fn answers(&self, window: &std::ops::Range<usize>) -> Option<Option<Date>> {
        if window.start < self.range.start || window.end > self.range.end {
            return None;
        }
        match &self.first {
            None => Some(None),
            Some((k, _)) if *k < window.start => None,
            Some((k, d)) => Some((*k < window.end).then(|| d.clone())),
        }
    }
}

/// The dates shown around the page's headlines (its first `h1`s, those outside asides): the
/// first `<time>` whose first block lies there, and the first publication date written there.
fn near_headline(
    page: &Page,
    times: &Times<'_>,
    top: &Shown,
    plausible: &dyn Fn(&Date) -> bool,
) -> (Option<Date>, Option<Date>) {
    let mut time = None;
    let mut text = None;
    let mut seen = 0;
    let mut last_end = 0;
    for &h in &page.head.h1s {
        if seen >= HEADLINES {
            break;
        }
        // A nested h1 is searched with its outer one.
        if h < last_end {
            continue;
        }
        // The elements under the h1: the ids up to the first later element whose parent lies
        // before it (elements come in document order, after their parents).
        let mut end = h as usize + 1;
        while page.elements.get(end).is_some_and(|e| e.parent >= h) {
            end += 1;
        }
        last_end = end as ElementId;
        let range = h..last_end;
        let Some(k) = page.blocks.iter().position(|b| range.contains(&b.parent)) else {
            continue;
        };
        seen += 1;
        let window =
            k.saturating_sub(BEFORE_HEADLINE)..(k + AFTER_HEADLINE + 1).min(page.blocks.len());
        let t = time
            .is_none()
            .then(|| times.shown_in(window.clone()))
            .flatten();
        let x = text
            .is_none()
            .then(|| {
                top.answers(&window)
                    .unwrap_or_else(|| shown_dates(page, window, true, plausible).0.map(|t| t.1))
            })
            .flatten();
        // A headline in an aside (a related item's) gives nothing; asked only of one that
        // gives a date (the walk up its ancestors costs).
        if (t.is_some() || x.is_some()) && !aside(page, h, None) {
            time = time.or(t);
            text = text.or(x);
        }
        if time.is_some() && text.is_some() {
            break;
        }
    }
    (time, text)
}

/// The date a page shows where no group of evidence names one, asides in the wrapper's sense
/// only: the first `<time>` outside comments and footers (an update's too), else a date written
/// near the top of the content in any element. Pages whose byline and date sit in an element
/// classed `sidebar` or `meta-footer` show their date only there (issue 51: +12 of wcxb's 547
/// `dev` dates).
fn lax_date(
    page: &Page,
    labels: &[Label],
    plausible: &dyn Fn(&Date) -> bool,
) -> Option<(Date, DateSource)> {
    let main = main_elem(page, labels);
    page.head
        .times
        .iter()
        .filter(|t| !aside(page, t.0, main))
        .find_map(|t| date::machine(&t.1).filter(plausible))
        .map(|d| (d, DateSource::Time))
        .or_else(|| {
            let (shown, update) = shown_dates(page, near_top(page, labels), false, plausible);
            shown.map(|s| s.1).or(update).map(|d| (d, DateSource::Text))
        })
}

/// The first date written anywhere on the page, outside copyright lines and quotations: a
/// page that gives no other date often writes it at its end or in a list of its posts.
fn any_date(page: &Page, plausible: &dyn Fn(&Date) -> bool) -> Option<Date> {
    page.blocks.iter().find_map(|b| {
        let text = page.block_text(b);
        if !text.bytes().any(|c| c.is_ascii_digit()) || text.split_whitespace().count() > 25 {
            return None;
        }
        let found = date::in_text(text).filter(plausible)?;
        let lower = text.to_lowercase();
        if COPYRIGHT_WORDS
            .iter()
            .any(|w| w.find(lower.as_bytes()).is_some())
            || quoted(page, b.parent)
        {
            return None;
        }
        Some(found)
    })
}

/// Words that announce a publication date ("Published on March 5, 2024", "Posted on the
/// 15/12/2025"), in the languages of the data.
pub(super) const ANNOUNCED: &[&str] = &[
    "published",
    "posted",
    "veröffentlicht",
    "erschienen",
    "publié",
    "publicado",
    "pubblicato",
    "gepubliceerd",
];

/// [`ANNOUNCED`] by their first bytes.
pub(super) static ANNOUNCED_OPENERS: LazyLock<Openers> = LazyLock::new(|| Openers::new(ANNOUNCED));

/// A date announced as the publication's anywhere on the page outside asides: a short block
/// that starts with a word of [`ANNOUNCED`] (articles that give their date at the end).
fn announced_date(page: &Page) -> Option<Date> {
    page.blocks.iter().find_map(|b| {
        let text = page.block_text(b);
        // Most blocks are refused on their first byte, the others without a digit (every
        // date has one) before their first word is read.
        if text.len() > 120
            || !ANNOUNCED_OPENERS.may_open(text)
            || !text.bytes().any(|c| c.is_ascii_digit())
        {
            return None;
        }
        let rest = ANNOUNCED_OPENERS.after(text)?;
        if !rest.bytes().any(|c| c.is_ascii_digit()) || aside(page, b.parent, None) {
            return None;
        }
        date::in_text(&rest.to_lowercase())
    })
}

/// Whether a text ends with an update word ("Updated", "Last updated:", "Updated on"): the
/// date after it, in the next block, is an update's.
fn ends_with_update(text: &str) -> bool {
    let t = text.trim_end_matches([':', ' ', '\u{a0}']);
    // The words of [`UPDATED`] and the " on" and " am" after them end in these letters: most
    // texts are refused before lowercasing them (this runs on every block searched).
    let last = t.as_bytes().last().map(u8::to_ascii_lowercase);
    if t.len() > 40 || !matches!(last, Some(b'd' | b't' | b'r' | b'o' | b'n' | b'm')) {
        return false;
    }
    let t = t.to_lowercase();
    let t = t
        .strip_suffix(" on")
        .or_else(|| t.strip_suffix(" am"))
        .unwrap_or(&t);
    UPDATED.iter().any(|w| t.ends_with(w))
}

/// Whether a `<time>` element, whose first block is the `k`th, gives an update's date: its
/// class says so (`updated`, `modified`, not with `published`: WordPress marks an unchanged
/// post `published updated`), or its text or the text just before it does ("Updated <time>",
/// "Last updated: <time>").
fn update_time(page: &Page, elem: ElementId, k: usize) -> bool {
    let class = page.class_of(page.element(elem));
    if (class.contains("updated") || class.contains("modified")) && !class.contains("publish") {
        return true;
    }
    let before = k
        .checked_sub(1)
        .and_then(|i| page.blocks.get(i))
        .is_some_and(|b| ends_with_update(page.block_text(b)));
    let own = page.blocks.get(k).is_some_and(|b| {
        let t = page.block_text(b).to_lowercase();
        (b.parent == elem || page.ancestors(b.parent).any(|(a, _)| a == elem))
            && UPDATED.iter().any(|w| t.starts_with(w))
    });
    before || own
}

/// A date in the text of an element marked `itemprop="datePublished"`.
fn marked_date(page: &Page) -> Option<Date> {
    page.head
        .marked
        .iter()
        .filter(|m| m.1 == Mark::Published)
        .find_map(|&(e, _)| date::in_text(&element_text(page, e, 12)))
}

/// Words after which a date is not the publication date: a copyright line.
const COPYRIGHT: &[&str] = &["©", "copyright"];

/// Searchers for [`COPYRIGHT`] and [`UPDATED`], built once.
static COPYRIGHT_WORDS: Finders = LazyLock::new(|| finders(COPYRIGHT));
static UPDATED_WORDS: Finders = LazyLock::new(|| finders(UPDATED));

/// Words after which a date is the last change's: an update.
const UPDATED: &[&str] = &[
    "updated",
    "aktualisiert",
    "mis à jour",
    "actualizado",
    "aggiornato",
    "modified",
    "geändert",
    "bijgewerkt",
    "last edited",
    "edited",
];

/// The dates written in the short blocks of `range` (a byline, a dateline), not in comments,
/// footers or quotations when `strict`: the first publication date (a date before any
/// copyright sign or update word) with its block, and the first update's date ("Updated March 5, 2024"), which pages that show no
/// other date give as theirs.
fn shown_dates(
    page: &Page,
    range: std::ops::Range<usize>,
    strict: bool,
    plausible: &dyn Fn(&Date) -> bool,
) -> (Option<(usize, Date)>, Option<Date>) {
    let mut updated = None;
    let mut after_update = false;
    for i in range {
        let b = &page.blocks[i];
        let text = page.block_text(b);
        // "Updated" alone, the date in the next block ("Updated <time>...</time>").
        let follows_update = std::mem::replace(&mut after_update, ends_with_update(text));
        // Every date this looks for has a digit, and most blocks with one hold no date: they
        // are refused before lowercasing and the searches for copyright and update words.
        if !text.bytes().any(|c| c.is_ascii_digit()) || text.split_whitespace().count() > 25 {
            continue;
        }
        let Some(found) = date::in_text(text) else {
            continue;
        };
        // Only the text before a copyright sign or an update is a publication date.
        let lower = text.to_lowercase();
        let first = |words: &[memmem::Finder<'static>]| {
            words
                .iter()
                .filter_map(|w| w.find(lower.as_bytes()).map(|k| (k, k + w.needle().len())))
                .min()
        };
        let copyright = first(&COPYRIGHT_WORDS).map_or(lower.len(), |c| c.0);
        let update = first(&UPDATED_WORDS).filter(|u| u.0 < copyright);
        let update = if follows_update { Some((0, 0)) } else { update };
        let cut = update.map_or(copyright, |u| u.0);
        let published = if cut == lower.len() {
            Some(found)
        } else {
            lower.get(..cut).and_then(date::in_text)
        };
        let published = published.filter(plausible);
        if published.is_none() && (updated.is_some() || update.is_none()) {
            // Nothing to take from this block (the walk up its ancestors is spared).
            continue;
        }
        if strict && (aside(page, b.parent, None) || quoted(page, b.parent)) {
            continue;
        }
        if let Some(p) = published {
            return (Some((i, p)), updated);
        }
        updated = update
            .and_then(|u| lower.get(u.1..copyright))
            .and_then(date::in_text)
            .filter(plausible);
    }
    (None, updated)
}

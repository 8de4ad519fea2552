//! Dates as pages write them, to ISO 8601: machine dates (`2024-03-05T10:00:00Z`,
//! `2024/03/05`, `20240305`), dates in URLs (`/2024/03/05/`), and dates in running text in the
//! languages of the data (`March 5, 2024`, `5 March 2024`, `5. März 2024`, `5 mars 2024`,
//! `05.03.2024`, ...). No regex: a small scanner over the words of the text.

/// Month names and their common abbreviations in English, German, French, Spanish, Italian,
/// Portuguese and Dutch, and the names (nominative and genitive, as dates write them) in the
/// Scandinavian languages, Polish, Czech, Slovak, Finnish, Hungarian, Romanian, Turkish,
/// Russian, Ukrainian and Greek (lowercase, accents kept).
const MONTHS: [&[&str]; 12] = [
    &[
        "january",
        "jan",
        "januar",
        "jänner",
        "janvier",
        "janv",
        "enero",
        "ene",
        "gennaio",
        "gen",
        "janeiro",
        "januari",
        "stycznia",
        "styczeń",
        "styczen",
        "ledna",
        "leden",
        "januára",
        "január",
        "tammikuuta",
        "tammikuu",
        "ianuarie",
        "ocak",
        "января",
        "январь",
        "січня",
        "січень",
        "ιανουαρίου",
        "ιανουάριος",
    ],
    &[
        "february",
        "feb",
        "februar",
        "février",
        "fevrier",
        "févr",
        "fevr",
        "febrero",
        "febbraio",
        "fevereiro",
        "fev",
        "februari",
        "lutego",
        "luty",
        "února",
        "unora",
        "únor",
        "februára",
        "február",
        "helmikuuta",
        "helmikuu",
        "februarie",
        "şubat",
        "subat",
        "февраля",
        "февраль",
        "лютого",
        "лютий",
        "φεβρουαρίου",
        "φεβρουάριος",
    ],
    &[
        "march",
        "mar",
        "märz",
        "maerz",
        "mars",
        "marzo",
        "março",
        "marco",
        "maart",
        "mrt",
        "marca",
        "marzec",
        "března",
        "brezna",
        "březen",
        "marec",
        "március",
        "maaliskuuta",
        "maaliskuu",
        "martie",
        "mart",
        "марта",
        "март",
        "березня",
        "березень",
        "μαρτίου",
        "μάρτιος",
    ],
    &[
        "april",
        "apr",
        "avril",
        "avr",
        "abril",
        "abr",
        "aprile",
        "kwietnia",
        "kwiecień",
        "kwiecien",
        "dubna",
        "duben",
        "apríla",
        "április",
        "huhtikuuta",
        "huhtikuu",
        "aprilie",
        "nisan",
        "апреля",
        "апрель",
        "квітня",
        "квітень",
        "απριλίου",
        "απρίλιος",
    ],
    &[
        "may",
        "mai",
        "mayo",
        "maggio",
        "mag",
        "maio",
        "mei",
        "maj",
        "maja",
        "května",
        "kvetna",
        "květen",
        "mája",
        "május",
        "toukokuuta",
        "toukokuu",
        "mayıs",
        "mayis",
        "мая",
        "май",
        "травня",
        "травень",
        "μαΐου",
        "μάιος",
    ],
    &[
        "june",
        "jun",
        "juni",
        "juin",
        "junio",
        "giugno",
        "giu",
        "junho",
        "czerwca",
        "czerwiec",
        "června",
        "cervna",
        "červen",
        "júna",
        "június",
        "kesäkuuta",
        "kesäkuu",
        "iunie",
        "haziran",
        "июня",
        "июнь",
        "червня",
        "червень",
        "ιουνίου",
        "ιούνιος",
    ],
    &[
        "july",
        "jul",
        "juli",
        "juillet",
        "juil",
        "julio",
        "luglio",
        "lug",
        "julho",
        "lipca",
        "lipiec",
        "července",
        "cervence",
        "červenec",
        "júla",
        "július",
        "heinäkuuta",
        "heinäkuu",
        "iulie",
        "temmuz",
        "июля",
        "июль",
        "липня",
        "липень",
        "ιουλίου",
        "ιούλιος",
    ],
    &[
        "august",
        "aug",
        "août",
        "aout",
        "agosto",
        "ago",
        "augustus",
        "augusti",
        "sierpnia",
        "sierpień",
        "sierpien",
        "srpna",
        "srpen",
        "augusta",
        "augusztus",
        "elokuuta",
        "elokuu",
        "ağustos",
        "agustos",
        "августа",
        "август",
        "серпня",
        "серпень",
        "αυγούστου",
        "αύγουστος",
    ],
    &[
        "september",
        "sep",
        "sept",
        "septembre",
        "septiembre",
        "settembre",
        "set",
        "setembro",
        "września",
        "wrzesnia",
        "wrzesień",
        "září",
        "zari",
        "septembra",
        "szeptember",
        "syyskuuta",
        "syyskuu",
        "septembrie",
        "eylül",
        "eylul",
        "сентября",
        "сентябрь",
        "вересня",
        "вересень",
        "σεπτεμβρίου",
        "σεπτέμβριος",
    ],
    &[
        "october",
        "oct",
        "oktober",
        "okt",
        "octobre",
        "octubre",
        "ottobre",
        "ott",
        "outubro",
        "out",
        "października",
        "pazdziernika",
        "październik",
        "října",
        "rijna",
        "říjen",
        "októbra",
        "október",
        "lokakuuta",
        "lokakuu",
        "octombrie",
        "ekim",
        "октября",
        "октябрь",
        "жовтня",
        "жовтень",
        "οκτωβρίου",
        "οκτώβριος",
    ],
    &[
        "november",
        "nov",
        "novembre",
        "noviembre",
        "novembro",
        "listopada",
        "listopad",
        "listopadu",
        "novembra",
        "marraskuuta",
        "marraskuu",
        "noiembrie",
        "kasım",
        "kasim",
        "ноября",
        "ноябрь",
        "листопада",
        "листопад",
        "νοεμβρίου",
        "νοέμβριος",
    ],
    &[
        "december",
        "dec",
        "dezember",
        "dez",
        "décembre",
        "decembre",
        "déc",
        "diciembre",
        "dic",
        "dicembre",
        "dezembro",
        "grudnia",
        "grudzień",
        "grudzien",
        "prosince",
        "prosinec",
        "decembra",
        "joulukuuta",
        "joulukuu",
        "decembrie",
        "aralık",
        "aralik",
        "декабря",
        "декабрь",
        "грудня",
        "грудень",
        "δεκεμβρίου",
        "δεκέμβριος",
    ],
];

/// Every name of [`MONTHS`] with its month, sorted by name for a binary search among the names
/// of its first byte (`spans[b]`: they lie together), and the lengths the names of each first
/// byte have (bit `n` of `shapes[b]`: a name of `n` bytes starts with byte `b`), which refuse
/// most words before any search. Built once.
struct MonthNames {
    sorted: Vec<(&'static str, u32)>,
    spans: [(u16, u16); 256],
    shapes: [u32; 256],
}

static MONTH_NAMES: std::sync::LazyLock<MonthNames> = std::sync::LazyLock::new(|| {
    let mut sorted: Vec<(&'static str, u32)> = MONTHS
        .iter()
        .zip(1..)
        .flat_map(|(names, m)| names.iter().map(move |n| (*n, m)))
        .collect();
    sorted.sort_unstable();
    sorted.dedup_by_key(|e| e.0);
    let mut spans = [(0u16, 0u16); 256];
    let mut shapes = [0u32; 256];
    for (k, (n, _)) in sorted.iter().enumerate() {
        let Some(&b) = n.as_bytes().first() else {
            continue;
        };
        let (k, b) = (k as u16, usize::from(b));
        spans[b] = if spans[b].1 == 0 {
            (k, k + 1)
        } else {
            (spans[b].0, k + 1)
        };
        if n.len() < 32 {
            shapes[b] |= 1 << n.len();
        }
    }
    MonthNames {
        sorted,
        spans,
        shapes,
    }
});

/// The month of a name of [`MONTH_NAMES`], as written (lowercase).
fn month_named(lower: &str) -> Option<u32> {
    let names = &*MONTH_NAMES;
    let b = usize::from(*lower.as_bytes().first()?);
    if lower.len() >= 32 || names.shapes[b] & (1 << lower.len()) == 0 {
        return None;
    }
    let (from, to) = names.spans[b];
    let span = names.sorted.get(usize::from(from)..usize::from(to))?;
    span.binary_search_by(|e| e.0.cmp(lower))
        .ok()
        .map(|k| span[k].1)
}

/// The month (1-12) a word names, when it does.
pub(crate) fn month_of(word: &str) -> Option<u32> {
    let w = word.trim_end_matches(['.', ',']);
    // Every name has at most 24 bytes ("października", "σεπτεμβρίου"), and starts with a
    // letter: other words are refused before any lowercasing (this runs on every word of many
    // blocks).
    if w.len() > 24 || w.len() < 3 || w.as_bytes()[0].is_ascii_digit() {
        return None;
    }
    if w.is_ascii() {
        // No name of this length starts with this letter: refused before lowercasing.
        let b = w.as_bytes()[0].to_ascii_lowercase();
        if !b.is_ascii_alphabetic() || MONTH_NAMES.shapes[usize::from(b)] & (1 << w.len()) == 0 {
            return None;
        }
        let mut buf = [0u8; 24];
        let b = &mut buf[..w.len()];
        b.copy_from_slice(w.as_bytes());
        b.make_ascii_lowercase();
        return month_named(std::str::from_utf8(b).ok()?);
    }
    // Dates write their months in lowercase in most of these languages: the word as written
    // first, lowercased (which allocates) only when it has an uppercase letter.
    month_named(w).or_else(|| {
        w.chars()
            .any(char::is_uppercase)
            .then(|| month_named(&w.to_lowercase()))
            .flatten()
    })
}

/// A date: year, month, day, and the time (`HH:MM[:SS][zone]`) when given.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Date {
    pub(crate) y: u32,
    pub(crate) m: u32,
    pub(crate) d: u32,
    pub(crate) time: Option<String>,
    /// Read day first from a form that also reads month first (`03/05/2024`, both numbers 12
    /// or under): the other reading, [`Date::swapped`], may be the one meant.
    pub(crate) ambiguous: bool,
}

impl Date {
    fn new(y: u32, m: u32, d: u32) -> Option<Date> {
        let days = match m {
            2 => 29,
            4 | 6 | 9 | 11 => 30,
            1..=12 => 31,
            _ => return None,
        };
        ((1990..=2100).contains(&y) && (1..=days).contains(&d)).then_some(Date {
            y,
            m,
            d,
            time: None,
            ambiguous: false,
        })
    }

    /// The other reading of an ambiguous date (month first), if it is one.
    pub(crate) fn swapped(&self) -> Option<Date> {
        self.ambiguous
            .then(|| Date::new(self.y, self.d, self.m))
            .flatten()
    }

    /// Whether two dates name the same day (their times aside).
    pub(crate) fn same_day(&self, other: &Date) -> bool {
        (self.y, self.m, self.d) == (other.y, other.m, other.d)
    }

    /// `YYYY-MM-DD`, with `THH:MM...` when the time is known.
    pub(crate) fn iso(&self) -> String {
        let mut s = format!("{:04}-{:02}-{:02}", self.y, self.m, self.d);
        if let Some(t) = &self.time {
            s.push('T');
            s.push_str(t);
        }
        s
    }
}

/// The days from 1970-01-01 to a day of the proleptic Gregorian calendar (negative before).
pub(crate) fn days(y: u32, m: u32, d: u32) -> i64 {
    // Howard Hinnant's `days_from_civil`: years start in March, so that a leap day ends one.
    let (y, m, d) = (i64::from(y), i64::from(m), i64::from(d));
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let doy = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

fn num(s: &str) -> Option<u32> {
    (!s.is_empty() && s.len() <= 4 && s.bytes().all(|b| b.is_ascii_digit()))
        .then(|| s.parse().ok())
        .flatten()
}

/// A machine date: `2024-03-05`, `2024-03-05T10:00:00+01:00`, `2024/03/05`, `20240305`, or
/// failing those a date in words ([`in_text`]).
pub(crate) fn machine(s: &str) -> Option<Date> {
    let s = s.trim();
    if let Some(date) = iso_date(s) {
        return date;
    }
    let b = s.as_bytes();
    if b.len() >= 8
        && b[..8].iter().all(u8::is_ascii_digit)
        && b.get(8).is_none_or(|c| !c.is_ascii_digit())
        && let (Some(y), Some(m), Some(d)) = (num(&s[..4]), num(&s[4..6]), num(&s[6..8]))
    {
        return Date::new(y, m, d);
    }
    in_text(s)
}

/// `2024-03-05`, `2024-03-05T10:00:00+01:00`, `2024/03/05`, `2024.03.05`: `None` when the
/// text starts otherwise, `Some(None)` when in this form with a day that cannot be.
fn iso_date(s: &str) -> Option<Option<Date>> {
    let b = s.as_bytes();
    if b.len() >= 10
        && b[4] == b[7]
        && matches!(b[4], b'-' | b'/' | b'.')
        && let (Some(y), Some(m), Some(d)) = (
            s.get(..4).and_then(num),
            s.get(5..7).and_then(num),
            s.get(8..10).and_then(num),
        )
    {
        let Some(mut date) = Date::new(y, m, d) else {
            return Some(None);
        };
        let rest = s.get(10..).unwrap_or("");
        if let Some(t) = rest.strip_prefix('T').or_else(|| rest.strip_prefix(' '))
            && t.len() >= 5
            && t.as_bytes()[2] == b':'
            && t[..2].bytes().all(|c| c.is_ascii_digit())
        {
            let end = t
                .find(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, ':' | '+' | '-' | '.')))
                .unwrap_or(t.len());
            date.time = Some(t[..end].to_string());
        }
        return Some(Some(date));
    }
    None
}

/// A date in a URL's path: `/2024/03/05/`, `/2024-03-05-title`, `/20240305/` (not a year and
/// month alone).
pub(crate) fn in_url(url: &str) -> Option<Date> {
    let path = url
        .split_once("://")
        .map_or(url, |(_, r)| r.split_once('/').map_or("", |(_, p)| p));
    let path = path.split(['?', '#']).next().unwrap_or("");
    let parts: Vec<&str> = path.split('/').collect();
    for (i, p) in parts.iter().enumerate() {
        if p.len() == 4
            && let Some(y) = num(p)
            && let (Some(m), Some(d)) = (
                parts.get(i + 1).and_then(|s| num(s)),
                parts.get(i + 2).and_then(|s| url_day(s)),
            )
            && parts.get(i + 1).is_some_and(|s| s.len() <= 2)
            && let Some(date) = Date::new(y, m, d)
        {
            return Some(date);
        }
        // `2024-03-05` at the start of a segment.
        if p.len() >= 10
            && let Some(date) = p.get(..10).and_then(|s| {
                let b = s.as_bytes();
                (b[4] == b'-' && b[7] == b'-')
                    .then(|| Date::new(num(&s[..4])?, num(&s[5..7])?, num(&s[8..10])?))
                    .flatten()
            })
        {
            return Some(date);
        }
        if p.len() == 8
            && let Some(date) = p
                .get(..4)
                .and_then(num)
                .zip(p.get(4..6).and_then(num))
                .zip(p.get(6..8).and_then(num))
                .and_then(|((y, m), d)| Date::new(y, m, d))
        {
            return Some(date);
        }
    }
    None
}

/// The day that starts a URL's path segment: `05`, `5`, `05-title`, not `23646` (an id).
fn url_day(s: &str) -> Option<u32> {
    let n = s.bytes().take_while(u8::is_ascii_digit).count();
    (1..=2).contains(&n).then(|| num(&s[..n])).flatten()
}

/// The first date written in a text: `March 5, 2024`, `Mar 5th 2024`, `5 March 2024`,
/// `5. März 2024`, `le 5 mars 2024`, `5 de marzo de 2024`, `5 марта 2024`, `2024. március 5.`,
/// `05.03.2024`, `05.03.24`, `05/03/2024` (day first unless the first number exceeds 12... and
/// the second does not), `2024-03-05`, `2024年3月5日`, `2024년 3월 5일`.
pub(crate) fn in_text(text: &str) -> Option<Date> {
    let mut words = text
        .split(|c: char| c.is_whitespace() || matches!(c, ',' | '|' | '(' | ')' | '·' | '•'))
        .filter(|w| {
            !w.is_empty()
                && !["de", "del", "of", "the"]
                    .iter()
                    .any(|f| w.eq_ignore_ascii_case(f))
        })
        .take(400);
    // Each word with the two after it (`""` past the end), without collecting the words.
    let (mut w0, mut w1, mut w2) = (words.next(), words.next(), words.next());
    while let Some(w) = w0 {
        if let Some(date) = date_at(w, w1.unwrap_or(""), w2.unwrap_or("")) {
            return Some(date);
        }
        (w0, w1, w2) = (w1, w2, words.next());
    }
    None
}

/// The date that starts at word `w`, followed by `next1` and `next2` ([`in_text`]'s forms).
fn date_at(w: &str, next1: &str, next2: &str) -> Option<Date> {
    // Month name first: `March 5, 2024`.
    if let Some(m) = month_of(w)
        && let Some(d) = day(next1)
        && let Some(y) = year(next2)
        && let Some(date) = Date::new(y, m, d)
    {
        return Some(date);
    }
    if let Some(d) = day(w) {
        // Day first: `5 March 2024`, `5. März 2024`.
        let m = month_of(next1)?;
        return Date::new(year(next2)?, m, d);
    }
    // Year first, as Hungarian writes it: `2024. március 5.` (the year's full stop required:
    // `2024 may 5` is English words more often than a date).
    if w.len() == 5
        && w.ends_with('.')
        && let Some(y) = year(w)
        && let Some(m) = month_of(next1)
        && let Some(d) = day(next2)
        && let Some(date) = Date::new(y, m, d)
    {
        return Some(date);
    }
    // Korean: `2024년 3월 5일`.
    if let Some(y) = w.strip_suffix('년').and_then(num)
        && let Some(m) = next1.strip_suffix('월').and_then(num)
        && let Some(d) = next2
            .trim_end_matches(|c: char| !c.is_ascii_digit() && c != '일')
            .strip_suffix('일')
            .and_then(num)
        && let Some(date) = Date::new(y, m, d)
    {
        return Some(date);
    }
    // Numeric: `05.03.2024`, `2024-03-05`, `05/03/2024`, `2024年3月5日`.
    numeric(w)
}

/// A date in Chinese or Japanese: `2024年3月5日` (other text may follow: `2024年3月5日(火)`).
fn cjk(w: &str) -> Option<Date> {
    let (y, rest) = w.split_once('年')?;
    let (m, rest) = rest.split_once('月')?;
    let (d, _) = rest.split_once('日')?;
    let y = y.get(y.len().checked_sub(4)?..)?;
    Date::new(num(y)?, num(m.trim())?, num(d.trim())?)
}

/// A day of the month: `5`, `05`, `5.`, `5th`, `1er`, `1st`.
fn day(w: &str) -> Option<u32> {
    let w = w.trim_end_matches(['.', ',']);
    let digits = w.trim_end_matches(|c: char| c.is_ascii_alphabetic());
    let suffix = &w[digits.len()..];
    // In any case: texts are searched as written (`13TH`).
    let ordinal = ["", "st", "nd", "rd", "th", "er", "º", "e"]
        .iter()
        .any(|s| suffix.eq_ignore_ascii_case(s));
    if !ordinal || digits.len() > 2 {
        return None;
    }
    num(digits).filter(|d| (1..=31).contains(d))
}

/// A four-digit year (`2024`, `2024.`, `2024,`).
fn year(w: &str) -> Option<u32> {
    let w = w.trim_end_matches(|c: char| !c.is_ascii_digit());
    (w.len() == 4).then(|| num(w)).flatten()
}

/// A German-style date with a two-digit year: `5.3.24`, `05.03.24` (20YY, or 19YY from 90).
fn short_year(w: &str) -> Option<Date> {
    let mut parts = w.split('.');
    let (d, m, y) = (parts.next()?, parts.next()?, parts.next()?);
    if parts.next().is_some() || d.len() > 2 || m.len() > 2 || y.len() != 2 {
        return None;
    }
    let y = num(y)?;
    Date::new(if y >= 90 { 1900 + y } else { 2000 + y }, num(m)?, num(d)?)
}

/// A numeric date as one word.
fn numeric(w: &str) -> Option<Date> {
    let w = w.trim_end_matches(['.', ',', ':', ';']);
    // A machine date written out: `2022-11-23T08:10+02:00`.
    // (Texts are searched lowercased.)
    if w.len() > 10 && matches!(w.as_bytes()[10], b'T' | b't') {
        return iso_date(&w.to_ascii_uppercase()).flatten();
    }
    // `年` (three bytes) needs a word of non-ASCII bytes: most words are refused on that.
    if w.len() > 6 && !w.is_ascii() && w.contains('年') {
        return cjk(w);
    }
    if (6..8).contains(&w.len()) || w.len() == 8 && w.as_bytes()[2] == b'.' {
        return short_year(w);
    }
    if w.len() < 8 || w.len() > 10 {
        return None;
    }
    let sep = w.find(['.', '/', '-'])?;
    let parts: Vec<&str> = w.split(w.as_bytes()[sep] as char).collect();
    let [a, b, c] = parts.as_slice() else {
        return None;
    };
    let (a, b, c) = (num(a)?, num(b)?, num(c)?);
    if a >= 1000 {
        return Date::new(a, b, c);
    }
    if c < 1000 {
        return None;
    }
    // Day first (most of the data's languages) unless that cannot be; with slashes, which
    // American pages write month first, a date both ways readable says so.
    if b > 12 {
        Date::new(c, a, b)
    } else {
        Date::new(c, b, a).map(|mut d| {
            d.ambiguous = w.as_bytes()[sep] == b'/' && a <= 12 && a != b;
            d
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn clean(s: &str) -> Option<String> {
        crate::metadata::clean_author(s)
    }

    fn iso(d: Option<Date>) -> Option<String> {
        d.map(|d| d.iso())
    }

    #[test]
    fn machine_dates() {
        assert_eq!(iso(machine("2024-03-05")).as_deref(), Some("2024-03-05"));
        assert_eq!(
            iso(machine("2024-03-05T10:07:00+01:00")).as_deref(),
            Some("2024-03-05T10:07:00+01:00")
        );
        assert_eq!(iso(machine("2024/03/05")).as_deref(), Some("2024-03-05"));
        assert_eq!(iso(machine("20240305")).as_deref(), Some("2024-03-05"));
        assert_eq!(
            iso(machine("Tue, 05 Mar 2024 10:00:00 GMT")).as_deref(),
            Some("2024-03-05")
        );
        assert_eq!(machine("2024-13-05"), None);
        assert_eq!(machine("soon"), None);
        assert_eq!(
            machine("2024-03-0é and more"),
            None,
            "no panic off a character boundary"
        );
        assert_eq!(in_url("https://x.org/日本語/ab日本/"), None);
        assert_eq!(clean("İİİİ by x"), Some("İİİİ by x".into()));
    }

    #[test]
    fn ambiguous_dates_keep_their_other_reading() {
        let d = in_text("11/01/2021").expect("a date");
        assert_eq!(d.iso(), "2021-01-11");
        assert_eq!(d.swapped().map(|s| s.iso()).as_deref(), Some("2021-11-01"));
        for t in ["11.01.2021", "25/12/2024", "05/05/2024", "2021/11/01"] {
            assert_eq!(in_text(t).and_then(|d| d.swapped()), None, "{t}");
        }
    }

    #[test]
    fn day_numbers() {
        assert_eq!(days(1970, 1, 1), 0);
        assert_eq!(days(2000, 3, 1) - days(2000, 2, 28), 2, "a leap day");
        assert_eq!(days(1900, 3, 1) - days(1900, 2, 28), 1, "no leap day");
        assert_eq!(days(2024, 1, 1), 19_723);
    }

    #[test]
    fn url_dates() {
        let d = |u: &str| iso(in_url(u));
        assert_eq!(
            d("https://x.com/2025/09/04/title/").as_deref(),
            Some("2025-09-04")
        );
        assert_eq!(
            d("https://x.com/news/2025-09-04-title").as_deref(),
            Some("2025-09-04")
        );
        assert_eq!(
            d("https://x.com/a/20250904/b").as_deref(),
            Some("2025-09-04")
        );
        assert_eq!(d("https://x.com/2025/09/title"), None, "a month alone");
        assert_eq!(
            d("https://x.com/2017/7/12/t").as_deref(),
            Some("2017-07-12")
        );
        assert_eq!(d("https://x.com/2020/08/23646/"), None, "an id, not a day");
        assert_eq!(d("https://x.com/p/12345678901"), None);
    }

    #[test]
    fn dates_in_text_in_english_german_french_and_more() {
        let d = |t: &str| iso(in_text(t));
        assert_eq!(
            d("By Ann Lee, March 5, 2024").as_deref(),
            Some("2024-03-05")
        );
        assert_eq!(d("Published 5th March 2024").as_deref(), Some("2024-03-05"));
        assert_eq!(
            d("Veröffentlicht am 5. März 2024").as_deref(),
            Some("2024-03-05")
        );
        assert_eq!(
            d("Stand: 05.03.2024, 10:00 Uhr").as_deref(),
            Some("2024-03-05")
        );
        assert_eq!(d("Publié le 1er mars 2024").as_deref(), Some("2024-03-01"));
        assert_eq!(
            d("Publicado el 5 de marzo de 2024").as_deref(),
            Some("2024-03-05")
        );
        assert_eq!(d("Sep. 4, 2025").as_deref(), Some("2025-09-04"));
        assert_eq!(d("12/25/2024").as_deref(), Some("2024-12-25"));
        assert_eq!(d("no date here, 2024 only"), None);
        assert_eq!(
            d("JANUARY 13TH, 2005 | A").as_deref(),
            Some("2005-01-13"),
            "in capitals"
        );
        assert_eq!(
            d("Party, 30.10.23").as_deref(),
            Some("2023-10-30"),
            "a two-digit year"
        );
        assert_eq!(d("am 5.3.99").as_deref(), Some("1999-03-05"));
        assert_eq!(d("version 1.2.3"), None);
        assert_eq!(d("5 marca 2020").as_deref(), Some("2020-03-05"), "Polish");
        assert_eq!(d("5. března 2020").as_deref(), Some("2020-03-05"), "Czech");
        assert_eq!(d("5 maj 2020").as_deref(), Some("2020-05-05"), "Swedish");
        assert_eq!(
            d("5. maaliskuuta 2020").as_deref(),
            Some("2020-03-05"),
            "Finnish"
        );
        assert_eq!(
            d("2020. március 5.").as_deref(),
            Some("2020-03-05"),
            "Hungarian"
        );
        assert_eq!(d("5 Mart 2020").as_deref(), Some("2020-03-05"), "Turkish");
        assert_eq!(
            d("5 марта 2020 г.").as_deref(),
            Some("2020-03-05"),
            "Russian"
        );
        assert_eq!(
            d("5 березня 2020").as_deref(),
            Some("2020-03-05"),
            "Ukrainian"
        );
        assert_eq!(d("5 Μαρτίου 2020").as_deref(), Some("2020-03-05"), "Greek");
        assert_eq!(
            d("2020年3月5日(木)").as_deref(),
            Some("2020-03-05"),
            "Chinese, Japanese"
        );
        assert_eq!(d("2020년 3월 5일").as_deref(), Some("2020-03-05"), "Korean");
        assert_eq!(d("in 2020 may 5 more"), None, "a year, then English words");
    }
}

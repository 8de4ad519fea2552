//! Dates as pages write them, to ISO 8601: machine dates (`2024-03-05T10:00:00Z`,
//! `2024/03/05`, `20240305`), dates in URLs (`/2024/03/05/`), and dates in running text in the
//! languages of the data (`March 5, 2024`, `5 March 2024`, `5. März 2024`, `5 mars 2024`,
//! `05.03.2024`, ...). No regex: a small scanner over the words of the text.

/// Month names and their common abbreviations in English, German, French, Spanish, Italian,
/// Portuguese and Dutch (lowercase, accents kept; a name is matched by its first letters).
const MONTHS: [&[&str]; 12] = [
    &[
        "january", "jan", "januar", "jänner", "janvier", "janv", "enero", "ene", "gennaio", "gen",
        "janeiro", "januari",
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
    ],
    &[
        "march", "mar", "märz", "maerz", "mars", "marzo", "março", "marco", "maart", "mrt",
    ],
    &["april", "apr", "avril", "avr", "abril", "abr", "aprile"],
    &["may", "mai", "mayo", "maggio", "mag", "maio", "mei"],
    &[
        "june", "jun", "juni", "juin", "junio", "giugno", "giu", "junho",
    ],
    &[
        "july", "jul", "juli", "juillet", "juil", "julio", "luglio", "lug", "julho",
    ],
    &["august", "aug", "août", "aout", "agosto", "ago", "augustus"],
    &[
        "september",
        "sep",
        "sept",
        "septembre",
        "septiembre",
        "settembre",
        "set",
        "setembro",
    ],
    &[
        "october", "oct", "oktober", "okt", "octobre", "octubre", "ottobre", "ott", "outubro",
        "out",
    ],
    &["november", "nov", "novembre", "noviembre", "novembro"],
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
    ],
];

/// The month (1-12) a word names, when it does.
pub(crate) fn month_of(word: &str) -> Option<u32> {
    let w = word.trim_end_matches('.');
    // Every name starts with an ASCII letter and has at most 10 bytes ("septiembre"): other
    // words are refused before lowercasing them (this runs on every word of many blocks).
    if w.len() > 12 || !w.as_bytes().first().is_some_and(u8::is_ascii_alphabetic) {
        return None;
    }
    let mut buf = [0u8; 12];
    let lower: std::borrow::Cow<str> = if w.is_ascii() {
        let b = &mut buf[..w.len()];
        b.copy_from_slice(w.as_bytes());
        b.make_ascii_lowercase();
        std::borrow::Cow::Borrowed(std::str::from_utf8(b).ok()?)
    } else {
        std::borrow::Cow::Owned(w.to_lowercase())
    };
    if lower.len() < 3 {
        return None;
    }
    MONTHS
        .iter()
        .position(|names| names.contains(&lower.as_ref()))
        .map(|i| i as u32 + 1)
}

/// A date: year, month, day, and the time (`HH:MM[:SS][zone]`) when given.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Date {
    pub(crate) y: u32,
    pub(crate) m: u32,
    pub(crate) d: u32,
    pub(crate) time: Option<String>,
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
        })
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
                parts.get(i + 2).and_then(|s| num(s.get(..2).unwrap_or(s))),
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

/// The first date written in a text: `March 5, 2024`, `Mar 5th 2024`, `5 March 2024`,
/// `5. März 2024`, `le 5 mars 2024`, `5 de marzo de 2024`, `05.03.2024`, `05/03/2024` (day
/// first unless the first number exceeds 12... and the second does not), `2024-03-05`.
pub(crate) fn in_text(text: &str) -> Option<Date> {
    let words: Vec<&str> = text
        .split(|c: char| c.is_whitespace() || matches!(c, ',' | '|' | '(' | ')' | '·' | '•'))
        .filter(|w| !w.is_empty() && *w != "de" && *w != "of" && *w != "the")
        .take(400)
        .collect();
    for (i, w) in words.iter().enumerate() {
        let next = |k: usize| words.get(i + k).copied().unwrap_or("");
        // Month name first: `March 5, 2024`.
        if let Some(m) = month_of(w)
            && let Some(d) = day(next(1))
            && let Some(y) = year(next(2))
            && let Some(date) = Date::new(y, m, d)
        {
            return Some(date);
        }
        // Day first: `5 March 2024`, `5. März 2024`.
        if let Some(d) = day(w)
            && let Some(m) = month_of(next(1))
            && let Some(y) = year(next(2))
            && let Some(date) = Date::new(y, m, d)
        {
            return Some(date);
        }
        // Numeric: `05.03.2024`, `2024-03-05`, `05/03/2024`.
        if let Some(date) = numeric(w) {
            return Some(date);
        }
    }
    None
}

/// A day of the month: `5`, `05`, `5.`, `5th`, `1er`, `1st`.
fn day(w: &str) -> Option<u32> {
    let w = w.trim_end_matches(['.', ',']);
    let digits = w.trim_end_matches(|c: char| c.is_ascii_alphabetic());
    let suffix = &w[digits.len()..];
    if !matches!(suffix, "" | "st" | "nd" | "rd" | "th" | "er" | "º" | "e") || digits.len() > 2 {
        return None;
    }
    num(digits).filter(|d| (1..=31).contains(d))
}

/// A four-digit year (`2024`, `2024.`, `2024,`).
fn year(w: &str) -> Option<u32> {
    let w = w.trim_end_matches(|c: char| !c.is_ascii_digit());
    (w.len() == 4).then(|| num(w)).flatten()
}

/// A numeric date as one word.
fn numeric(w: &str) -> Option<Date> {
    let w = w.trim_end_matches(['.', ',', ':', ';']);
    // A machine date written out: `2022-11-23T08:10+02:00`.
    // (Texts are searched lowercased.)
    if w.len() > 10 && matches!(w.as_bytes()[10], b'T' | b't') {
        return iso_date(&w.to_ascii_uppercase()).flatten();
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
    // Day first (most of the data's languages) unless that cannot be.
    if b > 12 {
        Date::new(c, a, b)
    } else {
        Date::new(c, b, a)
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
    }
}

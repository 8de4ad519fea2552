//! What the text statistics ask of a character beyond ASCII: its class (letter, digit,
//! punctuation, white space, other), whether it is upper or lower case, and its lowercase form.
//!
//! The standard library answers from tables it searches (about 180 instructions a letter for
//! `char::is_alphabetic` outside ASCII); most non-ASCII characters of web text lie in two small
//! ranges: U+0080 to U+07FF (Latin-1 and the Latin extensions, Greek, Cyrillic, Armenian,
//! Hebrew, Arabic) and General Punctuation (U+2000 to U+206F: dashes, curly quotes, the
//! ellipsis). Their answers are read once from the standard library into a table of their own,
//! so that the table says exactly what the library says; other characters still ask it.

use std::sync::OnceLock;

use super::text::is_punct;

/// What [`info`] tells of a character.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Info {
    /// 0 letter (`char::is_alphabetic`), 1 digit (`is_numeric`), 2 punctuation
    /// ([`is_punct`]), 3 white space (`is_whitespace`), 4 other, tested in that order.
    pub class: u8,
    /// `char::is_uppercase`.
    pub upper: bool,
    /// `char::is_lowercase`.
    pub lower: bool,
    /// Its lowercase form when that is one character (`None`: two or more, as for `İ`).
    pub lowercase: Option<char>,
}

impl Info {
    /// The standard library's answers for `c`.
    fn of(c: char) -> Info {
        let class = if c.is_alphabetic() {
            0
        } else if c.is_numeric() {
            1
        } else if c.is_whitespace() {
            3
        } else if is_punct(c) {
            2
        } else {
            4
        };
        let mut lower = c.to_lowercase();
        let lowercase = match (lower.next(), lower.next()) {
            (Some(l), None) => Some(l),
            _ => None,
        };
        Info {
            class,
            upper: c.is_uppercase(),
            lower: c.is_lowercase(),
            lowercase,
        }
    }
}

/// The first range in the table: U+0000 to U+07FF.
const LOW_END: u32 = 0x800;
/// The second: General Punctuation.
const PUNCT: std::ops::Range<u32> = 0x2000..0x2070;

/// The table, the low range then the punctuation.
static TABLE: OnceLock<Vec<Info>> = OnceLock::new();

fn build() -> Vec<Info> {
    (0..LOW_END)
        .chain(PUNCT)
        .map(|cp| Info::of(char::from_u32(cp).unwrap_or('\0')))
        .collect()
}

/// What the standard library says of `c`, from the table for the common ranges.
#[inline]
pub(crate) fn info(c: char) -> Info {
    let cp = c as u32;
    let slot = if cp < LOW_END {
        cp as usize
    } else if PUNCT.contains(&cp) {
        (cp - PUNCT.start + LOW_END) as usize
    } else {
        return Info::of(c);
    };
    TABLE
        .get_or_init(build)
        .get(slot)
        .copied()
        .unwrap_or_else(|| Info::of(c))
}

/// Calls `f` with each character of `c`'s lowercase form (`char::to_lowercase`).
#[inline]
pub(crate) fn for_each_lower(c: char, mut f: impl FnMut(char)) {
    match info(c).lowercase {
        Some(l) => f(l),
        None => c.to_lowercase().for_each(f),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_says_what_the_standard_library_says() {
        // Every code point of both ranges and their neighbours, and a few beyond them.
        let points = (0..0x900)
            .chain(0x1ff0..0x2100)
            .chain([0x3000, 0x4e00, 0x1f600]);
        for c in points.filter_map(char::from_u32) {
            assert_eq!(info(c), Info::of(c), "{c:?}");
            let mut via: Vec<char> = Vec::new();
            for_each_lower(c, |l| via.push(l));
            assert_eq!(via, c.to_lowercase().collect::<Vec<_>>(), "{c:?}");
        }
        // Two-character lowercase forms are left to the library.
        assert_eq!(info('\u{130}').lowercase, None);
        assert_eq!(info('É').lowercase, Some('é'));
        assert_eq!(info('\u{2019}').class, 2);
        assert_eq!(info('\u{a0}').class, 3);
    }
}

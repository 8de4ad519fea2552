//! Words, as victor measures texts: the tokens of the text-level score (`victor eval`, the
//! acceptance scorer `checks/score.py`) and the word counts of the expected-F1 decoding, which
//! maximises that same score and so must count what it counts.
//!
//! A text is normalized with NFKC and lowercased (Python's `str.lower()`, which knows the final
//! sigma); its tokens are, left to right:
//! - each character of the CJK, kana and Thai ranges ([`is_single`]) alone, and
//! - each maximal run of other letters and digits ([`is_word_char`]: Python's `[^\W_]`).
//!
//! Everything else separates tokens. Lowercasing can split a word: Turkish `İ` becomes `i`
//! and a combining dot, which is no word character.
//!
//! Design: a [`Tokenizer`] owns the scratch buffer that holds the normalized text, so
//! tokenizing a page allocates at most the normalized copy (nothing when the page is ASCII and
//! the buffer is warm) and tokens are `&str` slices of it.

mod word;

use unicode_normalization::IsNormalized;
use unicode_normalization::UnicodeNormalization;
use unicode_normalization::is_nfkc_quick;

/// Whether `c` is a token on its own: the ranges U+3040–U+30FF (kana), U+3400–U+4DBF,
/// U+4E00–U+9FFF, U+F900–U+FAFF (CJK ideographs) and U+0E00–U+0E7F (Thai), the scorer's
/// `SINGLE`. Any character of these ranges counts, marks and punctuation included.
#[inline]
pub fn is_single(c: char) -> bool {
    matches!(c,
        '\u{3040}'..='\u{30ff}'
        | '\u{3400}'..='\u{4dbf}'
        | '\u{4e00}'..='\u{9fff}'
        | '\u{f900}'..='\u{faff}'
        | '\u{0e00}'..='\u{0e7f}')
}

/// Whether `c` can be part of a multi-character token: a letter or number in Python's sense
/// (`str.isalnum()`, Unicode 14.0 categories `L*` and `N*`) that is not [`is_single`].
///
/// Combining marks are not word characters: the scorer splits "हिन्दी" at its vowel signs.
#[inline]
pub fn is_word_char(c: char) -> bool {
    !is_single(c) && word::is_alnum(c)
}

/// Splits texts into tokens, reusing one buffer across calls.
#[derive(Debug, Default, Clone)]
pub struct Tokenizer {
    /// The NFKC-normalized, lowercased text of the last call.
    normalized: String,
    /// NFKC output before lowercasing (non-ASCII texts only).
    nfkc: String,
}

impl Tokenizer {
    /// A tokenizer with empty buffers.
    pub fn new() -> Self {
        Self::default()
    }

    /// Calls `f` with each token of `text`, in order.
    ///
    /// The tokens borrow the tokenizer's buffer, so `f` cannot keep them.
    pub fn for_each_token(&mut self, text: &str, mut f: impl FnMut(&str)) {
        self.normalize(text);
        let buf = self.normalized.as_str();
        let mut run_start: Option<usize> = None;
        for (i, c) in buf.char_indices() {
            if c.is_ascii() {
                // The common case, without the table lookups below.
                if c.is_ascii_alphanumeric() {
                    run_start.get_or_insert(i);
                } else if let Some(start) = run_start.take() {
                    emit(buf, start, i, &mut f);
                }
            } else if is_single(c) {
                if let Some(start) = run_start.take() {
                    emit(buf, start, i, &mut f);
                }
                emit(buf, i, i + c.len_utf8(), &mut f);
            } else if word::is_alnum(c) {
                run_start.get_or_insert(i);
            } else if let Some(start) = run_start.take() {
                emit(buf, start, i, &mut f);
            }
        }
        if let Some(start) = run_start {
            emit(buf, start, buf.len(), &mut f);
        }
    }

    /// The tokens of `text` as owned strings, in order (for tests and diagnostics; scoring
    /// fills token bags through `victor_eval::Bags`).
    pub fn tokens(&mut self, text: &str) -> Vec<String> {
        let mut out = Vec::new();
        self.for_each_token(text, |t| out.push(t.to_owned()));
        out
    }

    /// The number of tokens of `text`: what [`Tokenizer::for_each_token`] would call `f` for.
    ///
    /// Most texts are counted where they lie, without the normalized copy: in one pass over
    /// the bytes a text of the characters `count_common` knows (ASCII, the Latin letters of
    /// Western and Central European languages, common typographic punctuation), and otherwise
    /// any text that NFKC leaves as it is and that holds none of five characters (`İ` and four
    /// capitals of Unicode 15 and 16 whose lowercase is not of their class).
    /// Lowercasing such a text maps every character to one character of the same class
    /// (single, word or separator; a test checks every code point), so it cannot move a token
    /// boundary.
    pub fn count(&mut self, text: &str) -> usize {
        if let Some(n) = count_common(text) {
            return n;
        }
        // The quick check sees the non-ASCII characters only: ASCII ones are NFKC and of
        // combining class 0, so leaving them out can turn a `Yes` into a `No` (a mark that
        // followed one now follows another mark), never the other way.
        let mut unsure = false;
        let quick = is_nfkc_quick(
            text.chars()
                .filter(|c| !c.is_ascii())
                .inspect(|c| unsure |= UNSURE_LOWERCASE.contains(c)),
        );
        if quick == IsNormalized::Yes && !unsure {
            return count_runs(text.chars().map(class));
        }
        let mut n = 0;
        self.for_each_token(text, |_| n += 1);
        n
    }

    /// Writes NFKC(`text`), lowercased as Python's `str.lower()` does, into `self.normalized`.
    fn normalize(&mut self, text: &str) {
        self.normalized.clear();
        if text.is_ascii() {
            self.normalized.push_str(text);
            self.normalized.make_ascii_lowercase();
            return;
        }
        let nfkc: &str = if is_nfkc_quick(text.chars()) == IsNormalized::Yes {
            text
        } else {
            self.nfkc.clear();
            self.nfkc.extend(text.nfkc());
            &self.nfkc
        };
        if nfkc.contains('\u{3a3}') {
            // Only the whole-string lowercasing knows the final-sigma context.
            self.normalized.push_str(&nfkc.to_lowercase());
        } else {
            for c in nfkc.chars() {
                if c.is_ascii() {
                    self.normalized.push(c.to_ascii_lowercase());
                } else {
                    self.normalized.extend(c.to_lowercase());
                }
            }
        }
    }
}

/// The characters whose lowercase is not one character of their own class: `İ` lowercases to
/// `i` and a combining dot (no word character); four capitals of Unicode 15 and 16, unknown to
/// the word-character table (Unicode 14, as Python 3.11), lowercase to letters it knows.
const UNSURE_LOWERCASE: [char; 5] = ['\u{130}', '\u{a7cb}', '\u{a7d2}', '\u{a7d4}', '\u{a7dc}'];

/// What a character is to the tokenizer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Class {
    /// A token on its own ([`is_single`]).
    Single,
    /// Part of a run of word characters ([`is_word_char`]).
    Word,
    /// Neither: it separates tokens.
    Separator,
}

/// The class of a character.
#[inline]
fn class(c: char) -> Class {
    if c.is_ascii() {
        if c.is_ascii_alphanumeric() {
            Class::Word
        } else {
            Class::Separator
        }
    } else if is_single(c) {
        Class::Single
    } else if word::is_alnum(c) {
        Class::Word
    } else {
        Class::Separator
    }
}

/// The number of tokens in a sequence of character classes: every single character, and every
/// maximal run of word characters.
#[inline]
fn count_runs(classes: impl Iterator<Item = Class>) -> usize {
    let mut n = 0;
    let mut in_word = false;
    for c in classes {
        let w = c == Class::Word;
        n += usize::from(c == Class::Single || (w && !in_word));
        in_word = w;
    }
    n
}

/// The number of tokens of a text made only of characters whose tokens need neither NFKC nor
/// lowercasing to be counted, in one pass over its bytes; `None` at the first other character
/// (the caller then takes the general path). The characters:
/// - ASCII (letters and digits are word characters);
/// - U+00C0–U+00FF and U+0100–U+017F, letters all (but `×` and `÷`, separators), without `İ`
///   (see [`UNSURE_LOWERCASE`]) and the six with a compatibility decomposition (`Ĳ`, `ĳ`,
///   `Ŀ`, `ŀ`, `ŉ`, `ſ`): NFKC keeps them, and they compose with no character of this set;
/// - the separators U+00A0 (no-break space, NFKC a space) and U+2010, U+2013, U+2014, U+2018,
///   U+2019, U+201A, U+201C, U+201D, U+201E, U+2022, U+2026 (NFKC `...`): punctuation
///   whose NFKC form is punctuation or space.
///
/// German, French or Polish prose is counted here; a test compares it with
/// [`Tokenizer::for_each_token`] on every character of the set and on mixed texts.
///
/// Runs of eight ASCII bytes are counted at once ([`ascii_word_starts`]); the rest byte by
/// byte.
fn count_common(text: &str) -> Option<usize> {
    let bytes = text.as_bytes();
    let mut n = 0;
    let mut in_word = false;
    let mut i = 0;
    while let Some(&x) = bytes.get(i) {
        if let Some(chunk) = bytes
            .get(i..i + 8)
            .and_then(|c| <[u8; 8]>::try_from(c).ok())
        {
            let word = u64::from_le_bytes(chunk);
            if word & HIGH_BITS == 0 {
                let (starts, last_in_word) = ascii_word_starts(word, in_word);
                n += starts;
                in_word = last_in_word;
                i += 8;
                continue;
            }
        }
        let w = if x < 0x80 {
            i += 1;
            ASCII_WORD[usize::from(x)]
        } else {
            // `text` is UTF-8: a lead byte is followed by its continuation bytes.
            let y = *bytes.get(i + 1)?;
            i += 2;
            match (x, y) {
                (0xC2, 0xA0) => false,
                (0xC3, _) => y != 0x97 && y != 0xB7,
                (0xC4, 0xB0 | 0xB2 | 0xB3 | 0xBF) | (0xC5, 0x80 | 0x89 | 0xBF) => return None,
                (0xC4 | 0xC5, _) => true,
                (0xE2, 0x80) => {
                    let z = *bytes.get(i)?;
                    i += 1;
                    match z {
                        0x90 | 0x93 | 0x94 | 0x98 | 0x99 | 0x9A | 0x9C | 0x9D | 0x9E | 0xA2
                        | 0xA6 => false,
                        _ => return None,
                    }
                }
                _ => return None,
            }
        };
        n += usize::from(w && !in_word);
        in_word = w;
    }
    Some(n)
}

/// The high bit of each of eight bytes: all clear in eight ASCII bytes.
const HIGH_BITS: u64 = 0x8080_8080_8080_8080;

/// Eight ASCII bytes (little-endian in `word`, every high bit clear) at once: the number of
/// word characters among them that start a run (the byte before is none, or, for the first,
/// `in_word` says the text before ended outside a word), and whether the last is a word
/// character.
///
/// Each byte's high bit is set where its value is in a range, by adding constants that carry
/// no byte into the next (every byte is below 0x80): a digit is `0x30..=0x39`, a letter is
/// `0x61..=0x7a` once `0x20` is or-ed in (which maps `A..=Z` there and nothing else).
#[inline]
fn ascii_word_starts(word: u64, in_word: bool) -> (usize, bool) {
    const ONES: u64 = 0x0101_0101_0101_0101;
    // `b + (0x80 - lo)` has its high bit set where `b >= lo`; `b + (0x7f - hi)` where `b > hi`.
    let in_range = |b: u64, lo: u64, hi: u64| (b + ONES * (0x80 - lo)) & !(b + ONES * (0x7f - hi));
    let digit = in_range(word, 0x30, 0x39);
    let letter = in_range(word | (ONES * 0x20), 0x61, 0x7a);
    let alnum = (digit | letter) & HIGH_BITS;
    // A start is a word character whose byte before is not one.
    let before = (alnum << 8) | (u64::from(in_word) << 7);
    let starts = alnum & !before;
    // One bit a byte: their sum, gathered into the top byte by the multiplication.
    let count = ((starts >> 7).wrapping_mul(ONES) >> 56) as usize;
    (count, alnum >> 63 == 1)
}

/// Whether each ASCII byte is a word character (a letter or a digit).
const ASCII_WORD: [bool; 128] = {
    let mut t = [false; 128];
    let mut b = 0;
    while b < 128 {
        t[b] = (b as u8).is_ascii_alphanumeric();
        b += 1;
    }
    t
};

/// Calls `f` with `buf[start..end]`; the bounds always come from `char_indices`.
fn emit(buf: &str, start: usize, end: usize, f: &mut impl FnMut(&str)) {
    if let Some(token) = buf.get(start..end) {
        f(token);
    }
}

/// The tokens of `text`, in order, with a fresh tokenizer (convenience for one-off calls).
pub fn tokens(text: &str) -> Vec<String> {
    Tokenizer::new().tokens(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn count_is_the_number_of_tokens() {
        let mut t = Tokenizer::new();
        for text in [
            "",
            "  ",
            "Hello, world! 42 times",
            "under_score and-dash x",
            "naïve café-crème",
            "cafe\u{301}s",
            "½ and ①",
            "İstanbul ΣΟΦΟΣ",
            "東京タワー is tall",
            "ภาษาไทย ok",
            "हिन्दी",
            "Größe Ärger ÜBER straße",
            "ǅemal ﬁle",
            "xꟓ \u{a7d2}y Σοφός",
        ] {
            let want = tokens(text).len();
            assert_eq!(t.count(text), want, "{text:?}");
        }
    }

    /// Every character [`count_common`] takes, alone, between letters, between spaces and
    /// beside every other character it takes, counts as the tokenizer counts; texts with a
    /// character it does not take go to the general path and count the same too.
    #[test]
    fn the_common_characters_count_as_the_tokenizer_counts() {
        let taken: Vec<char> = (0..0x3000u32)
            .filter_map(char::from_u32)
            .filter(|c| count_common(&c.to_string()).is_some())
            .collect();
        // ASCII (128), 64 + 128 - 7 Latin letters, 12 separators.
        assert_eq!(taken.len(), 128 + 64 + 128 - 7 + 12, "{taken:?}");
        let mut t = Tokenizer::new();
        for &c in &taken {
            for text in [
                format!("{c}"),
                format!("a{c}b"),
                format!(" {c} "),
                format!("{c}9{c}"),
            ] {
                assert_eq!(count_common(&text), Some(tokens(&text).len()), "{text:?}");
            }
            for &d in taken
                .iter()
                .filter(|d| !d.is_ascii() || d.is_ascii_alphanumeric())
            {
                let text = format!("{c}{d}x{d}{c}");
                assert_eq!(t.count(&text), tokens(&text).len(), "{text:?}");
            }
        }
        // Neighbours it leaves to the general path: compatibility characters, `İ`, a
        // combining mark after a letter it takes, other scripts.
        for text in [
            "Ĳssel",
            "ŉ",
            "İzmir",
            "ſtraße",
            "e\u{301}té",
            "½ Größe",
            "x\u{2017}y",
            "a‥b",
            "Ωμέγα straße",
            "日本 Größe",
        ] {
            assert_eq!(count_common(text), None, "{text:?}");
            assert_eq!(t.count(text), tokens(text).len(), "{text:?}");
        }
    }

    /// The eight-byte count ([`ascii_word_starts`]) against the tokens, on texts where runs of
    /// every ASCII byte value, words and non-ASCII characters fall across the eight-byte steps
    /// at every offset.
    #[test]
    fn eight_ascii_bytes_at_once_count_what_the_tokens_are() {
        // Every ASCII byte alone, between letters and between separators.
        for b in 0u8..0x80 {
            let c = char::from(b);
            for text in [
                format!("{c}"),
                format!("abcdefg{c}hijklmn"),
                format!("....... {c} ......."),
            ] {
                assert_eq!(count_common(&text), Some(tokens(&text).len()), "{text:?}");
            }
        }
        let pieces = [
            "a", "Z", "0", "9", " ", "-", "@", "[", "`", "{", "_", "/", ":", "ä", "\u{a0}",
            "\u{2014}", "word", "12345678", "x.y", "ÀÉ",
        ];
        // A small linear congruential generator: the same texts on every run.
        let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut next = |k: usize| {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            (state >> 33) as usize % k
        };
        for _ in 0..5_000 {
            let len = next(40);
            let text: String = (0..len).map(|_| pieces[next(pieces.len())]).collect();
            assert_eq!(count_common(&text), Some(tokens(&text).len()), "{text:?}");
            let mut shifted = String::from(" ".repeat(next(8)).as_str());
            shifted.push_str(&text);
            assert_eq!(
                count_common(&shifted),
                Some(tokens(&shifted).len()),
                "{shifted:?}"
            );
        }
    }

    /// The premise of [`Tokenizer::count`]'s shortcut: lowercasing maps every character but
    /// those of [`UNSURE_LOWERCASE`] to one character of its own class.
    #[test]
    fn lowercasing_keeps_every_class() {
        for c in (0..0x11_0000u32).filter_map(char::from_u32) {
            if UNSURE_LOWERCASE.contains(&c) {
                continue;
            }
            let mut lower = c.to_lowercase();
            let (Some(l), None) = (lower.next(), lower.next()) else {
                panic!("{c:?} lowercases to more than one character");
            };
            assert_eq!(class(l), class(c), "{c:?} lowercases to {l:?}");
        }
    }
}

//! Content statistics of one block's text, in a single pass over its characters: the character
//! and token classes of the Victor paper, its naive sentence counter, how the text begins and
//! ends, the duplicate key, stop words and words shared with the page title.

use std::hash::{BuildHasher, Hasher};

use rustc_hash::{FxBuildHasher, FxHashSet, FxHasher};

use super::charinfo::{for_each_lower, info};
use super::lexicon::{block_tokens, is_cjk, word_hash};
use victor_html::within::Within;

/// Character classes: letters, digits, punctuation, white space, other.
pub(crate) const CHAR_CLASSES: [&str; 5] = ["alpha", "num", "punct", "white", "other"];
/// Token classes: words, numbers, letters mixed with digits, other.
pub(crate) const TOKEN_CLASSES: [&str; 4] = ["alpha", "num", "mix", "other"];
/// Values of the `text.end` feature: the last character of the block.
pub(crate) const END_CLASSES: [&str; 9] = [
    "period",
    "excl",
    "quest",
    "colon",
    "comma",
    "semicolon",
    "dash",
    "alnum",
    "other",
];

/// Statistics of one block's text.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct TextStats {
    /// Characters per class ([`CHAR_CLASSES`]).
    pub chars: [u32; 5],
    /// Han, Hiragana and Katakana characters ([`super::lexicon::is_cjk`]), among the letters.
    pub cjk_chars: u32,
    /// Tokens ([`super::lexicon::block_tokens`]: white-space separated, every CJK character one) per
    /// class ([`TOKEN_CLASSES`]).
    pub tokens: [u32; 4],
    /// Tokens with letters whose first letter is upper case.
    pub upper_tokens: u32,
    /// Tokens with at least one letter or digit.
    pub words: u32,
    /// Words in the page language's stop-word list.
    pub stop_words: u32,
    /// Words that also occur in the page title.
    pub title_words: u32,
    /// Sentences, counted naively: runs of `.`, `!`, `?` that end a token, plus a final
    /// unterminated sentence.
    pub sentences: u32,
    /// The first letter or digit is not lower case.
    pub sentence_begin: bool,
    /// The text ends with `.`, `!`, `?` or `…` (closing quotes and brackets aside).
    pub sentence_end: bool,
    /// Index in [`END_CLASSES`].
    pub end: u8,
    /// Key for duplicate detection: hash of the letters, lowercased, ignoring everything else
    /// (of the non-space characters when there are no letters).
    pub dup_key: u64,
    /// Hash of the first two words (letters only, lowercased) of blocks of three words or
    /// more; 0 for shorter blocks.
    pub prefix_key: u64,
}

#[inline]
pub(crate) fn is_punct(c: char) -> bool {
    c.is_ascii_punctuation()
        || matches!(c,
            '\u{a1}' | '\u{a7}' | '\u{ab}' | '\u{b6}' | '\u{b7}' | '\u{bb}' | '\u{bf}'
            | '\u{2010}'..='\u{2027}'
            | '\u{2030}'..='\u{205e}'
            | '\u{3001}'..='\u{3003}'
            | '\u{3008}'..='\u{3011}'
            | '\u{ff01}'..='\u{ff0f}'
            | '\u{ff1a}'..='\u{ff1f}')
}

#[inline]
fn is_terminal(c: char) -> bool {
    matches!(
        c,
        '.' | '!' | '?' | '\u{2026}' | '\u{3002}' | '\u{ff01}' | '\u{ff1f}'
    )
}

#[inline]
fn is_closing(c: char) -> bool {
    matches!(
        c,
        '"' | '\'' | ')' | ']' | '}' | '\u{bb}' | '\u{2019}' | '\u{201d}' | '\u{203a}'
    )
}

/// What the statistics need of one token.
#[derive(Default)]
struct Token {
    alpha: bool,
    digit: bool,
    /// Whether the first letter is upper case (`None`: no letter).
    first_letter_upper: Option<bool>,
    /// Ends in terminal punctuation, closing marks aside.
    terminal: bool,
    /// [`word_hash`] of the token, when computed on the way.
    hash: Option<u64>,
    /// Lowercased letters for the prefix key (when asked): the first ones inline, the rest
    /// (rare: long words) in `prefix_more`.
    prefix: [u32; 16],
    prefix_len: usize,
    prefix_more: Vec<u32>,
}

impl Token {
    fn push_prefix(&mut self, l: u32) {
        if let Some(slot) = self.prefix.get_mut(self.prefix_len) {
            *slot = l;
            self.prefix_len += 1;
        } else {
            self.prefix_more.push(l);
        }
    }
}

/// A token of ASCII characters, in one pass over its bytes (the same results as
/// [`unicode_token`], and the hash [`word_hash`] gives).
#[inline]
fn ascii_token(tok: &str, want_prefix: bool) -> Token {
    let mut t = Token::default();
    let bytes = tok.as_bytes();
    let mut first_alnum = None;
    let mut last_alnum = 0;
    for (i, &b) in bytes.iter().enumerate() {
        if b.is_ascii_alphabetic() {
            t.alpha = true;
            if t.first_letter_upper.is_none() {
                t.first_letter_upper = Some(b.is_ascii_uppercase());
            }
            if want_prefix {
                t.push_prefix(u32::from(b.to_ascii_lowercase()));
            }
        } else if b.is_ascii_digit() {
            t.digit = true;
        } else {
            continue;
        }
        first_alnum.get_or_insert(i);
        last_alnum = i;
    }
    if let Some(first) = first_alnum {
        let mut h = FxBuildHasher.build_hasher();
        for &b in &bytes[first..=last_alnum] {
            h.write_u8(b.to_ascii_lowercase());
        }
        h.write_u8(0xff);
        t.hash = Some(h.finish());
    }
    let core = bytes
        .iter()
        .rposition(|&b| !matches!(b, b'"' | b'\'' | b')' | b']' | b'}'))
        .and_then(|i| bytes.get(i));
    t.terminal = matches!(core, Some(b'.' | b'!' | b'?'));
    t
}

/// A token with non-ASCII characters.
fn unicode_token(tok: &str, want_prefix: bool) -> Token {
    let mut t = Token::default();
    for c in tok.chars() {
        if c.is_alphabetic() {
            t.alpha = true;
            if t.first_letter_upper.is_none() {
                t.first_letter_upper = Some(c.is_uppercase());
            }
            if want_prefix {
                for l in c.to_lowercase() {
                    t.push_prefix(l as u32);
                }
            }
        } else if c.is_numeric() {
            t.digit = true;
        }
    }
    let core = tok.trim_end_matches(is_closing);
    t.terminal = core.chars().last().is_some_and(is_terminal);
    t
}

/// Character class of every ASCII byte, as the general loop of [`TextStats::of`] classifies
/// the same characters: 0 letter, 1 digit, 2 punctuation, 3 white space, 4 other.
const ASCII_CLASS: [u8; 128] = {
    let mut t = [4u8; 128];
    let mut b = 0;
    while b < 128 {
        let c = b as u8;
        t[b] = if c.is_ascii_alphabetic() {
            0
        } else if c.is_ascii_digit() {
            1
        } else if c == b' ' || (c >= b'\t' && c <= b'\r') {
            3
        } else if c.is_ascii_punctuation() {
            2
        } else {
            4
        };
        b += 1;
    }
    t
};

/// Each ASCII letter lowercased, 0 for every other byte: one table read tells a letter and
/// gives its lowercase form (the run loop of [`single_pass`]).
static ASCII_LOWER_LETTER: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        if c.is_ascii_alphabetic() {
            t[b] = c.to_ascii_lowercase();
        }
        b += 1;
    }
    t
};

/// Calls `each` with every ASCII letter, lowercased, of the run of ASCII letters at
/// `bytes[from..]`, and returns where the run ends.
#[inline(always)]
fn letter_run(bytes: &[u8], from: usize, mut each: impl FnMut(u8)) -> usize {
    let rest = bytes.get(from..).unwrap_or_default();
    let mut n = 0;
    for &b in rest {
        let l = ASCII_LOWER_LETTER[usize::from(b)];
        if l == 0 {
            break;
        }
        each(l);
        n += 1;
    }
    from + n
}

/// The running state of one token in [`single_pass`].
#[derive(Default)]
struct TokenState {
    len: usize,
    alpha: bool,
    digit: bool,
    first_letter_upper: Option<bool>,
    /// Where the token's last letter or digit so far ends (`None`: none yet).
    alnum_end: Option<usize>,
    /// The last character that is not a closing mark ([`is_closing`]).
    core: Option<char>,
}

/// Writes a character into a word or duplicate hash as [`word_hash`] does: ASCII characters
/// lowercased as bytes, others as the code points of their lowercase form.
#[inline]
fn hash_char(h: &mut FxHasher, c: char) {
    if c.is_ascii() {
        h.write_u8(c.to_ascii_lowercase() as u8);
    } else {
        for_each_lower(c, |l| h.write_u32(l as u32));
    }
}

/// What the token loops add up, whichever path read the tokens.
#[derive(Default)]
struct TokenTally {
    open_sentence: bool,
    prefix_words: u32,
}

impl TokenTally {
    /// Counts one token into `s`; `hash` gives its [`word_hash`] when stop or title words
    /// are asked for.
    #[inline]
    #[allow(clippy::too_many_arguments)]
    fn count(
        &mut self,
        s: &mut TextStats,
        alpha: bool,
        digit: bool,
        first_letter_upper: Option<bool>,
        terminal: bool,
        hash: impl FnOnce() -> u64,
        stop: Option<&FxHashSet<u64>>,
        title: &FxHashSet<u64>,
    ) {
        let class = match (alpha, digit) {
            (true, false) => 0,
            (false, true) => 1,
            (true, true) => 2,
            (false, false) => 3,
        };
        s.tokens[class] += 1;
        if first_letter_upper == Some(true) {
            s.upper_tokens += 1;
        }
        if alpha || digit {
            s.words += 1;
            self.open_sentence = true;
            if stop.is_some() || !title.is_empty() {
                let h = hash();
                if stop.is_some_and(|st| st.contains(&h)) {
                    s.stop_words += 1;
                }
                if !title.is_empty() && title.contains(&h) {
                    s.title_words += 1;
                }
            }
        }
        // A sentence ends where a token ends in terminal punctuation (closing marks aside).
        if terminal && self.open_sentence {
            s.sentences += 1;
            self.open_sentence = false;
        }
    }
}

/// Ends the current token of [`single_pass`] (if any) at a space or at the end of the text: a
/// function inlined at both places rather than a closure called with its state.
#[inline(always)]
fn end_token(
    t: &mut TokenState,
    word: &mut FxHasher,
    prefix: &mut FxHasher,
    tally: &mut TokenTally,
    s: &mut TextStats,
    stop: Option<&FxHashSet<u64>>,
    title: &FxHashSet<u64>,
) {
    if t.len == 0 {
        return;
    }
    if tally.prefix_words < 2 {
        prefix.write_u8(0xff);
        tally.prefix_words += 1;
    }
    let terminal = t.core.is_some_and(is_terminal);
    let mut w = std::mem::take(word);
    let hash = move || {
        w.write_u8(0xff);
        w.finish()
    };
    tally.count(
        s,
        t.alpha,
        t.digit,
        t.first_letter_upper,
        terminal,
        hash,
        stop,
        title,
    );
    *t = TokenState::default();
}

/// Character classes, duplicate key, tokens and sentences of a text without CJK characters in
/// one pass: ASCII bytes through [`ASCII_CLASS`], other characters decoded where they occur.
/// Without CJK characters tokens end at spaces only ([`super::lexicon::block_tokens`]). Returns
/// `false` at the first CJK character, leaving `s` partly filled: such text takes
/// [`general_pass`]. The same results as [`general_pass`] otherwise (the tests compare them).
/// `ASCII`: the caller knows the text is ASCII, and the character decoding compiles away.
fn single_pass<const ASCII: bool>(
    text: &str,
    s: &mut TextStats,
    stop: Option<&FxHashSet<u64>>,
    title: &FxHashSet<u64>,
) -> bool {
    let want_hash = stop.is_some() || !title.is_empty();
    let mut dup = FxBuildHasher.build_hasher();
    let mut dup_letters = false;
    let mut prefix = FxBuildHasher.build_hasher();
    let mut word = FxBuildHasher.build_hasher();
    let mut tally = TokenTally::default();
    let mut t = TokenState::default();
    let bytes = text.as_bytes();
    let mut i = 0;
    while let Some(&b) = bytes.get(i) {
        let (c, len, class) = if ASCII || b.is_ascii() {
            (char::from(b), 1, ASCII_CLASS[usize::from(b & 0x7f)])
        } else {
            let Some(c) = text.get(i..).and_then(|r| r.chars().next()) else {
                break;
            };
            if is_cjk(c) {
                return false;
            }
            (c, c.len_utf8(), info(c).class)
        };
        let at = i;
        i += len;
        s.chars[usize::from(class)] += 1;
        if b == b' ' {
            end_token(&mut t, &mut word, &mut prefix, &mut tally, s, stop, title);
            continue;
        }
        t.len += 1;
        if !(if len == 1 {
            matches!(b, b'"' | b'\'' | b')' | b']' | b'}')
        } else {
            is_closing(c)
        }) {
            t.core = Some(c);
        }
        if class > 1 {
            continue;
        }
        let lower = b.to_ascii_lowercase();
        if class == 0 {
            if len == 1 {
                dup.write_u8(lower);
            } else {
                hash_char(&mut dup, c);
            }
            dup_letters = true;
            t.alpha = true;
            if t.first_letter_upper.is_none() {
                t.first_letter_upper = Some(if len == 1 {
                    b.is_ascii_uppercase()
                } else {
                    info(c).upper
                });
            }
            if tally.prefix_words < 2 {
                if len == 1 {
                    prefix.write_u32(u32::from(lower));
                } else {
                    for_each_lower(c, |l| prefix.write_u32(l as u32));
                }
            }
        } else {
            t.digit = true;
        }
        if want_hash {
            // The word hash runs from the first letter or digit to the last, inner marks
            // included.
            if let Some(end) = t.alnum_end.filter(|&end| end < at) {
                let marks = text.within(end..at);
                if ASCII {
                    marks
                        .bytes()
                        .for_each(|m| word.write_u8(m.to_ascii_lowercase()));
                } else {
                    marks.chars().for_each(|m| hash_char(&mut word, m));
                }
            }
            if len == 1 {
                word.write_u8(lower);
            } else {
                hash_char(&mut word, c);
            }
        }
        t.alnum_end = Some(i);
        if class == 0 && len == 1 {
            // The rest of a run of ASCII letters (most bytes of most texts) in a tight loop:
            // each letter does what the steps above do with it, less the tests that cannot
            // fail inside the run (not a space, not a closing mark, no marks since the last
            // letter, the token's first letter already seen), in the same order per hash.
            let run_start = i;
            // The loop for the hashes this run feeds, chosen once: the prefix hash takes only
            // the first two words, the word hash only a page with stop or title words.
            i = match (tally.prefix_words < 2, want_hash) {
                (false, true) => letter_run(bytes, i, |l| {
                    dup.write_u8(l);
                    word.write_u8(l);
                }),
                (false, false) => letter_run(bytes, i, |l| dup.write_u8(l)),
                (true, want_hash) => letter_run(bytes, i, |l| {
                    dup.write_u8(l);
                    prefix.write_u32(u32::from(l));
                    if want_hash {
                        word.write_u8(l);
                    }
                }),
            };
            if let Some(&last) = bytes.get(run_start..i).and_then(<[u8]>::last) {
                s.chars[0] += (i - run_start) as u32;
                t.len += i - run_start;
                t.core = Some(char::from(last));
                t.alnum_end = Some(i);
            }
        }
    }
    end_token(&mut t, &mut word, &mut prefix, &mut tally, s, stop, title);
    if tally.open_sentence {
        s.sentences += 1;
    }
    if s.total_tokens() >= 3 {
        s.prefix_key = prefix.finish() | 1;
    }
    s.dup_key = if dup_letters {
        dup.finish()
    } else {
        no_letters_key(bytes)
    };
    true
}

/// Duplicate key of a text without letters.
fn no_letters_key(text: &[u8]) -> u64 {
    let mut h = FxBuildHasher.build_hasher();
    h.write_u8(0xfe);
    h.write(text);
    h.finish()
}

/// Character classes, duplicate key, tokens and sentences of any text, character by character.
fn general_pass(
    text: &str,
    s: &mut TextStats,
    stop: Option<&FxHashSet<u64>>,
    title: &FxHashSet<u64>,
) {
    let mut dup = FxBuildHasher.build_hasher();
    let mut dup_letters = false;
    let bytes = text.as_bytes();
    let mut i = 0;
    while let Some(&b) = bytes.get(i) {
        if b.is_ascii() {
            // ASCII characters (most of any text) by the table of the ASCII pass, which
            // classifies them as the character loop below does.
            let class = ASCII_CLASS[usize::from(b)];
            if class == 0 {
                dup.write_u8(b.to_ascii_lowercase());
                dup_letters = true;
            }
            s.chars[usize::from(class)] += 1;
            i += 1;
            continue;
        }
        let Some(c) = text.get(i..).and_then(|r| r.chars().next()) else {
            break;
        };
        i += c.len_utf8();
        let class = if c.is_alphabetic() {
            for l in c.to_lowercase() {
                dup.write_u32(l as u32);
            }
            dup_letters = true;
            if is_cjk(c) {
                s.cjk_chars += 1;
            }
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
        s.chars[class] += 1;
    }
    s.dup_key = if dup_letters {
        dup.finish()
    } else {
        no_letters_key(text.as_bytes())
    };

    let mut tally = TokenTally::default();
    let mut prefix = FxBuildHasher.build_hasher();
    for tok in block_tokens(text) {
        let want_prefix = tally.prefix_words < 2;
        let t = if tok.is_ascii() {
            ascii_token(tok, want_prefix)
        } else {
            unicode_token(tok, want_prefix)
        };
        if want_prefix {
            for &l in &t.prefix[..t.prefix_len] {
                prefix.write_u32(l);
            }
            t.prefix_more.iter().for_each(|&l| prefix.write_u32(l));
            prefix.write_u8(0xff);
            tally.prefix_words += 1;
        }
        tally.count(
            s,
            t.alpha,
            t.digit,
            t.first_letter_upper,
            t.terminal,
            || t.hash.unwrap_or_else(|| word_hash(tok)),
            stop,
            title,
        );
    }
    if tally.open_sentence {
        s.sentences += 1;
    }
    if s.total_tokens() >= 3 {
        s.prefix_key = prefix.finish() | 1;
    }
}

impl TextStats {
    /// Computes the statistics of `text` (collapsed white space, as blocks hold it).
    pub(crate) fn of(
        text: &str,
        stop: Option<&FxHashSet<u64>>,
        title: &FxHashSet<u64>,
    ) -> TextStats {
        let mut s = TextStats::default();
        let one_pass = if text.is_ascii() {
            single_pass::<true>(text, &mut s, stop, title)
        } else {
            single_pass::<false>(text, &mut s, stop, title)
        };
        if !one_pass {
            s = TextStats::default();
            general_pass(text, &mut s, stop, title);
        }
        s.finish(text);
        s
    }

    /// The statistics computed by the general (character by character) loops only, for the
    /// tests that hold the ASCII pass to them.
    #[cfg(test)]
    fn general(text: &str, stop: Option<&FxHashSet<u64>>, title: &FxHashSet<u64>) -> TextStats {
        let mut s = TextStats::default();
        general_pass(text, &mut s, stop, title);
        s.finish(text);
        s
    }

    /// How the text begins and ends.
    fn finish(&mut self, text: &str) {
        let s = self;
        // The first letter or digit, and whether it is not lower case (ASCII ones without the
        // table).
        s.sentence_begin = text
            .chars()
            .find_map(|c| {
                if c.is_ascii() {
                    c.is_ascii_alphanumeric().then_some(!c.is_ascii_lowercase())
                } else {
                    let i = info(c);
                    (i.class <= 1).then_some(!i.lower)
                }
            })
            .unwrap_or(false);
        let last = text.trim_end_matches(is_closing).chars().last();
        s.sentence_end = last.is_some_and(is_terminal);
        s.end = match last {
            Some('.' | '\u{2026}' | '\u{3002}') => 0,
            Some('!' | '\u{ff01}') => 1,
            Some('?' | '\u{ff1f}') => 2,
            Some(':') => 3,
            Some(',') => 4,
            Some(';') => 5,
            Some('-' | '\u{2013}' | '\u{2014}' | '|' | '\u{bb}' | '>' | '/') => 6,
            Some(c) if c.is_alphanumeric() => 7,
            _ => 8,
        };
    }

    /// All characters.
    pub(crate) fn total_chars(&self) -> u32 {
        self.chars.iter().sum()
    }

    /// The length of the text for thresholds meant as "enough text": its characters, where a
    /// CJK character counts three. One carries about as much as three Latin letters (a word of
    /// Chinese is 1.5 characters, of English 5 letters and a space), and this is also its
    /// length in UTF-8.
    pub(crate) fn text_length(&self) -> u32 {
        self.total_chars() + 2 * self.cjk_chars
    }

    /// All tokens.
    pub(crate) fn total_tokens(&self) -> u32 {
        self.tokens.iter().sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stats(t: &str) -> TextStats {
        TextStats::of(t, None, &FxHashSet::default())
    }

    #[test]
    fn character_and_token_classes() {
        let s = stats("Hello world, it's 2008 and B52s fly!");
        assert_eq!(s.chars, [21, 6, 3, 6, 0]);
        // Hello world, it's and fly! | 2008 | B52s
        assert_eq!(s.tokens, [5, 1, 1, 0]);
        assert_eq!(s.upper_tokens, 2);
        assert_eq!(s.words, 7);
        let s = stats("» | ©");
        assert_eq!(s.tokens, [0, 0, 0, 3]);
        assert_eq!(s.chars, [0, 0, 2, 2, 1]);
    }

    #[test]
    fn naive_sentences() {
        let s = stats("One sentence. Another one! And a question? Last bit");
        assert_eq!(s.sentences, 4);
        assert!(s.sentence_begin && !s.sentence_end);
        assert_eq!(END_CLASSES[s.end as usize], "alnum");
        let s = stats("he said \"stop.\"");
        assert_eq!(s.sentences, 1);
        assert!(!s.sentence_begin && s.sentence_end);
        assert_eq!(stats("3.14 is pi").sentences, 1);
        assert_eq!(stats("...").sentences, 0);
        assert_eq!(END_CLASSES[stats("Read more:").end as usize], "colon");
    }

    #[test]
    fn chinese_text_has_a_token_per_character_and_its_sentences() {
        let s = stats(
            "本报讯 昨天下午，艺术家在北京参加了活动。活动期间，观众进行了交流！组织者表示满意",
        );
        // 36 Han characters, 4 punctuation marks, 1 space.
        assert_eq!(s.chars, [36, 0, 4, 1, 0]);
        assert_eq!(s.tokens, [36, 0, 0, 0]);
        assert_eq!(s.words, 36);
        assert_eq!(s.upper_tokens, 0);
        // Two sentences end in 。 and ！, the last one is unterminated.
        assert_eq!(s.sentences, 3);
        assert!(s.sentence_begin && !s.sentence_end);
        let s = stats("北京举行国际文化交流活动。");
        assert_eq!((s.words, s.sentences), (12, 1));
        assert!(s.sentence_end);
        assert_eq!(END_CLASSES[s.end as usize], "period");
        // Stop and title words are matched character by character.
        let stop: FxHashSet<u64> = ["的", "了"].iter().map(|w| word_hash(w)).collect();
        let title: FxHashSet<u64> = ["北", "京"].iter().map(|w| word_hash(w)).collect();
        let s = TextStats::of("我们在北京的家里吃了饭。", Some(&stop), &title);
        assert_eq!((s.words, s.stop_words, s.title_words), (11, 2, 2));
        // Twelve characters, eleven of them Han: as long as 34 Latin letters.
        assert_eq!(
            (s.total_chars(), s.cjk_chars, s.text_length()),
            (12, 11, 34)
        );
        let s = stats("Hello, naïve world");
        assert_eq!((s.cjk_chars, s.text_length()), (0, s.total_chars()));
    }

    #[test]
    fn duplicate_key_ignores_case_space_and_non_letters() {
        assert_eq!(stats("Read more »").dup_key, stats("read  MORE").dup_key);
        assert_ne!(stats("Read more").dup_key, stats("Read less").dup_key);
        assert_ne!(stats("|").dup_key, stats("»").dup_key);
    }

    #[test]
    fn ascii_fast_path_agrees_with_the_general_loop() {
        // The same text with one non-ASCII character appended takes the general loop; the
        // statistics of the ASCII part must not change (the extra character is "other").
        for t in [
            "Hello world, it's 2008 and B52s fly!",
            "Read more\u{b}\u{1f} | tabs\tand\x0c feeds.",
            "A.B. 3:30 p.m. (c) [x] ~ `q` ^ \\ x@y.com",
        ] {
            let a = stats(t);
            let mut b = stats(&format!("{t}\u{2605}"));
            assert_eq!(b.chars[4], a.chars[4] + 1, "{t}");
            b.chars[4] -= 1;
            assert_eq!(a.chars, b.chars, "{t}");
            assert_eq!(a.words, b.words, "{t}");
            assert_eq!(a.upper_tokens, b.upper_tokens, "{t}");
        }
        // Every ASCII character is classed alike on both paths.
        for c in (0u8..128).map(char::from) {
            let a = stats(&format!("x{c}"));
            let mut b = stats(&format!("x{c}\u{2605}"));
            b.chars[4] -= 1;
            assert_eq!(a.chars, b.chars, "{c:?}");
        }
    }

    #[test]
    fn single_pass_agrees_with_the_general_pass() {
        let stop: FxHashSet<u64> = ["the", "of", "a"].iter().map(|w| word_hash(w)).collect();
        let title: FxHashSet<u64> = ["obama", "b52s"].iter().map(|w| word_hash(w)).collect();
        let none = FxHashSet::default();
        for t in [
            "",
            " ",
            "Hello world, it's 2008 and B52s fly!",
            "The rise of Obama: (Obama) wins a vote. Really?! \"Yes.\" [1]",
            "Read more \u{b}\u{1f} | tabs\tand\x0c feeds...",
            "A.B. 3:30 p.m. (c) [x] ~ `q` ^ \\ x@y.com e-mail -- 'quoted'",
            "a b c",
            "Posted by admin on 12/03/2008",
            "...",
            "| > >> 42",
            "ABC!) end?)] Mr. x",
            "Antidisestablishmentarianism and supercalifragilisticexpialidocious words",
            "  double  spaces  ",
            // Other scripts, marks and signs: one pass, as long as there is no CJK character.
            "Don\u{2019}t stop \u{2014} it\u{2019}s \u{201c}great\u{201d}\u{2026} (Obama\u{2019}s)",
            "\u{dc}n\u{ef}c\u{f6}d\u{e9} Stra\u{df}e 3\u{bd} km\u{b2} The\u{bb}",
            "\u{41f}\u{440}\u{438}\u{432}\u{435}\u{442}, \u{43c}\u{438}\u{440}! \u{42d}\u{442}\u{43e} the.",
            "\u{ab} Bonjour \u{bb} dit-il. \u{bf}Qu\u{e9}? \u{a1}S\u{ed}! \u{663}\u{664} x",
            "a\u{a0}b c\u{a0} \u{a0}d. \u{2003}e",
            "\u{1c5}emal \u{130}stanbul \u{3a3}\u{391}\u{3a3} x\u{300}y \u{2605}\u{2605} a\u{2019}",
            "\u{1f600} emoji \u{1f44d}! OBAMA\u{2019}S vote \u{ff01} end\u{3002}",
            // A CJK character sends the text to the general pass.
            "Hello \u{4e16}\u{754c} test. \u{3053}\u{3093}",
        ] {
            for (stop, title) in [(None, &none), (Some(&stop), &title), (None, &title)] {
                let a = TextStats::of(t, stop, title);
                assert_eq!(a, TextStats::general(t, stop, title), "{t:?}");
            }
        }
    }

    #[test]
    fn ascii_tokens_agree_with_the_general_path() {
        for tok in [
            "Hello",
            "world,",
            "(it's)",
            "B52s",
            "2008.",
            "\"stop.\"",
            "...",
            "|",
            "x)",
            "A.B.",
            "end?)]",
            "'quoted'",
            "e-mail",
            "--",
            "Mr.",
            "3:30",
            "ABC!",
            "a",
            "Antidisestablishmentarianism",
        ] {
            for want_prefix in [false, true] {
                let a = ascii_token(tok, want_prefix);
                let u = unicode_token(tok, want_prefix);
                let what = format!("{tok:?} prefix {want_prefix}");
                assert_eq!((a.alpha, a.digit), (u.alpha, u.digit), "{what}");
                assert_eq!(a.first_letter_upper, u.first_letter_upper, "{what}");
                assert_eq!(a.terminal, u.terminal, "{what}");
                assert_eq!(a.prefix[..a.prefix_len], u.prefix[..u.prefix_len], "{what}");
                assert_eq!(a.prefix_more, u.prefix_more, "{what}");
                if a.alpha || a.digit {
                    assert_eq!(a.hash, Some(word_hash(tok)), "{what}");
                }
            }
        }
    }

    #[test]
    fn stop_and_title_words() {
        let stop: FxHashSet<u64> = ["the", "of", "a"].iter().map(|w| word_hash(w)).collect();
        let title: FxHashSet<u64> = ["obama", "wins"].iter().map(|w| word_hash(w)).collect();
        let s = TextStats::of("The rise of Obama: Obama wins a vote", Some(&stop), &title);
        assert_eq!(s.stop_words, 3);
        assert_eq!(s.title_words, 3);
    }
}

//! Word-level helpers shared by the feature modules: splitting a block's text into tokens
//! ([`block_tokens`]), hashing words case-insensitively without allocating, stop-word sets per language
//! (from the `stop-words` crate: NLTK's lists where they exist, else the stopwords-iso lists),
//! ISO 639-3 to 639-1 codes, and `class`/`id` tokenization.
//!
//! # Tokens
//!
//! A token is a run of characters between spaces, except in scripts written without spaces
//! between words: every Han ideograph, Hiragana or Katakana character is a token of its own, as
//! Unicode word segmentation (UAX #29) treats Han and Hiragana. Without this a Chinese
//! paragraph of a hundred characters is one or two "words", the word count of a navigation
//! link, and the sentence, stop-word and title features see nothing. Punctuation stays with the
//! token it follows (`动。` ends a sentence as `end.` does), and a run of punctuation before a
//! character stays with it (`（新`).

use std::hash::{BuildHasher, Hasher};
use std::sync::OnceLock;

use rustc_hash::{FxBuildHasher, FxHashMap, FxHashSet};
use victor_html::within::Within;

/// Han ideographs (with extensions and compatibility ideographs), Hiragana and Katakana (with
/// the half-width forms): scripts where every character is a token ([`block_tokens`]). Hangul is not
/// among them: Korean separates its words with spaces.
#[inline]
pub fn is_cjk(ch: char) -> bool {
    matches!(ch as u32,
        0x3040..=0x30FF        // Hiragana, Katakana
        | 0x31F0..=0x31FF      // Katakana phonetic extensions
        | 0x3400..=0x4DBF      // CJK Extension A
        | 0x4E00..=0x9FFF      // CJK Unified Ideographs
        | 0xF900..=0xFAFF      // CJK Compatibility Ideographs
        | 0xFF66..=0xFF9F      // half-width Katakana
        | 0x20000..=0x3134F) // CJK Extensions B to G
}

/// The tokens of a block's text (white space collapsed to single spaces, as blocks hold it): runs
/// of characters between spaces, except that every Han ideograph, Hiragana or Katakana
/// character ([`is_cjk`]) is a token of its own; punctuation stays with the token it follows.
/// No allocation; text without CJK characters is split at spaces only. These are the feature
/// modules' tokens; the scorer's (`victor_core::words::tokens`, the text-level F1's) follow other
/// rules.
pub fn block_tokens(text: &str) -> BlockTokens<'_> {
    BlockTokens { rest: text }
}

/// Iterator of [`block_tokens`].
#[derive(Clone, Debug)]
pub struct BlockTokens<'a> {
    rest: &'a str,
}

impl<'a> Iterator for BlockTokens<'a> {
    type Item = &'a str;

    fn next(&mut self) -> Option<&'a str> {
        let rest = self.rest.trim_start_matches(' ');
        if rest.is_empty() {
            self.rest = rest;
            return None;
        }
        let (tok, after) = rest.split_at(token_end(rest));
        self.rest = after;
        Some(tok)
    }
}

/// Where the token at the start of `s` (no leading space) ends: at a space, or before a CJK
/// character, or before a letter or digit that follows one, once the token holds a letter or
/// digit. Reads only the token's own characters, so tokenizing is linear in the text even
/// without spaces.
fn token_end(s: &str) -> usize {
    let bytes = s.as_bytes();
    let mut has_alnum = false;
    // ASCII first: no CJK character there.
    let mut i = 0;
    while let Some(&b) = bytes.get(i) {
        if b == b' ' {
            return i;
        }
        if b >= 0x80 {
            break;
        }
        has_alnum |= b.is_ascii_alphanumeric();
        i += 1;
    }
    let mut cjk = false;
    // Every byte before `i` is ASCII: `i` is a character boundary.
    let tail = s.within(i..);
    for (j, c) in tail.char_indices() {
        if c == ' ' {
            return i + j;
        }
        let k = is_cjk(c);
        if k || c.is_alphanumeric() {
            if has_alnum && (k || cjk) {
                return i + j;
            }
            has_alnum = true;
            cjk = k;
        }
    }
    s.len()
}

/// Hash of a word's lowercase form, computed without allocating. Non-alphanumeric characters at
/// either end are ignored ("(The" and "the," hash like "the").
#[inline]
pub fn word_hash(word: &str) -> u64 {
    if word.is_ascii() {
        // The same hash byte by byte: ASCII letters and digits are the only ASCII characters
        // `char::is_alphanumeric` accepts.
        let b = word.as_bytes();
        let first = b
            .iter()
            .position(u8::is_ascii_alphanumeric)
            .unwrap_or(b.len());
        let last = b
            .iter()
            .rposition(u8::is_ascii_alphanumeric)
            .map_or(first, |i| i + 1);
        let mut h = FxBuildHasher.build_hasher();
        for &c in b.within(first..last) {
            h.write_u8(c.to_ascii_lowercase());
        }
        h.write_u8(0xff);
        return h.finish();
    }
    word_hash_chars(word)
}

/// [`word_hash`] character by character (any text).
fn word_hash_chars(word: &str) -> u64 {
    let w = word.trim_matches(|c: char| !c.is_alphanumeric());
    let mut h = FxBuildHasher.build_hasher();
    for c in w.chars() {
        if c.is_ascii() {
            h.write_u8(c.to_ascii_lowercase() as u8);
        } else {
            for l in c.to_lowercase() {
                h.write_u32(l as u32);
            }
        }
    }
    h.write_u8(0xff);
    h.finish()
}

/// ISO 639-1 code for the ISO 639-3 codes whatlang uses (`None` where 639-1 has none).
pub fn iso639_1(code3: &str) -> Option<&'static str> {
    Some(match code3 {
        "afr" => "af",
        "aka" => "ak",
        "amh" => "am",
        "ara" => "ar",
        "aze" => "az",
        "bel" => "be",
        "ben" => "bn",
        "bul" => "bg",
        "cat" => "ca",
        "ces" => "cs",
        "cmn" => "zh",
        "dan" => "da",
        "deu" => "de",
        "ell" => "el",
        "eng" => "en",
        "epo" => "eo",
        "est" => "et",
        "fin" => "fi",
        "fra" => "fr",
        "guj" => "gu",
        "heb" => "he",
        "hin" => "hi",
        "hrv" => "hr",
        "hun" => "hu",
        "hye" => "hy",
        "ind" => "id",
        "ita" => "it",
        "jav" => "jv",
        "jpn" => "ja",
        "kan" => "kn",
        "kat" => "ka",
        "khm" => "km",
        "kor" => "ko",
        "lat" => "la",
        "lav" => "lv",
        "lit" => "lt",
        "mal" => "ml",
        "mar" => "mr",
        "mkd" => "mk",
        "mya" => "my",
        "nep" => "ne",
        "nld" => "nl",
        "nob" => "no",
        "ori" => "or",
        "pan" => "pa",
        "pes" => "fa",
        "pol" => "pl",
        "por" => "pt",
        "ron" => "ro",
        "rus" => "ru",
        "sin" => "si",
        "slk" => "sk",
        "slv" => "sl",
        "sna" => "sn",
        "spa" => "es",
        "srp" => "sr",
        "swe" => "sv",
        "tam" => "ta",
        "tel" => "te",
        "tgl" => "tl",
        "tha" => "th",
        "tuk" => "tk",
        "tur" => "tr",
        "ukr" => "uk",
        "urd" => "ur",
        "uzb" => "uz",
        "vie" => "vi",
        "yid" => "yi",
        "zul" => "zu",
        _ => return None,
    })
}

/// Every stop-word list at once, for guessing a text's language by the stop words it uses:
/// word hash -> the languages whose list holds it (a bit each).
///
/// Stop words are the most frequent words of a language, so in running text of some length
/// the page's own list wins by far; a vote costs one hash lookup per word, where a trigram
/// detector scores every trigram of the text against every language profile.
#[derive(Debug, Default)]
pub(crate) struct StopIndex {
    langs: Vec<whatlang::Lang>,
    words: rustc_hash::FxHashMap<u64, u128>,
}

/// Stop-word hits per language of [`StopIndex`] (by index), and the number of words.
#[derive(Debug)]
pub(crate) struct StopVotes {
    /// Hits per language index.
    pub hits: [u16; 128],
    /// Words looked at.
    pub words: u16,
}

impl StopIndex {
    /// The index over every language whatlang knows that has a stop-word list (at most 128).
    pub(crate) fn new() -> Self {
        let mut ix = StopIndex::default();
        for &lang in whatlang::Lang::all() {
            let Some(list) = iso639_1(lang.code()).and_then(stop_words::lookup) else {
                continue;
            };
            if list.is_empty() || ix.langs.len() >= 128 {
                continue;
            }
            let bit = 1u128 << ix.langs.len();
            ix.langs.push(lang);
            for w in list {
                *ix.words.entry(word_hash(w)).or_insert(0) |= bit;
            }
        }
        ix
    }

    /// Index of a language, if it has a list.
    pub(crate) fn index_of(&self, lang: whatlang::Lang) -> Option<usize> {
        self.langs.iter().position(|l| *l == lang)
    }

    /// The language of an index.
    pub(crate) fn lang(&self, i: usize) -> Option<whatlang::Lang> {
        self.langs.get(i).copied()
    }

    /// Counts the stop words of every language among the words ([`block_tokens`]) of `text`.
    pub(crate) fn votes(&self, text: &str) -> StopVotes {
        let mut v = StopVotes {
            hits: [0; 128],
            words: 0,
        };
        let has_alnum = |w: &str| {
            if w.is_ascii() {
                w.bytes().any(|b| b.is_ascii_alphanumeric())
            } else {
                w.chars().any(char::is_alphanumeric)
            }
        };
        for w in block_tokens(text).filter(|w| has_alnum(w)) {
            v.words = v.words.saturating_add(1);
            if let Some(&found) = self.words.get(&word_hash(w)) {
                let mut bits = found;
                while bits != 0 {
                    let i = bits.trailing_zeros() as usize;
                    if let Some(h) = v.hits.get_mut(i) {
                        *h = h.saturating_add(1);
                    }
                    bits &= bits - 1;
                }
            }
        }
        v
    }
}

impl StopVotes {
    /// The language index with the most hits and its hits, and the runner-up's hits.
    pub(crate) fn best(&self) -> (usize, u16, u16) {
        let mut best = (0, 0u16);
        let mut second = 0u16;
        for (i, &h) in self.hits.iter().enumerate() {
            if h > best.1 {
                second = best.1;
                best = (i, h);
            } else if h > second {
                second = h;
            }
        }
        (best.0, best.1, second)
    }
}

/// Stop-word sets (as [`word_hash`]es), built on first use per language and shared.
#[derive(Debug, Default)]
pub struct StopWords {
    sets: Vec<(&'static str, OnceLock<FxHashSet<u64>>)>,
}

impl StopWords {
    /// A cache covering every language whatlang detects.
    pub fn new() -> Self {
        let sets = whatlang::Lang::all()
            .iter()
            .filter_map(|l| iso639_1(l.code()))
            .map(|c| (c, OnceLock::new()))
            .collect();
        Self { sets }
    }

    /// The stop words of a language given by its ISO 639-1 code, if a list exists.
    pub fn get(&self, code1: &str) -> Option<&FxHashSet<u64>> {
        let (_, cell) = self.sets.iter().find(|(c, _)| *c == code1)?;
        let set = cell.get_or_init(|| {
            stop_words::lookup(code1)
                .map(|words| words.iter().map(|w| word_hash(w)).collect())
                // A language without a list has no stop words: the empty set, said as `None`
                // below.
                .unwrap_or_default()
        });
        (!set.is_empty()).then_some(set)
    }
}

/// Splits a `class` or `id` value (as the segmenter stores it: lowercased, camelCase words
/// already separated by `-`) into word tokens, on anything but letters and digits.
pub(crate) fn attr_tokens(value: &str, mut each: impl FnMut(&str)) {
    if value.is_ascii() {
        // Byte by byte (nearly every value): ASCII letters and digits are the only ASCII
        // characters `char::is_alphanumeric` accepts.
        let mut start = 0;
        for (i, b) in value.bytes().enumerate() {
            if !b.is_ascii_alphanumeric() {
                if i > start
                    && let Some(part) = value.get(start..i)
                {
                    each(part);
                }
                start = i + 1;
            }
        }
        if let Some(part) = value.get(start..).filter(|p| !p.is_empty()) {
            each(part);
        }
        return;
    }
    for part in value.split(|c: char| !c.is_alphanumeric()) {
        if !part.is_empty() {
            each(part);
        }
    }
}

/// The keyword index of the `class` module: a token (lowercase, singular) -> its keyword
/// group. A token of at most 15 bytes (every shipped keyword; `advertisement` is 13) is looked
/// up as one number, its bytes and its length, so that a lookup neither hashes nor compares a
/// string; longer ones go to a map of strings, consulted only when the configuration has such
/// keywords.
#[derive(Debug, Default)]
pub(crate) struct Keywords {
    short: FxHashMap<u128, u8>,
    long: FxHashMap<String, u8>,
}

/// A token of at most 15 bytes as one number: its bytes, zero-padded, and its length in the
/// last byte (so that no two tokens share a key).
#[inline]
fn short_key(token: &str) -> Option<u128> {
    let b = token.as_bytes();
    let mut buf = [0u8; 16];
    buf.get_mut(..b.len())
        .filter(|_| b.len() < 16)?
        .copy_from_slice(b);
    buf[15] = b.len() as u8;
    Some(u128::from_le_bytes(buf))
}

impl Keywords {
    /// Files `token` under group `g` (a later insertion of the same token wins).
    pub(crate) fn insert(&mut self, token: &str, g: u8) {
        match short_key(token) {
            Some(k) => self.short.insert(k, g),
            None => self.long.insert(token.to_string(), g),
        };
    }

    /// The group of `token`, if it is a keyword.
    #[inline]
    pub(crate) fn get(&self, token: &str) -> Option<u8> {
        match short_key(token) {
            Some(k) => self.short.get(&k).copied(),
            None if self.long.is_empty() => None,
            None => self.long.get(token).copied(),
        }
    }
}

/// Removes a plural `s` from a token for keyword matching (`comments` -> `comment`).
pub(crate) fn singular(token: &str) -> &str {
    if token.len() > 3 && token.ends_with('s') && !token.ends_with("ss") {
        &token[..token.len() - 1]
    } else {
        token
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keywords_are_found_whole_whatever_their_length() {
        let mut k = Keywords::default();
        k.insert("nav", 2);
        k.insert("advertisement", 1);
        k.insert("averyveryverylongkeyword", 3);
        k.insert("nav", 0);
        assert_eq!(k.get("nav"), Some(0), "a later insertion wins");
        assert_eq!(k.get("advertisement"), Some(1));
        assert_eq!(k.get("averyveryverylongkeyword"), Some(3));
        for miss in [
            "na",
            "navi",
            "nav\0",
            "",
            "advertisements",
            "averyveryverylongkeywor",
        ] {
            assert_eq!(k.get(miss), None, "{miss:?}");
        }
    }

    fn vote(ix: &StopIndex, text: &str) -> (Option<whatlang::Lang>, u16, u16) {
        let (i, best, second) = ix.votes(text).best();
        (ix.lang(i), best, second)
    }

    #[test]
    fn stop_words_vote_for_the_language_of_running_text() {
        let ix = StopIndex::new();
        let cases = [
            (
                "The council said on Monday that the bridge would be closed for six weeks while \
                 the old cables are replaced, and that buses will run instead.",
                whatlang::Lang::Eng,
            ),
            (
                "Le conseil a annoncé lundi que le pont sera fermé pendant six semaines, le temps \
                 de remplacer les vieux câbles, et que des bus circuleront à la place.",
                whatlang::Lang::Fra,
            ),
            (
                "Der Stadtrat teilte am Montag mit, dass die Brücke sechs Wochen lang gesperrt \
                 wird, während die alten Kabel ersetzt werden, und dass stattdessen Busse fahren.",
                whatlang::Lang::Deu,
            ),
            (
                "Rada města v pondělí oznámila, že most bude na šest týdnů uzavřen, než se vymění \
                 staré kabely, a že místo tramvají pojedou autobusy.",
                whatlang::Lang::Ces,
            ),
        ];
        for (text, want) in cases {
            let (lang, best, second) = vote(&ix, text);
            assert_eq!(lang, Some(want), "{text}");
            assert!(best > second, "{want:?}: {best} vs {second}");
        }
        // English, whose list is long, wins by the margin that decides without whatlang.
        let (_, best, second) = vote(&ix, cases[0].0);
        assert!(best >= 3 && best >= 2 * second, "{best} vs {second}");
        // Nothing to vote on: no hits at all.
        assert_eq!(vote(&ix, "12345 -- | »").1, 0);
        assert!(ix.index_of(whatlang::Lang::Eng).is_some());
    }

    #[test]
    fn chinese_and_japanese_vote_for_their_languages() {
        let ix = StopIndex::new();
        let zh = "本报讯 昨天下午，来自二十多个国家的艺术家在北京参加了国际文化交流活动。\
                  组织者表示，这次活动旨在促进不同文化之间的相互理解。";
        let (lang, best, second) = vote(&ix, zh);
        assert_eq!(lang, Some(whatlang::Lang::Cmn), "{best} vs {second}");
        let ja = "昨日の午後、二十か国以上から来た芸術家たちが東京で国際文化交流のイベントに\
                  参加しました。主催者は、このイベントは文化の相互理解を深めるためのものだと述べた。";
        let (lang, best, second) = vote(&ix, ja);
        assert_eq!(lang, Some(whatlang::Lang::Jpn), "{best} vs {second}");
    }

    fn toks(t: &str) -> Vec<&str> {
        block_tokens(t).collect()
    }

    #[test]
    fn tokens_split_at_spaces_and_around_cjk_characters() {
        assert_eq!(toks(""), Vec::<&str>::new());
        assert_eq!(toks("  "), Vec::<&str>::new());
        assert_eq!(toks(" Hello,  world! "), ["Hello,", "world!"]);
        assert_eq!(toks("naïve café-crème"), ["naïve", "café-crème"]);
        // Every Han or kana character is a token; punctuation stays with the one before it.
        assert_eq!(
            toks("交流活动。活动"),
            ["交", "流", "活", "动。", "活", "动"]
        );
        assert_eq!(toks("東京タワー"), ["東", "京", "タ", "ワ", "ー"]);
        // Leading punctuation stays with the character after it.
        assert_eq!(toks("（新华社）"), ["（新", "华", "社）"]);
        // Latin letters and digits next to CJK characters are tokens of their own.
        assert_eq!(
            toks("用iPhone拍了3张照片"),
            ["用", "iPhone", "拍", "了", "3", "张", "照", "片"]
        );
        assert_eq!(toks("动。Apple 2008年"), ["动。", "Apple", "2008", "年"]);
        // Hangul keeps its space-separated words; symbols above U+3000 that are not CJK
        // characters do not split.
        assert_eq!(toks("한국어 단어"), ["한국어", "단어"]);
        assert_eq!(toks("a\u{3000}b ★★"), ["a\u{3000}b", "★★"]);
        assert!(is_cjk('中') && is_cjk('の') && is_cjk('カ') && is_cjk('\u{20000}'));
        assert!(!is_cjk('한') && !is_cjk('。') && !is_cjk('a'));
    }

    #[test]
    fn tokens_cover_the_text_but_its_spaces() {
        // Texts drawn from a mix of scripts by a fixed linear congruential generator: the
        // tokens, joined, are the text without its spaces; none is empty or holds a space; a
        // token holds at most one CJK character, and then no letter or digit of another script.
        let alphabet: Vec<char> = "aZ9 ,.。，、（）東京タワーの한국é—★\u{3000}\u{20000}"
            .chars()
            .collect();
        let mut state = 0x2545_f491_4f6c_dd1du64;
        for _ in 0..2000 {
            let mut text = String::new();
            for _ in 0..(state % 24) {
                state = state
                    .wrapping_mul(6_364_136_223_846_793_005)
                    .wrapping_add(1_442_695_040_888_963_407);
                text.push(alphabet[(state >> 33) as usize % alphabet.len()]);
            }
            let toks = toks(&text);
            assert_eq!(toks.concat(), text.replace(' ', ""), "{text:?}");
            for t in &toks {
                assert!(!t.is_empty() && !t.contains(' '), "{text:?}: {t:?}");
                let cjk = t.chars().filter(|&c| is_cjk(c)).count();
                let other = t
                    .chars()
                    .filter(|&c| !is_cjk(c) && c.is_alphanumeric())
                    .count();
                assert!(cjk <= 1 && (cjk == 0 || other == 0), "{text:?}: {t:?}");
            }
        }
    }

    #[test]
    fn tokens_of_text_without_spaces_take_linear_time() {
        // 300,000 Han characters and no space: a token per character. Looking for the next
        // space from every token would read 45 billion characters.
        let text = "中文".repeat(150_000);
        assert_eq!(block_tokens(&text).count(), 300_000);
        let text = format!("{} end", "日本語のテキスト。".repeat(20_000));
        assert_eq!(block_tokens(&text).count(), 160_001);
    }

    #[test]
    fn ascii_word_hash_agrees_with_the_general_one() {
        for w in [
            "",
            "the",
            "(The",
            "the,",
            "THE.",
            "e-mail",
            "x@y.com",
            "...",
            "--",
            "3:30",
            "B52s",
            "'quoted'",
            "a",
            "(",
            ")x(",
            "Antidisestablishmentarianism!",
        ] {
            assert_eq!(word_hash(w), word_hash_chars(w), "{w:?}");
        }
        for c in (0u8..128).map(char::from) {
            let w = format!("{c}a{c}b{c}");
            assert_eq!(word_hash(&w), word_hash_chars(&w), "{w:?}");
        }
    }

    #[test]
    fn word_hash_ignores_case_and_edge_punctuation() {
        assert_eq!(word_hash("The"), word_hash("the,"));
        assert_eq!(word_hash("(ÉTÉ)"), word_hash("été"));
        assert_ne!(word_hash("the"), word_hash("then"));
    }

    #[test]
    fn stop_words_come_from_the_crate() {
        let sw = StopWords::new();
        let en = sw.get("en").expect("English list");
        assert!(en.contains(&word_hash("the")) && en.contains(&word_hash("And")));
        assert!(!en.contains(&word_hash("boilerplate")));
        assert!(sw.get("cs").is_some());
        assert!(sw.get("xx").is_none());
    }

    #[test]
    fn tokens_of_class_values() {
        let mut v = Vec::new();
        attr_tokens("main-content post_body  x1", |t| v.push(t.to_string()));
        assert_eq!(v, ["main", "content", "post", "body", "x1"]);
        // The byte loop of ASCII values splits as the character loop does.
        for value in ["-a--b_", "nav", "", "--", "x1 y2.z3/", "a\tb"] {
            let mut bytes = Vec::new();
            attr_tokens(value, |t| bytes.push(t.to_string()));
            let chars: Vec<&str> = value
                .split(|c: char| !c.is_alphanumeric())
                .filter(|p| !p.is_empty())
                .collect();
            assert_eq!(bytes, chars, "{value:?}");
        }
        v.clear();
        attr_tokens("café-menü x2", |t| v.push(t.to_string()));
        assert_eq!(v, ["café", "menü", "x2"]);
        assert_eq!(singular("comments"), "comment");
        assert_eq!(singular("class"), "class");
    }
}

//! Word-level helpers shared by the feature modules: hashing words case-insensitively without
//! allocating, stop-word sets per language (from the `stop-words` crate: NLTK's lists where they
//! exist, else the stopwords-iso lists), ISO 639-3 to 639-1 codes, and `class`/`id` tokenization.

use std::hash::{BuildHasher, Hasher};
use std::sync::OnceLock;

use rustc_hash::{FxBuildHasher, FxHashSet};

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
        for &c in b.get(first..last).unwrap_or_default() {
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
pub struct StopIndex {
    langs: Vec<whatlang::Lang>,
    words: rustc_hash::FxHashMap<u64, u128>,
}

/// Stop-word hits per language of [`StopIndex`] (by index), and the number of words.
#[derive(Debug)]
pub struct StopVotes {
    /// Hits per language index.
    pub hits: [u16; 128],
    /// Words looked at.
    pub words: u16,
}

impl StopIndex {
    /// The index over every language whatlang knows that has a stop-word list (at most 128).
    pub fn new() -> Self {
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
    pub fn index_of(&self, lang: whatlang::Lang) -> Option<usize> {
        self.langs.iter().position(|l| *l == lang)
    }

    /// The language of an index.
    pub fn lang(&self, i: usize) -> Option<whatlang::Lang> {
        self.langs.get(i).copied()
    }

    /// Counts the stop words of every language among the space-separated words of `text`.
    pub fn votes(&self, text: &str) -> StopVotes {
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
        for w in text.split(' ').filter(|w| has_alnum(w)) {
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
    pub fn best(&self) -> (usize, u16, u16) {
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
                .unwrap_or_default()
        });
        (!set.is_empty()).then_some(set)
    }
}

/// Splits a `class` or `id` value (as the segmenter stores it: lowercased, camelCase words
/// already separated by `-`) into word tokens, on anything but letters and digits.
pub fn attr_tokens(value: &str, mut each: impl FnMut(&str)) {
    for part in value.split(|c: char| !c.is_alphanumeric()) {
        if !part.is_empty() {
            each(part);
        }
    }
}

/// Removes a plural `s` from a token for keyword matching (`comments` -> `comment`).
pub fn singular(token: &str) -> &str {
    if token.len() > 3 && token.ends_with('s') && !token.ends_with("ss") {
        &token[..token.len() - 1]
    } else {
        token
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
        assert_eq!(singular("comments"), "comment");
        assert_eq!(singular("class"), "class");
    }
}

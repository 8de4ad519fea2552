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

//! Text-level tokens, exactly as the acceptance scorer (`checks/score.py`) makes them.
//!
//! The scorer normalizes a text with NFKC, lowercases it (Python's `str.lower()`, which knows
//! the final sigma), and takes as tokens, left to right:
//! - each character of the CJK, kana and Thai ranges ([`is_single`]) alone, and
//! - each maximal run of other letters and digits ([`is_word_char`]: Python's `[^\W_]`).
//!
//! Everything else separates tokens. Texts are compared as multisets of tokens
//! ([`TokenBag`]).
//!
//! Design: a [`Tokenizer`] owns the scratch buffer that holds the normalized text, so
//! tokenizing a page allocates at most the normalized copy (nothing when the page is ASCII and
//! the buffer is warm) and tokens are `&str` slices of it. A bag keys tokens by a 64-bit SipHash
//! of their bytes rather than by owned strings; two different tokens of one page pair collide
//! with probability about n²/2⁶⁵ for n distinct tokens (below 10⁻¹¹ for 10⁴), which no score
//! printed with four decimals can show.

mod word;

use std::hash::{BuildHasher, BuildHasherDefault, DefaultHasher};

use rustc_hash::FxHashMap;
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

/// Splits texts into the scorer's tokens, reusing one buffer across calls.
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
    /// uses [`Tokenizer::fill_bag`]).
    pub fn tokens(&mut self, text: &str) -> Vec<String> {
        let mut out = Vec::new();
        self.for_each_token(text, |t| out.push(t.to_owned()));
        out
    }

    /// The multiset of the tokens of `text`.
    pub fn bag(&mut self, text: &str) -> TokenBag {
        let mut bag = TokenBag::new();
        self.fill_bag(text, &mut bag);
        bag
    }

    /// Replaces the content of `bag` with the tokens of `text`, keeping its allocation.
    pub fn fill_bag(&mut self, text: &str, bag: &mut TokenBag) {
        bag.clear();
        self.for_each_token(text, |t| bag.insert(t));
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

/// A multiset of tokens: how often each token occurs, and how many tokens there are.
///
/// Tokens are keyed by a 64-bit hash (see the module documentation), so a bag owns no strings
/// and two bags compare in time linear in the smaller one's distinct tokens.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct TokenBag {
    /// Occurrences per token key.
    counts: FxHashMap<u64, u32>,
    /// Number of tokens, repetitions included.
    total: u64,
}

/// The fixed-key SipHash used for token keys (the same in every run).
type KeyHasher = BuildHasherDefault<DefaultHasher>;

impl TokenBag {
    /// An empty bag.
    pub fn new() -> Self {
        Self::default()
    }

    /// Removes all tokens, keeping the allocation.
    pub fn clear(&mut self) {
        self.counts.clear();
        self.total = 0;
    }

    /// Adds one occurrence of `token`.
    pub fn insert(&mut self, token: &str) {
        let key = KeyHasher::default().hash_one(token);
        let count = self.counts.entry(key).or_insert(0);
        *count = count.saturating_add(1);
        self.total += 1;
    }

    /// Number of tokens, repetitions included.
    pub fn len(&self) -> u64 {
        self.total
    }

    /// Whether the bag holds no token.
    pub fn is_empty(&self) -> bool {
        self.total == 0
    }

    /// Number of distinct tokens.
    pub fn distinct(&self) -> usize {
        self.counts.len()
    }

    /// Occurrences of `token`.
    pub fn count(&self, token: &str) -> u32 {
        let key = KeyHasher::default().hash_one(token);
        self.counts.get(&key).copied().unwrap_or(0)
    }

    /// Size of the multiset intersection: the sum over tokens of the smaller count.
    pub fn overlap(&self, other: &TokenBag) -> u64 {
        let (small, large) = if self.counts.len() <= other.counts.len() {
            (self, other)
        } else {
            (other, self)
        };
        small
            .counts
            .iter()
            .map(|(key, &n)| u64::from(n.min(large.counts.get(key).copied().unwrap_or(0))))
            .sum()
    }
}

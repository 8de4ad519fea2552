//! Token multisets: texts compared as bags of the scorer's tokens ([`victor_core::words`]).
//!
//! A bag keys tokens by a 64-bit SipHash of their bytes rather than by owned strings; two
//! different tokens of one page pair collide with probability about n²/2⁶⁵ for n distinct
//! tokens (below 10⁻¹¹ for 10⁴), which no score printed with four decimals can show.

use std::hash::{BuildHasher, BuildHasherDefault, DefaultHasher};

use rustc_hash::FxHashMap;
pub use victor_core::words::{Tokenizer, is_single, is_word_char, tokens};

/// Token bags from a [`Tokenizer`].
pub trait Bags {
    /// The multiset of the tokens of `text`.
    fn bag(&mut self, text: &str) -> TokenBag;
    /// Replaces the content of `bag` with the tokens of `text`, keeping its allocation.
    fn fill_bag(&mut self, text: &str, bag: &mut TokenBag);
}

impl Bags for Tokenizer {
    fn bag(&mut self, text: &str) -> TokenBag {
        let mut bag = TokenBag::new();
        self.fill_bag(text, &mut bag);
        bag
    }

    fn fill_bag(&mut self, text: &str, bag: &mut TokenBag) {
        bag.clear();
        self.for_each_token(text, |t| bag.insert(t));
    }
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

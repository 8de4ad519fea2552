//! Body text extraction, BTE (seed `004`): Finn's idea, "find two points i, j such that the
//! number of HTML tags below i and above j and the number of text tokens between i and j are
//! maximized" (section 3), over the page's sequence of tags and words (Algorithm 1's
//! `binary_tokens`, a tag +1 and a word -1 in the seed's encoding).
//!
//! Tags outside a span plus words inside it is, up to the constant total of tags, the words
//! inside minus the tags inside: the best span is the maximum-sum subarray of the sequence with
//! a word worth +1 and a tag -1. The seed's improved Algorithm 2 is O(n^2) in the run-length
//! encoded sequence (`encode[]`); Kadane's algorithm finds the same maximum in one pass
//! ([`best_span`]; the tests check it against a brute-force search over the token sequence).
//!
//! victor's blocks are the word runs of that sequence and the tags recorded between blocks are
//! its tag runs: a block contributes its words, preceded by the tags opened and closed since
//! the previous block. Step 0 drops what cannot hold content before tokenizing: victor's
//! segmenter already drops `<script>`, `<style>`, comments and `<select>`; the tags of
//! `<img>`, `<input>`, `<iframe>`, `<marquee>`, `<embed>`, `<object>` and `<br>`-less void
//! elements the seed names are not counted here either.

use std::ops::Range;

use victor_core::Label;
use victor_features::Page;
use victor_features::Tag;

/// Tags that step 0 removes before tokenizing (their start and end tags count for nothing).
const DROPPED: &[&str] = &[
    "img", "input", "iframe", "marquee", "embed", "object", "script", "style", "noscript",
];

/// The maximum-sum run of a sequence of blocks, each given as `(tags before it, its words)`:
/// the range of blocks `[a, b)` that maximizes the words of blocks `a..b` minus the tags
/// recorded before blocks `a+1..b` (those between its blocks). Returns the range and its
/// value; an empty range at 0 when no block has words. Linear time, constant space.
pub(crate) fn best_span(blocks: impl IntoIterator<Item = (u32, u32)>) -> (Range<usize>, i64) {
    let (mut best, mut best_sum) = (0..0, 0i64);
    let (mut start, mut sum) = (0usize, i64::MIN);
    for (i, (tags, words)) in blocks.into_iter().enumerate() {
        let (tags, words) = (i64::from(tags), i64::from(words));
        // Extend the current run through the tags before this block, or start afresh here.
        if sum != i64::MIN && sum - tags > 0 {
            sum += words - tags;
        } else {
            start = i;
            sum = words;
        }
        if sum > best_sum {
            best_sum = sum;
            best = start..i + 1;
        }
    }
    (best, best_sum)
}

/// The tags and words of every block of a page, as [`best_span`] takes them.
pub(crate) fn token_runs(page: &Page) -> Vec<(u32, u32)> {
    let dropped: Vec<Tag> = DROPPED
        .iter()
        .filter_map(|n| Tag::lookup(n.as_bytes()))
        .collect();
    page.blocks
        .iter()
        .map(|b| {
            let tags: u32 = page
                .block_splits(b)
                .iter()
                .filter(|s| !dropped.contains(&s.tag))
                .map(|s| u32::from(s.opened) + u32::from(s.closed))
                .sum();
            let words = page.block_text(b).split_ascii_whitespace().count() as u32;
            (tags, words)
        })
        .collect()
}

/// Labels a page with BTE: the blocks with words inside the best span are kept (`header` inside
/// a heading element, else `text`), everything else is `other`.
pub(crate) fn label(page: &Page, out: &mut Vec<Label>) {
    let runs = token_runs(page);
    let (span, _) = best_span(runs.iter().copied());
    let heading = crate::in_heading(page);
    out.clear();
    out.extend(runs.iter().enumerate().map(|(i, (_, words))| {
        if span.contains(&i) && *words > 0 {
            crate::kept(&heading, page, i)
        } else {
            Label::Other
        }
    }));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testutil::{kept, page};
    use proptest::prelude::*;

    /// The seed's token sequence of the blocks: +1 a word, -1 a tag.
    fn tokens(blocks: &[(u32, u32)]) -> Vec<i64> {
        let mut t = Vec::new();
        for &(tags, words) in blocks {
            t.extend(std::iter::repeat_n(-1, tags as usize));
            t.extend(std::iter::repeat_n(1, words as usize));
        }
        t
    }

    /// Every span [i, j) of the token sequence, scored as the seed defines it: tags outside plus
    /// words inside; minus the total of tags, that is words inside minus tags inside. O(n^2).
    fn brute_force(tokens: &[i64]) -> i64 {
        let total_tags = tokens.iter().filter(|&&t| t < 0).count() as i64;
        let mut best = total_tags; // the empty span: every tag outside, no word inside
        for i in 0..tokens.len() {
            let (mut words_in, mut tags_in) = (0i64, 0i64);
            for &t in &tokens[i..] {
                if t > 0 {
                    words_in += 1
                } else {
                    tags_in += 1
                }
                best = best.max(words_in + (total_tags - tags_in));
            }
        }
        best - total_tags
    }

    proptest! {
        #[test]
        fn linear_search_equals_brute_force(blocks in prop::collection::vec((0u32..6, 0u32..6), 0..40)) {
            let (span, value) = best_span(blocks.iter().copied());
            prop_assert_eq!(value, brute_force(&tokens(&blocks)));
            // The span's own value is the maximum.
            let own: i64 = blocks[span.clone()].iter().enumerate()
                .map(|(k, &(t, w))| i64::from(w) - if k > 0 { i64::from(t) } else { 0 })
                .sum();
            prop_assert_eq!(own, value);
        }
    }

    #[test]
    fn seed_example_encoding() {
        // Two tags then five words (the seed's {2, -5}): the five words.
        assert_eq!(best_span([(2, 5)]), (0..1, 5));
        // A tag-heavy menu, a long text with a few inline tags, a tag-heavy footer.
        let blocks = [(3, 1), (4, 1), (4, 1), (2, 30), (2, 20), (6, 1), (5, 2)];
        assert_eq!(best_span(blocks), (3..5, 48));
        assert_eq!(best_span([]), (0..0, 0));
        assert_eq!(best_span([(1, 0), (2, 0)]), (0..0, 0));
    }

    #[test]
    fn keeps_the_text_dense_middle_of_a_page() {
        let p = page(
            "<body><div><ul><li><a href=/>Home</a></li><li><a href=/a>About</a></li><li><a href=/c>Contact us</a></li></ul></div>\
             <div><p>The body text of the page has many words in a row and only a few tags around them so it wins.</p>\
             <p>A second paragraph with <b>some</b> more words keeps the span going to here.</p></div>\
             <div><ul><li><a href=/t>Terms</a></li><li><a href=/p>Privacy</a></li></ul></div></body>",
        );
        let mut labels = Vec::new();
        label(&p, &mut labels);
        let k = kept(&p, &labels);
        assert_eq!(
            k.first().map(String::as_str),
            Some(
                "The body text of the page has many words in a row and only a few tags around them so it wins."
            )
        );
        assert_eq!(
            k.last().map(String::as_str),
            Some("more words keeps the span going to here.")
        );
        assert!(!k.iter().any(|t| t == "Home" || t == "Terms"));
    }

    #[test]
    fn dropped_tags_do_not_count() {
        let p = page("<p>one two three</p><img src=a><img src=b><img src=c><p>four five six</p>");
        let mut labels = Vec::new();
        label(&p, &mut labels);
        // Only </p><p> (2 tags) separate the two runs of three words: both are kept.
        assert_eq!(kept(&p, &labels).len(), 2);
    }
}

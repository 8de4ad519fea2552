//! The two token streams the aligner works on: the page's and the gold's, as interned ids.
//!
//! Blocks are concatenated in page order and segments in gold order, each stream remembering
//! where every block or segment starts. Matching then runs over whole streams, so a paragraph
//! split into several blocks by inline tags, or two gold paragraphs merged into one block,
//! need no special case. Token strings are interned once per page (one allocation per distinct
//! word); words of the page get the ids below [`Streams::page_vocab`], words found only in the
//! gold get higher ids and so can match nothing.

use rustc_hash::FxHashMap;

use super::AlignError;
use super::tag::GoldSegment;
use super::token::{Tokenizer, strip_bullet};
use victor_features::within::{ItemAt, Within};

/// Marks "no position" in the position maps, and a gold token absent from the page.
pub(crate) const NONE: u32 = u32::MAX;

/// Page and gold as interned token ids, with their block and segment boundaries.
#[derive(Debug, Default)]
pub(crate) struct Streams {
    /// Token ids of the page, blocks concatenated in page order.
    pub(crate) page: Vec<u32>,
    /// The block of every page token.
    pub(crate) page_block: Vec<u32>,
    /// Where each block starts in `page`, plus the end: one more entry than blocks.
    pub(crate) block_start: Vec<u32>,
    /// Token ids of the gold, segments concatenated in gold order.
    pub(crate) gold: Vec<u32>,
    /// The segment of every gold token.
    pub(crate) gold_segment: Vec<u32>,
    /// Whether a `?` touches the gold token in the gold text (see the token module).
    pub(crate) gold_wild: Vec<bool>,
    /// Where each segment starts in `gold`, plus the end: one more entry than segments.
    pub(crate) segment_start: Vec<u32>,
    /// Number of distinct page words: ids at or above it occur only in the gold.
    pub(crate) page_vocab: u32,
    /// The text of every word id, concatenated.
    word_text: String,
    /// Where each word id's text lies in `word_text`.
    word_span: Vec<(u32, u32)>,
}

/// Converts a count to a stream position, failing past what `u32` positions can hold.
fn position(count: usize) -> Result<u32, AlignError> {
    u32::try_from(count)
        .ok()
        .filter(|&p| p < NONE)
        .ok_or(AlignError::TooManyTokens {
            max: NONE as usize - 1,
        })
}

impl Streams {
    /// Tokenizes blocks and segments; the segments' tags are appended to `tags`.
    pub(crate) fn build<B, G, S, T>(
        blocks: B,
        gold: G,
        tags: &mut Vec<T>,
    ) -> Result<Self, AlignError>
    where
        B: IntoIterator,
        B::Item: AsRef<str>,
        G: IntoIterator<Item = GoldSegment<S, T>>,
        S: AsRef<str>,
    {
        let mut s = Streams::default();
        let mut tokenizer = Tokenizer::new();
        let mut vocab: FxHashMap<Box<str>, u32> = FxHashMap::default();
        for block in blocks {
            let b = position(s.block_start.len())?;
            s.block_start.push(position(s.page.len())?);
            tokenizer.run(block.as_ref());
            for span in tokenizer.spans() {
                let id = s.intern(&mut vocab, tokenizer.token(span))?;
                s.page.push(id);
                s.page_block.push(b);
            }
        }
        s.block_start.push(position(s.page.len())?);
        s.page_vocab = position(vocab.len())?;
        for segment in gold {
            let g = position(s.segment_start.len())?;
            s.segment_start.push(position(s.gold.len())?);
            tags.push(segment.tag);
            tokenizer.run(strip_bullet(segment.text.as_ref()));
            for span in tokenizer.spans() {
                let id = s.intern(&mut vocab, tokenizer.token(span))?;
                s.gold.push(id);
                s.gold_segment.push(g);
                s.gold_wild.push(span.wild);
            }
        }
        s.segment_start.push(position(s.gold.len())?);
        // Positions must stay below NONE; checking the final lengths is enough.
        position(s.page.len())?;
        position(s.gold.len())?;
        Ok(s)
    }

    /// The id of `word`, a new one if it was not seen yet.
    fn intern(
        &mut self,
        vocab: &mut FxHashMap<Box<str>, u32>,
        word: &str,
    ) -> Result<u32, AlignError> {
        if let Some(&id) = vocab.get(word) {
            return Ok(id);
        }
        let id = position(vocab.len())?;
        let start = position(self.word_text.len())?;
        self.word_text.push_str(word);
        self.word_span
            .push((start, position(self.word_text.len())?));
        vocab.insert(word.into(), id);
        Ok(id)
    }

    /// The text of word `id`.
    pub(crate) fn word(&self, id: u32) -> &str {
        // Ids are handed out by `intern`, which records each word's span as it appends it.
        let (a, b) = self.word_span.item_at(id as usize);
        self.word_text.within(a as usize..b as usize)
    }

    /// Whether word `id` occurs in the page.
    pub(crate) fn in_page(&self, id: u32) -> bool {
        id < self.page_vocab
    }

    /// Number of blocks.
    pub(crate) fn blocks(&self) -> usize {
        self.block_start.len().saturating_sub(1)
    }

    /// Number of gold segments.
    pub(crate) fn segments(&self) -> usize {
        self.segment_start.len().saturating_sub(1)
    }

    /// The page-token range of block `b`.
    pub(crate) fn block_range(&self, b: usize) -> std::ops::Range<usize> {
        range(&self.block_start, b)
    }

    /// The gold-token range of segment `s`.
    pub(crate) fn segment_range(&self, s: usize) -> std::ops::Range<usize> {
        range(&self.segment_start, s)
    }
}

fn range(starts: &[u32], i: usize) -> std::ops::Range<usize> {
    let start = starts.get(i).map_or(0, |&x| x as usize);
    let end = starts.get(i + 1).map_or(start, |&x| x as usize);
    start..end.max(start)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Label;

    #[test]
    fn streams_share_ids_and_mark_absent_words() {
        let mut tags = Vec::new();
        let s = Streams::build(
            ["Hello", "world!", "", "hello again"],
            [
                GoldSegment::new("o Hello  world", Label::Text),
                GoldSegment::new("Goodbye?", Label::Header),
            ],
            &mut tags,
        )
        .unwrap();
        assert_eq!(s.page, [0, 1, 0, 2]);
        assert_eq!(s.page_block, [0, 1, 3, 3]);
        assert_eq!(s.block_start, [0, 1, 2, 2, 4]);
        assert_eq!(s.gold, [0, 1, 3]);
        assert_eq!(s.page_vocab, 3);
        assert!(s.in_page(2) && !s.in_page(3));
        // Ids are the ones `intern` handed out (an id past them is a bug, asserted in debug).
        assert_eq!((s.word(1), s.word(3)), ("world", "goodbye"));
        assert_eq!(s.gold_segment, [0, 0, 1]);
        assert_eq!(s.gold_wild, [false, false, true]);
        assert_eq!(s.segment_start, [0, 2, 3]);
        assert_eq!(tags, [Label::Text, Label::Header]);
        assert_eq!(s.blocks(), 4);
        assert_eq!(s.segments(), 2);
        assert_eq!(s.block_range(2), 2..2);
        assert_eq!(s.block_range(9), 0..0);
    }
}

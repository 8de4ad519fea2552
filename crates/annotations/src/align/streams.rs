//! The two token streams the aligner works on: the page's and the gold's, as interned ids.
//!
//! Blocks are concatenated in page order and segments in gold order, each stream remembering
//! where every block or segment starts. Matching then runs over whole streams, so a paragraph
//! split into several blocks by inline tags, or two gold paragraphs merged into one block,
//! need no special case. Token strings are interned once per page (one allocation per distinct
//! word); gold tokens that never occur in the page get [`ABSENT`] and can match nothing.

use rustc_hash::FxHashMap;

use super::AlignError;
use super::tag::GoldSegment;
use super::token::{Tokenizer, strip_bullet};

/// Marks "no position" in the position maps, and a gold token absent from the page.
pub(crate) const NONE: u32 = u32::MAX;
/// The id of a gold token that does not occur in the page.
pub(crate) const ABSENT: u32 = u32::MAX;

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
                let text = tokenizer.token(span);
                let id = match vocab.get(text) {
                    Some(&id) => id,
                    None => {
                        let id = position(vocab.len())?;
                        vocab.insert(text.into(), id);
                        id
                    }
                };
                s.page.push(id);
                s.page_block.push(b);
            }
        }
        s.block_start.push(position(s.page.len())?);
        for segment in gold {
            let g = position(s.segment_start.len())?;
            s.segment_start.push(position(s.gold.len())?);
            tags.push(segment.tag);
            tokenizer.run(strip_bullet(segment.text.as_ref()));
            for span in tokenizer.spans() {
                let id = vocab.get(tokenizer.token(span)).copied().unwrap_or(ABSENT);
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
        assert_eq!(s.gold, [0, 1, ABSENT]);
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

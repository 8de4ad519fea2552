//! What the aligner reports: per block, per gold segment, totals; and block labels from it.
//!
//! Counts are in tokens (see the token module). A block's figures say how many of its tokens
//! were aligned to gold, how many of those to content segments (tags whose label is header or
//! text) and to header segments, and which tag most of its aligned tokens carry. Labelling is a
//! separate, cheap step ([`Alignment::labels`]) so the content threshold can be varied.

use super::AlignError;
use super::matching::Matching;
use super::streams::{NONE, Streams};
use super::tag::GoldTag;
use crate::Label;

/// The default share of a block's tokens that must align to content for it to be content.
pub const DEFAULT_CONTENT_THRESHOLD: f64 = 0.5;

/// How one block aligned.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BlockAlignment<T> {
    /// Number of tokens in the block.
    pub tokens: u32,
    /// Tokens aligned to any gold segment (content or not).
    pub aligned: u32,
    /// Tokens aligned to content segments (tags labelled header or text).
    pub content: u32,
    /// Tokens aligned to header segments (a subset of `content`).
    pub header: u32,
    /// The tag carrying most of the aligned tokens (the earliest in the block on ties), `None`
    /// if nothing aligned.
    pub tag: Option<T>,
}

impl<T> BlockAlignment<T> {
    /// The block's label on its own: content when at least `threshold` of its tokens (and at
    /// least one) aligned to content, then [`Label::Header`] if most of those are header tokens,
    /// else [`Label::Text`]; [`Label::Other`] otherwise. `None` for a block without tokens.
    pub fn label(&self, threshold: f64) -> Option<Label> {
        if self.tokens == 0 {
            return None;
        }
        let content = f64::from(self.content);
        if self.content > 0 && content >= threshold * f64::from(self.tokens) {
            if 2 * self.header > self.content {
                Some(Label::Header)
            } else {
                Some(Label::Text)
            }
        } else {
            Some(Label::Other)
        }
    }
}

/// How one gold segment aligned.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SegmentAlignment<T> {
    /// The segment's tag.
    pub tag: T,
    /// Number of tokens in the segment.
    pub tokens: u32,
    /// Tokens found in the page (matched exactly, or bridged as a small substitution).
    pub found: u32,
}

/// Token totals over the page and the gold.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Totals {
    /// Tokens in all blocks.
    pub page_tokens: u64,
    /// Page tokens aligned to any gold segment.
    pub page_aligned: u64,
    /// Page tokens aligned to content segments.
    pub page_content: u64,
    /// Tokens in all gold segments.
    pub gold_tokens: u64,
    /// Gold tokens found in the page.
    pub gold_found: u64,
    /// Tokens in content segments.
    pub content_gold_tokens: u64,
    /// Tokens of content segments found in the page.
    pub content_gold_found: u64,
}

/// How well a block labelling reproduces the gold, in tokens.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Fidelity {
    /// Tokens in content segments.
    pub gold_content_tokens: u64,
    /// Of those, tokens aligned to a block labelled content.
    pub gold_content_covered: u64,
    /// Tokens in blocks labelled content.
    pub labelled_content_tokens: u64,
    /// Of those, tokens aligned to a content segment.
    pub labelled_content_in_gold: u64,
}

impl Fidelity {
    /// Share of content gold tokens covered by content-labelled blocks (1 when there is none).
    pub fn recall(&self) -> f64 {
        ratio(self.gold_content_covered, self.gold_content_tokens)
    }

    /// Share of content-labelled block tokens found in content gold (1 when there is none).
    pub fn precision(&self) -> f64 {
        ratio(self.labelled_content_in_gold, self.labelled_content_tokens)
    }
}

fn ratio(part: u64, whole: u64) -> f64 {
    if whole == 0 {
        1.0
    } else {
        part as f64 / whole as f64
    }
}

/// The alignment of gold segments to the blocks of one page.
#[derive(Clone, Debug)]
pub struct Alignment<T> {
    blocks: Vec<BlockAlignment<T>>,
    segments: Vec<SegmentAlignment<T>>,
    totals: Totals,
    /// Block of each page token.
    page_block: Vec<u32>,
    /// Segment aligned to each page token, or NONE.
    page_segment: Vec<u32>,
    /// Segment of each gold token.
    gold_segment: Vec<u32>,
    /// Page token found for each gold token, or NONE.
    gold_to_page: Vec<u32>,
}

impl<T: GoldTag> Alignment<T> {
    /// Gathers the figures from the finished matching.
    pub(crate) fn build(s: Streams, m: Matching, tags: Vec<T>) -> Self {
        let page_segment: Vec<u32> = m
            .p2g
            .iter()
            .map(|&g| s.gold_segment.get(g as usize).copied().unwrap_or(NONE))
            .collect();
        let label_of = |seg: u32| tags.get(seg as usize).map(|t| t.label());

        let mut totals = Totals::default();
        let mut tally: Vec<(T, u32)> = Vec::new();
        let mut blocks = Vec::with_capacity(s.blocks());
        for b in 0..s.blocks() {
            let range = s.block_range(b);
            let mut block = BlockAlignment {
                tokens: range.len() as u32,
                aligned: 0,
                content: 0,
                header: 0,
                tag: None,
            };
            tally.clear();
            for &seg in page_segment.get(range).unwrap_or(&[]) {
                let Some(&tag) = tags.get(seg as usize) else {
                    continue;
                };
                block.aligned += 1;
                match tag.label() {
                    Label::Header => {
                        block.content += 1;
                        block.header += 1;
                    }
                    Label::Text => block.content += 1,
                    Label::Other => {}
                }
                match tally.iter_mut().find(|(t, _)| *t == tag) {
                    Some((_, n)) => *n += 1,
                    None => tally.push((tag, 1)),
                }
            }
            // The first tag with the highest count (max_by_key would take the last).
            let mut best: Option<(T, u32)> = None;
            for &(t, n) in &tally {
                if best.is_none_or(|(_, bn)| n > bn) {
                    best = Some((t, n));
                }
            }
            block.tag = best.map(|(t, _)| t);
            totals.page_tokens += u64::from(block.tokens);
            totals.page_aligned += u64::from(block.aligned);
            totals.page_content += u64::from(block.content);
            blocks.push(block);
        }

        let mut segments = Vec::with_capacity(s.segments());
        for (seg, &tag) in tags.iter().enumerate() {
            let range = s.segment_range(seg);
            let found = m
                .g2p
                .get(range.clone())
                .unwrap_or(&[])
                .iter()
                .filter(|&&p| p != NONE)
                .count() as u32;
            let tokens = range.len() as u32;
            totals.gold_tokens += u64::from(tokens);
            totals.gold_found += u64::from(found);
            if label_of(seg as u32).is_some_and(Label::is_content) {
                totals.content_gold_tokens += u64::from(tokens);
                totals.content_gold_found += u64::from(found);
            }
            segments.push(SegmentAlignment { tag, tokens, found });
        }

        Alignment {
            blocks,
            segments,
            totals,
            page_block: s.page_block,
            page_segment,
            gold_segment: s.gold_segment,
            gold_to_page: m.g2p,
        }
    }

    /// Per block, in page order.
    pub fn blocks(&self) -> &[BlockAlignment<T>] {
        &self.blocks
    }

    /// Per gold segment, in gold order.
    pub fn segments(&self) -> &[SegmentAlignment<T>] {
        &self.segments
    }

    /// Token totals.
    pub fn totals(&self) -> Totals {
        self.totals
    }

    /// Labels every block with [`BlockAlignment::label`] at `threshold`
    /// ([`DEFAULT_CONTENT_THRESHOLD`] is the usual choice).
    ///
    /// A block without tokens (punctuation such as the "!" of `Hello <b>world</b>!`, a `|`
    /// between menu items) takes the label of the nearest block with tokens before it when
    /// that block and the nearest one after it are both content or both other; when they
    /// disagree, and at the edges of the page, it is [`Label::Other`]. (Importers that know the
    /// markup may prefer to decide these blocks themselves.)
    pub fn labels(&self, threshold: f64) -> Vec<Label> {
        let own: Vec<Option<Label>> = self.blocks.iter().map(|b| b.label(threshold)).collect();
        // The label of the nearest block with tokens at or after each position.
        let mut after: Vec<Option<Label>> = vec![None; own.len()];
        let mut next = None;
        for (slot, l) in after.iter_mut().zip(&own).rev() {
            if l.is_some() {
                next = *l;
            }
            *slot = next;
        }
        let mut labels = Vec::with_capacity(own.len());
        let mut before: Option<Label> = None;
        for (l, a) in own.iter().zip(&after) {
            labels.push(match (l, before, a) {
                (Some(l), _, _) => {
                    before = Some(*l);
                    *l
                }
                (None, Some(b), Some(a)) if b == *a || (b.is_content() && a.is_content()) => b,
                _ => Label::Other,
            });
        }
        labels
    }

    /// How well `labels` (one per block) reproduce the gold: the share of content gold tokens
    /// aligned to blocks labelled content, and the share of those blocks' tokens aligned to
    /// content gold.
    ///
    /// # Errors
    ///
    /// [`AlignError::LabelCount`] when `labels` does not have one label per block.
    pub fn fidelity(&self, labels: &[Label]) -> Result<Fidelity, AlignError> {
        if labels.len() != self.blocks.len() {
            return Err(AlignError::LabelCount {
                labels: labels.len(),
                blocks: self.blocks.len(),
            });
        }
        let is_content_seg = |seg: u32| {
            self.segments
                .get(seg as usize)
                .is_some_and(|s| s.tag.label().is_content())
        };
        let block_is_content = |b: u32| labels.get(b as usize).is_some_and(|l| l.is_content());
        let mut f = Fidelity::default();
        for (&seg, &p) in self.gold_segment.iter().zip(&self.gold_to_page) {
            if !is_content_seg(seg) {
                continue;
            }
            f.gold_content_tokens += 1;
            if self
                .page_block
                .get(p as usize)
                .is_some_and(|&b| block_is_content(b))
            {
                f.gold_content_covered += 1;
            }
        }
        for (&b, &seg) in self.page_block.iter().zip(&self.page_segment) {
            if block_is_content(b) {
                f.labelled_content_tokens += 1;
                if is_content_seg(seg) {
                    f.labelled_content_in_gold += 1;
                }
            }
        }
        Ok(f)
    }
}

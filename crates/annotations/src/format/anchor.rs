//! Anchors: block labels tied to the text they cover, and found again on a fresh segmentation.
//!
//! [`anchor_labels`] turns one label per block into anchors for the blocks that are not
//! `other`: index (a hint), byte range in the decoded document, text. [`resolve_labels`] does
//! the reverse on a page segmented again: each anchor must find a block with exactly its range
//! (tried at the hinted index first, then by binary search on the ranges) and that block must
//! have exactly its text. Anything else is an [`AnchorError`] naming the page and the block: a
//! label is never moved to a block it was not given to.

use victor_features::{Block, Page};

use super::record::BlockLabel;
use crate::Label;

/// Longest excerpt of block text quoted in an error message, in characters.
const EXCERPT_CHARS: usize = 60;

/// Why labels and blocks do not fit together.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AnchorError {
    /// [`anchor_labels`] was given a label count that is not the block count.
    #[error("{labels} labels given for {blocks} blocks")]
    LabelCount {
        /// Labels given.
        labels: usize,
        /// Blocks of the page.
        blocks: usize,
    },
    /// No block of the page has the anchor's byte range any more.
    #[error(
        "page {page}: the {label} label of block {block} (bytes {start}..{end}, {text:?}) fits no \
         block of the page as segmented now{}",
        found.as_ref().map(|f| format!(" (the block there now reads {f:?})")).unwrap_or_default()
    )]
    NoBlock {
        /// The page id.
        page: String,
        /// The block index recorded with the label.
        block: u32,
        /// Start of the recorded range.
        start: u32,
        /// End of the recorded range.
        end: u32,
        /// The label.
        label: Label,
        /// Excerpt of the recorded text.
        text: String,
        /// Excerpt of the block now overlapping the range's start, if any.
        found: Option<String>,
    },
    /// A block has the anchor's range, but not its text.
    #[error(
        "page {page}: the {label} label of block {block} (bytes {start}..{end}) was given to \
         {expected:?}, but the block there now reads {found:?}"
    )]
    TextChanged {
        /// The page id.
        page: String,
        /// The block index recorded with the label.
        block: u32,
        /// Start of the range.
        start: u32,
        /// End of the range.
        end: u32,
        /// The label.
        label: Label,
        /// Excerpt of the recorded text.
        expected: String,
        /// Excerpt of the block's text now.
        found: String,
    },
    /// Two anchors land on the same block.
    #[error("page {page}: block {block} (bytes {start}..{end}) is labelled twice")]
    Duplicate {
        /// The page id.
        page: String,
        /// The block index now.
        block: usize,
        /// Start of the range.
        start: u32,
        /// End of the range.
        end: u32,
    },
}

/// Anchors for every block whose label is not [`Label::Other`], in page order.
///
/// # Errors
///
/// [`AnchorError::LabelCount`] unless there is exactly one label per block.
pub fn anchor_labels(page: &Page, labels: &[Label]) -> Result<Vec<BlockLabel>, AnchorError> {
    if labels.len() != page.blocks.len() {
        return Err(AnchorError::LabelCount {
            labels: labels.len(),
            blocks: page.blocks.len(),
        });
    }
    Ok(page
        .blocks
        .iter()
        .zip(labels)
        .enumerate()
        .filter(|(_, (_, l))| l.is_content())
        .map(|(i, (b, &label))| BlockLabel {
            block: u32::try_from(i).unwrap_or(u32::MAX),
            start: b.source.start,
            end: b.source.end,
            label,
            text: page.block_text(b).to_string(),
        })
        .collect())
}

/// One label per block of `page` from the anchors; blocks without one are [`Label::Other`].
///
/// `page_id` only names the page in errors.
///
/// # Errors
///
/// [`AnchorError::NoBlock`] when no block has an anchor's range, [`AnchorError::TextChanged`]
/// when the block there has other text, [`AnchorError::Duplicate`] when two anchors find the
/// same block.
pub fn resolve_labels(
    page_id: &str,
    page: &Page,
    anchors: &[BlockLabel],
) -> Result<Vec<Label>, AnchorError> {
    let mut labels = vec![Label::Other; page.blocks.len()];
    let mut assigned = vec![false; page.blocks.len()];
    for a in anchors {
        let Some(i) = find_block(&page.blocks, a) else {
            let found = page
                .blocks
                .iter()
                .find(|b| b.source.start <= a.start && a.start < b.source.end)
                .map(|b| excerpt(page.block_text(b)));
            return Err(AnchorError::NoBlock {
                page: page_id.to_string(),
                block: a.block,
                start: a.start,
                end: a.end,
                label: a.label,
                text: excerpt(&a.text),
                found,
            });
        };
        let text = page.blocks.get(i).map_or("", |b| page.block_text(b));
        if text != a.text {
            return Err(AnchorError::TextChanged {
                page: page_id.to_string(),
                block: a.block,
                start: a.start,
                end: a.end,
                label: a.label,
                expected: excerpt(&a.text),
                found: excerpt(text),
            });
        }
        match (assigned.get_mut(i), labels.get_mut(i)) {
            (Some(seen), Some(slot)) if !*seen => {
                *seen = true;
                *slot = a.label;
            }
            _ => {
                return Err(AnchorError::Duplicate {
                    page: page_id.to_string(),
                    block: i,
                    start: a.start,
                    end: a.end,
                });
            }
        }
    }
    Ok(labels)
}

/// The index of the block with exactly the anchor's range: the hinted index, else a binary
/// search (blocks are in document order), else a scan (a repaired page could break order).
fn find_block(blocks: &[Block], a: &BlockLabel) -> Option<usize> {
    let fits = |b: &Block| b.source.start == a.start && b.source.end == a.end;
    let hint = a.block as usize;
    if blocks.get(hint).is_some_and(fits) {
        return Some(hint);
    }
    let i = blocks.partition_point(|b| b.source.start < a.start);
    if blocks.get(i).is_some_and(fits) {
        return Some(i);
    }
    blocks.iter().position(fits)
}

/// The first [`EXCERPT_CHARS`] characters of `text`, with `…` when cut.
fn excerpt(text: &str) -> String {
    match text.char_indices().nth(EXCERPT_CHARS) {
        Some((cut, _)) => format!("{}…", text.get(..cut).unwrap_or(text)),
        None => text.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn page(html: &str) -> Page {
        victor_features::segment(html).unwrap()
    }

    #[test]
    fn anchors_round_trip_and_survive_shifted_indices() {
        let p = page("<h1>Title</h1><p>Hello <b>world</b>!</p><p>Menu</p>");
        let texts: Vec<&str> = p.blocks.iter().map(|b| p.block_text(b)).collect();
        assert_eq!(texts, ["Title", "Hello", "world", "!", "Menu"]);
        use Label::{Header as H, Other as O, Text as T};
        let labels = [H, T, T, T, O];
        let anchors = anchor_labels(&p, &labels).unwrap();
        assert_eq!(anchors.len(), 4);
        assert_eq!(
            anchors[0],
            BlockLabel {
                block: 0,
                start: 4,
                end: 9,
                label: H,
                text: "Title".into()
            }
        );
        assert_eq!(resolve_labels("p", &p, &anchors).unwrap(), labels);
        // A stale hint is only a hint: the range finds the block.
        let mut moved = anchors.clone();
        moved[1].block = 7;
        assert_eq!(resolve_labels("p", &p, &moved).unwrap(), labels);
        assert_eq!(
            anchor_labels(&p, &labels[..2]),
            Err(AnchorError::LabelCount {
                labels: 2,
                blocks: 5
            })
        );
    }

    #[test]
    fn misfits_are_errors() {
        let p = page("<p>Hello <b>world</b></p>");
        let good = BlockLabel {
            block: 1,
            start: 12,
            end: 17,
            label: Label::Text,
            text: "world".into(),
        };
        assert_eq!(
            resolve_labels("x", &p, std::slice::from_ref(&good)).unwrap()[1],
            Label::Text
        );
        let shifted = BlockLabel {
            start: 5,
            ..good.clone()
        };
        let err = resolve_labels("x", &p, &[shifted]).unwrap_err();
        assert!(matches!(&err, AnchorError::NoBlock { found: Some(f), .. } if f == "Hello"));
        assert_eq!(
            err.to_string(),
            "page x: the text label of block 1 (bytes 5..17, \"world\") fits no block of the \
             page as segmented now (the block there now reads \"Hello\")"
        );
        let other_text = BlockLabel {
            text: "World".into(),
            ..good.clone()
        };
        assert!(matches!(
            resolve_labels("x", &p, &[other_text]),
            Err(AnchorError::TextChanged { block: 1, .. })
        ));
        assert!(matches!(
            resolve_labels("x", &p, &[good.clone(), good]),
            Err(AnchorError::Duplicate { block: 1, .. })
        ));
    }

    #[test]
    fn excerpts_are_cut_on_characters() {
        let long = "é".repeat(70);
        let e = excerpt(&long);
        assert_eq!(e.chars().count(), EXCERPT_CHARS + 1);
        assert!(e.ends_with('…'));
        assert_eq!(excerpt("short"), "short");
    }
}

//! Anchors: block labels tied to the text they cover, and found again on a fresh segmentation.
//!
//! [`anchor_labels`] turns one label per block into anchors for the blocks that are not
//! `other`: index (a hint), byte range in the decoded document, text. [`resolve_labels`] does
//! the reverse on a page segmented again: each anchor must find a block with exactly its range
//! (tried at the hinted index first, then by binary search on the ranges) and that block must
//! have exactly its text. Anything else is an [`AnchorError`] naming the page and the block: a
//! label is never moved to a block it was not given to.
//!
//! One exception keeps annotations alive across improvements of the decoder: a block whose text
//! differs from the anchor's only in a few non-ASCII characters, one for one (a malformed byte
//! once read as U+FFFD and now as `’`, say), is the block the label was given to when it sits at
//! the anchor's range or at its recorded index. Such a repair shifts the byte ranges of all
//! later blocks when the characters' lengths differ (`�` is three bytes in UTF-8, `é` two), so
//! a block at the recorded index with exactly the anchor's text is the labelled block too. The
//! recorded index is only tried while the page has as many blocks as when it was labelled, and
//! the page's labels load only if every anchor finds its block. Any difference in ASCII
//! characters, in length, or in more than one character in [`REDECODED_SHARE`] is still an
//! error: that is a different block or a different page.

use serde::{Deserialize, Serialize};
use victor_features::{Block, Page};

use crate::Label;

/// One labelled block, anchored to the text it covers.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BlockLabel {
    /// Index of the block when it was labelled: a hint for finding it again, not the anchor.
    pub block: u32,
    /// Start of the block's text in the decoded document (byte offset).
    pub start: u32,
    /// End of the block's text in the decoded document (byte offset, exclusive).
    pub end: u32,
    /// The label.
    pub label: Label,
    /// The block's text as the segmenter gives it (entities decoded, white space collapsed).
    pub text: String,
}

/// Longest excerpt of block text quoted in an error message, in characters.
const EXCERPT_CHARS: usize = 60;

/// A block may differ from its anchor in at most one character in this many (and only in
/// non-ASCII ones) to count as the same block decoded differently.
const REDECODED_SHARE: usize = 4;

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
    anchor_labels_where(page, labels, |i| labels[i].is_content())
}

/// Anchors for the blocks `i` of `page` with `keep(i)`, labelled `labels[i]`.
pub(crate) fn anchor_labels_where(
    page: &Page,
    labels: &[Label],
    keep: impl Fn(usize) -> bool,
) -> Result<Vec<BlockLabel>, AnchorError> {
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
        .filter(|(i, _)| keep(*i))
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
/// `page_id` only names the page in errors. `recorded_blocks` is the page's block count when the
/// labels were made ([`PageInfo::blocks`](super::record::PageInfo::blocks)): only while the page
/// still has that many blocks is a block looked for at an anchor's recorded index.
///
/// # Errors
///
/// [`AnchorError::NoBlock`] when no block has an anchor's range, [`AnchorError::TextChanged`]
/// when the block there has other text (in both cases unless the block is found decoded
/// differently, as the module docs say), [`AnchorError::Duplicate`] when two anchors find the
/// same block.
pub fn resolve_labels(
    page_id: &str,
    page: &Page,
    anchors: &[BlockLabel],
    recorded_blocks: usize,
) -> Result<Vec<Label>, AnchorError> {
    resolve_anchored(page_id, page, anchors, recorded_blocks).map(|(labels, _)| labels)
}

/// [`resolve_labels`], also telling which blocks an anchor found (the blocks whose label is
/// known when the page's unlabelled blocks are unknown).
///
/// # Errors
///
/// As [`resolve_labels`].
pub(crate) fn resolve_anchored(
    page_id: &str,
    page: &Page,
    anchors: &[BlockLabel],
    recorded_blocks: usize,
) -> Result<(Vec<Label>, Vec<bool>), AnchorError> {
    let same_count = page.blocks.len() == recorded_blocks;
    let mut labels = vec![Label::Other; page.blocks.len()];
    let mut assigned = vec![false; page.blocks.len()];
    let text_of = |i: usize| page.blocks.get(i).map_or("", |b| page.block_text(b));
    for a in anchors {
        let by_range = find_block(&page.blocks, a);
        let i = match by_range {
            Some(i) if text_of(i) == a.text => i,
            _ => {
                // The same block, decoded differently: at the range, else at the recorded index.
                let hint = a.block as usize;
                let at_range = by_range.filter(|&i| redecoded(&a.text, text_of(i)));
                let at_hint = (same_count && hint < page.blocks.len())
                    .then_some(hint)
                    .filter(|&i| text_of(i) == a.text || redecoded(&a.text, text_of(i)));
                match at_range.or(at_hint) {
                    Some(i) => i,
                    None => return Err(misfit(page_id, page, a, by_range)),
                }
            }
        };
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
    Ok((labels, assigned))
}

/// The error for an anchor that found no block: [`AnchorError::TextChanged`] when a block has
/// its range (`by_range`), else [`AnchorError::NoBlock`] quoting the block now at its start.
fn misfit(page_id: &str, page: &Page, a: &BlockLabel, by_range: Option<usize>) -> AnchorError {
    let text_at = |b: &Block| excerpt(page.block_text(b));
    match by_range.and_then(|i| page.blocks.get(i)) {
        Some(b) => AnchorError::TextChanged {
            page: page_id.to_string(),
            block: a.block,
            start: a.start,
            end: a.end,
            label: a.label,
            expected: excerpt(&a.text),
            found: text_at(b),
        },
        None => AnchorError::NoBlock {
            page: page_id.to_string(),
            block: a.block,
            start: a.start,
            end: a.end,
            label: a.label,
            text: excerpt(&a.text),
            found: page
                .blocks
                .iter()
                .find(|b| b.source.start <= a.start && a.start < b.source.end)
                .map(text_at),
        },
    }
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

/// Whether `now` is `recorded` with a few characters decoded differently: as many characters,
/// every difference a non-ASCII character on both sides, and at most one character in
/// [`REDECODED_SHARE`] different (at least one: equal texts are not a repair).
fn redecoded(recorded: &str, now: &str) -> bool {
    let (mut chars, mut differ) = (0usize, 0usize);
    let mut a = recorded.chars();
    let mut b = now.chars();
    loop {
        match (a.next(), b.next()) {
            (None, None) => break,
            (Some(x), Some(y)) => {
                chars += 1;
                if x != y {
                    if x.is_ascii() || y.is_ascii() {
                        return false;
                    }
                    differ += 1;
                }
            }
            _ => return false,
        }
    }
    differ > 0 && differ * REDECODED_SHARE <= chars
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

    /// Resolves anchors made on a page with as many blocks as `p`.
    fn resolve(id: &str, p: &Page, anchors: &[BlockLabel]) -> Result<Vec<Label>, AnchorError> {
        resolve_labels(id, p, anchors, p.blocks.len())
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
        assert_eq!(resolve("p", &p, &anchors).unwrap(), labels);
        // A stale hint is only a hint: the range finds the block.
        let mut moved = anchors.clone();
        moved[1].block = 7;
        assert_eq!(resolve("p", &p, &moved).unwrap(), labels);
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
            resolve("x", &p, std::slice::from_ref(&good)).unwrap()[1],
            Label::Text
        );
        // A range that fits no block, and no block with the text at the recorded index.
        let shifted = BlockLabel {
            start: 5,
            block: 0,
            ..good.clone()
        };
        let err = resolve("x", &p, std::slice::from_ref(&shifted)).unwrap_err();
        assert!(matches!(&err, AnchorError::NoBlock { found: Some(f), .. } if f == "Hello"));
        assert_eq!(
            err.to_string(),
            "page x: the text label of block 0 (bytes 5..17, \"world\") fits no block of the \
             page as segmented now (the block there now reads \"Hello\")"
        );
        // At the recorded index with exactly its text, the block is found whatever the range
        // (a repaired character earlier in the page moves all later ranges).
        let at_index = BlockLabel {
            block: 1,
            ..shifted
        };
        assert_eq!(
            resolve("x", &p, std::slice::from_ref(&at_index)).unwrap()[1],
            Label::Text
        );
        // Not when the page was labelled with another block count: the segmentation changed.
        assert!(matches!(
            resolve_labels("x", &p, &[at_index], 3),
            Err(AnchorError::NoBlock { .. })
        ));
        let other_text = BlockLabel {
            text: "World".into(),
            ..good.clone()
        };
        assert!(matches!(
            resolve("x", &p, &[other_text]),
            Err(AnchorError::TextChanged { block: 1, .. })
        ));
        assert!(matches!(
            resolve("x", &p, &[good.clone(), good]),
            Err(AnchorError::Duplicate { block: 1, .. })
        ));
    }

    #[test]
    fn a_block_decoded_differently_keeps_its_label() {
        use Label::{Other as O, Text as T};
        // An older decoder read a malformed byte as U+FFFD (3 bytes in UTF-8); today's reads
        // it as `é` (2 bytes), so the block's text differs and every later range moves by one.
        let old = page("<p>Caf\u{fffd} au lait, the drink</p><p>Menu</p><p>Second paragraph</p>");
        let new = page("<p>Café au lait, the drink</p><p>Menu</p><p>Second paragraph</p>");
        let labels = [T, O, T];
        let anchors = anchor_labels(&old, &labels).unwrap();
        assert_eq!(anchors[1].start, new.blocks[2].source.start + 1);
        assert_eq!(resolve("p", &new, &anchors).unwrap(), labels);
        // Same byte length (`’` for U+FFFD): found at the range.
        let old = page("<p>the coverage\u{fffd}s start</p>");
        let new = page("<p>the coverage’s start</p>");
        let anchors = anchor_labels(&old, &[T]).unwrap();
        assert_eq!(resolve("p", &new, &anchors).unwrap(), [T]);
    }

    #[test]
    fn a_different_text_is_no_repair() {
        let recorded = |text: &str| BlockLabel {
            block: 0,
            start: 3,
            end: 3 + text.len() as u32,
            label: Label::Text,
            text: text.into(),
        };
        // A whole page read in another code page: every letter differs.
        let p = page("<p>ÏÐÈÂÅÒ</p>");
        let err = resolve("p", &p, &[recorded("привет")]).unwrap_err();
        assert!(matches!(err, AnchorError::TextChanged { .. }), "{err}");
        // An ASCII letter differs, or a character is missing: another text.
        for (old, now) in [("Café Bar", "Cafe Bar"), ("Caf\u{fffd} Bar", "Caf Bar")] {
            let p = page(&format!("<p>{now}</p>"));
            assert!(
                resolve("p", &p, &[recorded(old)]).is_err(),
                "{old} -> {now}"
            );
        }
        assert!(redecoded("Caf\u{fffd} au lait", "Café au lait"));
        assert!(!redecoded("Café", "Café"));
        assert!(
            !redecoded("\u{fffd}\u{fffd}ab", "ééab"),
            "half the characters"
        );
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

//! What the tree says about each block: container classes of its ancestors, its `div` and `td`
//! groups, its paragraph, and the nearest ancestors that carry a `class` or `id`.
//!
//! Everything is derived from one memoized pass over the elements (each element's facts are its
//! parent's plus its own), so the cost is linear in the page even when blocks are deeply nested.

use victor_html::within::ItemAt;
use victor_html::{ElementId, Page};
use victor_html::{KNOWN_TAGS, Props, Tag};

/// A set of known tags.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TagSet([u64; KNOWN_TAGS.div_ceil(64)]);

impl TagSet {
    /// Adds a tag (unknown tags cannot be members).
    pub fn insert(&mut self, t: Tag) {
        let i = t.0 as usize;
        if let Some(w) = self.0.get_mut(i / 64) {
            *w |= 1 << (i % 64);
        }
    }

    /// Membership.
    #[inline]
    pub fn contains(&self, t: Tag) -> bool {
        let i = t.0 as usize;
        self.0.get(i / 64).is_some_and(|w| w & (1 << (i % 64)) != 0)
    }
}

/// Facts about an element that blocks inherit.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct ElemInfo {
    /// Bit `k` set when the element or an ancestor belongs to container class `k`.
    pub containers: u32,
    /// Nearest `div` (the element itself included), 0 for none.
    pub div: ElementId,
    /// Nearest `td`/`th`, 0 for none.
    pub td: ElementId,
    /// Nearest block-level element.
    pub block: ElementId,
    /// Nearest elements carrying a `class` or `id` (0 for none), nearest first.
    pub attr: [ElementId; 2],
    /// Whether the nearest block-level element holds an `img`.
    pub has_img: bool,
    /// Whether the element or an ancestor is invisible: hidden by its attributes, or carrying a
    /// whole class name (or id) that hides it ([`hiding_class`]).
    pub hidden: bool,
}

/// Per-element facts for a page.
#[derive(Debug, Default)]
pub(crate) struct Structure {
    /// Facts per element id.
    pub info: Vec<ElemInfo>,
    /// Element ids with every parent before its children (the root excluded).
    pub order: Vec<u32>,
    /// Paragraph index of each block.
    pub paragraph: Vec<u32>,
    /// First block of each paragraph, plus the total (so paragraph `p` spans
    /// `paragraph_start[p]..paragraph_start[p + 1]`).
    pub paragraph_start: Vec<u32>,
}

impl Structure {
    /// Computes the facts; `containers[k]` is the tag set of container class `k`.
    pub(crate) fn of(page: &Page, containers: &[TagSet]) -> Structure {
        let n = page.elements.len();
        let order = top_down(page);
        // Each known tag's container classes, once per page rather than a test of every class
        // at every element (unknown tags are in no class).
        let mut tag_classes = [0u32; KNOWN_TAGS];
        for (k, set) in containers.iter().enumerate().take(32) {
            for (t, m) in tag_classes.iter_mut().enumerate() {
                if set.contains(Tag(t as u16)) {
                    *m |= 1 << k;
                }
            }
        }
        let mut info = vec![ElemInfo::default(); n];
        for &e in &order {
            let e = e as usize;
            let el = &page.elements[e];
            let parent = el.parent as usize;
            let pinfo = if parent < n && parent != e {
                info[parent]
            } else {
                ElemInfo::default()
            };
            let mut me = pinfo;
            // A placeholder `<a>` (no href) is in no container class: it is not a link.
            if !el.placeholder {
                me.containers |= tag_classes.get(usize::from(el.tag.0)).copied().unwrap_or(0);
            }
            let id = e as ElementId;
            if el.tag == Tag::DIV {
                me.div = id;
            }
            if el.tag == Tag::TD || el.tag == Tag::TH {
                me.td = id;
            }
            if el.tag.is(Props::BLOCK) {
                me.block = id;
            }
            if !el.class.is_empty() || !el.id.is_empty() {
                me.attr = [id, pinfo.attr[0]];
                // `<body>` and `<html>` are never hidden by a class: sites put page-wide
                // switches there (MediaWiki's `mw-hide-empty-elt`).
                if !me.hidden && el.tag != Tag::BODY && el.tag != Tag::HTML {
                    me.hidden = [page.class_of(el), page.id_of(el)]
                        .iter()
                        .any(|v| v.split_ascii_whitespace().any(hiding_class));
                }
            }
            me.hidden |= el.hidden;
            info[e] = me;
        }
        let mut s = Structure {
            info,
            order,
            paragraph: Vec::with_capacity(page.blocks.len()),
            paragraph_start: Vec::new(),
        };
        s.mark_img(page);
        s.paragraphs(page);
        s
    }

    /// An `img` element marks its nearest block-level ancestor; blocks in that element get
    /// `has_img` (captions, image links, teasers with pictures).
    fn mark_img(&mut self, page: &Page) {
        let n = self.info.len();
        let mut marked = vec![false; n];
        for (e, el) in page.elements.iter().enumerate() {
            if el.tag == Tag::IMG
                && let Some(m) = marked.get_mut(self.info[e].block as usize)
            {
                *m = true;
            }
        }
        for i in &mut self.info {
            i.has_img = marked.get(i.block as usize).copied().unwrap_or(false);
        }
    }

    fn paragraphs(&mut self, page: &Page) {
        let mut prev_block_elem = u32::MAX;
        for (i, b) in page.blocks.iter().enumerate() {
            let blk = self.info.get(b.parent as usize).map_or(0, |x| x.block);
            let mut brs = 0u32;
            let mut block_tag = false;
            for s in page.block_splits(b) {
                if s.tag == Tag::BR {
                    brs += u32::from(s.opened) + u32::from(s.closed);
                } else if s.tag.is(Props::BLOCK) {
                    block_tag = true;
                }
            }
            if i == 0 || block_tag || brs >= 2 || blk != prev_block_elem {
                self.paragraph_start.push(i as u32);
            }
            prev_block_elem = blk;
            self.paragraph
                .push(self.paragraph_start.len().saturating_sub(1) as u32);
        }
        self.paragraph_start.push(page.blocks.len() as u32);
    }

    /// Facts of a block's parent element.
    #[inline]
    pub(crate) fn of_block(&self, parent: ElementId) -> ElemInfo {
        self.info.item_at(parent as usize)
    }
}

/// Whether a whole class name (or id) is one that hides its element in the usual style sheets:
/// `hidden`, `hide`, `invisible`, Bootstrap's `d-none`, `is-hidden`, and the screen-reader-only
/// classes (`sr-only`, `visually-hidden`, WordPress's `screen-reader-text`, Drupal's
/// `element-invisible`). Whole names only: a word inside a longer name does not hide
/// (`mw-hide-empty-elt`, `hide-on-mobile`, `comments-hidden-count`).
pub(crate) fn hiding_class(name: &str) -> bool {
    matches!(
        name,
        "hidden"
            | "hide"
            | "invisible"
            | "d-none"
            | "is-hidden"
            | "display-none"
            | "sr-only"
            | "visually-hidden"
            | "screen-reader-text"
            | "element-invisible"
    )
}

/// Element ids ordered so that every parent comes before its children. Parents usually have
/// smaller ids, but adoption-agency moves can give an element a parent created after it; each
/// element is placed after walking up to an ancestor already placed. Linear in the page.
pub fn top_down(page: &Page) -> Vec<u32> {
    let n = page.elements.len();
    // Most pages: every parent was created before its children, and the order is the ids'.
    if page
        .elements
        .iter()
        .enumerate()
        .skip(1)
        .all(|(e, el)| (el.parent as usize) < e)
    {
        return (1..n as u32).collect();
    }
    let mut placed = vec![false; n];
    if n > 0 {
        placed[0] = true;
    }
    let mut order = Vec::with_capacity(n.saturating_sub(1));
    let mut chain: Vec<usize> = Vec::new();
    for start in 1..n {
        if placed[start] {
            continue;
        }
        chain.clear();
        let mut e = start;
        while !placed[e] && chain.len() <= n {
            chain.push(e);
            placed[e] = true;
            let p = page.elements[e].parent as usize;
            if p >= n || p == e {
                break;
            }
            e = p;
        }
        while let Some(e) = chain.pop() {
            order.push(e as u32);
        }
    }
    order
}

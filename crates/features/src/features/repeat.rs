//! Repeated items: the posts of a forum thread, the cards of a listing, the tiles of a
//! collection, the rows of a table of products.
//!
//! A page made of repeated items shows it in its tree: a run of sibling containers with the same
//! tag and the same class pattern (`div.post`, `li.product-card`, `article.teaser`). A block's
//! own features cannot see whether it sits in such a run, and a model trained on articles learns
//! that the text of a page is one article: a thread becomes its first post, a listing its first
//! card. This module describes, for every block, the run its text belongs to, and, for the whole
//! page, its dominant run, so that the CRF conditions on the kind of page as well as on the block.
//!
//! One pass over the elements, linear in the page:
//! 1. words under every element (each block's words added to its parent, then every element's
//!    total to its parent, children before parents);
//! 2. every block-level container with words (not `p`, headings or table cells: paragraphs and
//!    columns are not items) joins the group of its parent, tag and class pattern (the class
//!    with its digits removed, so that `post-123` and `post-456` match);
//! 3. a group of at least [`MIN_ITEMS`] members is a run; each element takes, of the runs it or
//!    an ancestor belongs to, the one holding the largest share of the page's words (a thread's
//!    posts, not the lists inside one post).

use rustc_hash::{FxHashMap, FxHasher};
use std::hash::{Hash, Hasher};

use super::structure::Structure;
use super::text::TextStats;
use victor_html::Page;
use victor_html::{Props, Tag};

/// Members a group of siblings needs to count as a run of repeated items.
pub(crate) const MIN_ITEMS: u32 = 3;

/// Per-block facts about repeated items, and the page's dominant run.
#[derive(Clone, Debug, Default)]
pub(crate) struct Repeats {
    /// Items in the block's run (0: the block is in no run).
    pub items: Vec<f32>,
    /// The run's words as a share of the page's words.
    pub share: Vec<f32>,
    /// The run's mean words per item.
    pub item_words: Vec<f32>,
    /// How unlike the items are in length: the standard deviation of their words over the mean.
    pub spread: Vec<f32>,
    /// Whether the block is in the run's first item.
    pub first_item: Vec<bool>,
    /// Whether the block is the first block of its item.
    pub item_start: Vec<bool>,
    /// The largest share of the page's words any run holds (the same for every block).
    pub page_share: f32,
    /// The items of that run.
    pub page_items: f32,
}

/// A group of sibling containers with one tag and class pattern.
#[derive(Clone, Copy, Default)]
struct Group {
    count: u32,
    words: f64,
    words_sq: f64,
    first: u32,
}

impl Group {
    fn is_run(&self) -> bool {
        self.count >= MIN_ITEMS
    }
}

/// Whether an element can be an item: a block-level container that is not a paragraph, a
/// heading or a table cell.
fn item_tag(tag: Tag) -> bool {
    tag.is(Props::BLOCK) && !tag.is_heading() && tag != Tag::P && tag != Tag::TD && tag != Tag::TH
}

/// The key of an element's group: its parent, tag and class without digits.
fn group_key(page: &Page, e: usize) -> u64 {
    let el = &page.elements[e];
    let mut h = FxHasher::default();
    el.parent.hash(&mut h);
    el.tag.0.hash(&mut h);
    for b in page.class_of(el).bytes().filter(|b| !b.is_ascii_digit()) {
        h.write_u8(b);
    }
    h.finish()
}

/// Words under every element of `page` (children come after their parents in `st.order`)
/// and on the whole page; `None` for a page without words.
fn element_words(page: &Page, st: &Structure, stats: &[TextStats]) -> Option<(Vec<u32>, u64)> {
    let n = page.elements.len();
    let mut words = vec![0u32; n];
    let mut total = 0u64;
    for (b, s) in page.blocks.iter().zip(stats) {
        if let Some(w) = words.get_mut(b.parent as usize) {
            *w += s.words;
        }
        total += u64::from(s.words);
    }
    if total == 0 {
        return None;
    }
    for &e in st.order.iter().rev() {
        let e = e as usize;
        let p = page.elements[e].parent as usize;
        if p != e && p < n {
            words[p] = words[p].saturating_add(words[e]);
        }
    }
    Some((words, total))
}

/// Groups of sibling item containers with words (by [`group_key`]): the group of every
/// element ([`NONE`] for none) and the groups, with their counts and words.
fn sibling_groups(page: &Page, words: &[u32]) -> (Vec<u32>, Vec<Group>) {
    let n = page.elements.len();
    let mut group_of = vec![NONE; n];
    let mut index: FxHashMap<u64, u32> = FxHashMap::default();
    let mut groups: Vec<Group> = Vec::new();
    for e in 1..n {
        if words[e] == 0 || !item_tag(page.elements[e].tag) {
            continue;
        }
        let next = groups.len() as u32;
        let g = *index.entry(group_key(page, e)).or_insert(next);
        if g == next {
            groups.push(Group {
                first: e as u32,
                ..Group::default()
            });
        }
        let w = f64::from(words[e]);
        let group = &mut groups[g as usize];
        group.count += 1;
        group.words += w;
        group.words_sq += w * w;
        group_of[e] = g;
    }
    (group_of, groups)
}

/// No group (of an element), no run (dominant).
const NONE: u32 = u32::MAX;

/// Measures the runs of repeated items of a page.
pub(crate) fn repeats(page: &Page, st: &Structure, stats: &[TextStats]) -> Repeats {
    let n = page.elements.len();
    let nb = page.blocks.len();
    let mut out = Repeats {
        items: vec![0.0; nb],
        share: vec![0.0; nb],
        item_words: vec![0.0; nb],
        spread: vec![0.0; nb],
        first_item: vec![false; nb],
        item_start: vec![false; nb],
        page_share: 0.0,
        page_items: 0.0,
    };
    if n == 0 || nb == 0 {
        return out;
    }
    // 1. Words under every element.
    let Some((words, total)) = element_words(page, st, stats) else {
        return out;
    };
    // 2. Groups of sibling containers with words.
    let (group_of, groups) = sibling_groups(page, &words);
    let share = |g: &Group| (g.words / total as f64) as f32;
    // 3. Every element's dominant run (and its item), parents before children.
    let mut dominant = vec![(NONE, 0u32); n];
    for &e in &st.order {
        let e = e as usize;
        let p = page.elements[e].parent as usize;
        let inherited = if p != e && p < n {
            dominant[p]
        } else {
            (NONE, 0)
        };
        let own = group_of[e];
        dominant[e] = match (own, inherited.0) {
            (g, _) if g == NONE || !groups[g as usize].is_run() => inherited,
            (g, h) if h == NONE || share(&groups[g as usize]) > share(&groups[h as usize]) => {
                (g, e as u32)
            }
            _ => inherited,
        };
    }
    for g in groups.iter().filter(|g| g.is_run()) {
        if share(g) > out.page_share {
            out.page_share = share(g);
            out.page_items = g.count as f32;
        }
    }
    let mut last_item = NONE;
    for (i, b) in page.blocks.iter().enumerate() {
        let (g, item) = dominant
            .get(b.parent as usize)
            .copied()
            .unwrap_or((NONE, 0));
        if g == NONE {
            last_item = NONE;
            continue;
        }
        let group = &groups[g as usize];
        let count = f64::from(group.count);
        let mean = group.words / count;
        let var = (group.words_sq / count - mean * mean).max(0.0);
        out.items[i] = group.count as f32;
        out.share[i] = share(group);
        out.item_words[i] = mean as f32;
        out.spread[i] = if mean > 0.0 {
            (var.sqrt() / mean) as f32
        } else {
            0.0
        };
        out.first_item[i] = item == group.first;
        out.item_start[i] = item != last_item;
        last_item = item;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::features::structure::Structure;
    use victor_html::segment;

    fn measure(html: &str) -> (Page, Repeats) {
        let page = segment(html).expect("segments");
        let st = Structure::of(&page, &[]);
        let stats: Vec<TextStats> = page
            .blocks
            .iter()
            .map(|b| TextStats::of(page.block_text(b), None, &Default::default()))
            .collect();
        let r = repeats(&page, &st, &stats);
        (page, r)
    }

    fn block(page: &Page, text: &str) -> usize {
        page.blocks
            .iter()
            .position(|b| page.block_text(b) == text)
            .unwrap_or_else(|| panic!("no block {text:?}"))
    }

    #[test]
    fn a_thread_of_posts_is_one_run_and_its_lists_are_not_the_dominant_one() {
        let html = "<body><h1>Thread title</h1>\
            <div class='post post-1'><p>First post with some words in it</p>\
              <ul><li>a</li><li>b</li><li>c</li></ul></div>\
            <div class='post post-2'><p>Second post with more words in it here</p></div>\
            <div class='post post-3'><p>Third post words</p></div>\
            <div class='footer'>Footer</div></body>";
        let (page, r) = measure(html);
        let first = block(&page, "First post with some words in it");
        let second = block(&page, "Second post with more words in it here");
        let item_a = block(&page, "a");
        assert_eq!(r.items[first], 3.0);
        assert!(r.first_item[first] && r.item_start[first]);
        assert!(!r.first_item[second] && r.item_start[second]);
        // The list inside the first post belongs to the posts' run, which holds more words.
        assert_eq!(r.items[item_a], 3.0);
        assert!(r.first_item[item_a] && !r.item_start[item_a]);
        assert!(r.share[first] > 0.7, "{}", r.share[first]);
        assert_eq!(r.page_items, 3.0);
        assert_eq!(r.page_share, r.share[first]);
        let title = block(&page, "Thread title");
        let footer = block(&page, "Footer");
        assert_eq!((r.items[title], r.items[footer]), (0.0, 0.0));
    }

    #[test]
    fn paragraphs_of_an_article_are_no_run() {
        let html = "<body><article><p>One paragraph of words.</p><p>Another paragraph.</p>\
            <p>A third paragraph here.</p><p>And a fourth one.</p></article></body>";
        let (_, r) = measure(html);
        assert!(r.items.iter().all(|&x| x == 0.0));
        assert_eq!(r.page_share, 0.0);
    }

    #[test]
    fn two_items_or_empty_containers_make_no_run() {
        let html = "<body><div class='c'>one</div><div class='c'>two</div>\
            <div class='c'></div><div class='c'></div></body>";
        let (_, r) = measure(html);
        assert!(r.items.iter().all(|&x| x == 0.0));
    }
}

//! `class`/`id` keyword groups of elements (the `class` module, and readability's weights and
//! "unlikely" test that the `main` and `density` modules use).

use super::Extractor;
use super::candidate;
use super::data::GroupMemo;
use super::lexicon::{attr_tokens, singular};
use super::structure::Structure;
use super::text::TextStats;
use victor_html::Page;
use victor_html::Tag;

/// A class name that marks a blog post's container: hAtom's `hentry`, microformats2's
/// `h-entry`, or WordPress's `post-<id>`.
fn is_post_marker(name: &str) -> bool {
    name == "hentry"
        || name == "h-entry"
        || name
            .strip_prefix("post-")
            .is_some_and(|id| !id.is_empty() && id.bytes().all(|b| b.is_ascii_digit()))
}

/// What the names of a `class` value say of a blog post's container: a post marker, or
/// WordPress's `type-*` with `status-*` (see [`PostSigns::container`]).
#[derive(Default)]
struct PostSigns {
    marker: bool,
    type_name: bool,
    status_name: bool,
}

impl PostSigns {
    /// Notes one whitespace-separated name of the value.
    fn note(&mut self, name: &str) {
        self.marker |= is_post_marker(name);
        self.type_name |= name.starts_with("type-");
        self.status_name |= name.starts_with("status-");
    }

    /// Whether the value marks a blog post's container.
    fn container(&self) -> bool {
        self.marker || (self.type_name && self.status_name)
    }
}

impl Extractor {
    /// Keyword group of an element's `class`/`id` tokens: 0 none, 1 no keyword, 2.. group + 2.
    pub(super) fn class_group(&self, page: &Page, e: u32) -> u8 {
        if e == 0 {
            return 0;
        }
        let el = page.element(e);
        self.attr_facts(page.class_of(el), page.id_of(el)).0
    }

    /// What a `class` value `c` and an `id` value `i` say, from one reading of their tokens:
    /// the keyword group ([`Self::class_group`]) and the bits of the `class_outer` groups among
    /// their tokens ([`Self::outer_masks`]).
    pub(super) fn attr_facts(&self, c: &str, i: &str) -> (u8, u32) {
        if c.is_empty() && i.is_empty() {
            return (0, 0);
        }
        let mut best: Option<u8> = None;
        let mut outer = 0u32;
        let mut visit = |t: &str| {
            if let Some(g) = self.keywords.get(singular(t)) {
                best = Some(best.map_or(g, |b| b.min(g)));
                if let Some(k) = self.outer_groups.iter().position(|&o| o == g) {
                    outer |= 1 << k;
                }
            }
        };
        // One pass over the class's names: each one's tokens (no token spans white space),
        // and the signs of a post's container when the configuration has a content group.
        let mut post = PostSigns::default();
        let want_post = self.content_group.is_some();
        for name in c.split_ascii_whitespace() {
            if want_post {
                post.note(name);
            }
            attr_tokens(name, &mut visit);
        }
        attr_tokens(i, &mut visit);
        let group = match self.content_group {
            Some(content) if post.container() => content + 2,
            _ => best.map_or(1, |g| g + 2),
        };
        (group, outer)
    }

    /// The name of keyword group `g` (see [`Self::class_group`]), if it is a configured one.
    fn group_name(&self, g: u8) -> Option<&str> {
        let k = usize::from(g.checked_sub(2)?);
        self.config.class_keywords.get(k).map(|k| k.group.as_str())
    }

    /// Readability's class weight of an element in keyword group `g`: +25 for content
    /// keywords, -25 for boilerplate ones (comments, navigation, footers, sidebars, ads,
    /// sharing, metadata, lists, captions, mastheads), 0 otherwise.
    pub(super) fn group_weight(&self, g: u8) -> f32 {
        match g {
            0 | 1 => 0.0,
            g => match self.group_name(g) {
                Some("content") => 25.0,
                Some("title") | None => 0.0,
                Some(_) => -25.0,
            },
        }
    }

    /// Whether an element in keyword group `g` is in a region readability never takes for
    /// content (comments, navigation, footers, ads, sharing).
    pub(super) fn group_unlikely(&self, g: u8) -> bool {
        matches!(
            self.group_name(g),
            Some("comment" | "nav" | "footer" | "ad" | "social")
        )
    }

    /// The readability-style candidate scores of a page's elements (for inspection; the
    /// `main` module turns them into features).
    pub fn candidates(&self, page: &Page) -> candidate::Candidates {
        let stats: Vec<TextStats> = page
            .blocks
            .iter()
            .map(|b| TextStats::of(page.block_text(b), None, &Default::default()))
            .collect();
        let st = Structure::of(page, &self.containers);
        candidate::candidates(
            page,
            &st,
            &stats,
            |e| self.group_unlikely(self.class_group(page, e)),
            |e| self.group_weight(self.class_group(page, e)),
        )
    }

    /// Per block, bit `k` set when the block's element or an ancestor below `<body>` has a
    /// `class`/`id` token of the `k`-th `class_outer` group (empty without such groups).
    /// Only the blocks' elements and their ancestors are read, each once (an element's mask
    /// is its parent's plus its own), and elements with the same class and id share one
    /// reading of their tokens (`groups`).
    pub(super) fn outer_masks<'p>(&self, page: &'p Page, groups: &GroupMemo<'p>) -> Vec<u32> {
        if self.outer_groups.is_empty() {
            return Vec::new();
        }
        let n = page.elements.len();
        // Each element's mask once known; the root's is empty.
        let mut known: Vec<Option<u32>> = vec![None; n];
        if let Some(root) = known.first_mut() {
            *root = Some(0);
        }
        let mut chain: Vec<usize> = Vec::new();
        let mut mask_of = |e: usize| {
            // Up to the nearest element whose mask is known (or off the tree), then down.
            let mut at = e;
            while let Some(None) = known.get(at)
                && chain.len() < n
            {
                chain.push(at);
                let parent = page.elements[at].parent as usize;
                if parent == at {
                    break;
                }
                at = parent;
            }
            let mut m = known.get(at).copied().flatten().unwrap_or(0);
            while let Some(c) = chain.pop() {
                if !matches!(page.elements[c].tag, Tag::BODY | Tag::HTML) {
                    m |= groups.facts(self, page, c as u32).1;
                }
                known[c] = Some(m);
            }
            m
        };
        page.blocks
            .iter()
            .map(|b| mask_of(b.parent as usize))
            .collect()
    }
}

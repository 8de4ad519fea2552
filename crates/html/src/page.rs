//! The segmenter's output: a page as a sequence of text blocks over a tree of elements.
//!
//! Everything lives in a few flat arrays owned by [`Page`] (elements, blocks, one text arena, one
//! arena of class/id strings, one of split records), so segmenting a page costs a handful of
//! allocations, not one per block. Blocks point into the arenas with `u32` ranges; the accessors on
//! [`Page`] turn them back into `&str` and iterators.

use std::ops::Range;

use crate::element_id::ElementId;
use crate::segment::tags::Tag;
use crate::within::Within;

/// One element of the page's tree (the tree a browser would build, see the `segment` module).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Element {
    /// The element's tag.
    pub tag: Tag,
    /// Its parent; the root is its own parent.
    pub parent: ElementId,
    /// `class` attribute value, lowercased with `-` between camelCase words (`mainContent` ->
    /// `main-content`), as a range of [`Page::attrs`].
    pub class: Range<u32>,
    /// `id` attribute value, normalized like `class`, as a range of [`Page::attrs`].
    pub id: Range<u32>,
    /// Marked invisible by its own attributes: `hidden`, `aria-hidden="true"`, or a `style`
    /// with `display:none` or `visibility:hidden`.
    pub hidden: bool,
    /// An `<a>` without `href` (or `onclick`): a placeholder such as a named anchor
    /// (`<a name="top">`), not a hyperlink. Its text is not link text, and it counts in no
    /// container class. An unclosed `<a name>` near the top of a page holds the whole page.
    pub placeholder: bool,
    /// Marked as the page's main content by its own attributes, as HTML5 and schema.org
    /// markup do: `role="main"` or `role="article"`, `itemprop="articleBody"` (or `text`,
    /// `reviewBody`). The `<article>` and `<main>` tags are container classes instead.
    pub semantic: bool,
}

/// Tags opened and closed between a block and the block before it (or the page start).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Split {
    /// The tag.
    pub tag: Tag,
    /// How many start tags of it.
    pub opened: u16,
    /// How many end tags of it (explicit `</x>`, or implied by the tree rules).
    pub closed: u16,
}

/// A continuous run of text between two tags (Victor section 3.1, step 4).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Block {
    /// The text, entities decoded and white space collapsed, as a range of [`Page::text`].
    pub text: Range<u32>,
    /// Byte offsets of the run in the decoded document (the first to the last character of text).
    pub source: Range<u32>,
    /// The element the text sits in.
    pub parent: ElementId,
    /// Tags seen since the previous block, as a range of [`Page::splits`].
    pub splits: Range<u32>,
    /// Whether white space separated this block from the previous one in the page.
    pub space_before: bool,
    /// Whether the block sits inside an `<a>` element.
    pub in_anchor: bool,
    /// Whether the block sits inside `<pre>` (its line breaks are meaningful).
    pub in_pre: bool,
}

/// A segmented page.
#[derive(Clone, Debug, Default)]
pub struct Page {
    /// The text of the first `<title>`, white space collapsed (a document property, never a block).
    pub title: Option<String>,
    /// All elements, in document order of creation. Element 0 is the root.
    pub elements: Vec<Element>,
    /// The blocks, in document order.
    pub blocks: Vec<Block>,
    /// Text arena for [`Block::text`].
    pub text: String,
    /// Arena for [`Element::class`] and [`Element::id`].
    pub attrs: String,
    /// Arena for [`Block::splits`].
    pub splits: Vec<Split>,
    /// Names of tags interned for this page (ids from [`Tag::FIRST_UNKNOWN`] on).
    pub unknown_tags: Vec<Box<str>>,
    /// Whether the parser had to end an unclosed `<title>`, `<textarea>`, ... early to keep the text.
    pub recovered: bool,
    /// Whether the blocks come from the page's crawler view: its `<noscript>` elements read as
    /// a script-less browser reads them, because their text outweighed the visible page's.
    pub noscript_view: bool,
    /// What the page declares itself to be in its structured data (schema.org `@type`,
    /// `og:type`).
    pub declared: crate::segment::declared::Declared,
    /// The `href` of every `<a>` element that has one, as written, by element id (ascending),
    /// as ranges of [`Page::attrs`].
    pub links: Vec<(ElementId, Range<u32>)>,
    /// The `href` of the page's first `<base>`, as written, as a range of [`Page::attrs`].
    pub base: Option<Range<u32>>,
    /// What the page says about itself as a document (`<meta>`, `<link>`, `<time>`, JSON-LD,
    /// `rel`/`itemprop` marks), as the parse collected it.
    pub head: crate::segment::head::Head,
}

impl Page {
    /// The text of a block.
    #[inline]
    pub fn block_text(&self, b: &Block) -> &str {
        self.text.within(b.text.start as usize..b.text.end as usize)
    }

    /// The split records of a block.
    #[inline]
    pub fn block_splits(&self, b: &Block) -> &[Split] {
        self.splits
            .within(b.splits.start as usize..b.splits.end as usize)
    }

    /// An element by id (the root for an out-of-range id).
    #[inline]
    pub fn element(&self, id: ElementId) -> &Element {
        self.elements
            .get(id as usize)
            .or_else(|| self.elements.first())
            .unwrap_or(&ROOT)
    }

    /// The lowercased `class` attribute of an element (empty if none).
    #[inline]
    pub fn class_of(&self, e: &Element) -> &str {
        self.attrs
            .within(e.class.start as usize..e.class.end as usize)
    }

    /// The lowercased `id` attribute of an element (empty if none).
    #[inline]
    pub fn id_of(&self, e: &Element) -> &str {
        self.attrs.within(e.id.start as usize..e.id.end as usize)
    }

    /// The `href` of an `<a>` element, as written (entities not decoded), if it has one.
    pub fn href(&self, e: ElementId) -> Option<&str> {
        let k = self.links.binary_search_by_key(&e, |l| l.0).ok()?;
        let r = &self.links.get(k)?.1;
        Some(self.attrs.within(r.start as usize..r.end as usize))
    }

    /// The `href` of the page's first `<base>`, as written.
    pub fn base_href(&self) -> Option<&str> {
        let r = self.base.as_ref()?;
        Some(self.attrs.within(r.start as usize..r.end as usize))
    }

    /// The name of a tag, known or interned for this page.
    pub fn tag_name(&self, tag: Tag) -> &str {
        match tag.known_name() {
            Some(n) => n,
            None => self
                .unknown_tags
                .get((tag.0 - Tag::FIRST_UNKNOWN) as usize)
                .map(|s| &**s)
                .unwrap_or("?"),
        }
    }

    /// The ancestors of a block (or element), nearest first, ending before the root.
    pub fn ancestors(&self, from: ElementId) -> Ancestors<'_> {
        Ancestors {
            page: self,
            next: from,
            left: self.elements.len(),
        }
    }

    /// The path of tag names from the outermost element down to `from`, e.g. `html/body/p/b`.
    pub fn path(&self, from: ElementId) -> String {
        self.path_tail(from, usize::MAX)
    }

    /// The last `max` names of [`Page::path`], after `…/` when there are more: a page nested
    /// thousands of levels deep gives every block a path that long, and printing the whole of
    /// each would be quadratic in the page's size.
    pub fn path_tail(&self, from: ElementId, max: usize) -> String {
        let mut names: Vec<&str> = Vec::new();
        let mut cut = false;
        for (_, e) in self.ancestors(from) {
            if names.len() == max {
                cut = true;
                break;
            }
            names.push(self.tag_name(e.tag));
        }
        names.reverse();
        let path = names.join("/");
        if cut { format!("…/{path}") } else { path }
    }
}

static ROOT: Element = Element::ROOT;

impl Element {
    /// The root of every page's tree (element 0): no tag, no attributes, its own parent.
    pub const ROOT: Element = Element {
        tag: Tag(0),
        parent: 0,
        class: 0..0,
        id: 0..0,
        hidden: false,
        placeholder: false,
        semantic: false,
    };
}

/// Iterator over an element and its ancestors, nearest first, excluding the root.
#[derive(Clone, Debug)]
pub struct Ancestors<'a> {
    page: &'a Page,
    next: ElementId,
    left: usize,
}

impl<'a> Iterator for Ancestors<'a> {
    type Item = (ElementId, &'a Element);

    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        if self.next == 0 || self.left == 0 {
            return None;
        }
        // The tree has no cycles; the step budget only guards against a bug turning into a hang.
        self.left -= 1;
        let id = self.next;
        let e = self.page.elements.get(id as usize)?;
        self.next = if e.parent == id { 0 } else { e.parent };
        Some((id, e))
    }
}

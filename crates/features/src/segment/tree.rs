//! The open-element stack with HTML5's tree-construction rules, so that every block knows the
//! ancestors a browser would give it.
//!
//! lol_html tokenizes but builds no tree: its end-tag callbacks follow a naive stack. This module
//! replays the parts of the HTML5 tree-construction algorithm that decide *where text ends up*:
//!
//! - the head/body phases (text or an unknown tag in `<head>` starts the body);
//! - implied end tags (`<p>a<p>b`, `<li>x<li>y`, `<dd>`, `<option>`), element scopes (default, list
//!   item, button, table), and the generic end-tag walk that ignores stray end tags;
//! - tables: implied `tbody`/`tr`, cell closing, and foster parenting of stray text and elements;
//! - the list of active formatting elements, its reconstruction, and the adoption agency algorithm
//!   (`<b><i>x</b>y</i>`, `<b><p>x</b>y`), including moving already emitted blocks;
//! - `select`, foreign content (`svg`, `math`) with its breakout tags, `frameset`, quirks mode for
//!   `<p><table>`.
//!
//! Every operation is O(1) amortized in the depth of the stack: element scope checks use, per tag,
//! the stack positions of its open instances and, per scope kind, the positions of the scope
//! boundaries; so 100,000 nested `<div>`s take linear time. Only the rare adoption-agency moves
//! rebuild those indexes, and they scan a bounded budget of blocks and elements.

use std::ops::Range;

use crate::page::{Element, ElementId, Split};
use crate::segment::tags::{Props, Tag};

/// What the tree needs to know of a start tag's attributes besides `class` and `id`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TokenAttrs {
    /// A hash of all its attributes that does not depend on their order (0 for none), for the
    /// Noah's Ark clause; only formatting elements need it.
    pub hash: u64,
    /// An `<a>` with neither `href` nor `onclick`: a placeholder, not a link
    /// ([`Element::placeholder`]).
    pub placeholder: bool,
}

/// Where a piece of text goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TextTarget {
    /// The parent element of the text.
    pub parent: ElementId,
    /// Inside an element whose content never becomes a block (script, style, noscript, ...).
    pub excluded: bool,
    /// Inside `<title>`.
    pub title: bool,
    /// Inside an `<a>`.
    pub in_anchor: bool,
    /// Inside a `<pre>`, `<listing>`, `<textarea>` or `<xmp>`.
    pub in_pre: bool,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum Phase {
    #[default]
    Initial,
    BeforeHead,
    InHead,
    AfterHead,
    InBody,
    Frameset,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Afe {
    Marker,
    Entry(ElementId),
}

#[derive(Clone, Copy, Debug)]
struct Open {
    tag: Tag,
    elem: ElementId,
}

/// Scope kinds of the HTML5 standard.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Scope {
    Default,
    ListItem,
    Button,
    Table,
}

/// Budget of elements and blocks the adoption agency may revisit per page before it stops moving
/// already emitted content (keeps adversarial misnesting linear).
const REPARENT_BUDGET: usize = 4_000_000;

/// Most entries the list of active formatting elements keeps after its last marker; past it the
/// earliest goes, as the Noah's Ark clause drops a fourth identical entry. No page of the three
/// evaluation sets has more than 24; the limit keeps 100,000 distinct unclosed `<b class=..>`
/// from making every push scan the whole list.
const AFE_LIMIT: usize = 64;

/// Elements that reconstructing the active formatting elements may create per page. Each block
/// after a paragraph break may reopen up to [`AFE_LIMIT`] elements; the budget keeps a page of
/// tiny paragraphs under 64 unclosed formatting elements from growing the tree by 64 elements a
/// paragraph without end. Real pages use a few thousand at most.
const RECONSTRUCT_BUDGET: usize = 1_000_000;

/// The tree builder. Create one per segmenter and [`Tree::reset`] it between pages.
#[derive(Debug, Default)]
pub struct Tree {
    /// Element arena (element 0 is the root).
    pub elements: Vec<Element>,
    /// Parent element of every block emitted so far (the adoption agency may move them).
    pub block_parents: Vec<ElementId>,
    /// Tags opened and closed since the last block, one entry per event, in order.
    pub pending: Vec<Split>,
    /// Whether the document is in quirks mode (set from the doctype).
    pub quirks: bool,
    /// The first `<title>` element, if any.
    pub title_elem: Option<ElementId>,
    /// Arena of lowercased `class` and `id` values that [`Element`] ranges point into.
    pub attrs: String,
    /// Parent of the text run not yet turned into a block (adoption-agency moves update it).
    pub run_parent: Option<ElementId>,
    changes: u64,

    stack: Vec<Open>,
    on_stack: Vec<bool>,
    first_block: Vec<u32>,
    tag_pos: Vec<Vec<u32>>,
    scope_default: Vec<u32>,
    scope_list: Vec<u32>,
    scope_button: Vec<u32>,
    scope_table: Vec<u32>,
    special: Vec<u32>,
    mode: Vec<u32>,
    foreign: Vec<u32>,
    /// Stack positions of HTML integration points inside foreign content (`foreignObject`,
    /// `desc`, `title`, `mi`, `mtext`, ...): HTML tags inside them do not break out.
    islands: Vec<u32>,
    /// Interned tags of this page that name integration points (besides `title`).
    island_tags: Vec<Tag>,
    excluded_depth: u32,
    anchor_depth: u32,
    pre_depth: u32,
    afe: Vec<Afe>,
    phase: Phase,
    head: Option<ElementId>,
    /// Per element: a hash of all its attributes (names and values), so that the Noah's Ark
    /// clause tells `<font color=red>` from `<font size=2>`. Zero for elements without any.
    attr_hash: Vec<u64>,
    /// The attribute hash of the start tag being handled.
    token_hash: u64,
    /// Whether the start tag being handled is a placeholder `<a>` (no `href`, no `onclick`).
    token_placeholder: bool,
    /// HTML5's form element pointer: the last `<form>` opened and not yet ended.
    form: Option<ElementId>,
    reparent_budget: usize,
    reconstruct_budget: usize,
}

#[inline]
fn top(v: &[u32]) -> Option<u32> {
    v.last().copied()
}

impl Tree {
    /// Clears all state for a new page, keeping allocations.
    pub fn reset(&mut self) {
        self.elements.clear();
        self.elements.push(Element {
            tag: Tag(0),
            parent: 0,
            class: 0..0,
            id: 0..0,
            hidden: false,
            placeholder: false,
            semantic: false,
        });
        self.block_parents.clear();
        self.pending.clear();
        self.attrs.clear();
        self.run_parent = None;
        self.changes = 0;
        self.quirks = true;
        self.title_elem = None;
        self.stack.clear();
        self.on_stack.clear();
        self.on_stack.push(false);
        self.first_block.clear();
        self.first_block.push(0);
        for v in &mut self.tag_pos {
            v.clear();
        }
        self.scope_default.clear();
        self.scope_list.clear();
        self.scope_button.clear();
        self.scope_table.clear();
        self.special.clear();
        self.mode.clear();
        self.foreign.clear();
        self.islands.clear();
        self.island_tags.clear();
        self.excluded_depth = 0;
        self.anchor_depth = 0;
        self.pre_depth = 0;
        self.afe.clear();
        self.phase = Phase::Initial;
        self.head = None;
        self.form = None;
        self.attr_hash.clear();
        self.attr_hash.push(0);
        self.token_hash = 0;
        self.reparent_budget = REPARENT_BUDGET;
        self.reconstruct_budget = RECONSTRUCT_BUDGET;
    }

    /// The tag of the current node (the root's tag `Tag(0)` when the stack is empty).
    #[inline]
    pub fn current_tag(&self) -> Option<Tag> {
        self.stack.last().map(|o| o.tag)
    }

    #[inline]
    fn current_elem(&self) -> ElementId {
        self.stack.last().map_or(0, |o| o.elem)
    }

    /// Whether an element is still open.
    pub fn is_open(&self, elem: ElementId) -> bool {
        self.on_stack.get(elem as usize).copied().unwrap_or(false)
    }

    // ----- bookkeeping -------------------------------------------------------------------------

    fn note_split(&mut self, tag: Tag, opened: u16, closed: u16) {
        self.pending.push(Split {
            tag,
            opened,
            closed,
        });
    }

    fn new_element(
        &mut self,
        tag: Tag,
        parent: ElementId,
        class: Range<u32>,
        id: Range<u32>,
    ) -> ElementId {
        let eid = self.elements.len() as ElementId;
        self.changes += 1;
        self.elements.push(Element {
            tag,
            parent,
            class,
            id,
            hidden: false,
            placeholder: tag == Tag::A && self.token_placeholder,
            semantic: false,
        });
        self.on_stack.push(false);
        self.first_block.push(self.block_parents.len() as u32);
        self.attr_hash.push(0);
        eid
    }

    fn clone_element(&mut self, of: ElementId, parent: ElementId) -> ElementId {
        let (tag, class, id, hidden, placeholder, semantic) = match self.elements.get(of as usize) {
            Some(e) => (
                e.tag,
                e.class.clone(),
                e.id.clone(),
                e.hidden,
                e.placeholder,
                e.semantic,
            ),
            None => (Tag::SPAN, 0..0, 0..0, false, false, false),
        };
        let new = self.new_element(tag, parent, class, id);
        if let Some(e) = self.elements.get_mut(new as usize) {
            e.hidden = hidden;
            e.placeholder = placeholder;
            e.semantic = semantic;
        }
        let hash = self.attr_hash.get(of as usize).copied().unwrap_or(0);
        if let Some(h) = self.attr_hash.get_mut(new as usize) {
            *h = hash;
        }
        new
    }

    /// Whether an element is a link: an `<a>` that is not a placeholder.
    fn is_link(&self, elem: ElementId) -> bool {
        self.elements
            .get(elem as usize)
            .is_some_and(|e| e.tag == Tag::A && !e.placeholder)
    }

    fn index_push(&mut self, pos: u32, tag: Tag, elem: ElementId) {
        let p = tag.props();
        let ti = tag.0 as usize;
        if self.tag_pos.len() <= ti {
            self.tag_pos.resize_with(ti + 1, Vec::new);
        }
        self.tag_pos[ti].push(pos);
        if p.has(Props::SCOPE) {
            self.scope_default.push(pos);
            self.scope_list.push(pos);
            self.scope_button.push(pos);
        } else if tag == Tag::OL || tag == Tag::UL {
            self.scope_list.push(pos);
        } else if tag == Tag::BUTTON {
            self.scope_button.push(pos);
        }
        if tag == Tag::HTML || tag == Tag::TABLE || tag == Tag::TEMPLATE {
            self.scope_table.push(pos);
        }
        if p.has(Props::SPECIAL) {
            self.special.push(pos);
        }
        if p.has(Props::MODE) {
            self.mode.push(pos);
        }
        if !self.foreign.is_empty() && (tag == Tag::TITLE || self.island_tags.contains(&tag)) {
            self.islands.push(pos);
        }
        if tag == Tag::SVG || tag == Tag::MATH {
            self.foreign.push(pos);
        }
        if p.has(Props::EXCLUDED) {
            self.excluded_depth += 1;
        }
        if self.is_link(elem) {
            self.anchor_depth += 1;
        }
        if matches!(tag, Tag::PRE | Tag::LISTING | Tag::TEXTAREA | Tag::XMP) {
            self.pre_depth += 1;
        }
    }

    fn index_pop(&mut self, pos: u32, tag: Tag, elem: ElementId) {
        fn pop_if(v: &mut Vec<u32>, pos: u32) {
            if v.last() == Some(&pos) {
                v.pop();
            }
        }
        if let Some(v) = self.tag_pos.get_mut(tag.0 as usize) {
            pop_if(v, pos);
        }
        pop_if(&mut self.scope_default, pos);
        pop_if(&mut self.scope_list, pos);
        pop_if(&mut self.scope_button, pos);
        pop_if(&mut self.scope_table, pos);
        pop_if(&mut self.special, pos);
        pop_if(&mut self.mode, pos);
        pop_if(&mut self.foreign, pos);
        pop_if(&mut self.islands, pos);
        let p = tag.props();
        if p.has(Props::EXCLUDED) {
            self.excluded_depth = self.excluded_depth.saturating_sub(1);
        }
        if self.is_link(elem) {
            self.anchor_depth = self.anchor_depth.saturating_sub(1);
        }
        if matches!(tag, Tag::PRE | Tag::LISTING | Tag::TEXTAREA | Tag::XMP) {
            self.pre_depth = self.pre_depth.saturating_sub(1);
        }
    }

    /// Recomputes every index from the stack, after an edit in the middle of it.
    fn rebuild_index(&mut self) {
        for v in &mut self.tag_pos {
            v.clear();
        }
        self.scope_default.clear();
        self.scope_list.clear();
        self.scope_button.clear();
        self.scope_table.clear();
        self.special.clear();
        self.mode.clear();
        self.foreign.clear();
        self.islands.clear();
        self.excluded_depth = 0;
        self.anchor_depth = 0;
        self.pre_depth = 0;
        for i in 0..self.stack.len() {
            let Open { tag, elem } = self.stack[i];
            self.index_push(i as u32, tag, elem);
        }
    }

    fn push(&mut self, tag: Tag, elem: ElementId) {
        let pos = self.stack.len() as u32;
        self.changes += 1;
        self.stack.push(Open { tag, elem });
        if let Some(f) = self.on_stack.get_mut(elem as usize) {
            *f = true;
        }
        self.index_push(pos, tag, elem);
    }

    fn pop(&mut self) -> Option<Open> {
        let o = self.stack.pop()?;
        self.changes += 1;
        let pos = self.stack.len() as u32;
        self.index_pop(pos, o.tag, o.elem);
        if let Some(f) = self.on_stack.get_mut(o.elem as usize) {
            *f = false;
        }
        self.note_split(o.tag, 0, 1);
        Some(o)
    }

    /// Takes the element at `pos` out of the stack, leaving the ones above it open. Rebuilding the
    /// indexes costs the stack's depth, charged to the re-parenting budget; past the budget the
    /// elements above are closed as well.
    fn remove_from_stack(&mut self, pos: usize) {
        if pos + 1 >= self.stack.len() || self.stack.len() > self.reparent_budget {
            self.pop_to(pos);
            return;
        }
        self.reparent_budget -= self.stack.len();
        let o = self.stack.remove(pos);
        self.changes += 1;
        if let Some(f) = self.on_stack.get_mut(o.elem as usize) {
            *f = false;
        }
        self.note_split(o.tag, 0, 1);
        self.rebuild_index();
    }

    /// Pops until the stack has `len` entries.
    fn pop_to(&mut self, len: usize) {
        while self.stack.len() > len {
            self.pop();
        }
    }

    /// Pops up to and including the topmost open element with this tag.
    fn pop_through(&mut self, tag: Tag) {
        if let Some(p) = self.top_pos(tag) {
            self.pop_to(p as usize);
        }
    }

    #[inline]
    fn top_pos(&self, tag: Tag) -> Option<u32> {
        self.tag_pos.get(tag.0 as usize).and_then(|v| top(v))
    }

    fn in_scope(&self, tag: Tag, scope: Scope) -> Option<u32> {
        let pos = self.top_pos(tag)?;
        let boundary = match scope {
            Scope::Default => top(&self.scope_default),
            Scope::ListItem => top(&self.scope_list),
            Scope::Button => top(&self.scope_button),
            Scope::Table => top(&self.scope_table),
        };
        match boundary {
            Some(b) if b > pos => None,
            _ => Some(pos),
        }
    }

    fn heading_in_scope(&self) -> Option<u32> {
        [Tag::H1, Tag::H2, Tag::H3, Tag::H4, Tag::H5, Tag::H6]
            .iter()
            .filter_map(|&h| self.in_scope(h, Scope::Default))
            .max()
    }

    /// The insertion-mode element: the nearest table part, select, body, ... on the stack.
    #[inline]
    fn mode_tag(&self) -> Option<Tag> {
        top(&self.mode)
            .and_then(|p| self.stack.get(p as usize))
            .map(|o| o.tag)
    }

    fn generate_implied_end(&mut self, except: Option<Tag>) {
        while let Some(t) = self.current_tag() {
            if t.is(Props::IMPLIED_END) && Some(t) != except {
                self.pop();
            } else {
                break;
            }
        }
    }

    fn close_p(&mut self) {
        if self.in_scope(Tag::P, Scope::Button).is_some() {
            self.generate_implied_end(Some(Tag::P));
            self.pop_through(Tag::P);
        }
    }

    /// The parent for a new node: the current node, or the foster parent when the current node
    /// is a table part that cannot hold it.
    fn insertion_parent(&self) -> ElementId {
        match self.stack.last() {
            Some(o) if o.tag.is(Props::TABLE_CONTEXT) => self.foster_parent(),
            Some(o) => o.elem,
            None => 0,
        }
    }

    /// The parent for a new element of this tag: table parts go into the table itself.
    fn parent_for(&self, tag: Tag) -> ElementId {
        let table_part = matches!(
            tag,
            Tag::CAPTION
                | Tag::COLGROUP
                | Tag::COL
                | Tag::TBODY
                | Tag::THEAD
                | Tag::TFOOT
                | Tag::TR
                | Tag::TD
                | Tag::TH
        );
        if table_part {
            self.current_elem()
        } else {
            self.insertion_parent()
        }
    }

    fn foster_parent(&self) -> ElementId {
        match self.top_pos(Tag::TABLE) {
            Some(p) => {
                let table = self.stack.get(p as usize).map_or(0, |o| o.elem);
                self.elements.get(table as usize).map_or(0, |e| e.parent)
            }
            None => self.current_elem(),
        }
    }

    /// Creates an element at the insertion point and pushes it (unless void).
    fn insert(&mut self, tag: Tag, class: Range<u32>, id: Range<u32>, void: bool) -> ElementId {
        let parent = self.parent_for(tag);
        let eid = self.new_element(tag, parent, class, id);
        self.note_split(tag, 1, 0);
        if !void {
            self.push(tag, eid);
        }
        eid
    }

    fn insert_implied(&mut self, tag: Tag) -> ElementId {
        self.insert(tag, 0..0, 0..0, false)
    }

    // ----- active formatting elements -------------------------------------------------------------

    /// Pushes a formatting element created for the current start tag.
    fn afe_push(&mut self, elem: ElementId) {
        let Some(tag) = self.elements.get(elem as usize).map(|e| e.tag) else {
            return;
        };
        let hash = self.token_hash;
        if let Some(h) = self.attr_hash.get_mut(elem as usize) {
            *h = hash;
        }
        // Noah's Ark: at most three entries with the same tag and attributes after the last marker;
        // at most AFE_LIMIT entries in all.
        let mut same = 0;
        let mut earliest_same = None;
        let mut earliest = None;
        for (i, a) in self.afe.iter().enumerate().rev() {
            match *a {
                Afe::Marker => break,
                Afe::Entry(x) => {
                    earliest = Some(i);
                    if self.elements.get(x as usize).is_some_and(|e| e.tag == tag)
                        && self.attr_hash.get(x as usize) == Some(&hash)
                    {
                        same += 1;
                        earliest_same = Some(i);
                    }
                }
            }
        }
        if same >= 3
            && let Some(i) = earliest_same
        {
            self.afe.remove(i);
        } else if let Some(i) = earliest
            && self.afe.len() - i >= AFE_LIMIT
        {
            self.afe.remove(i);
        }
        self.afe.push(Afe::Entry(elem));
    }

    fn afe_clear_to_marker(&mut self) {
        while let Some(a) = self.afe.pop() {
            if a == Afe::Marker {
                break;
            }
        }
    }

    fn afe_position(&self, elem: ElementId) -> Option<usize> {
        self.afe.iter().rposition(|a| *a == Afe::Entry(elem))
    }

    /// Reopens formatting elements that were closed implicitly (HTML5 "reconstruct the active
    /// formatting elements").
    fn reconstruct(&mut self) {
        let Some(&last) = self.afe.last() else {
            return;
        };
        match last {
            Afe::Marker => return,
            Afe::Entry(e) if self.is_open(e) => return,
            Afe::Entry(_) => {}
        }
        let mut i = self.afe.len() - 1;
        while i > 0 {
            match self.afe[i - 1] {
                Afe::Marker => break,
                Afe::Entry(e) if self.is_open(e) => break,
                Afe::Entry(_) => i -= 1,
            }
        }
        for k in i..self.afe.len() {
            let Afe::Entry(old) = self.afe[k] else {
                continue;
            };
            if self.reconstruct_budget == 0 {
                return;
            }
            self.reconstruct_budget -= 1;
            let parent = self.insertion_parent();
            let new = self.clone_element(old, parent);
            let tag = self.elements[new as usize].tag;
            self.note_split(tag, 1, 0);
            self.push(tag, new);
            self.afe[k] = Afe::Entry(new);
        }
    }

    /// The adoption agency algorithm for an end tag of a formatting element. Returns false when
    /// the end tag must be handled by the generic "any other end tag" steps instead.
    fn adoption_agency(&mut self, tag: Tag) -> bool {
        if let Some(o) = self.stack.last()
            && o.tag == tag
            && self.afe_position(o.elem).is_none()
        {
            self.pop();
            return true;
        }
        for _ in 0..8 {
            // The last formatting element with this tag after the last marker.
            let mut fe = None;
            for (i, a) in self.afe.iter().enumerate().rev() {
                match *a {
                    Afe::Marker => break,
                    Afe::Entry(e)
                        if self.elements.get(e as usize).is_some_and(|x| x.tag == tag) =>
                    {
                        fe = Some((i, e));
                        break;
                    }
                    Afe::Entry(_) => {}
                }
            }
            let Some((fe_afe, fe)) = fe else {
                return false;
            };
            let Some(fe_pos) = self.stack.iter().rposition(|o| o.elem == fe) else {
                self.afe.remove(fe_afe);
                return true;
            };
            if self
                .in_scope(tag, Scope::Default)
                .is_none_or(|p| (p as usize) < fe_pos)
            {
                return true;
            }
            // The furthest block: the first special element above the formatting element.
            let fb_pos = self
                .stack
                .iter()
                .enumerate()
                .skip(fe_pos + 1)
                .find(|(_, o)| o.tag.is(Props::SPECIAL))
                .map(|(i, _)| i);
            let Some(fb_pos) = fb_pos else {
                self.pop_to(fe_pos);
                if let Some(i) = self.afe_position(fe) {
                    self.afe.remove(i);
                }
                return true;
            };
            let common = self.stack.get(fe_pos.wrapping_sub(1)).map_or(0, |o| o.elem);
            let fb = self.stack[fb_pos].elem;
            let mut bookmark = fe_afe;
            let mut node_pos = fb_pos;
            let mut last = fb;
            let mut inner = 0;
            loop {
                inner += 1;
                node_pos -= 1;
                let node = self.stack[node_pos].elem;
                if node == fe {
                    break;
                }
                let mut node_afe = self.afe_position(node);
                if inner > 3
                    && let Some(i) = node_afe
                {
                    self.afe.remove(i);
                    if i < bookmark {
                        bookmark -= 1;
                    }
                    node_afe = None;
                }
                let Some(na) = node_afe else {
                    let o = self.stack.remove(node_pos);
                    if let Some(f) = self.on_stack.get_mut(o.elem as usize) {
                        *f = false;
                    }
                    continue;
                };
                let new = self.clone_element(node, common);
                self.afe[na] = Afe::Entry(new);
                let t = self.stack[node_pos].tag;
                if let Some(f) = self.on_stack.get_mut(node as usize) {
                    *f = false;
                }
                self.stack[node_pos] = Open { tag: t, elem: new };
                if let Some(f) = self.on_stack.get_mut(new as usize) {
                    *f = true;
                }
                if last == fb {
                    bookmark = na + 1;
                }
                self.set_parent(last, new);
                last = new;
            }
            // Move the last node under the common ancestor (fostered if that is a table part).
            let target = match self.elements.get(common as usize) {
                Some(e) if e.tag.is(Props::TABLE_CONTEXT) => self.foster_parent(),
                _ => common,
            };
            self.set_parent(last, target);
            // A clone of the formatting element takes over the furthest block's children.
            let new = self.clone_element(fe, fb);
            self.move_children(fb, new);
            if let Some(i) = self.afe_position(fe) {
                self.afe.remove(i);
                if i < bookmark {
                    bookmark -= 1;
                }
            }
            let bookmark = bookmark.min(self.afe.len());
            self.afe.insert(bookmark, Afe::Entry(new));
            if let Some(p) = self.stack.iter().position(|o| o.elem == fe) {
                self.stack.remove(p);
            }
            if let Some(f) = self.on_stack.get_mut(fe as usize) {
                *f = false;
            }
            let fb_now = self
                .stack
                .iter()
                .position(|o| o.elem == fb)
                .unwrap_or(self.stack.len());
            let insert_at = (fb_now + 1).min(self.stack.len());
            self.stack.insert(insert_at, Open { tag, elem: new });
            if let Some(f) = self.on_stack.get_mut(new as usize) {
                *f = true;
            }
            self.rebuild_index();
        }
        true
    }

    fn set_parent(&mut self, child: ElementId, parent: ElementId) {
        if child != parent
            && let Some(e) = self.elements.get_mut(child as usize)
        {
            e.parent = parent;
        }
    }

    /// Moves every child (element or block) of `from` under `to`, within the re-parenting budget.
    fn move_children(&mut self, from: ElementId, to: ElementId) {
        let first_elem = from as usize + 1;
        let first_block = self.first_block.get(from as usize).copied().unwrap_or(0) as usize;
        let cost = (self.elements.len().saturating_sub(first_elem))
            + (self.block_parents.len().saturating_sub(first_block));
        if cost > self.reparent_budget {
            return;
        }
        self.reparent_budget -= cost;
        let to_idx = to as usize;
        for (i, e) in self.elements.iter_mut().enumerate().skip(first_elem) {
            if e.parent == from && i != to_idx {
                e.parent = to;
            }
        }
        for p in self.block_parents.iter_mut().skip(first_block) {
            if *p == from {
                *p = to;
            }
        }
        if self.run_parent == Some(from) {
            self.run_parent = Some(to);
        }
    }

    // ----- tokens ----------------------------------------------------------------------------------

    /// Handles a doctype: decides quirks mode as browsers do for the common cases; `force_quirks`
    /// is HTML5's flag for a malformed doctype (see [`crate::segment::scan::doctype_forces_quirks`]).
    pub fn doctype(
        &mut self,
        name: Option<&str>,
        public_id: Option<&str>,
        system_id: Option<&str>,
        force_quirks: bool,
    ) {
        if self.phase != Phase::Initial {
            return;
        }
        self.quirks = force_quirks || is_quirky(name, public_id, system_id);
    }

    /// Handles a start tag. `class` and `id` are ranges of [`Tree::attrs`]; `token` says what
    /// else its attributes tell; `breakout` says that the tag leaves foreign content whatever its
    /// name (a `<font>` with `color`, `face` or `size`). Returns whether it changed the tree (an
    /// ignored start tag does not).
    pub fn start(
        &mut self,
        tag: Tag,
        class: Range<u32>,
        id: Range<u32>,
        self_closing: bool,
        breakout: bool,
        token: TokenAttrs,
    ) -> bool {
        let before = self.changes;
        self.token_hash = token.hash;
        self.token_placeholder = token.placeholder;
        self.start_inner(tag, class, id, self_closing, breakout);
        self.token_hash = 0;
        self.token_placeholder = false;
        self.changes != before
    }

    /// Whether the current node is inside `svg` or `math`.
    pub fn in_foreign(&self) -> bool {
        !self.foreign.is_empty()
    }

    /// Declares an interned tag as an HTML integration point of foreign content (the segmenter
    /// calls it for `foreignObject`, `desc`, `mi`, `mtext`, ... when it interns them).
    pub fn note_island_tag(&mut self, tag: Tag) {
        if !self.island_tags.contains(&tag) {
            self.island_tags.push(tag);
        }
    }

    /// Whether the current node is an integration point, or HTML content inside one, rather than
    /// foreign content proper.
    fn in_island(&self) -> bool {
        match (top(&self.islands), top(&self.foreign)) {
            (Some(i), Some(f)) => i > f,
            _ => false,
        }
    }

    fn start_inner(
        &mut self,
        tag: Tag,
        class: Range<u32>,
        id: Range<u32>,
        self_closing: bool,
        breakout: bool,
    ) {
        // Foreign content (svg, math): everything is a plain element until a breakout tag, which
        // pops the foreign elements back to the innermost integration point (or out of them all).
        // Inside an integration point HTML tags nest as plain elements: their text stays excluded.
        if !self.foreign.is_empty() {
            if !self.in_island() && (breakout || tag.is(Props::BREAKOUT)) {
                while let Some(f) = top(&self.foreign) {
                    if top(&self.islands).is_some_and(|i| i > f) {
                        break;
                    }
                    self.pop_to(f as usize);
                }
            }
            if !self.foreign.is_empty() {
                let void = self_closing || (self.in_island() && tag.is(Props::VOID));
                let parent = self.current_elem();
                let eid = self.new_element(tag, parent, class, id);
                self.note_split(tag, 1, 0);
                if !void {
                    self.push(tag, eid);
                }
                return;
            }
        }
        let tag = if tag == Tag::IMAGE { Tag::IMG } else { tag };
        loop {
            match self.phase {
                Phase::Initial => {
                    self.start_html(if tag == Tag::HTML {
                        (class.clone(), id.clone())
                    } else {
                        (0..0, 0..0)
                    });
                    if tag == Tag::HTML {
                        return;
                    }
                }
                Phase::BeforeHead => {
                    if tag == Tag::HTML {
                        return;
                    }
                    let (c, i) = if tag == Tag::HEAD {
                        (class.clone(), id.clone())
                    } else {
                        (0..0, 0..0)
                    };
                    let h = self.insert(Tag::HEAD, c, i, false);
                    self.head = Some(h);
                    self.phase = Phase::InHead;
                    if tag == Tag::HEAD {
                        return;
                    }
                }
                Phase::InHead => {
                    if tag == Tag::HTML || tag == Tag::HEAD {
                        return;
                    }
                    if tag.is(Props::HEAD_CONTENT) {
                        self.insert_head_content(tag, class, id);
                        return;
                    }
                    self.leave_head();
                }
                Phase::AfterHead => match tag {
                    Tag::HTML | Tag::HEAD => return,
                    Tag::BODY => {
                        self.insert(Tag::BODY, class, id, false);
                        self.phase = Phase::InBody;
                        return;
                    }
                    Tag::FRAMESET => {
                        self.insert(Tag::FRAMESET, class, id, false);
                        self.phase = Phase::Frameset;
                        return;
                    }
                    t if t.is(Props::HEAD_CONTENT) => {
                        // Belongs to the head even after it closed.
                        let parent = self.head.unwrap_or_else(|| self.current_elem());
                        let eid = self.new_element(t, parent, class, id);
                        self.note_split(t, 1, 0);
                        if !t.is(Props::VOID) {
                            self.push(t, eid);
                        }
                        self.note_title(t, eid);
                        return;
                    }
                    _ => {
                        self.insert_implied(Tag::BODY);
                        self.phase = Phase::InBody;
                    }
                },
                Phase::Frameset => return,
                Phase::InBody => {
                    self.start_in_body_modes(tag, class, id, self_closing);
                    return;
                }
            }
        }
    }

    fn start_html(&mut self, attrs: (Range<u32>, Range<u32>)) {
        let eid = self.new_element(Tag::HTML, 0, attrs.0, attrs.1);
        self.note_split(Tag::HTML, 1, 0);
        self.push(Tag::HTML, eid);
        self.phase = Phase::BeforeHead;
    }

    fn leave_head(&mut self) {
        if self.current_tag() == Some(Tag::HEAD) {
            self.pop();
        } else if let Some(p) = self.top_pos(Tag::HEAD) {
            self.pop_to(p as usize);
        }
        self.phase = Phase::AfterHead;
    }

    fn insert_head_content(&mut self, tag: Tag, class: Range<u32>, id: Range<u32>) {
        let void = tag.is(Props::VOID);
        let eid = self.insert(tag, class, id, void);
        self.note_title(tag, eid);
    }

    fn note_title(&mut self, tag: Tag, eid: ElementId) {
        if tag == Tag::TITLE && self.title_elem.is_none() {
            self.title_elem = Some(eid);
        }
    }

    fn start_in_body_modes(
        &mut self,
        tag: Tag,
        class: Range<u32>,
        id: Range<u32>,
        self_closing: bool,
    ) {
        // Bounded: each retry pops at least one element or changes the mode element.
        for _ in 0..8 {
            let mode = self.mode_tag();
            match mode {
                Some(Tag::SELECT) => {
                    if self.start_in_select(tag, &class, &id) {
                        return;
                    }
                }
                Some(Tag::TABLE | Tag::TBODY | Tag::THEAD | Tag::TFOOT | Tag::TR) => {
                    if self.start_in_table(tag, &class, &id, mode) {
                        return;
                    }
                }
                Some(Tag::TD | Tag::TH) => {
                    if matches!(
                        tag,
                        Tag::CAPTION
                            | Tag::COL
                            | Tag::COLGROUP
                            | Tag::TBODY
                            | Tag::TD
                            | Tag::TFOOT
                            | Tag::TH
                            | Tag::THEAD
                            | Tag::TR
                    ) {
                        self.close_cell();
                        continue;
                    }
                    self.start_in_body(tag, class, id, self_closing);
                    return;
                }
                Some(Tag::CAPTION) => {
                    if matches!(
                        tag,
                        Tag::CAPTION
                            | Tag::COL
                            | Tag::COLGROUP
                            | Tag::TBODY
                            | Tag::TD
                            | Tag::TFOOT
                            | Tag::TH
                            | Tag::THEAD
                            | Tag::TR
                    ) {
                        self.generate_implied_end(None);
                        self.pop_through(Tag::CAPTION);
                        self.afe_clear_to_marker();
                        continue;
                    }
                    self.start_in_body(tag, class, id, self_closing);
                    return;
                }
                Some(Tag::COLGROUP) => {
                    if tag == Tag::COL {
                        self.insert(tag, class, id, true);
                        return;
                    }
                    self.pop_through(Tag::COLGROUP);
                    continue;
                }
                _ => {
                    self.start_in_body(tag, class, id, self_closing);
                    return;
                }
            }
        }
    }

    fn close_cell(&mut self) {
        self.generate_implied_end(None);
        let td = self.top_pos(Tag::TD);
        let th = self.top_pos(Tag::TH);
        if let Some(p) = td.max(th) {
            self.pop_to(p as usize);
        }
        self.afe_clear_to_marker();
    }

    /// Pops until the current node is one of `stop` (or html).
    fn clear_back_to(&mut self, stop: &[Tag]) {
        while let Some(t) = self.current_tag() {
            if stop.contains(&t) || t == Tag::HTML || t == Tag::TEMPLATE {
                break;
            }
            self.pop();
        }
    }

    /// Start tag in a table, table body or row. Returns false to ask for reprocessing.
    fn start_in_table(
        &mut self,
        tag: Tag,
        class: &Range<u32>,
        id: &Range<u32>,
        mode: Option<Tag>,
    ) -> bool {
        let in_body_part = matches!(mode, Some(Tag::TBODY | Tag::THEAD | Tag::TFOOT));
        let in_row = mode == Some(Tag::TR);
        match tag {
            Tag::CAPTION | Tag::COLGROUP | Tag::COL if in_row || in_body_part => {
                self.close_row_or_body(in_row);
                false
            }
            Tag::TBODY | Tag::THEAD | Tag::TFOOT if in_row || in_body_part => {
                self.close_row_or_body(in_row);
                false
            }
            Tag::TR if in_row => {
                self.close_row_or_body(true);
                false
            }
            Tag::CAPTION => {
                self.clear_back_to(&[Tag::TABLE]);
                self.afe.push(Afe::Marker);
                self.insert(tag, class.clone(), id.clone(), false);
                true
            }
            Tag::COLGROUP => {
                self.clear_back_to(&[Tag::TABLE]);
                self.insert(tag, class.clone(), id.clone(), false);
                true
            }
            Tag::COL => {
                self.clear_back_to(&[Tag::TABLE]);
                self.insert_implied(Tag::COLGROUP);
                false
            }
            Tag::TBODY | Tag::THEAD | Tag::TFOOT => {
                self.clear_back_to(&[Tag::TABLE]);
                self.insert(tag, class.clone(), id.clone(), false);
                true
            }
            Tag::TR => {
                if !in_body_part {
                    self.clear_back_to(&[Tag::TABLE]);
                    self.insert_implied(Tag::TBODY);
                }
                self.clear_back_to(&[Tag::TBODY, Tag::THEAD, Tag::TFOOT]);
                self.insert(tag, class.clone(), id.clone(), false);
                true
            }
            Tag::TD | Tag::TH => {
                if in_row {
                    self.clear_back_to(&[Tag::TR]);
                    self.insert(tag, class.clone(), id.clone(), false);
                    self.afe.push(Afe::Marker);
                    true
                } else {
                    if !in_body_part {
                        self.clear_back_to(&[Tag::TABLE]);
                        self.insert_implied(Tag::TBODY);
                    }
                    self.clear_back_to(&[Tag::TBODY, Tag::THEAD, Tag::TFOOT]);
                    self.insert_implied(Tag::TR);
                    false
                }
            }
            Tag::TABLE => {
                if self.in_scope(Tag::TABLE, Scope::Table).is_some() {
                    self.pop_through(Tag::TABLE);
                    false
                } else {
                    true
                }
            }
            Tag::STYLE | Tag::SCRIPT | Tag::TEMPLATE => {
                // Processed as in head: inserted where we are, never fostered.
                let parent = self.current_elem();
                let eid = self.new_element(tag, parent, class.clone(), id.clone());
                self.note_split(tag, 1, 0);
                self.push(tag, eid);
                true
            }
            Tag::FORM => {
                // Inserted and popped at once, but it becomes the form element pointer.
                if self.form.is_none() {
                    let parent = self.current_elem();
                    let eid = self.new_element(tag, parent, class.clone(), id.clone());
                    self.note_split(tag, 1, 1);
                    self.form = Some(eid);
                }
                true
            }
            _ => {
                // Anything else is foster-parented and handled by the in-body rules.
                self.start_in_body(tag, class.clone(), id.clone(), false);
                true
            }
        }
    }

    fn close_row_or_body(&mut self, in_row: bool) {
        if in_row {
            self.clear_back_to(&[Tag::TR]);
            self.pop_through(Tag::TR);
        } else {
            self.clear_back_to(&[Tag::TBODY, Tag::THEAD, Tag::TFOOT]);
            if let Some(t) = self.current_tag()
                && matches!(t, Tag::TBODY | Tag::THEAD | Tag::TFOOT)
            {
                self.pop();
            }
        }
    }

    /// Start tag in a select. Returns false to ask for reprocessing.
    fn start_in_select(&mut self, tag: Tag, class: &Range<u32>, id: &Range<u32>) -> bool {
        match tag {
            Tag::OPTION => {
                if self.current_tag() == Some(Tag::OPTION) {
                    self.pop();
                }
                self.insert(tag, class.clone(), id.clone(), false);
                true
            }
            Tag::OPTGROUP => {
                if self.current_tag() == Some(Tag::OPTION) {
                    self.pop();
                }
                if self.current_tag() == Some(Tag::OPTGROUP) {
                    self.pop();
                }
                self.insert(tag, class.clone(), id.clone(), false);
                true
            }
            Tag::SELECT => {
                self.pop_through(Tag::SELECT);
                true
            }
            Tag::INPUT | Tag::KEYGEN | Tag::TEXTAREA => {
                self.pop_through(Tag::SELECT);
                false
            }
            Tag::CAPTION
            | Tag::TABLE
            | Tag::TBODY
            | Tag::TFOOT
            | Tag::THEAD
            | Tag::TR
            | Tag::TD
            | Tag::TH => {
                self.pop_through(Tag::SELECT);
                false
            }
            Tag::SCRIPT | Tag::TEMPLATE => {
                self.insert(tag, class.clone(), id.clone(), false);
                true
            }
            _ => true,
        }
    }

    fn start_in_body(&mut self, tag: Tag, class: Range<u32>, id: Range<u32>, self_closing: bool) {
        let p = tag.props();
        match tag {
            Tag::HTML | Tag::BODY | Tag::FRAMESET | Tag::HEAD => {}
            Tag::CAPTION
            | Tag::COL
            | Tag::COLGROUP
            | Tag::FRAME
            | Tag::TBODY
            | Tag::TD
            | Tag::TFOOT
            | Tag::TH
            | Tag::THEAD
            | Tag::TR => {}
            Tag::BASE | Tag::BASEFONT | Tag::BGSOUND | Tag::LINK | Tag::META => {
                self.insert(tag, class, id, true);
            }
            Tag::TITLE
            | Tag::NOSCRIPT
            | Tag::NOFRAMES
            | Tag::STYLE
            | Tag::SCRIPT
            | Tag::TEMPLATE => {
                let eid = self.insert(tag, class, id, false);
                self.note_title(tag, eid);
            }
            Tag::H1 | Tag::H2 | Tag::H3 | Tag::H4 | Tag::H5 | Tag::H6 => {
                self.close_p();
                if self.current_tag().is_some_and(Tag::is_heading) {
                    self.pop();
                }
                self.insert(tag, class, id, false);
            }
            Tag::FORM => {
                if self.form.is_some() {
                    return;
                }
                self.close_p();
                let eid = self.insert(tag, class, id, false);
                self.form = Some(eid);
            }
            Tag::LI => {
                self.close_list_item(&[Tag::LI]);
                self.close_p();
                self.insert(tag, class, id, false);
            }
            Tag::DD | Tag::DT => {
                self.close_list_item(&[Tag::DD, Tag::DT]);
                self.close_p();
                self.insert(tag, class, id, false);
            }
            Tag::BUTTON => {
                if self.in_scope(Tag::BUTTON, Scope::Default).is_some() {
                    self.generate_implied_end(None);
                    self.pop_through(Tag::BUTTON);
                }
                self.reconstruct();
                self.insert(tag, class, id, false);
            }
            Tag::A => {
                let open_a = self
                    .afe
                    .iter()
                    .rev()
                    .take_while(|a| **a != Afe::Marker)
                    .find_map(|a| match *a {
                        Afe::Entry(e)
                            if self
                                .elements
                                .get(e as usize)
                                .is_some_and(|x| x.tag == Tag::A) =>
                        {
                            Some(e)
                        }
                        _ => None,
                    });
                if let Some(e) = open_a {
                    self.adoption_agency(Tag::A);
                    if let Some(i) = self.afe_position(e) {
                        self.afe.remove(i);
                    }
                    if let Some(pos) = self.stack.iter().rposition(|o| o.elem == e) {
                        let o = self.stack.remove(pos);
                        if let Some(f) = self.on_stack.get_mut(o.elem as usize) {
                            *f = false;
                        }
                        self.rebuild_index();
                    }
                }
                self.reconstruct();
                let eid = self.insert(tag, class, id, false);
                self.afe_push(eid);
            }
            Tag::NOBR => {
                self.reconstruct();
                if self.in_scope(Tag::NOBR, Scope::Default).is_some() {
                    self.adoption_agency(Tag::NOBR);
                    self.reconstruct();
                }
                let eid = self.insert(tag, class, id, false);
                self.afe_push(eid);
            }
            _ if p.has(Props::FORMATTING) => {
                self.reconstruct();
                let eid = self.insert(tag, class, id, false);
                self.afe_push(eid);
            }
            Tag::APPLET | Tag::MARQUEE | Tag::OBJECT => {
                self.reconstruct();
                self.insert(tag, class, id, false);
                self.afe.push(Afe::Marker);
            }
            Tag::TABLE => {
                if !self.quirks {
                    self.close_p();
                }
                self.insert(tag, class, id, false);
            }
            Tag::HR => {
                self.close_p();
                self.insert(tag, class, id, true);
            }
            Tag::PARAM | Tag::SOURCE | Tag::TRACK => {
                self.insert(tag, class, id, true);
            }
            Tag::XMP => {
                self.close_p();
                self.reconstruct();
                self.insert(tag, class, id, false);
            }
            Tag::IFRAME | Tag::NOEMBED | Tag::TEXTAREA => {
                self.insert(tag, class, id, false);
            }
            Tag::SELECT => {
                self.reconstruct();
                self.insert(tag, class, id, false);
            }
            Tag::OPTGROUP | Tag::OPTION => {
                if self.current_tag() == Some(Tag::OPTION) {
                    self.pop();
                }
                self.reconstruct();
                self.insert(tag, class, id, false);
            }
            Tag::RB | Tag::RTC | Tag::RP | Tag::RT => {
                if self.in_scope(Tag::RUBY, Scope::Default).is_some() {
                    let except = if matches!(tag, Tag::RP | Tag::RT) {
                        Some(Tag::RTC)
                    } else {
                        None
                    };
                    self.generate_implied_end(except);
                }
                self.insert(tag, class, id, false);
            }
            Tag::SVG | Tag::MATH => {
                self.reconstruct();
                self.insert(tag, class, id, self_closing);
            }
            _ if p.has(Props::CLOSES_P) => {
                self.close_p();
                self.insert(tag, class, id, false);
            }
            _ if p.has(Props::VOID) => {
                self.reconstruct();
                self.insert(tag, class, id, true);
            }
            _ => {
                self.reconstruct();
                self.insert(tag, class, id, false);
            }
        }
    }

    /// The `li` / `dd` / `dt` start-tag loop: closes an open item of the same kind unless a special
    /// element (other than address, div, p) intervenes.
    fn close_list_item(&mut self, kinds: &[Tag]) {
        let mut i = self.stack.len();
        while i > 0 {
            i -= 1;
            let t = self.stack[i].tag;
            if kinds.contains(&t) {
                self.generate_implied_end(Some(t));
                self.pop_to(i);
                return;
            }
            if t.is(Props::SPECIAL) && !matches!(t, Tag::ADDRESS | Tag::DIV | Tag::P) {
                return;
            }
            // Only the nearest few entries can matter: stop at the first special element, which
            // the loop above does; non-special runs are short in practice but bound them anyway.
            if self.stack.len() - i > 64 {
                return;
            }
        }
    }

    /// Handles an end tag. Returns whether it changed the tree (a stray end tag does not).
    pub fn end(&mut self, tag: Tag) -> bool {
        let before = self.changes;
        self.end_inner(tag);
        self.changes != before
    }

    fn end_inner(&mut self, tag: Tag) {
        let tag = if tag == Tag::IMAGE { Tag::IMG } else { tag };
        if !self.foreign.is_empty() {
            // In foreign content an end tag closes the nearest open element of that name.
            if let Some(p) = self.top_pos(tag)
                && (top(&self.foreign).is_some_and(|f| p >= f)
                    || tag == Tag::SVG
                    || tag == Tag::MATH)
            {
                self.pop_to(p as usize);
                return;
            }
        }
        match self.phase {
            Phase::Initial => {
                if matches!(tag, Tag::HEAD | Tag::BODY | Tag::HTML | Tag::BR) {
                    self.start_html((0..0, 0..0));
                } else {
                    return;
                }
            }
            Phase::BeforeHead => {
                if matches!(tag, Tag::HEAD | Tag::BODY | Tag::HTML | Tag::BR) {
                    let h = self.insert_implied(Tag::HEAD);
                    self.head = Some(h);
                    self.phase = Phase::InHead;
                } else {
                    return;
                }
            }
            _ => {}
        }
        match self.phase {
            Phase::InHead => {
                if tag == Tag::HEAD {
                    self.leave_head();
                    return;
                }
                if let Some(t) = self.current_tag()
                    && t == tag
                    && t != Tag::HTML
                {
                    self.pop();
                    return;
                }
                if matches!(tag, Tag::BODY | Tag::HTML | Tag::BR) {
                    self.leave_head();
                } else {
                    return;
                }
            }
            Phase::AfterHead => {
                if let Some(t) = self.current_tag()
                    && t == tag
                    && t.is(Props::HEAD_CONTENT)
                {
                    self.pop();
                    return;
                }
                if matches!(tag, Tag::BODY | Tag::HTML | Tag::BR) {
                    self.insert_implied(Tag::BODY);
                    self.phase = Phase::InBody;
                } else {
                    return;
                }
            }
            Phase::Frameset => {
                if tag == Tag::FRAMESET {
                    self.pop_through(Tag::FRAMESET);
                }
                return;
            }
            _ => {}
        }
        self.end_in_body_modes(tag);
    }

    fn end_in_body_modes(&mut self, tag: Tag) {
        for _ in 0..4 {
            match self.mode_tag() {
                Some(Tag::SELECT) => {
                    match tag {
                        Tag::OPTGROUP => {
                            let n = self.stack.len();
                            if self.current_tag() == Some(Tag::OPTION)
                                && n >= 2
                                && self.stack[n - 2].tag == Tag::OPTGROUP
                            {
                                self.pop();
                            }
                            if self.current_tag() == Some(Tag::OPTGROUP) {
                                self.pop();
                            }
                        }
                        Tag::OPTION => {
                            if self.current_tag() == Some(Tag::OPTION) {
                                self.pop();
                            }
                        }
                        Tag::SELECT => self.pop_through(Tag::SELECT),
                        Tag::CAPTION
                        | Tag::TABLE
                        | Tag::TBODY
                        | Tag::TFOOT
                        | Tag::THEAD
                        | Tag::TR
                        | Tag::TD
                        | Tag::TH => {
                            if self.in_scope(tag, Scope::Table).is_some() {
                                self.pop_through(Tag::SELECT);
                                continue;
                            }
                        }
                        _ => {
                            if self.current_tag() == Some(tag) && tag.is(Props::HEAD_CONTENT) {
                                self.pop();
                            }
                        }
                    }
                    return;
                }
                Some(Tag::TD | Tag::TH) => match tag {
                    Tag::TD | Tag::TH => {
                        if self.in_scope(tag, Scope::Table).is_some() {
                            self.generate_implied_end(None);
                            self.pop_through(tag);
                            self.afe_clear_to_marker();
                        }
                        return;
                    }
                    Tag::TABLE | Tag::TBODY | Tag::TFOOT | Tag::THEAD | Tag::TR => {
                        if self.in_scope(tag, Scope::Table).is_some() {
                            self.close_cell();
                            continue;
                        }
                        return;
                    }
                    Tag::BODY | Tag::CAPTION | Tag::COL | Tag::COLGROUP | Tag::HTML => return,
                    _ => {
                        self.end_in_body(tag);
                        return;
                    }
                },
                Some(Tag::TR) => match tag {
                    Tag::TR => {
                        if self.in_scope(Tag::TR, Scope::Table).is_some() {
                            self.close_row_or_body(true);
                        }
                        return;
                    }
                    Tag::TABLE | Tag::TBODY | Tag::TFOOT | Tag::THEAD => {
                        if self.in_scope(tag, Scope::Table).is_some() {
                            self.close_row_or_body(true);
                            continue;
                        }
                        return;
                    }
                    Tag::BODY
                    | Tag::CAPTION
                    | Tag::COL
                    | Tag::COLGROUP
                    | Tag::HTML
                    | Tag::TD
                    | Tag::TH => return,
                    _ => {
                        self.end_in_body(tag);
                        return;
                    }
                },
                Some(Tag::TBODY | Tag::THEAD | Tag::TFOOT) => match tag {
                    Tag::TBODY | Tag::THEAD | Tag::TFOOT => {
                        if self.in_scope(tag, Scope::Table).is_some() {
                            self.close_row_or_body(false);
                        }
                        return;
                    }
                    Tag::TABLE => {
                        if self.in_scope(tag, Scope::Table).is_some() {
                            self.close_row_or_body(false);
                            continue;
                        }
                        return;
                    }
                    Tag::BODY
                    | Tag::CAPTION
                    | Tag::COL
                    | Tag::COLGROUP
                    | Tag::HTML
                    | Tag::TD
                    | Tag::TH
                    | Tag::TR => return,
                    _ => {
                        self.end_in_body(tag);
                        return;
                    }
                },
                Some(Tag::TABLE) => match tag {
                    Tag::TABLE => {
                        if self.in_scope(Tag::TABLE, Scope::Table).is_some() {
                            self.pop_through(Tag::TABLE);
                        }
                        return;
                    }
                    Tag::BODY
                    | Tag::CAPTION
                    | Tag::COL
                    | Tag::COLGROUP
                    | Tag::HTML
                    | Tag::TBODY
                    | Tag::TD
                    | Tag::TFOOT
                    | Tag::TH
                    | Tag::THEAD
                    | Tag::TR => return,
                    _ => {
                        self.end_in_body(tag);
                        return;
                    }
                },
                Some(Tag::CAPTION) => match tag {
                    Tag::CAPTION => {
                        if self.in_scope(Tag::CAPTION, Scope::Table).is_some() {
                            self.generate_implied_end(None);
                            self.pop_through(Tag::CAPTION);
                            self.afe_clear_to_marker();
                        }
                        return;
                    }
                    Tag::TABLE => {
                        if self.in_scope(Tag::CAPTION, Scope::Table).is_some() {
                            self.generate_implied_end(None);
                            self.pop_through(Tag::CAPTION);
                            self.afe_clear_to_marker();
                            continue;
                        }
                        return;
                    }
                    Tag::BODY
                    | Tag::COL
                    | Tag::COLGROUP
                    | Tag::HTML
                    | Tag::TBODY
                    | Tag::TD
                    | Tag::TFOOT
                    | Tag::TH
                    | Tag::THEAD
                    | Tag::TR => return,
                    _ => {
                        self.end_in_body(tag);
                        return;
                    }
                },
                Some(Tag::COLGROUP) => {
                    if tag == Tag::COLGROUP {
                        self.pop_through(Tag::COLGROUP);
                        return;
                    }
                    if tag == Tag::COL {
                        return;
                    }
                    self.pop_through(Tag::COLGROUP);
                    continue;
                }
                _ => {
                    self.end_in_body(tag);
                    return;
                }
            }
        }
    }

    fn end_in_body(&mut self, tag: Tag) {
        let p = tag.props();
        match tag {
            Tag::BODY | Tag::HTML => {}
            Tag::P => {
                if self.in_scope(Tag::P, Scope::Button).is_none() {
                    // `</p>` without an open p creates an empty paragraph.
                    self.insert(Tag::P, 0..0, 0..0, true);
                    self.note_split(Tag::P, 0, 1);
                } else {
                    self.generate_implied_end(Some(Tag::P));
                    self.pop_through(Tag::P);
                }
            }
            Tag::LI => {
                if self.in_scope(Tag::LI, Scope::ListItem).is_some() {
                    self.generate_implied_end(Some(Tag::LI));
                    self.pop_through(Tag::LI);
                }
            }
            Tag::DD | Tag::DT => {
                if self.in_scope(tag, Scope::Default).is_some() {
                    self.generate_implied_end(Some(tag));
                    self.pop_through(tag);
                }
            }
            Tag::H1 | Tag::H2 | Tag::H3 | Tag::H4 | Tag::H5 | Tag::H6 => {
                if let Some(pos) = self.heading_in_scope() {
                    self.generate_implied_end(None);
                    self.pop_to(pos as usize);
                }
            }
            Tag::FORM => {
                // HTML5: the form element leaves the stack, but the elements opened inside it
                // stay open (and stay its descendants).
                let Some(node) = self.form.take() else {
                    return;
                };
                let Some(pos) = self.in_scope(Tag::FORM, Scope::Default) else {
                    return;
                };
                if self.stack.get(pos as usize).map(|o| o.elem) != Some(node) {
                    return;
                }
                self.generate_implied_end(None);
                self.remove_from_stack(pos as usize);
            }
            Tag::BR => {
                self.reconstruct();
                self.insert(Tag::BR, 0..0, 0..0, true);
            }
            Tag::APPLET | Tag::MARQUEE | Tag::OBJECT => {
                if self.in_scope(tag, Scope::Default).is_some() {
                    self.generate_implied_end(None);
                    self.pop_through(tag);
                    self.afe_clear_to_marker();
                }
            }
            _ if p.has(Props::FORMATTING) => {
                if !self.adoption_agency(tag) {
                    self.end_generic(tag);
                }
            }
            _ if p.has(Props::SPECIAL) && p.has(Props::BLOCK)
                || tag == Tag::BUTTON
                || tag == Tag::DIALOG =>
            {
                if self.in_scope(tag, Scope::Default).is_some() {
                    self.generate_implied_end(None);
                    self.pop_through(tag);
                }
            }
            _ => self.end_generic(tag),
        }
    }

    /// "Any other end tag": close the nearest open element of that name unless a special element
    /// lies above it.
    fn end_generic(&mut self, tag: Tag) {
        let Some(pos) = self.top_pos(tag) else {
            return;
        };
        if top(&self.special).is_some_and(|s| s > pos) {
            return;
        }
        self.generate_implied_end(Some(tag));
        self.pop_to(pos as usize);
    }

    /// Decides where text goes. `has_text` tells whether it has anything but white space. Returns
    /// `None` for text the tree drops (white space before the body, frameset pages).
    pub fn text(&mut self, has_text: bool) -> Option<TextTarget> {
        loop {
            match self.phase {
                Phase::Initial => {
                    if !has_text {
                        return None;
                    }
                    self.start_html((0..0, 0..0));
                }
                Phase::BeforeHead => {
                    if !has_text {
                        return None;
                    }
                    let h = self.insert_implied(Tag::HEAD);
                    self.head = Some(h);
                    self.phase = Phase::InHead;
                }
                Phase::InHead => {
                    if self.current_tag() != Some(Tag::HEAD) {
                        return Some(self.target_here());
                    }
                    if !has_text {
                        return None;
                    }
                    self.leave_head();
                }
                Phase::AfterHead => {
                    if self.current_tag().is_some_and(|t| t != Tag::HTML) {
                        return Some(self.target_here());
                    }
                    if !has_text {
                        return None;
                    }
                    self.insert_implied(Tag::BODY);
                    self.phase = Phase::InBody;
                }
                Phase::Frameset => return None,
                Phase::InBody => break,
            }
        }
        let cur = self.current_tag();
        if cur.is_some_and(|t| t.is(Props::EXCLUDED)) || !self.foreign.is_empty() {
            return Some(self.target_here());
        }
        if self.mode_tag() == Some(Tag::SELECT) {
            return Some(self.target_here());
        }
        if cur.is_some_and(|t| t.is(Props::TABLE_CONTEXT)) && !has_text {
            return None;
        }
        self.reconstruct();
        let parent = self.insertion_parent();
        let mut t = self.target_here();
        t.parent = parent;
        Some(t)
    }

    fn target_here(&self) -> TextTarget {
        let cur = self.current_tag();
        TextTarget {
            parent: self.current_elem(),
            excluded: self.excluded_depth > 0 || !self.foreign.is_empty(),
            title: cur == Some(Tag::TITLE),
            in_anchor: self.anchor_depth > 0,
            in_pre: self.pre_depth > 0,
        }
    }

    /// A raw-text element (title, textarea, ...) that is the current node, with its element id.
    pub fn open_raw_text(&self) -> Option<(Tag, ElementId)> {
        let o = self.stack.last()?;
        matches!(
            o.tag,
            Tag::TITLE
                | Tag::TEXTAREA
                | Tag::XMP
                | Tag::NOSCRIPT
                | Tag::NOFRAMES
                | Tag::NOEMBED
                | Tag::IFRAME
                | Tag::STYLE
        )
        .then_some((o.tag, o.elem))
    }

    /// Records a new block's parent (so adoption-agency moves can follow it).
    pub fn note_block(&mut self, parent: ElementId) {
        self.block_parents.push(parent);
    }
}

/// Quirks mode as HTML5 decides it, for the doctypes found on real pages.
fn is_quirky(name: Option<&str>, public_id: Option<&str>, system_id: Option<&str>) -> bool {
    if !name.is_some_and(|n| n.eq_ignore_ascii_case("html")) {
        return true;
    }
    let public = public_id.map(str::to_ascii_lowercase);
    let system = system_id.map(str::to_ascii_lowercase);
    if let Some(p) = public.as_deref() {
        const PREFIXES: &[&str] = &[
            "+//silmaril//dtd html pro v0r11 19970101//",
            "-//as//dtd html 3.0 aswedit + extensions//",
            "-//advasoft ltd//dtd html 3.0 aswedit + extensions//",
            "-//ietf//dtd html",
            "-//metrius//dtd metrius presentational//",
            "-//microsoft//dtd internet explorer",
            "-//netscape comm. corp.//dtd",
            "-//o'reilly and associates//dtd html",
            "-//softquad",
            "-//spyglass//dtd html 2.0 extended//",
            "-//sq//dtd html 2.0 hotmetal + extensions//",
            "-//sun microsystems corp.//dtd hotjava",
            "-//w3c//dtd html 3",
            "-//w3c//dtd html 4.0 frameset//",
            "-//w3c//dtd html 4.0 transitional//",
            "-//w3c//dtd html experimental",
            "-//w3c//dtd w3 html//",
            "-//w3o//dtd w3 html",
            "-//webtechs//dtd mozilla html",
        ];
        if p == "-//w3o//dtd w3 html strict 3.0//en//"
            || p == "-/w3c/dtd html 4.0 transitional/en"
            || p == "html"
        {
            return true;
        }
        if PREFIXES.iter().any(|x| p.starts_with(x)) {
            return true;
        }
        if system.is_none()
            && (p.starts_with("-//w3c//dtd html 4.01 frameset//")
                || p.starts_with("-//w3c//dtd html 4.01 transitional//"))
        {
            return true;
        }
    }
    system.as_deref() == Some("http://www.ibm.com/data/dtd/v11/ibmxhtml1-transitional.dtd")
}

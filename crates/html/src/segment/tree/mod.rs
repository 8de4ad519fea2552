//! The open-element stack with HTML5's tree-construction rules, so that every block knows the
//! ancestors a browser would give it.
//!
//! The tokenizer ([`super::lex`]) builds no tree. This module
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

use crate::element_id::ElementId;
use crate::page::{Element, Split};
use crate::segment::tags::{Props, Tag};

mod end;
mod formatting;
mod stack;
mod start;
mod text;

/// What the tree needs to know of a start tag besides its name, `class` and `id`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TokenAttrs {
    /// Written `<x/>`: a void element in foreign content.
    pub self_closing: bool,
    /// The tag leaves foreign content whatever its name (a `<font>` with `color`, `face` or
    /// `size`).
    pub breakout: bool,
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
        self.elements.push(Element::ROOT);
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
        self.clear_index();
        self.island_tags.clear();
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
}

/// The table tags that close an open select, as start and as end tags.
fn ends_select(tag: Tag) -> bool {
    matches!(
        tag,
        Tag::CAPTION
            | Tag::TABLE
            | Tag::TBODY
            | Tag::TFOOT
            | Tag::THEAD
            | Tag::TR
            | Tag::TD
            | Tag::TH
    )
}

/// The start tags of table parts, which close an open cell or caption first.
fn is_table_part(tag: Tag) -> bool {
    matches!(
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
    )
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

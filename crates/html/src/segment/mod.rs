//! Segmentation: decoded HTML text -> a [`Page`] of blocks (Victor section 3.1, steps 3 and 4).
//!
//! # How a page is read
//!
//! victor's own tokenizer ([`lex`]) reads the document in one pass and reports text spans (with
//! the tokenizer state that read them: data, RCDATA, raw text, script data, plaintext, CDATA),
//! comments and doctypes, each with its byte range. It follows the HTML5 tokenizer's states as
//! lol_html 3 implements them, including lol_html's simulation of the tree builder's feedback
//! (which start tags switch to raw text, foreign content with its integration points), so that
//! the spans are exactly those lol_html reported when it did this job; it builds no attribute
//! lists and copies nothing. It reports tags as well, each read as [`scan`] reads the markup
//! between two spans (the name, the bytes up to the `>`); the rare tag that [`scan`] would end
//! elsewhere (an attribute name starting with `=`) and the markup after it up to the next span
//! are left to [`scan`], so that the tags are exactly those the segmenter read when lol_html
//! reported only the spans. The tags drive [`tree`], an open-element stack that follows the
//! HTML5 tree-construction rules, so that every block knows the ancestors a browser would give
//! it.
//!
//! A *block* is a continuous run of text between two tags that change the tree:
//! `<p>Hello <b>world</b>!</p>` gives "Hello", "world", "!". Stray end tags that a browser
//! ignores do not split a run; comments do. Text inside `script`, `style`, `noscript`,
//! `template`, `svg`, `math`, `iframe`, `object`, `embed` and `head` never becomes a block
//! (pre-cleaning, step 3), nor do the options of a `select` or `datalist` (a drop-down list is
//! never running text; jusText discards it too); the first `<title>` is kept as [`Page::title`].
//!
//! Entities are decoded as a browser does (named, numeric, the windows-1252 remap of `&#149;`,
//! legacy names without `;`) on the whole run, so an entity split across the tokenizer's pieces
//! of text is still decoded. White space is collapsed; [`Block::space_before`] remembers whether the page had
//! white space between two blocks, so text can be rebuilt without gluing or splitting words.
//!
//! # Corpus wrappers
//!
//! Corpora are often distributed as pages wrapped whole in an element of their own: CleanEval's
//! `<text id=... title=... encoding=...>` ... `</text>`, ukWaC's `<text id=...>`, the `<doc
//! id=... url=... title=...>` of Wikipedia dumps. When a document's first tag is the start tag
//! of an element HTML does not know and the document ends with that element's end tag, the
//! start tag is skipped: its attributes are the corpus's metadata, and the page inside is read
//! as if it stood alone (HTML5 would otherwise read the page's `<html>` and `<head>` inside an
//! unknown element of the body, and its title as body text). The end tag, a stray end tag for
//! the tree, changes nothing.
//!
//! # Recovery from unclosed raw-text elements
//!
//! Under the strict HTML5 rules an unclosed `<title>`, `<textarea>`, `<xmp>` or `<noscript>`
//! swallows the rest of the page as text. Browsers of the time showed the page. When the document
//! ends inside such an element and its text holds markup, the segmenter ends the element at the
//! first tag that cannot belong inside it and parses again ([`Page::recovered`] is set). The
//! offsets of blocks still refer to the original document.
//!
//! # Recovery from a start tag that swallowed markup
//!
//! A quote left open in an attribute value (`<script src="/te.x='y';` ... ) makes HTML5 read
//! the tag up to some later `>` and, for a raw-text element, its content up to a later end tag:
//! one l3s-gn1 page loses its whole article that way. Browsers before HTML5 (the annotators'
//! Firefox 2, Internet Explorer) ended a start tag at a `<` where an attribute name would start
//! ([`scan::stray_lt`]). When the rest of such a tag spans a line or holds more markup, the
//! segmenter inserts a `>` before that `<` and parses again, the same way as above; a short stray
//! `<` (`<img alt="x"<br>`) hides nothing and keeps the HTML5 reading.
//!
//! [`Block`]: crate::page::Block

mod attrs;
mod collapse;
pub mod declared;
mod floor;
pub mod head;
pub mod lex;
#[cfg(test)]
mod lex_oracle;
mod noscript;
mod recover;
pub mod scan;
pub mod tags;
pub mod tree;

use std::ops::Range;

use crate::element_id::ElementId;
use crate::page::{Block, Page};
use crate::within::Within;
use attrs::{AttrName, INTEGRATION_POINTS, attr_hash, hides, marks_main, noscript_may_hold};
use collapse::{collapse_into, is_html_space};
use lex::{Event, Lexer, TextType};
use recover::{original_offset, recovery_cut, swallows_markup, wrapper_len};
use scan::RawTag;
use tags::Tag;
use tree::{TextTarget, TokenAttrs, Tree};

/// What the segmenter reads from a start tag's attributes.
#[derive(Debug, Default)]
struct StartAttrs {
    /// The `class` value in the attribute arena.
    class: Range<u32>,
    /// The `id` value in the attribute arena.
    id: Range<u32>,
    /// Hash of all attributes (formatting elements only; 0 otherwise).
    hash: u64,
    /// The element's own attributes make it invisible.
    hidden: bool,
    /// It has `href` or `onclick`: an `<a>` with neither is a placeholder, not a link.
    acts: bool,
    /// Its attributes mark it as the main content ([`crate::page::Element::semantic`]).
    semantic: bool,
    /// The `href` value in the attribute arena, as written (`<a>` and `<base>` only).
    href: Range<u32>,
    /// What its `rel` or `itemprop` says it holds ([`head::Mark`]).
    mark: Option<head::Mark>,
}

/// How a tag reached the segmenter: read out of a gap by the scanner, which leaves its
/// attributes to be read from its bytes ([`scan::attrs`]), or handed over by the tokenizer with
/// what it learnt on the way.
#[derive(Clone, Copy)]
enum Source<'t> {
    Scanned,
    Lexed {
        /// The attributes: ranges of the tokenizer's input, which starts `base` bytes into
        /// the document.
        attrs: &'t [lex::Attr],
        base: usize,
        /// An attribute name starts with `<` ([`lex::Tag::lt_name`]).
        lt_name: bool,
        /// The name's local name hash ([`lex::Tag::name_hash`]).
        name_hash: Option<u64>,
    },
}

/// Why a page could not be segmented.
#[derive(Debug, thiserror::Error)]
pub enum SegmentError {
    /// The document is larger than the segmenter's offsets can address.
    #[error("document too large: {0} bytes (limit {limit})", limit = MAX_DOCUMENT)]
    TooLarge(usize),
    /// The page splits into more blocks than the segmenter's limit
    /// ([`Segmenter::set_max_blocks`]); labeling costs memory in proportion to the blocks.
    #[error("page has more than {0} text blocks (the block limit)")]
    TooManyBlocks(usize),
}

/// Largest document the segmenter accepts (block offsets are `u32`).
pub const MAX_DOCUMENT: usize = 1 << 30;

/// How often the segmenter may end an unclosed raw-text element and parse again.
const MAX_RECOVERIES: usize = 8;

/// The default block limit of a [`Segmenter`]: 500,000 blocks, some 15 MB of dense article
/// markup and about 500 MB of features and marginals in labeling (about 1 KB a block). The
/// pages of the shared gold standards have at most a few thousand blocks; a page past the limit
/// (a log, a table dump, a generated list of millions of lines) is refused with an error rather
/// than allowed to take the memory of a whole worker.
pub const DEFAULT_MAX_BLOCKS: usize = 500_000;

/// What a parse collects beyond the blocks and their elements. Both cost time on every page
/// (a test of every attribute, a copy of every link's `href`), and text output uses neither, so
/// a caller that knows its output asks only for what it writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Collect {
    /// Each `<a>`'s `href` and the `<base href>` ([`Page::href`], [`Page::base_href`]: Markdown
    /// links).
    pub links: bool,
    /// What the page says about itself ([`Page::head`]: `<meta>`, `<link rel=canonical>`,
    /// `<time>`, JSON-LD text, `rel`/`itemprop` marks), for the metadata of the JSON outputs.
    pub head: bool,
}

impl Collect {
    /// Links and head: everything a page's outputs may use.
    pub const ALL: Collect = Collect {
        links: true,
        head: true,
    };
    /// Blocks and elements only (plain-text output).
    pub const NONE: Collect = Collect {
        links: false,
        head: false,
    };
}

impl Default for Collect {
    /// [`Collect::ALL`].
    fn default() -> Self {
        Collect::ALL
    }
}

/// Segments pages. Reuse one per thread: it keeps its buffers between pages.
#[derive(Debug)]
pub struct Segmenter {
    tree: Tree,
    raw: String,
    max_blocks: usize,
    collect: Collect,
}

impl Default for Segmenter {
    fn default() -> Self {
        Segmenter {
            tree: Tree::default(),
            raw: String::new(),
            max_blocks: DEFAULT_MAX_BLOCKS,
            collect: Collect::ALL,
        }
    }
}

/// Segments one decoded document with a fresh [`Segmenter`].
pub fn segment(html: &str) -> Result<Page, SegmentError> {
    Segmenter::default().segment(html)
}

/// A byte insertion made to end an unclosed element: `(position in the original, length)`.
type Insertion = (usize, usize);

impl Segmenter {
    /// Creates a segmenter with the default block limit ([`DEFAULT_MAX_BLOCKS`]).
    pub fn new() -> Self {
        Self::default()
    }

    /// Sets the block limit: a page that splits into more blocks is refused with
    /// [`SegmentError::TooManyBlocks`] (its parse stops as soon as it passes the limit).
    pub fn set_max_blocks(&mut self, max_blocks: usize) {
        self.max_blocks = max_blocks;
    }

    /// The block limit.
    pub fn max_blocks(&self) -> usize {
        self.max_blocks
    }

    /// Sets what the next parses collect beyond the blocks (default [`Collect::ALL`]); what is
    /// not collected is left empty in the [`Page`] (no links, an empty [`Page::head`]).
    pub fn set_collect(&mut self, collect: Collect) {
        self.collect = collect;
    }

    /// What a parse collects beyond the blocks.
    pub fn collect(&self) -> Collect {
        self.collect
    }

    /// Segments one decoded document: as a browser with scripting on parses it, or, when the
    /// text inside its `<noscript>` elements outweighs that of its blocks, as a script-less one
    /// does (the page's content is a crawler view; [`Page::noscript_view`]).
    pub fn segment(&mut self, html: &str) -> Result<Page, SegmentError> {
        let page = self.segment_scripted(html)?;
        let page = match noscript::crawler_view(html, || page.text.split_whitespace().count()) {
            Some(view) => {
                let mut page = self.segment_scripted(&view)?;
                page.noscript_view = true;
                page
            }
            None => page,
        };
        Ok(page)
    }

    /// Segments one decoded document with scripting on (`<noscript>` content is text).
    fn segment_scripted(&mut self, html: &str) -> Result<Page, SegmentError> {
        if html.len() >= MAX_DOCUMENT {
            return Err(SegmentError::TooLarge(html.len()));
        }
        let base = wrapper_len(html);
        let mut doc = std::borrow::Cow::Borrowed(html);
        let mut insertions: Vec<Insertion> = Vec::new();
        loop {
            let (mut page, trouble) = self.run(&doc, base)?;
            let repair = match trouble {
                _ if insertions.len() >= MAX_RECOVERIES => None,
                Trouble::StrayLt(at) => Some((at, ">")),
                Trouble::Unclosed(tag, content_start) => {
                    recovery_cut(&doc, content_start, tag).map(|c| (c, end_tag_text(tag)))
                }
                Trouble::None => None,
            };
            // A cut is a position the lexer reported, so a character boundary in the document;
            // one that were not would end the repairs, never splice a broken document.
            let split = repair.and_then(|(cut, insert)| {
                let halves = doc.split_at_checked(cut);
                debug_assert!(halves.is_some(), "repair cut {cut} off the document");
                halves.map(|(before, after)| (cut, insert, before, after))
            });
            let Some((cut, insert, before, after)) = split else {
                // Done, or nothing to recover (the swallowed text holds no markup): keep what
                // the strict rules gave.
                if !insertions.is_empty() {
                    page.recovered = true;
                    for b in &mut page.blocks {
                        let s = original_offset(&insertions, b.source.start as usize);
                        let e = original_offset(&insertions, b.source.end as usize);
                        b.source = s as u32..e as u32;
                    }
                }
                return Ok(page);
            };
            let mut fixed = String::with_capacity(doc.len() + insert.len());
            fixed.push_str(before);
            fixed.push_str(insert);
            fixed.push_str(after);
            insertions.push((original_offset(&insertions, cut), insert.len()));
            insertions.sort_unstable();
            doc = std::borrow::Cow::Owned(fixed);
        }
    }

    /// One parse. Also returns the first trouble that a repair and a new parse would mend.
    fn run(&mut self, doc: &str, base: usize) -> Result<(Page, Trouble), SegmentError> {
        self.tree.reset();
        let mut state = State {
            tree: std::mem::take(&mut self.tree),
            raw: std::mem::take(&mut self.raw),
            doc,
            last_end: base,
            page: Page::default(),
            run: None,
            pending_space: false,
            raw_open: None,
            last_text_end: 0,
            stray_lt: None,
            scan_rest: false,
            collect: self.collect,
        };
        state.page.text.reserve(doc.len() / 3);
        // Room for the elements, blocks and attribute values of a usual page at once, instead
        // of doubling up to them (today's pages: about one element in 160 bytes of markup, one
        // block in 500).
        state.tree.elements.reserve(doc.len() / 160);
        state.page.blocks.reserve(doc.len() / 500);
        let max_blocks = self.max_blocks;
        {
            // `base` is the length of a prefix of the document (its wrapper).
            let input = doc.as_bytes().within(base..);
            let at = |r: Range<usize>| r.start + base..r.end + base;
            Lexer::new(input).run(|event| {
                match event {
                    Event::Text { range, kind } => {
                        state.on_text(at(range), kind);
                        // Past the block limit the page is refused: stop reading it.
                        return state.page.blocks.len() <= max_blocks;
                    }
                    Event::Tag(mut t) => {
                        t.range = at(t.range);
                        t.name = at(t.name);
                        state.on_tag(t, base);
                    }
                    Event::Comment(range) => state.on_comment(at(range)),
                    Event::Doctype {
                        range,
                        name,
                        public_id,
                        system_id,
                    } => state.on_doctype(
                        at(range),
                        name.map(at),
                        public_id.map(at),
                        system_id.map(at),
                    ),
                }
                true
            });
        }
        let len = doc.len();
        if state.page.blocks.len() <= max_blocks {
            state.gap(len);
        }
        let trouble = match (state.stray_lt, state.unclosed_raw_text(len)) {
            (Some(at), _) => Trouble::StrayLt(at),
            (None, Some((tag, content_start))) => Trouble::Unclosed(tag, content_start),
            (None, None) => Trouble::None,
        };
        state.flush();
        let State {
            tree,
            raw,
            mut page,
            ..
        } = state;
        self.tree = tree;
        self.raw = raw;
        if page.blocks.len() > max_blocks {
            return Err(SegmentError::TooManyBlocks(max_blocks));
        }
        // Hand the tree's arenas to the page; blocks take their (possibly moved) parents.
        for (b, &p) in page.blocks.iter_mut().zip(&self.tree.block_parents) {
            b.parent = p;
        }
        page.elements = std::mem::take(&mut self.tree.elements);
        page.attrs = std::mem::take(&mut self.tree.attrs);
        Ok((page, trouble))
    }
}

/// `bytes` as the text it is, when it is a piece of `doc` (attribute values are) that starts
/// and ends at character boundaries: found by its place in `doc`, without validating it again.
/// Bytes that lie elsewhere in memory give `None` (an address before `doc`, or a range past
/// its end).
#[inline]
pub(crate) fn str_within<'d>(doc: &'d str, bytes: &[u8]) -> Option<&'d str> {
    let start = (bytes.as_ptr() as usize).checked_sub(doc.as_ptr() as usize)?;
    doc.get(start..start.checked_add(bytes.len())?)
}

/// What went wrong in a parse that a repair of the document can mend.
enum Trouble {
    /// Nothing.
    None,
    /// A start tag swallowed markup after a stray `<` (see [`scan::stray_lt`]): end it before
    /// the `<`, at this position.
    StrayLt(usize),
    /// A raw-text element (tag, start of its content) ran to the end of the document.
    Unclosed(Tag, usize),
}

/// The end tag that closes an unclosed raw-text element (those of [`Tree::open_raw_text`]).
fn end_tag_text(tag: Tag) -> &'static str {
    match tag {
        Tag::TEXTAREA => "</textarea>",
        Tag::XMP => "</xmp>",
        Tag::NOSCRIPT => "</noscript>",
        Tag::STYLE => "</style>",
        Tag::IFRAME => "</iframe>",
        Tag::NOEMBED => "</noembed>",
        Tag::NOFRAMES => "</noframes>",
        _ => "</title>",
    }
}

/// The text run being accumulated.
struct Run {
    /// Source offset of the run's first non-space byte.
    text_start: usize,
    /// Source offset just after its last non-space byte. (The run's pieces need not be
    /// contiguous: markup the tree ignores, such as a stray end tag, may sit between them, so
    /// both ends are tracked per piece rather than by trimming the joined text.)
    text_end: usize,
    decode: bool,
    target: TextTarget,
}

struct State<'d> {
    tree: Tree,
    raw: String,
    doc: &'d str,
    last_end: usize,
    page: Page,
    run: Option<Run>,
    pending_space: bool,
    /// A raw-text element that is open, with the position where its content starts.
    raw_open: Option<(Tag, ElementId, usize)>,
    last_text_end: usize,
    /// Where the first start tag that swallowed markup after a stray `<` should have ended.
    stray_lt: Option<usize>,
    /// A tag the gap scanner reads otherwise than the tokenizer came since the last span: the
    /// markup up to the next span goes to the scanner.
    scan_rest: bool,
    /// What this parse collects beyond the blocks.
    collect: Collect,
}

impl<'d> State<'d> {
    /// Processes the markup between the last reported span (or tag) and `upto` with the gap
    /// scanner: the tags the tokenizer could not hand over directly (see
    /// [`lex::Tag::scan_agrees`]), and a tag cut off by the end of the document.
    fn gap(&mut self, upto: usize) {
        self.scan_rest = false;
        if upto <= self.last_end {
            return;
        }
        let from = self.last_end;
        self.last_end = upto;
        let doc: &'d [u8] = self.doc.as_bytes();
        let Some(gap) = doc.get(from..upto) else {
            return;
        };
        for (tag, range) in scan::tags(gap) {
            // Where the attributes start in the document: `attrs` is a slice of `gap`.
            let attrs_at = match tag {
                RawTag::Start { attrs, .. } => {
                    from + (attrs.as_ptr() as usize).wrapping_sub(gap.as_ptr() as usize)
                }
                RawTag::End { .. } => 0,
            };
            self.tag(tag, from + range.end, attrs_at, Source::Scanned);
        }
    }

    /// A tag the tokenizer read (its ranges already moved into the document, its attributes
    /// still ranges of the tokenizer's input, which starts `base` bytes into the document). It
    /// goes to the tree directly, as the gap scanner would have read it, unless the scanner
    /// reads it otherwise: then it and the rest of the markup up to the next span are left to
    /// the scanner ([`State::gap`]).
    fn on_tag(&mut self, t: lex::Tag<'_>, base: usize) {
        if self.scan_rest || !t.scan_agrees {
            self.scan_rest = true;
            return;
        }
        let doc: &'d [u8] = self.doc.as_bytes();
        self.last_end = t.range.end;
        let name = doc.within(t.name.clone());
        let read = Source::Lexed {
            attrs: t.attrs,
            base,
            lt_name: t.lt_name,
            name_hash: t.name_hash,
        };
        if t.end_tag {
            self.tag(RawTag::End { name }, t.range.end, 0, read);
        } else {
            // The scanner's reading: the bytes between the name and the `>`, self-closing when
            // the last of them is `/`.
            let attrs = doc.within(t.name.end..t.range.end.saturating_sub(1));
            if name.eq_ignore_ascii_case(b"meta") {
                self.page.declared = self.page.declared.min(declared::in_meta(attrs));
            }
            let tag = RawTag::Start {
                name,
                attrs,
                self_closing: attrs.last() == Some(&b'/'),
            };
            self.tag(tag, t.range.end, t.name.end, read);
        }
    }

    /// Hands one tag to the tree: `end` is the position after its `>`, `attrs_at` that of its
    /// attributes, `read` where its attributes are read from.
    fn tag(&mut self, tag: RawTag<'d>, end: usize, attrs_at: usize, read: Source<'_>) {
        let name_hash = match read {
            Source::Scanned => None,
            Source::Lexed { name_hash, .. } => name_hash,
        };
        match tag {
            RawTag::Start {
                name,
                attrs,
                self_closing,
            } => {
                let t = self.intern(name, name_hash);
                // A stray `<` starts an attribute name (the tokenizer says whether one does).
                let may_stray = match read {
                    Source::Scanned => true,
                    Source::Lexed { lt_name, .. } => lt_name,
                };
                if self.stray_lt.is_none()
                    && may_stray
                    && let Some(k) = scan::stray_lt(attrs)
                    && swallows_markup(attrs.within(k..))
                {
                    self.stray_lt = Some(attrs_at + k);
                }
                // Only formatting elements need the attribute hash (Noah's Ark clause).
                let formatting = t.is(tags::Props::FORMATTING);
                let want_href = self.collect.links && matches!(t, Tag::A | Tag::BASE);
                let a = match read {
                    Source::Scanned => self.read_attrs(scan::attrs(attrs), formatting, want_href),
                    Source::Lexed { attrs, base, .. } => {
                        let doc: &'d [u8] = self.doc.as_bytes();
                        let at = |r: &Range<usize>| doc.within(r.start + base..r.end + base);
                        let pairs = attrs.iter().map(|a| (at(&a.name), at(&a.value)));
                        self.read_attrs(pairs, formatting, want_href)
                    }
                };
                let (class, id, hidden, semantic) = (a.class, a.id, a.hidden, a.semantic);
                // HTML5: a `<font>` with color, face or size breaks out of svg and math.
                let breakout = t == Tag::FONT
                    && self.tree.in_foreign()
                    && scan::attrs(attrs).any(|(n, _)| {
                        [&b"color"[..], b"face", b"size"]
                            .iter()
                            .any(|a| n.eq_ignore_ascii_case(a))
                    });
                let token = TokenAttrs {
                    self_closing,
                    breakout,
                    hash: a.hash,
                    placeholder: t == Tag::A && !a.acts,
                };
                self.lend_run_parent();
                let mark = self.tree.pending.len();
                let before = self.tree.elements.len();
                let changed = self.tree.start(t, class, id, token);
                self.take_run_parent();
                if self.collect.head {
                    self.read_head(t, name, attrs, a.mark, before);
                }
                // The element made for this tag is the last one created (implied and
                // reconstructed elements come first).
                if !a.href.is_empty() {
                    let made = self.tree.elements.len() > before
                        && self.tree.elements.last().is_some_and(|e| e.tag == t);
                    if t == Tag::A && made {
                        let id = (self.tree.elements.len() - 1) as u32;
                        self.page.links.push((id, a.href.clone()));
                    } else if t == Tag::BASE && self.page.base.is_none() {
                        self.page.base = Some(a.href.clone());
                    }
                }
                if (hidden || semantic)
                    && self.tree.elements.len() > before
                    && let Some(e) = self.tree.elements.last_mut()
                    && e.tag == t
                {
                    e.hidden |= hidden;
                    e.semantic |= semantic;
                }
                if changed {
                    self.flush_upto(mark);
                }
                if let Some((rt, elem)) = self.tree.open_raw_text()
                    && rt == t
                {
                    self.raw_open = Some((rt, elem, end));
                }
            }
            RawTag::End { name } => {
                let t = self.intern(name, name_hash);
                self.lend_run_parent();
                let mark = self.tree.pending.len();
                let changed = self.tree.end(t);
                self.take_run_parent();
                if changed {
                    self.flush_upto(mark);
                }
                if let Some((_, elem, _)) = self.raw_open
                    && !self.tree.is_open(elem)
                {
                    self.raw_open = None;
                }
            }
        }
    }

    /// Collects what a start tag says about the document ([`head`]); `before` is the number of
    /// elements before the tag was handed to the tree.
    fn read_head(
        &mut self,
        t: Tag,
        name: &[u8],
        attrs: &[u8],
        mark: Option<head::Mark>,
        before: usize,
    ) {
        // Most start tags say nothing here: no mark, not an h1, not `meta`, `link` or `time`.
        if mark.is_none() && t != Tag::H1 && name.len() != 4 {
            return;
        }
        // The element made for this tag, when it made one (the last one created).
        let made = (self.tree.elements.len() > before)
            .then(|| self.tree.elements.len() - 1)
            .filter(|&e| self.tree.elements.get(e).is_some_and(|e| e.tag == t))
            .map(|e| e as ElementId);
        if let (Some(m), Some(e)) = (mark, made) {
            self.page.head.on_mark(e, m);
        }
        if t == Tag::H1
            && let Some(e) = made
        {
            self.page.head.h1s.push(e);
        }
        if name.len() != 4 {
            return;
        }
        if name.eq_ignore_ascii_case(b"meta") {
            self.page.head.on_meta(attrs);
        } else if name.eq_ignore_ascii_case(b"link") {
            self.page.head.on_link(attrs);
        } else if name.eq_ignore_ascii_case(b"time")
            && let Some(e) = made
        {
            self.page.head.on_time(attrs, e);
        }
    }

    /// Lets the tree see the pending run's parent, so an adoption-agency move can update it.
    fn lend_run_parent(&mut self) {
        self.tree.run_parent = self.run.as_ref().map(|r| r.target.parent);
    }

    fn take_run_parent(&mut self) {
        if let (Some(run), Some(p)) = (&mut self.run, self.tree.run_parent.take()) {
            run.target.parent = p;
        }
    }

    /// The tag of a name; `name_hash` is its local name hash when the tokenizer computed it.
    fn intern(&mut self, name: &[u8], name_hash: Option<u64>) -> Tag {
        // A name with a hash is known exactly when the hash is a known name's (no two names
        // share a hash); without one, it is looked up by its bytes.
        let known = match name_hash {
            Some(h) => Tag::lookup_hashed(h),
            None => Tag::lookup(name),
        };
        if let Some(t) = known {
            return t;
        }
        let page = &mut self.page;
        if let Some(i) = page
            .unknown_tags
            .iter()
            .position(|n| n.as_bytes().eq_ignore_ascii_case(name))
        {
            return Tag(Tag::FIRST_UNKNOWN + i as u16);
        }
        if page.unknown_tags.len() >= (u16::MAX - Tag::FIRST_UNKNOWN) as usize {
            return Tag(u16::MAX);
        }
        let lower = String::from_utf8_lossy(name).to_ascii_lowercase();
        let tag = Tag(Tag::FIRST_UNKNOWN + page.unknown_tags.len() as u16);
        if INTEGRATION_POINTS.contains(&lower.as_str()) {
            self.tree.note_island_tag(tag);
        }
        page.unknown_tags.push(lower.into_boxed_str());
        tag
    }

    /// Copies the `class` and `id` values of a start tag's attributes (`(name, value)` pairs, in
    /// order) into the attribute arena, lowercased, with `-` between camelCase words, and hashes
    /// all attributes when `want_hash` (see [`attr_hash`]; 0 otherwise).
    fn read_attrs(
        &mut self,
        attrs: impl Iterator<Item = (&'d [u8], &'d [u8])>,
        want_hash: bool,
        want_href: bool,
    ) -> StartAttrs {
        let mut class = 0..0;
        let mut id = 0..0;
        let mut hash = 0u64;
        let mut hidden = false;
        let mut acts = false;
        let mut semantic = false;
        let mut href = 0..0;
        let mut mark = None;
        let want_head = self.collect.head;
        for (name, value) in attrs {
            if want_hash {
                hash = hash.wrapping_add(attr_hash(name, value));
            }
            // Each name is told apart once; most are none of those read here.
            let kind = AttrName::of(name);
            if kind == AttrName::Other {
                continue;
            }
            if !hidden {
                hidden = hides(kind, value);
            }
            acts |= matches!(kind, AttrName::Href | AttrName::Onclick);
            semantic |= marks_main(kind, value);
            if want_href && href.is_empty() && kind == AttrName::Href {
                // Kept as written (entities decoded when used): only `<a>` and `<base>` ask.
                let arena = &mut self.tree.attrs;
                let start = arena.len() as u32;
                arena.push_str(&String::from_utf8_lossy(value));
                href = start..arena.len() as u32;
            }
            if want_head && mark.is_none() {
                mark = head::mark_of(kind, value);
            }
            let is_class = kind == AttrName::Class;
            let is_id = kind == AttrName::Id;
            if !(is_class || is_id) || value.is_empty() {
                continue;
            }
            let arena = &mut self.tree.attrs;
            let start = arena.len() as u32;
            let mut prev_lower = false;
            // camelCase words are separated so that `mainContent` tokenizes like
            // `main-content`.
            if let Some(ascii) = str_within(self.doc, value)
                && ascii.is_ascii()
            {
                // Nearly every value: without an upper-case letter it is copied as it is (no
                // camelCase joint, nothing to lowercase; the test of every byte at once, which
                // the compiler vectorizes); otherwise in pieces between the camelCase joints,
                // then lowercased in place (what the loop over characters below does with
                // ASCII).
                if !value
                    .iter()
                    .fold(false, |up, b| up | b.is_ascii_uppercase())
                {
                    arena.push_str(ascii);
                } else {
                    let mut from = 0;
                    for (i, pair) in value.windows(2).enumerate() {
                        if let &[a, b] = pair
                            && a.is_ascii_lowercase()
                            && b.is_ascii_uppercase()
                        {
                            arena.push_str(ascii.within(from..i + 1));
                            arena.push('-');
                            from = i + 1;
                        }
                    }
                    arena.push_str(ascii.within(from..));
                    if let Some(copy) = arena.get_mut(start as usize..) {
                        copy.make_ascii_lowercase();
                    }
                }
            } else {
                for c in String::from_utf8_lossy(value).chars() {
                    if prev_lower && c.is_ascii_uppercase() {
                        arena.push('-');
                    }
                    prev_lower = c.is_ascii_lowercase();
                    arena.push(c.to_ascii_lowercase());
                }
            }
            let r = start..arena.len() as u32;
            if is_class && class.is_empty() {
                class = r;
            } else if is_id && id.is_empty() {
                id = r;
            }
        }
        StartAttrs {
            class,
            id,
            hash,
            hidden,
            acts,
            semantic,
            href,
            mark,
        }
    }

    /// A doctype; its name and identifiers are ranges of the document.
    fn on_doctype(
        &mut self,
        loc: Range<usize>,
        name: Option<Range<usize>>,
        public: Option<Range<usize>>,
        system: Option<Range<usize>>,
    ) {
        self.gap(loc.start);
        self.flush();
        let doc = self.doc.as_bytes();
        // Read as lol_html read them: decoded as UTF-8 (a leading byte order mark dropped), the
        // name lowercased.
        let part = |r: Option<Range<usize>>| r.map(|r| encoding_rs::UTF_8.decode(doc.within(r)).0);
        let name = part(name).map(|n| n.to_ascii_lowercase());
        let (public, system) = (part(public), part(system));
        let src = doc.within(loc.clone());
        let force_quirks = scan::doctype_forces_quirks(src);
        self.tree.doctype(
            name.as_deref(),
            public.as_deref(),
            system.as_deref(),
            force_quirks,
        );
        self.last_end = self.last_end.max(loc.end);
    }

    fn on_comment(&mut self, loc: Range<usize>) {
        self.gap(loc.start);
        self.flush();
        self.last_end = self.last_end.max(loc.end);
    }

    fn on_text(&mut self, loc: Range<usize>, kind: TextType) {
        if loc.is_empty() {
            return;
        }
        if kind == TextType::ScriptData
            && let Some(script) = self.doc.as_bytes().get(loc.clone())
        {
            // JSON-LD says what the page is ([`declared`]).
            self.page.declared = self.page.declared.min(declared::in_script(script));
            if self.collect.head {
                self.page.head.on_script(script);
            }
        }
        self.gap(loc.start);
        self.last_end = self.last_end.max(loc.end);
        self.last_text_end = loc.end;
        let Some(piece) = self.doc.get(loc.clone()) else {
            return;
        };
        let decode = kind.decodes_entities();
        let lead = piece.bytes().take_while(|&b| is_html_space(b)).count();
        let trail = piece
            .bytes()
            .rev()
            .take_while(|&b| is_html_space(b))
            .count();
        if let Some(run) = &mut self.run {
            if lead < piece.len() {
                run.text_end = loc.end - trail;
            }
            self.raw.push_str(piece);
            return;
        }
        let has_text = lead < piece.len();
        let Some(target) = self.tree.text(has_text) else {
            self.pending_space = true;
            return;
        };
        if target.excluded && !target.title {
            return;
        }
        if !has_text && !target.title {
            self.pending_space = true;
            return;
        }
        self.raw.clear();
        self.raw.push_str(piece);
        self.run = Some(Run {
            text_start: loc.start + lead,
            text_end: loc.end - trail.min(piece.len() - lead),
            decode,
            target,
        });
    }

    /// Ends the current run: decodes it and appends a block (or the title).
    fn flush(&mut self) {
        self.flush_upto(self.tree.pending.len());
    }

    /// Ends the current run; its block takes the split events before `mark` (later ones were
    /// caused by the tag that ended the run and belong to the next block).
    fn flush_upto(&mut self, mark: usize) {
        let Some(run) = self.run.take() else {
            return;
        };
        let decoded = if run.decode {
            htmlize::unescape(self.raw.as_str())
        } else {
            std::borrow::Cow::Borrowed(self.raw.as_str())
        };
        if run.target.title {
            if self.tree.title_elem == Some(run.target.parent) && self.page.title.is_none() {
                let mut t = String::new();
                collapse_into(&decoded, &mut t);
                if !t.is_empty() {
                    self.page.title = Some(t);
                }
            }
            return;
        }
        let text = &mut self.page.text;
        let start = text.len();
        let (lead, trail) = collapse_into(&decoded, text);
        if text.len() == start {
            self.pending_space = true;
            return;
        }
        let space_before = lead || self.pending_space;
        self.pending_space = trail;
        // Byte offsets of the first and last non-space characters of the run.
        let src_start = run.text_start;
        let src_end = run.text_end.max(src_start);
        let splits_start = self.page.splits.len() as u32;
        let mark = mark.min(self.tree.pending.len());
        for ev in self.tree.pending.drain(..mark) {
            let own = &mut self.page.splits[splits_start as usize..];
            if let Some(s) = own.iter_mut().find(|s| s.tag == ev.tag) {
                s.opened = s.opened.saturating_add(ev.opened);
                s.closed = s.closed.saturating_add(ev.closed);
            } else {
                self.page.splits.push(ev);
            }
        }
        self.tree.note_block(run.target.parent);
        self.page.blocks.push(Block {
            text: start as u32..text.len() as u32,
            source: src_start as u32..src_end as u32,
            parent: run.target.parent,
            splits: splits_start..self.page.splits.len() as u32,
            space_before,
            in_anchor: run.target.in_anchor,
            in_pre: run.target.in_pre,
        });
    }

    /// If the document ended inside a raw-text element whose text ran to the end, its tag and
    /// the start of its content.
    fn unclosed_raw_text(&self, len: usize) -> Option<(Tag, usize)> {
        let (tag, elem, content_start) = self.raw_open?;
        if !self.tree.is_open(elem) || self.last_text_end < len {
            return None;
        }
        Some((tag, content_start))
    }
}

pub use floor::tokenize_and_build;
pub use lex::tokenize_only;

#[cfg(test)]
mod tests;

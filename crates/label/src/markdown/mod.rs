//! Markdown output (`--format markdown`): the kept blocks rendered with the page's own structure.
//!
//! Every kept block is placed in the structure its HTML5 ancestors give it ([`structure`]):
//! headings (`#` to `######` by level), ordered and unordered lists with nesting, data tables
//! as GFM pipe tables (the first kept row is the header row, so a table whose header row was
//! dropped is still a table; layout tables become paragraphs), `<pre>` as fenced code with its
//! white space as the page had it (the language from a `language-x` or `lang-x` class), inline
//! `<code>` in backticks, and blockquotes; links as `[text](url)` on request
//! ([`MarkdownOptions::links`]), resolved against the page's `<base href>` and address. A
//! structure renders as soon as one of its blocks is kept, whatever its siblings were labelled.
//!
//! Blocks are joined exactly as the text output joins them (`crate::text`), so the Markdown's
//! text, markup removed, is the text output's word for word: where the text output starts a
//! new line, the Markdown starts a new paragraph, list item, row or cell, or (inside a heading,
//! a cell or a list item's line) puts a space. Text that Markdown would read as syntax is
//! escaped ([`escape`]).
//!
//! The structure is computed once a page in O(elements); a block costs a walk over its
//! structural ancestors (at most [`structure::MAX_DEPTH`]) and its inline ancestors.

mod escape;
mod structure;

use std::borrow::Cow;
use std::fmt::Write as _;

use victor_core::Label;
use victor_features::within::Within;
use victor_features::{Block, Page, Props, Tag};

use crate::text::{Join, kept_joins};
use escape::{Esc, longest_backtick_run, push_escaped};
use structure::{Kind, Structure};

/// Options of [`render_markdown`].
#[derive(Clone, Copy, Debug, Default)]
pub struct MarkdownOptions<'a> {
    /// The decoded document the page was segmented from: the text of `<pre>` keeps its white
    /// space from it. Without it (or for a page read in its `<noscript>` view, whose offsets
    /// are not the document's), code keeps the collapsed text, one block a line.
    pub doc: Option<&'a str>,
    /// Write links as `[text](url)`, resolved against the page's `<base href>` and `url`.
    pub links: bool,
    /// Write emphasis: text inside `<em>`/`<i>` as `*text*`, inside `<strong>`/`<b>` as
    /// `**text**` (both: `***text***`).
    pub emphasis: bool,
    /// The page's address, which relative links are resolved against.
    pub url: Option<&'a str>,
}

/// Appends the kept blocks of a page to `out` as Markdown (see the module docs); nothing when
/// nothing is kept, else text ending with a line break.
pub fn render_markdown(page: &Page, labels: &[Label], opts: MarkdownOptions<'_>, out: &mut String) {
    let kept: Vec<(usize, Join)> = kept_joins(page, labels).map(|(i, _, j)| (i, j)).collect();
    if kept.is_empty() {
        return;
    }
    let doc = opts.doc.filter(|_| !page.noscript_view);
    let mut st = Structure::new(page);
    if let Some(h) = title_heading(page, &st, &kept) {
        st.demote(h);
    }
    let mut w = Writer {
        page,
        st,
        doc,
        out,
        stack: Vec::new(),
        chain: Vec::new(),
        started: false,
        kept: 0,
        item_tight: false,
        line_open: false,
        marker_pending: false,
        last_item_line: false,
        sink: Sink::Out,
        at_start: false,
        code: 0,
        ticks: 0,
        links: opts.links,
        base: opts.links.then(|| base_url(page, opts.url)).flatten(),
        link: 0,
        emphasis: opts.emphasis,
        emph: Emph::NONE,
        pre: String::new(),
        pre_lang: "",
        pre_prev: None,
        table: TableBuf::default(),
    };
    for n in 0..kept.len() {
        w.block(&kept, n);
    }
    w.finish();
}

/// Emphasis around inline text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Emph {
    italic: bool,
    bold: bool,
}

impl Emph {
    const NONE: Emph = Emph {
        italic: false,
        bold: false,
    };

    /// The marker that opens and closes it.
    fn marker(self) -> &'static str {
        match (self.italic, self.bold) {
            (false, false) => "",
            (true, false) => "*",
            (false, true) => "**",
            (true, true) => "***",
        }
    }
}

/// Where text goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Sink {
    /// The output, on a paragraph or list item line.
    Out,
    /// The output, on a heading line.
    Heading,
    /// The code of the open `<pre>`.
    Pre,
    /// The open cell of the open table.
    Cell,
    /// The open table's text outside its cells (a caption).
    Caption,
}

/// A data table being collected (it is written when it closes).
#[derive(Debug, Default)]
struct TableBuf {
    /// The table element (0: none open).
    id: u32,
    /// Index in `cells` where each row starts.
    rows: Vec<usize>,
    /// Each cell's column and start in `text` (it ends where the next starts).
    cells: Vec<(u32, usize)>,
    /// The cells' text, escaped.
    text: String,
    /// Text in the table outside any cell, escaped.
    caption: String,
}

struct Writer<'p, 'o> {
    page: &'p Page,
    st: Structure,
    doc: Option<&'p str>,
    out: &'o mut String,
    /// Open structural elements, outermost first.
    stack: Vec<u32>,
    /// Scratch: the structural elements of the current block.
    chain: Vec<u32>,
    /// Anything written.
    started: bool,
    /// How many of the open elements were open before the current block (a blank line
    /// before it shows only their `>`).
    kept: usize,
    /// The pending item's marker line follows the previous item's line without a blank line
    /// (same list, or a list nested in an open item).
    item_tight: bool,
    /// On a line that more text may join (a paragraph, a list item's line, a heading).
    line_open: bool,
    /// The innermost open list item has no line yet: the next line starts with its marker.
    marker_pending: bool,
    /// The last line written is a list item's first line (the next item follows without a
    /// blank line).
    last_item_line: bool,
    sink: Sink,
    /// Nothing written on the current line yet.
    at_start: bool,
    /// The open inline code element (0: none) and its backtick count.
    code: u32,
    ticks: usize,
    /// Links are written; the URL relative ones are resolved against; the open link (0: none).
    links: bool,
    base: Option<url::Url>,
    link: u32,
    /// Emphasis is written; the open emphasis.
    emphasis: bool,
    emph: Emph,
    /// The open `<pre>`'s code, its language and its last block.
    pre: String,
    pre_lang: &'p str,
    pre_prev: Option<usize>,
    table: TableBuf,
}

impl<'p> Writer<'p, '_> {
    /// Renders kept block `n`.
    fn block(&mut self, kept: &[(usize, Join)], n: usize) {
        let Some(&(i, join)) = kept.get(n) else {
            return;
        };
        let Some(b) = self.page.blocks.get(i) else {
            return;
        };
        if self.started_any() && join != Join::Line {
            if self.sink == Sink::Pre {
                self.pre_gap(b, join);
                self.pre_text(i, b, false);
            } else {
                self.inline(kept, n, join);
            }
            return;
        }
        self.close_inline();
        let mut chain = std::mem::take(&mut self.chain);
        self.st.chain(b.parent, &mut chain);
        let k = self
            .stack
            .iter()
            .zip(&chain)
            .take_while(|(a, b)| a == b)
            .count();
        self.kept = k;
        if self.started_any() && k == self.stack.len() && k == chain.len() {
            self.chain = chain;
            let top = self.top();
            match top {
                Kind::Pre => {
                    self.pre_gap(b, Join::Line);
                    self.pre_text(i, b, false);
                }
                Kind::Heading(_) | Kind::Cell | Kind::Row | Kind::Table => {
                    self.inline(kept, n, Join::Space)
                }
                Kind::Item if self.line_open => self.inline(kept, n, Join::Space),
                _ => {
                    self.new_line(false);
                    self.inline(kept, n, Join::Glue);
                }
            }
            return;
        }
        while self.stack.len() > k {
            if let Some(e) = self.stack.pop() {
                self.close_frame(e);
            }
        }
        self.line_open = false;
        for &e in chain.get(k..).unwrap_or_default() {
            self.open_frame(e, b);
        }
        self.chain = chain;
        match self.top() {
            Kind::Heading(_) => self.inline(kept, n, Join::Glue),
            Kind::Cell => {
                self.sink = Sink::Cell;
                let open = self.table.cells.last().map_or(0, |c| c.1);
                let join = if self.table.text.len() > open {
                    Join::Space
                } else {
                    Join::Glue
                };
                self.inline(kept, n, join);
            }
            Kind::Row | Kind::Table => {
                self.sink = Sink::Caption;
                let join = if self.table.caption.is_empty() {
                    Join::Glue
                } else {
                    Join::Space
                };
                self.inline(kept, n, join);
            }
            Kind::Pre => self.pre_text(i, b, true),
            Kind::Item if self.marker_pending => {
                self.new_line(self.item_tight);
                self.inline(kept, n, Join::Glue);
            }
            _ => {
                self.new_line(false);
                self.inline(kept, n, Join::Glue);
            }
        }
    }

    fn started_any(&self) -> bool {
        self.started || !self.stack.is_empty()
    }

    fn top(&self) -> Kind {
        self.stack.last().map_or(Kind::None, |&e| self.st.kind(e))
    }

    /// The string text goes to.
    fn buf(&mut self) -> &mut String {
        match self.sink {
            Sink::Out | Sink::Heading => self.out,
            Sink::Pre => &mut self.pre,
            Sink::Cell => &mut self.table.text,
            Sink::Caption => &mut self.table.caption,
        }
    }

    /// Writes block `n`'s text inline, after `join`, in or out of inline code.
    fn inline(&mut self, kept: &[(usize, Join)], n: usize, join: Join) {
        let Some(&(i, _)) = kept.get(n) else {
            return;
        };
        let Some(b) = self.page.blocks.get(i) else {
            return;
        };
        let page = self.page;
        let text = page.block_text(b);
        let code = self.code_of(b);
        let link = self.link_of(b);
        // Inline code holds no emphasis markers (they would show as text). Between two blocks
        // the page glued together, emphasis changes only where a letter or digit does not sit
        // on both sides: a marker inside a word (`<b>W</b>ord`) would split it for some
        // readers, so the emphasis there stays as it was.
        let mut emph = if code == 0 {
            self.emph_of(b)
        } else {
            Emph::NONE
        };
        let glued = n > 0 && kept.get(n).is_some_and(|&(_, j)| j == Join::Glue);
        if glued && emph != self.emph {
            let before = self.buf().chars().next_back();
            let after = text.chars().next();
            if before.is_some_and(char::is_alphanumeric) && after.is_some_and(char::is_alphanumeric)
            {
                emph = self.emph;
            }
        }
        // Markers hug their text: emphasis closes before the space that follows it.
        if emph != self.emph || code != self.code || link != self.link || join == Join::Space {
            self.close_emph();
        }
        if code != self.code || link != self.link {
            self.close_code();
        }
        if link != self.link {
            self.close_link();
        }
        if join == Join::Space {
            self.buf().push(' ');
        }
        if link != self.link && link != 0 {
            self.buf().push('[');
            self.link = link;
        }
        if code != self.code {
            self.open_code(kept, n, code);
        }
        if emph != self.emph {
            self.buf().push_str(emph.marker());
            self.emph = emph;
        }
        if self.code != 0 {
            self.buf().push_str(text);
        } else {
            let esc = Esc {
                line_start: match self.sink {
                    Sink::Out => self.at_start,
                    Sink::Caption => self.table.caption.is_empty(),
                    _ => false,
                },
                cell: self.sink == Sink::Cell,
                link: self.link != 0,
            };
            push_escaped(self.buf(), text, esc);
        }
        self.at_start = false;
    }

    /// The emphasis a block sits in: `<em>`, `<i>`, `<strong>` or `<b>` among its inline
    /// ancestors (none unless emphasis is written).
    fn emph_of(&self, b: &Block) -> Emph {
        let mut emph = Emph::NONE;
        if !self.emphasis {
            return emph;
        }
        let mut e = b.parent;
        for _ in 0..12 {
            let el = self.page.element(e);
            match el.tag {
                Tag::EM | Tag::I => emph.italic = true,
                Tag::STRONG | Tag::B => emph.bold = true,
                _ => {}
            }
            if e == 0 || !el.tag.is(Props::INLINE) {
                break;
            }
            e = el.parent;
        }
        emph
    }

    /// Closes the open emphasis.
    fn close_emph(&mut self) {
        if self.emph != Emph::NONE {
            let marker = self.emph.marker();
            self.buf().push_str(marker);
            self.emph = Emph::NONE;
        }
    }

    /// The inline code element a block sits in (0: none).
    fn code_of(&self, b: &Block) -> u32 {
        let mut e = b.parent;
        for _ in 0..12 {
            let el = self.page.element(e);
            if matches!(el.tag, Tag::CODE | Tag::KBD | Tag::SAMP | Tag::TT) {
                return e;
            }
            if e == 0 || !el.tag.is(Props::INLINE) {
                break;
            }
            e = el.parent;
        }
        0
    }

    /// The link a block sits in (0: none, or links are not written): the nearest `<a>` with an
    /// `href` among its inline ancestors, unless that is a `javascript:` one.
    fn link_of(&self, b: &Block) -> u32 {
        if !self.links {
            return 0;
        }
        let mut e = b.parent;
        for _ in 0..12 {
            let el = self.page.element(e);
            if el.tag == Tag::A {
                return match self.page.href(e) {
                    Some(h)
                        if !h
                            .trim_start()
                            .to_ascii_lowercase()
                            .starts_with("javascript:") =>
                    {
                        e
                    }
                    _ => 0,
                };
            }
            if e == 0 || !el.tag.is(Props::INLINE) {
                break;
            }
            e = el.parent;
        }
        0
    }

    /// Closes the open link: `](url)`.
    fn close_link(&mut self) {
        if self.link == 0 {
            return;
        }
        let href = self.page.href(self.link).unwrap_or_default();
        let href = htmlize::unescape_attribute(href.trim());
        let resolved = match &self.base {
            Some(base) => base.join(&href).map(String::from).ok(),
            None => None,
        };
        let url = resolved.as_deref().unwrap_or(&href);
        let buf = self.buf();
        buf.push_str("](");
        for c in url.chars() {
            match c {
                ' ' => buf.push_str("%20"),
                '(' => buf.push_str("%28"),
                ')' => buf.push_str("%29"),
                '<' => buf.push_str("%3C"),
                '>' => buf.push_str("%3E"),
                '|' => buf.push_str("%7C"),
                c if c.is_control() => {}
                c => buf.push(c),
            }
        }
        buf.push(')');
        self.link = 0;
    }

    fn close_inline(&mut self) {
        self.close_emph();
        self.close_code();
        self.close_link();
    }

    /// Opens inline code `code` (if not 0) for kept block `n` and those glued to it in it.
    fn open_code(&mut self, kept: &[(usize, Join)], n: usize, code: u32) {
        if code == 0 {
            return;
        }
        let mut longest = 0;
        let mut first_tick = false;
        for (m, &(i, join)) in kept.iter().enumerate().skip(n) {
            let Some(b) = self.page.blocks.get(i) else {
                break;
            };
            if m > n && (join == Join::Line || self.code_of(b) != code) {
                break;
            }
            let t = self.page.block_text(b);
            if m == n {
                first_tick = t.starts_with('`');
            }
            longest = longest.max(longest_backtick_run(t));
        }
        self.code = code;
        self.ticks = longest + 1;
        let ticks = self.ticks;
        let buf = self.buf();
        buf.extend(std::iter::repeat_n('`', ticks));
        if first_tick {
            buf.push(' ');
        }
    }

    fn close_code(&mut self) {
        if self.code == 0 {
            return;
        }
        let ticks = self.ticks;
        let buf = self.buf();
        if buf.ends_with('`') {
            buf.push(' ');
        }
        buf.extend(std::iter::repeat_n('`', ticks));
        self.code = 0;
    }

    /// Starts a line of the output: a line break (and a blank line unless `tight`), then the
    /// open blockquotes' `> ` and list items' indentation (or the pending item's marker).
    fn new_line(&mut self, tight: bool) {
        self.close_inline();
        if self.started {
            if self.at_start && self.sink == Sink::Out {
                // Nothing after the prefix (an item's marker alone).
                while self.out.ends_with(' ') {
                    self.out.pop();
                }
            }
            self.out.push('\n');
            if !tight {
                let all = self.stack.len();
                self.push_quotes(self.kept.min(all));
                while self.out.ends_with(' ') {
                    self.out.pop();
                }
                self.out.push('\n');
            }
        }
        self.push_prefix(self.marker_pending);
        self.kept = usize::MAX;
        self.last_item_line = self.marker_pending;
        self.marker_pending = false;
        self.started = true;
        self.line_open = true;
        self.at_start = true;
        self.sink = Sink::Out;
    }

    /// The `>` of the first `n` open elements' blockquotes (a blank line's prefix).
    fn push_quotes(&mut self, n: usize) {
        for &e in self.stack.get(..n).unwrap_or_default() {
            if self.st.kind(e) == Kind::Quote {
                self.out.push_str("> ");
            }
        }
    }

    fn push_prefix(&mut self, marker: bool) {
        let last_item = if marker {
            self.stack
                .iter()
                .rposition(|&e| self.st.kind(e) == Kind::Item)
        } else {
            None
        };
        for (idx, &e) in self.stack.iter().enumerate() {
            match self.st.kind(e) {
                Kind::Quote => self.out.push_str("> "),
                Kind::Item => {
                    let (ordered, ord) = self.item_marker(e);
                    if Some(idx) == last_item {
                        if ordered {
                            let _ = write!(self.out, "{ord}. ");
                        } else {
                            self.out.push_str("- ");
                        }
                    } else {
                        let width = if ordered { digits(ord) + 2 } else { 2 };
                        self.out.extend(std::iter::repeat_n(' ', width));
                    }
                }
                _ => {}
            }
        }
    }

    /// Whether an item is in an ordered list, and its number.
    fn item_marker(&self, item: u32) -> (bool, u32) {
        let list = self.st.info.get(item as usize).map_or(0, |i| i.near);
        let ordered = matches!(self.st.kind(list), Kind::List { ordered: true });
        (ordered, self.st.ord(item).max(1))
    }

    fn open_frame(&mut self, e: u32, b: &Block) {
        match self.st.kind(e) {
            Kind::None => return,
            Kind::Item => {
                if self.marker_pending {
                    // The outer item has no text of its own: its marker gets a line alone.
                    self.new_line(self.item_tight);
                }
                let list = self.st.info.get(e as usize).map_or(0, |i| i.near);
                let open = self.stack.get(..self.kept).unwrap_or(&self.stack);
                self.item_tight = self.last_item_line
                    && open
                        .iter()
                        .any(|&o| o == list || self.st.kind(o) == Kind::Item);
                self.stack.push(e);
                self.marker_pending = true;
                return;
            }
            Kind::Heading(level) => {
                self.stack.push(e);
                self.new_line(false);
                self.out
                    .extend(std::iter::repeat_n('#', usize::from(level)));
                self.out.push(' ');
                self.sink = Sink::Heading;
                self.at_start = false;
                self.last_item_line = false;
                return;
            }
            Kind::Table => {
                if self.table.id != 0 {
                    self.flush_table();
                }
                self.table.id = e;
                self.sink = Sink::Caption;
            }
            Kind::Row => self.table.rows.push(self.table.cells.len()),
            Kind::Cell => {
                if self.table.rows.is_empty() {
                    self.table.rows.push(0);
                }
                let col = self.st.ord(e);
                self.table.cells.push((col, self.table.text.len()));
                self.sink = Sink::Cell;
            }
            Kind::Pre => {
                self.pre.clear();
                self.pre_prev = None;
                self.pre_lang = self.language(e, b);
                self.sink = Sink::Pre;
            }
            Kind::Quote | Kind::List { .. } => {}
        }
        self.stack.push(e);
    }

    fn close_frame(&mut self, e: u32) {
        self.close_inline();
        match self.st.kind(e) {
            Kind::Pre => self.flush_pre(),
            Kind::Table if self.table.id == e => self.flush_table(),
            Kind::Item => self.marker_pending = false,
            // A heading ending in `#` gets a closing sequence, which keeps that `#` its text.
            Kind::Heading(_) if self.out.ends_with('#') => self.out.push_str(" #"),
            _ => {}
        }
        self.sink = Sink::Out;
    }

    /// The language of a `<pre>`: a `language-x` or `lang-x` class on it or on a `<code>`
    /// between it and the block.
    fn language(&self, pre: u32, b: &Block) -> &'p str {
        let page = self.page;
        let mut e = b.parent;
        for _ in 0..8 {
            let el = page.element(e);
            if let Some(lang) = class_language(page.class_of(el)) {
                return lang;
            }
            if e == pre || e == 0 {
                break;
            }
            e = el.parent;
        }
        ""
    }

    /// Appends a `<pre>` block's text, its white space as the document has it.
    fn pre_text(&mut self, i: usize, b: &Block, first: bool) {
        self.sink = Sink::Pre;
        if first && let Some(doc) = self.doc {
            // The indentation of the first line.
            let start = b.source.start as usize;
            let lead = doc
                .as_bytes()
                .within(..start)
                .iter()
                .rev()
                .take_while(|&&c| c == b' ' || c == b'\t')
                .count();
            self.pre.push_str(doc.within(start - lead..start));
        }
        let raw = self.raw_text(b);
        self.pre.push_str(&raw);
        self.pre_prev = Some(i);
    }

    /// A block's text as the document has it (tags removed, entities decoded), when its words
    /// are the block's; else the block's text.
    fn raw_text(&self, b: &Block) -> Cow<'p, str> {
        let page = self.page;
        let text = page.block_text(b);
        let Some(src) = self
            .doc
            .and_then(|d| d.get(b.source.start as usize..b.source.end as usize))
        else {
            return Cow::Borrowed(text);
        };
        let raw: Cow<'p, str> = if src.contains('<') || src.contains('&') {
            let mut s = String::with_capacity(src.len());
            text_pieces(src, |t| s.push_str(t));
            Cow::Owned(htmlize::unescape(s.as_str()).into_owned())
        } else {
            Cow::Borrowed(src)
        };
        if raw.split_whitespace().eq(text.split_whitespace()) {
            raw
        } else {
            Cow::Borrowed(text)
        }
    }

    /// Appends what separates block `b` from the `<pre>`'s previous block: the document's white
    /// space between them, or, when more than white space lies between, a line break (`Line`)
    /// or a space.
    fn pre_gap(&mut self, b: &Block, join: Join) {
        let prev = self.pre_prev.and_then(|p| self.page.blocks.get(p));
        if let (Some(doc), Some(prev)) = (self.doc, prev)
            && let Some(gap) = doc.get(prev.source.end as usize..b.source.start as usize)
        {
            let (mut blank, mut line) = (true, false);
            text_pieces(gap, |t| {
                blank &= t.chars().all(char::is_whitespace);
                line |= t.contains('\n');
            });
            if blank && (join != Join::Line || line) {
                text_pieces(gap, |t| self.pre.push_str(t));
                return;
            }
        }
        match join {
            Join::Line => self.pre.push('\n'),
            Join::Space => self.pre.push(' '),
            Join::Glue => {}
        }
    }

    fn flush_pre(&mut self) {
        let code = std::mem::take(&mut self.pre);
        let body = code
            .trim_start_matches(['\n', '\r'])
            .trim_end_matches(char::is_whitespace);
        let fence = "`".repeat((longest_backtick_run(body) + 1).max(3));
        self.new_line(false);
        self.out.push_str(&fence);
        self.out.push_str(self.pre_lang);
        for line in body.split('\n') {
            self.new_line(true);
            self.out.push_str(line.strip_suffix('\r').unwrap_or(line));
        }
        self.new_line(true);
        self.out.push_str(&fence);
        self.line_open = false;
        self.last_item_line = false;
        self.pre = code;
        self.pre.clear();
        self.pre_prev = None;
    }

    fn flush_table(&mut self) {
        let t = std::mem::take(&mut self.table);
        if !t.caption.is_empty() {
            self.new_line(false);
            self.out.push_str(&t.caption);
        }
        let cols = t
            .cells
            .iter()
            .map(|c| c.0)
            .max()
            .unwrap_or(0)
            .max(self.st.ord(t.id));
        let mut first = true;
        for (r, &start) in t.rows.iter().enumerate() {
            let end = t.rows.get(r + 1).copied().unwrap_or(t.cells.len());
            let Some(cells) = t.cells.get(start..end) else {
                continue;
            };
            if cells.is_empty() {
                continue;
            }
            self.new_line(!first);
            self.out.push('|');
            let mut it = cells.iter().enumerate().peekable();
            for col in 1..=cols {
                self.out.push(' ');
                if let Some(&(k, &(c, from))) = it.peek()
                    && c == col
                {
                    let to = t.cells.get(start + k + 1).map_or(t.text.len(), |n| n.1);
                    self.out.push_str(t.text.get(from..to).unwrap_or(""));
                    it.next();
                }
                self.out.push_str(" |");
            }
            if first {
                self.new_line(true);
                self.out.push('|');
                for _ in 0..cols {
                    self.out.push_str(" --- |");
                }
                first = false;
            }
        }
        self.line_open = false;
        self.last_item_line = false;
        let mut t = t;
        t.id = 0;
        t.rows.clear();
        t.cells.clear();
        t.text.clear();
        t.caption.clear();
        self.table = t;
    }

    fn finish(&mut self) {
        self.close_inline();
        while let Some(e) = self.stack.pop() {
            self.close_frame(e);
        }
        if self.started {
            if self.at_start && self.sink == Sink::Out {
                // Nothing after the prefix (an item's marker alone).
                while self.out.ends_with(' ') {
                    self.out.pop();
                }
            }
            self.out.push('\n');
        }
    }
}

/// The heading that the page's first kept blocks sit in when its text repeats the page's
/// `<title>`: the page's title, which is the document's name, not a section of its text (as
/// Readability.js takes it out of the article). It is written as a paragraph.
fn title_heading(page: &Page, st: &Structure, kept: &[(usize, Join)]) -> Option<u32> {
    let title = page.title.as_deref()?;
    let first = page.blocks.get(kept.first()?.0)?;
    let mut chain = Vec::new();
    st.chain(first.parent, &mut chain);
    let &h = chain.last()?;
    if chain.len() != 1 || !matches!(st.kind(h), Kind::Heading(_)) {
        return None;
    }
    let mut text = String::new();
    for &(i, _) in kept {
        let Some(b) = page.blocks.get(i) else { break };
        st.chain(b.parent, &mut chain);
        if chain.last() != Some(&h) {
            break;
        }
        text.push(' ');
        text.push_str(page.block_text(b));
    }
    let norm = |s: &str| {
        s.split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
            .to_lowercase()
    };
    let (text, title) = (norm(&text), norm(title));
    (!text.is_empty() && title.contains(&text)).then_some(h)
}

/// The URL relative links resolve against: the page's `<base href>` (itself resolved against
/// `url`), else `url`.
fn base_url(page: &Page, url: Option<&str>) -> Option<url::Url> {
    let page_url = url.and_then(|u| url::Url::parse(u.trim()).ok());
    let base = page
        .base_href()
        .map(|b| htmlize::unescape_attribute(b.trim()).into_owned());
    match (base, page_url) {
        (Some(b), Some(u)) => u.join(&b).ok().or(Some(u)),
        (Some(b), None) => url::Url::parse(&b).ok(),
        (None, u) => u,
    }
}

/// The language named by a `language-x` or `lang-x` class.
fn class_language(class: &str) -> Option<&str> {
    class.split_ascii_whitespace().find_map(|c| {
        let lang = c
            .strip_prefix("language-")
            .or_else(|| c.strip_prefix("lang-"))?;
        let ok = !lang.is_empty()
            && lang.len() <= 32
            && lang.bytes().all(|b| {
                b.is_ascii_alphanumeric() || matches!(b, b'+' | b'#' | b'-' | b'.' | b'_')
            });
        ok.then_some(lang)
    })
}

/// Calls `f` with the pieces of `s` between its tags (and comments).
fn text_pieces(s: &str, mut f: impl FnMut(&str)) {
    let mut rest = s;
    while let Some(lt) = rest.find('<') {
        f(rest.within(..lt));
        let after = rest.within(lt..);
        let next = after.as_bytes().get(1).copied();
        if !next.is_some_and(|c| c.is_ascii_alphabetic() || matches!(c, b'/' | b'!' | b'?')) {
            f("<");
            rest = after.within(1..);
            continue;
        }
        let end = if after.starts_with("<!--") {
            after.find("-->").map(|k| k + 3)
        } else {
            after.find('>').map(|k| k + 1)
        };
        match end {
            Some(e) => rest = after.within(e..),
            None => return,
        }
    }
    f(rest);
}

fn digits(n: u32) -> usize {
    n.checked_ilog10().map_or(1, |d| d as usize + 1)
}

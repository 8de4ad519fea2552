//! victor's HTML tokenizer: one pass over the document that reports text, tags, comments and
//! doctypes with their byte ranges. The segmenter hands the tags to its tree as the gap scanner
//! ([`super::scan`]) would read them; the few that scanner reads otherwise (see
//! [`Tag::scan_agrees`]), a tag cut off by the end of the input, and the brackets of CDATA
//! sections are left in the gaps between the reported spans, which the scanner reads.
//!
//! It follows the HTML5 tokenizer's state machine as lol_html 3 implements it, byte for byte, so
//! that the segmenter's output stays what it was with lol_html: the same text spans cut at the
//! same places, with the same [`TextType`], and the same comments and doctypes. In particular:
//!
//! - the text type after a start tag comes from lol_html's *tree-builder simulator*: RCDATA for
//!   `title` and `textarea`, raw text for `style`, `iframe`, `xmp`, `noembed`, `noframes` and
//!   `noscript`, script data (with its escaped and double-escaped states) for `script`,
//!   plaintext for `plaintext`; none of these inside `svg` or `math` (foreign content), where
//!   CDATA sections are allowed instead; the HTML integration points (`foreignObject`, `desc`,
//!   `title` in svg; `mi`, `mo`, `mn`, `ms`, `mtext` and `annotation-xml` with an HTML encoding in
//!   MathML) and the breakout tags (`<p>`, `<div>`, a `<font>` with `color`, `face` or `size`,
//!   ...) switch back to HTML;
//! - tag names are compared as lol_html compares them, through its "local name hash" (five
//!   bits a character for letters and the digits 1 to 6, as long as the name fits in 64 bits;
//!   other names never match a known tag);
//! - a start tag ended by `>` right after `=` (`<script src=>`) leaves the tokenizer in the data
//!   state while the text type says otherwise, as in lol_html;
//! - text is cut where lol_html cuts it (before every `<` that could start markup, and around a
//!   `<` or `</` that turns out to be text), so that white-space-only pieces fall as before;
//! - bogus comments (`<?`, `<!x`, `</ >`), and end of file inside a tag (dropped), a comment or a
//!   doctype (reported up to the end).
//!
//! [`Lexer::run`] steps through the states one group at a time, a method each: text (with
//! CDATA sections), tags, attributes, what follows a `<` in RCDATA, raw text and script data (or
//! a `]` in CDATA), script escapes, comments and doctypes. The frequent states are dispatched
//! one by one, so that the group's method inlines into each as that state's code alone: the
//! split adds next to no instructions.
//!
//! Unlike lol_html it builds no attribute list, serializes nothing and cannot fail: a tag's
//! attributes are only stepped over (the segmenter reads the few it needs from the tag's bytes),
//! except for the two rare tags in foreign content whose attributes the simulator must see.
//!
//! Because it reproduces lol_html's tokenizer and simulator state by state, this module is a
//! derivative of lol_html (Copyright (C) 2019, Cloudflare, Inc., BSD-3-Clause); its notice is in
//! `LICENSE-THIRD-PARTY` at the repository root.

use crate::within::Within;
use std::ops::Range;

mod names;
mod states;

use names::NameHash;
pub(crate) use names::name_hash;

/// The kind of a text span: which tokenizer state read it (lol_html's `TextType`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TextType {
    /// Ordinary text (entities are decoded).
    Data,
    /// Text of `title` and `textarea` (entities are decoded, tags are not read).
    RcData,
    /// Text of `style`, `iframe`, `xmp`, `noembed`, `noframes`, `noscript`.
    RawText,
    /// Text of `script`.
    ScriptData,
    /// Everything after `<plaintext>`.
    PlainText,
    /// The inside of a `<![CDATA[ ... ]]>` section in foreign content.
    CDataSection,
}

impl TextType {
    /// Whether character references in such text are decoded.
    pub fn decodes_entities(self) -> bool {
        matches!(self, TextType::Data | TextType::RcData)
    }
}

/// What the tokenizer reports. Ranges are byte offsets into its input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event<'e> {
    /// A piece of text. Adjacent pieces may follow each other (text is cut before markup that
    /// turned out to be text).
    Text {
        /// Where the text is.
        range: Range<usize>,
        /// The tokenizer state that read it.
        kind: TextType,
    },
    /// A start or end tag, reported when it ends (tags cut off by the end of the input are not).
    Tag(Tag<'e>),
    /// A comment, bogus comments included, from `<` to its end.
    Comment(Range<usize>),
    /// A doctype, from `<!` to its `>` (or the end of the input).
    Doctype {
        /// Where the whole doctype is.
        range: Range<usize>,
        /// Its name, as written.
        name: Option<Range<usize>>,
        /// Its public identifier, without quotes.
        public_id: Option<Range<usize>>,
        /// Its system identifier, without quotes.
        system_id: Option<Range<usize>>,
    },
}

/// A tag as the tokenizer read it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tag<'e> {
    /// From its `<` to just after its `>`.
    pub range: Range<usize>,
    /// Its name, as written.
    pub name: Range<usize>,
    /// `</name ...>`.
    pub end_tag: bool,
    /// Whether [`super::scan::tags`], run over the markup from this tag's `<`, reads the same
    /// tag (the same name and the same `>`). It does unless an attribute name starts with `=`
    /// (`<a ="x>">`): HTML5 reads that `=` as part of a name, the gap scanner as the start of a
    /// value, and a quote after it then ends the tag elsewhere.
    pub scan_agrees: bool,
    /// Its attributes, in order, as the tokenizer stepped over them: the pairs the gap scanner's
    /// [`super::scan::attrs`] reads from the tag's bytes when [`Tag::scan_agrees`] (the
    /// segmenter reads them here instead of scanning the bytes a second time).
    pub attrs: &'e [Attr],
    /// Whether an attribute name starts with `<`: the only tags in which
    /// [`super::scan::stray_lt`] can find a stray `<`.
    pub lt_name: bool,
    /// lol_html's local name hash of its name ([`name_hash`]), which the tokenizer computes
    /// anyway: the segmenter looks the tag up by it ([`super::tags::Tag::lookup_hashed`]).
    pub name_hash: Option<u64>,
}

/// An attribute of a tag: its name and its value (without quotes; empty when it has none), as
/// ranges of the input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Attr {
    /// The name, as written.
    pub name: Range<usize>,
    /// The value, as written.
    pub value: Range<usize>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Ns {
    Html,
    Svg,
    MathMl,
}

/// Tokenizer states (HTML5 section 13.2.5, as lol_html groups them).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum S {
    Data,
    PlainText,
    RcData,
    RcDataLt,
    RcDataEndTagOpen,
    RcDataEndTagName,
    RawText,
    RawTextLt,
    RawTextEndTagOpen,
    RawTextEndTagName,
    Script,
    ScriptLt,
    ScriptEndTagOpen,
    ScriptEndTagName,
    ScriptEscapeStart,
    ScriptEscapedDashDash,
    ScriptEscaped,
    ScriptEscapedLt,
    ScriptEscapedEndTagOpen,
    ScriptEscapedEndTagName,
    ScriptDoubleEscapeStart,
    ScriptDoubleEscaped,
    ScriptDoubleEscapedDashDash,
    ScriptDoubleEscapedLt,
    ScriptDoubleEscapedEndTagName,
    ScriptDoubleEscapeEnd,
    CData,
    CDataBracket,
    TagOpen,
    EndTagOpen,
    MarkupDeclarationOpen,
    TagName,
    SelfClosingStartTag,
    BeforeAttrName,
    AttrName,
    AfterAttrName,
    BeforeAttrValue,
    AttrValueQuoted,
    AttrValueUnquoted,
    BogusComment,
    CommentStart,
    Comment,
    CommentStartDash,
    CommentEndDash,
    CommentEnd,
    CommentLt,
    CommentLtBang,
    CommentLtBangDash,
    CommentLtBangDashDash,
    CommentEndBang,
    Doctype,
    BeforeDoctypeName,
    DoctypeName,
    AfterDoctypeName,
    AfterDoctypeKeyword,
    BeforeDoctypeId,
    DoctypeId,
    AfterPublicId,
    AfterSystemId,
    BetweenDoctypeIds,
    BogusDoctype,
}

#[inline]
fn is_ws(b: u8) -> bool {
    matches!(b, b' ' | b'\n' | b'\r' | b'\t' | b'\x0c')
}

/// Whether `b` ends a tag name (white space, `/` or `>`).
#[inline]
fn ends_name(b: u8) -> bool {
    is_ws(b) || b == b'/' || b == b'>'
}

/// Whether `input[at..]` starts with `seq`, ASCII letters in any case when `ignore_case`.
#[inline]
fn seq_at(input: &[u8], at: usize, seq: &[u8], ignore_case: bool) -> bool {
    match input.get(at..at + seq.len()) {
        Some(s) if ignore_case => s.iter().zip(seq).all(|(&c, &e)| c == e || c == e ^ 0x20),
        Some(s) => s == seq,
        None => false,
    }
}

/// The tag being read.
#[derive(Clone, Debug)]
struct TagToken {
    start: bool,
    hash: NameHash,
    name: Range<usize>,
    /// Where its attributes start (just after the name).
    attrs_from: usize,
    self_closing: bool,
    /// An attribute name started with `=` (see [`Tag::scan_agrees`]).
    odd: bool,
    /// An attribute name started with `<` (see [`Tag::lt_name`]).
    lt_name: bool,
}

/// The doctype being read.
#[derive(Clone, Debug, Default)]
struct DoctypeToken {
    name: Option<Range<usize>>,
    public_id: Option<Range<usize>>,
    system_id: Option<Range<usize>>,
    /// Which identifier the quoted string being read is.
    reading_system: bool,
}

/// The tokenizer over one input. [`Lexer::run`] reports the events to a sink.
pub struct Lexer<'a> {
    input: &'a [u8],
    /// Position of the next byte to consume (the current byte is at `np - 1`).
    np: usize,
    /// Start of the next lexeme (text not yet reported starts here).
    ls: usize,
    /// Start of the token part being read (a name, a value).
    part: usize,
    state: S,
    text_type: TextType,
    last_start_tag: NameHash,
    cdata_allowed: bool,
    closing_quote: u8,
    tag: TagToken,
    /// The attributes of the tag being read (kept from tag to tag: no allocation a tag).
    attrs: Vec<Attr>,
    doctype: DoctypeToken,
    ns_stack: Vec<Ns>,
    /// Text was reported and no other lexeme has followed it yet (see [`Lexer::emit_text`]).
    in_text_node: bool,
    /// lol_html's 1,024-byte text buffer, for the rare long pieces that continue a text node.
    text_buffer: String,
}

/// The size of lol_html's text decoding buffer.
const TEXT_BUFFER_LEN: usize = 1024;

impl<'a> Lexer<'a> {
    /// A tokenizer at the start of `input`, in the data state.
    pub fn new(input: &'a [u8]) -> Self {
        Lexer {
            input,
            np: 0,
            ls: 0,
            part: 0,
            state: S::Data,
            text_type: TextType::Data,
            last_start_tag: NameHash(0),
            cdata_allowed: false,
            closing_quote: b'"',
            tag: TagToken {
                start: true,
                hash: NameHash(0),
                name: 0..0,
                attrs_from: 0,
                self_closing: false,
                odd: false,
                lt_name: false,
            },
            attrs: Vec::new(),
            doctype: DoctypeToken::default(),
            ns_stack: vec![Ns::Html],
            in_text_node: false,
            text_buffer: String::new(),
        }
    }

    #[inline(always)]
    fn consume(&mut self) -> Option<u8> {
        let c = self.input.get(self.np).copied();
        self.np += 1;
        c
    }

    #[inline(always)]
    fn pos(&self) -> usize {
        self.np - 1
    }

    /// Goes on in `state`; `true`, to read on.
    #[inline(always)]
    fn to(&mut self, state: S) -> bool {
        self.state = state;
        true
    }

    /// Reads the current byte again, in `state`; `true`, to read on.
    #[inline(always)]
    fn reconsume(&mut self, state: S) -> bool {
        self.np -= 1;
        self.to(state)
    }

    /// Steps over `seq` (ASCII letters in any case when `ignore_case`) if the input goes on with
    /// it.
    #[inline(always)]
    fn eat(&mut self, seq: &[u8], ignore_case: bool) -> bool {
        let found = seq_at(self.input, self.np, seq, ignore_case);
        if found {
            self.np += seq.len();
        }
        found
    }

    /// Moves just past the byte `found` bytes ahead, or past the end of the input when there is
    /// none (`false`).
    #[inline(always)]
    fn jump(&mut self, found: Option<usize>) -> bool {
        match found {
            Some(k) => self.np += k + 1,
            None => self.np = self.input.len() + 1,
        }
        found.is_some()
    }

    /// Moves just past the next `byte`, or past the end of the input when there is none
    /// (`false`).
    #[inline(always)]
    fn skip_past(&mut self, byte: u8) -> bool {
        // `np` is never past the end of the input.
        let rest = self.input.within(self.np..);
        self.jump(memchr::memchr(byte, rest))
    }

    /// Moves just past the next `a` or `b` and returns it, or past the end of the input.
    #[inline(always)]
    fn skip_past2(&mut self, a: u8, b: u8) -> Option<u8> {
        let rest = self.input.within(self.np..);
        let found = memchr::memchr2(a, b, rest);
        self.jump(found);
        found.and_then(|k| rest.get(k).copied())
    }

    /// The end of the input: reports the pending text; `false`, to stop.
    #[inline(always)]
    fn eof_text<F: FnMut(Event) -> bool>(&mut self, sink: &mut F) -> bool {
        self.emit_text(sink);
        false
    }

    /// What looked like markup is text after all: reports the text before the current byte and
    /// reads that byte again in the text state `state`.
    #[inline(always)]
    fn text_again<F: FnMut(Event) -> bool>(&mut self, state: S, sink: &mut F) -> bool {
        self.emit_text(sink) && self.reconsume(state)
    }

    /// The next byte does not go on with the markup: [`Lexer::text_again`], or the end of the
    /// input.
    #[inline(always)]
    fn not_markup<F: FnMut(Event) -> bool>(&mut self, state: S, sink: &mut F) -> bool {
        match self.consume() {
            None => self.eof_text(sink),
            Some(_) => self.text_again(state, sink),
        }
    }

    /// A comment (`true`) or doctype ends at the current `>`: reports it, back to data.
    #[inline(always)]
    fn token_done<F: FnMut(Event) -> bool>(&mut self, comment: bool, sink: &mut F) -> bool {
        self.emit_token(comment, true, sink) && self.to(S::Data)
    }

    /// A comment (`true`) or doctype ends with the input: reports it; `false`, to stop.
    #[inline(always)]
    fn eof_token<F: FnMut(Event) -> bool>(&mut self, comment: bool, sink: &mut F) -> bool {
        self.emit_token(comment, false, sink);
        false
    }

    /// A bogus comment (`true`) or doctype runs to the next `>` or the end of the input.
    #[inline(always)]
    fn bogus<F: FnMut(Event) -> bool>(&mut self, comment: bool, sink: &mut F) -> bool {
        if self.skip_past(b'>') {
            self.token_done(comment, sink)
        } else {
            self.eof_token(comment, sink)
        }
    }

    #[inline(always)]
    fn current_ns(&self) -> Ns {
        self.ns_stack.last().copied().unwrap_or(Ns::Html)
    }

    /// Reports the text before the current byte. Returns `false` when the sink asked to stop.
    ///
    /// lol_html reports the first piece of text after any other lexeme as one chunk; the pieces
    /// that follow it directly (text cut before a `<` that turned out to be text) go through
    /// its streaming decoder, which hands them out in chunks of at most 1,024 bytes. The same
    /// decoder with the same buffer cuts them at the same places here.
    #[inline(always)]
    fn emit_text<F: FnMut(Event) -> bool>(&mut self, sink: &mut F) -> bool {
        let pos = self.pos();
        if pos <= self.ls {
            return true;
        }
        let range = self.ls..pos;
        self.ls = pos;
        let kind = self.text_type;
        if !self.in_text_node || range.len() <= TEXT_BUFFER_LEN {
            self.in_text_node = true;
            return sink(Event::Text { range, kind });
        }
        self.emit_long_continuation(range, sink)
    }

    #[cold]
    #[inline(never)]
    fn emit_long_continuation<F: FnMut(Event) -> bool>(
        &mut self,
        range: Range<usize>,
        sink: &mut F,
    ) -> bool {
        if self.text_buffer.len() != TEXT_BUFFER_LEN {
            self.text_buffer = "\0".repeat(TEXT_BUFFER_LEN);
        }
        let kind = self.text_type;
        let mut decoder = encoding_rs::UTF_8.new_decoder_without_bom_handling();
        let mut raw = self.input.within(range.clone());
        let mut start = range.start;
        loop {
            let (status, read, written, _) =
                decoder.decode_to_str(raw, self.text_buffer.as_mut_str(), false);
            if written > 0
                && !sink(Event::Text {
                    range: start..start + read,
                    kind,
                })
            {
                return false;
            }
            start += read;
            if status == encoding_rs::CoderResult::InputEmpty || read == 0 {
                return true;
            }
            // The decoder read `read` bytes of `raw`.
            raw = raw.within(read..);
        }
    }

    /// Ends a lexeme that no event reports (a tag, `</>`, a CDATA bracket), current byte included.
    #[inline(always)]
    fn skip_inclusive(&mut self) {
        self.ls = self.pos() + 1;
        self.in_text_node = false;
    }

    /// Reports the comment or doctype that ends with the current byte (`inclusive`) or before
    /// it (at the end of the input).
    #[inline(never)]
    fn emit_token<F: FnMut(Event) -> bool>(
        &mut self,
        comment: bool,
        inclusive: bool,
        sink: &mut F,
    ) -> bool {
        let end = if inclusive {
            self.pos() + 1
        } else {
            self.pos().min(self.input.len())
        };
        let range = self.ls..end;
        self.ls = end;
        self.in_text_node = false;
        if comment {
            sink(Event::Comment(range))
        } else {
            let d = std::mem::take(&mut self.doctype);
            sink(Event::Doctype {
                range,
                name: d.name,
                public_id: d.public_id,
                system_id: d.system_id,
            })
        }
    }

    #[inline(always)]
    fn start_tag_token(&mut self, start: bool, c: u8) {
        let pos = self.pos();
        self.tag = TagToken {
            start,
            hash: NameHash(0).update(c),
            name: pos..pos,
            attrs_from: pos,
            self_closing: false,
            odd: false,
            lt_name: false,
        };
        self.attrs.clear();
        self.part = pos;
    }

    /// An attribute name starts with the current byte `c`.
    #[inline(always)]
    fn begin_attr(&mut self, c: u8) {
        let pos = self.pos();
        self.tag.lt_name |= c == b'<';
        self.attrs.push(Attr {
            name: pos..pos,
            value: pos..pos,
        });
    }

    /// The current attribute's name ends before the current byte.
    #[inline(always)]
    fn end_attr_name(&mut self) {
        let pos = self.pos();
        if let Some(a) = self.attrs.last_mut() {
            a.name.end = pos;
            a.value = pos..pos;
        }
    }

    /// The current attribute's value starts at `from`.
    #[inline(always)]
    fn begin_attr_value(&mut self, from: usize) {
        if let Some(a) = self.attrs.last_mut() {
            a.value = from..from;
        }
    }

    /// The current attribute's value ends before the current byte.
    #[inline(always)]
    fn end_attr_value(&mut self) {
        let pos = self.pos();
        if let Some(a) = self.attrs.last_mut() {
            a.value.end = pos;
        }
    }

    #[inline(always)]
    fn finish_tag_name(&mut self) {
        let pos = self.pos();
        self.tag.name = self.part..pos;
        self.tag.attrs_from = pos;
    }

    #[inline(always)]
    fn appropriate_end_tag(&self) -> bool {
        self.last_start_tag == self.tag.hash
    }

    /// The tag name ends at the current byte `c` (white space, `/` or `>`): goes on with the
    /// attributes, or ends the tag.
    #[inline(always)]
    fn end_tag_name<F: FnMut(Event) -> bool>(&mut self, c: u8, sink: &mut F) -> bool {
        self.finish_tag_name();
        match c {
            b'/' => self.to(S::SelfClosingStartTag),
            b'>' => self.emit_tag(sink),
            _ => self.to(S::BeforeAttrName),
        }
    }

    /// Ends the current tag (its `>` is the current byte): reports it, asks the tree-builder
    /// simulator for the next text type and goes on in the text state it leads to; `false` when
    /// the sink asked to stop.
    #[inline(never)]
    fn emit_tag<F: FnMut(Event) -> bool>(&mut self, sink: &mut F) -> bool {
        let tag_end = self.pos();
        let go = sink(Event::Tag(Tag {
            range: self.ls..tag_end + 1,
            name: self.tag.name.clone(),
            end_tag: !self.tag.start,
            scan_agrees: !self.tag.odd,
            attrs: &self.attrs,
            lt_name: self.tag.lt_name,
            name_hash: (!self.tag.hash.is_empty()).then_some(self.tag.hash.0),
        }));
        self.skip_inclusive();
        self.text_type = TextType::Data;
        let hash = self.tag.hash;
        if self.tag.start {
            self.feedback_start(hash, tag_end);
            self.last_start_tag = hash;
        } else {
            self.feedback_end(hash);
        }
        self.state = self.next_text_state();
        go
    }

    fn next_text_state(&self) -> S {
        match self.text_type {
            TextType::Data => S::Data,
            TextType::PlainText => S::PlainText,
            TextType::RcData => S::RcData,
            TextType::RawText => S::RawText,
            TextType::ScriptData => S::Script,
            TextType::CDataSection => S::CData,
        }
    }

    fn enter_ns(&mut self, ns: Ns) {
        self.ns_stack.push(ns);
        self.cdata_allowed = ns != Ns::Html;
    }

    fn leave_ns(&mut self) {
        if self.ns_stack.len() > 1 {
            self.ns_stack.pop();
        }
        self.cdata_allowed = self.current_ns() != Ns::Html;
    }

    /// lol_html's `get_feedback_for_start_tag` (not strict).
    fn feedback_start(&mut self, hash: NameHash, tag_end: usize) {
        use names::known::*;
        if hash == SVG {
            self.enter_ns(Ns::Svg);
            return;
        }
        if hash == MATH {
            self.enter_ns(Ns::MathMl);
            return;
        }
        let ns = self.current_ns();
        if ns == Ns::Html {
            self.text_type = if hash == TEXTAREA || hash == TITLE {
                TextType::RcData
            } else if hash == PLAINTEXT {
                TextType::PlainText
            } else if hash == SCRIPT {
                TextType::ScriptData
            } else if hash.is_one_of(&[STYLE, IFRAME, XMP, NOEMBED, NOFRAMES, NOSCRIPT]) {
                TextType::RawText
            } else {
                return;
            };
            return;
        }
        if hash.is_one_of(BREAKOUT) {
            self.leave_ns();
            return;
        }
        let integration_point = match ns {
            Ns::Svg => hash.is_one_of(&[DESC, TITLE, FOREIGN_OBJECT]),
            _ => hash.is_one_of(&[MI, MO, MN, MS, MTEXT]),
        };
        if integration_point {
            if !self.tag.self_closing {
                self.enter_ns(Ns::Html);
            }
            return;
        }
        let attrs = self.input.within(self.tag.attrs_from..tag_end + 1);
        if hash == FONT {
            if Attributes::new(attrs).any(|(n, _)| {
                n.eq_ignore_ascii_case(b"color")
                    || n.eq_ignore_ascii_case(b"size")
                    || n.eq_ignore_ascii_case(b"face")
            }) {
                self.leave_ns();
            }
            return;
        }
        if hash.is_empty() && ns == Ns::MathMl {
            let name = self.input.within(self.tag.name.clone());
            if !self.tag.self_closing
                && name.eq_ignore_ascii_case(b"annotation-xml")
                && Attributes::new(attrs).any(|(n, v)| {
                    v.is_some_and(|v| {
                        n.eq_ignore_ascii_case(b"encoding")
                            && (v.eq_ignore_ascii_case(b"text/html")
                                || v.eq_ignore_ascii_case(b"application/xhtml+xml"))
                    })
                })
            {
                self.enter_ns(Ns::Html);
            }
        }
    }

    /// lol_html's `get_feedback_for_end_tag` (not strict).
    fn feedback_end(&mut self, hash: NameHash) {
        use names::known::*;
        let ns = self.current_ns();
        if ns == Ns::Html {
            let n = self.ns_stack.len();
            if n < 2 {
                return;
            }
            let prev = self.ns_stack[n - 2];
            if prev == Ns::MathMl && hash.is_one_of(&[MI, MO, MN, MS, MTEXT])
                || prev == Ns::Svg && hash.is_one_of(&[DESC, TITLE, FOREIGN_OBJECT])
            {
                self.leave_ns();
            } else if hash.is_empty() && prev == Ns::MathMl {
                let name = self.input.within(self.tag.name.clone());
                if name.eq_ignore_ascii_case(b"annotation-xml") {
                    self.leave_ns();
                }
            }
        } else if (ns == Ns::Svg && hash == SVG)
            || (ns == Ns::MathMl && hash == MATH)
            || hash == P
            || hash == BR
        {
            self.leave_ns();
        }
    }

    /// Runs the tokenizer to the end of the input, reporting every event to `sink`; stops early
    /// when `sink` returns `false`.
    #[inline(always)]
    pub fn run<F: FnMut(Event) -> bool>(&mut self, mut sink: F) {
        let sink = &mut sink;
        while self.step(sink) {}
    }

    /// Reads on in the current state; `false` at the end of the input or when the sink asked to
    /// stop. The states are read in groups (`step_text`, `step_tag`, ...); each state of the
    /// frequent groups has an arm of its own, so that its group's method inlines into that arm
    /// as the code of that state alone.
    #[inline(always)]
    fn step<F: FnMut(Event) -> bool>(&mut self, sink: &mut F) -> bool {
        use S::*;
        match self.state {
            Data => self.step_text(Data, sink),
            RcData => self.step_text(RcData, sink),
            RawText => self.step_text(RawText, sink),
            Script => self.step_text(Script, sink),
            PlainText => self.step_text(PlainText, sink),
            CData => self.step_text(CData, sink),
            TagOpen => self.step_tag(TagOpen, sink),
            EndTagOpen => self.step_tag(EndTagOpen, sink),
            MarkupDeclarationOpen => self.step_tag(MarkupDeclarationOpen, sink),
            TagName => self.step_tag(TagName, sink),
            SelfClosingStartTag => self.step_tag(SelfClosingStartTag, sink),
            BeforeAttrName => self.step_attribute(BeforeAttrName, sink),
            AttrName => self.step_attribute(AttrName, sink),
            AfterAttrName => self.step_attribute(AfterAttrName, sink),
            BeforeAttrValue => self.step_attribute(BeforeAttrValue, sink),
            AttrValueQuoted => self.step_attribute(AttrValueQuoted, sink),
            AttrValueUnquoted => self.step_attribute(AttrValueUnquoted, sink),
            RcDataLt => self.step_text_markup(RcDataLt, sink),
            RawTextLt => self.step_text_markup(RawTextLt, sink),
            ScriptLt => self.step_text_markup(ScriptLt, sink),
            RcDataEndTagOpen => self.step_text_markup(RcDataEndTagOpen, sink),
            RawTextEndTagOpen => self.step_text_markup(RawTextEndTagOpen, sink),
            ScriptEndTagOpen => self.step_text_markup(ScriptEndTagOpen, sink),
            ScriptEscapedEndTagOpen => self.step_text_markup(ScriptEscapedEndTagOpen, sink),
            RcDataEndTagName => self.step_text_markup(RcDataEndTagName, sink),
            RawTextEndTagName => self.step_text_markup(RawTextEndTagName, sink),
            ScriptEndTagName => self.step_text_markup(ScriptEndTagName, sink),
            ScriptEscapedEndTagName => self.step_text_markup(ScriptEscapedEndTagName, sink),
            CDataBracket => self.step_text_markup(CDataBracket, sink),
            s @ (ScriptEscapeStart
            | ScriptEscapedDashDash
            | ScriptEscaped
            | ScriptEscapedLt
            | ScriptDoubleEscapeStart
            | ScriptDoubleEscaped
            | ScriptDoubleEscapedDashDash
            | ScriptDoubleEscapedLt
            | ScriptDoubleEscapedEndTagName
            | ScriptDoubleEscapeEnd) => self.step_script_escape(s, sink),
            s @ (BogusComment
            | CommentStart
            | Comment
            | CommentStartDash
            | CommentEndDash
            | CommentEnd
            | CommentLt
            | CommentLtBang
            | CommentLtBangDash
            | CommentLtBangDashDash
            | CommentEndBang) => self.step_comment(s, sink),
            s @ (Doctype | BeforeDoctypeName | DoctypeName | AfterDoctypeName
            | AfterDoctypeKeyword | BeforeDoctypeId | DoctypeId | AfterPublicId
            | AfterSystemId | BetweenDoctypeIds | BogusDoctype) => self.step_doctype(s, sink),
        }
    }
}

/// The attributes of a tag as lol_html's attribute states read them: `(name, value)` pairs over
/// the bytes from the end of the tag name to the tag's `>`.
struct Attributes<'a> {
    buf: &'a [u8],
    i: usize,
}

impl<'a> Attributes<'a> {
    fn new(buf: &'a [u8]) -> Self {
        Attributes { buf, i: 0 }
    }
}

impl<'a> Iterator for Attributes<'a> {
    type Item = (&'a [u8], Option<&'a [u8]>);

    fn next(&mut self) -> Option<Self::Item> {
        let buf = self.buf;
        // Before the attribute name: white space and `/` (a `/` not before `>` is skipped).
        loop {
            match buf.get(self.i) {
                Some(&c) if is_ws(c) || c == b'/' => self.i += 1,
                Some(b'>') | None => return None,
                Some(_) => break,
            }
        }
        let name_start = self.i;
        // The first byte belongs to the name whatever it is (even `=`).
        self.i += 1;
        while let Some(&c) = buf.get(self.i) {
            if is_ws(c) || c == b'=' || c == b'/' || c == b'>' {
                break;
            }
            self.i += 1;
        }
        let name = &buf[name_start..self.i];
        // After the name.
        while buf.get(self.i).is_some_and(|&c| is_ws(c)) {
            self.i += 1;
        }
        if buf.get(self.i) != Some(&b'=') {
            return Some((name, None));
        }
        self.i += 1;
        while buf.get(self.i).is_some_and(|&c| is_ws(c)) {
            self.i += 1;
        }
        match buf.get(self.i) {
            Some(&q @ (b'"' | b'\'')) => {
                let from = self.i + 1;
                // `from` is just past the quote at `self.i`, `to` at most the end.
                let to = memchr::memchr(q, buf.within(from..)).map_or(buf.len(), |k| from + k);
                self.i = to + 1;
                Some((name, Some(buf.within(from..to))))
            }
            // `=` then `>`: the attribute has no value.
            Some(b'>') | None => Some((name, None)),
            Some(_) => {
                let from = self.i;
                while let Some(&c) = buf.get(self.i) {
                    if is_ws(c) || c == b'>' {
                        break;
                    }
                    self.i += 1;
                }
                Some((name, Some(&buf[from..self.i])))
            }
        }
    }
}

/// Runs the tokenizer over a document and returns the number of text bytes it reported: the
/// floor under the segmenter's cost, for benchmarks.
pub fn tokenize_only(html: &str) -> usize {
    let mut n = 0;
    Lexer::new(html.as_bytes()).run(|e| {
        if let Event::Text { range, .. } = e {
            n += range.len();
        }
        true
    });
    n
}

#[cfg(test)]
mod tests;

//! The tokenizer's state groups, a method each: text (with CDATA sections), tags,
//! attributes, what follows a `<` in RCDATA, raw text and script data, script escapes, comments
//! and doctypes. [`Lexer::step`](super::Lexer) dispatches to them state by state.

use super::*;

impl<'a> Lexer<'a> {
    /// The text states: everything up to the byte that may start markup (`<`, or `]` in a
    /// CDATA section) is text.
    #[inline(always)]
    pub(super) fn step_text<F: FnMut(Event) -> bool>(&mut self, state: S, sink: &mut F) -> bool {
        let (byte, next) = match state {
            S::Data => (b'<', S::TagOpen),
            S::RcData => (b'<', S::RcDataLt),
            S::RawText => (b'<', S::RawTextLt),
            S::Script => (b'<', S::ScriptLt),
            S::CData => (b']', S::CDataBracket),
            _ => {
                self.np = self.input.len() + 1;
                return self.eof_text(sink);
            }
        };
        if self.skip_past(byte) {
            self.emit_text(sink) && self.to(next)
        } else {
            self.eof_text(sink)
        }
    }

    /// Tags up to their names, `<!` and what it opens; the attributes go on in
    /// [`Lexer::step_attribute`].
    #[inline(always)]
    pub(super) fn step_tag<F: FnMut(Event) -> bool>(&mut self, state: S, sink: &mut F) -> bool {
        match state {
            S::TagOpen => match self.consume() {
                Some(c) if c.is_ascii_alphabetic() => {
                    self.start_tag_token(true, c);
                    self.to(S::TagName)
                }
                Some(b'!') => self.to(S::MarkupDeclarationOpen),
                Some(b'/') => self.to(S::EndTagOpen),
                Some(b'?') => self.to(S::BogusComment),
                None => self.eof_text(sink),
                Some(_) => self.text_again(S::Data, sink),
            },
            S::EndTagOpen => match self.consume() {
                Some(c) if c.is_ascii_alphabetic() => {
                    self.start_tag_token(false, c);
                    self.to(S::TagName)
                }
                Some(b'>') => {
                    self.skip_inclusive();
                    self.to(S::Data)
                }
                None => self.eof_text(sink),
                Some(_) => self.reconsume(S::BogusComment),
            },
            S::MarkupDeclarationOpen => {
                if self.eat(b"--", false) {
                    self.to(S::CommentStart)
                } else if self.eat(b"DOCTYPE", true) {
                    self.doctype = DoctypeToken::default();
                    self.to(S::Doctype)
                } else if self.eat(b"[CDATA[", false) && self.cdata_allowed {
                    self.skip_inclusive();
                    self.text_type = TextType::CDataSection;
                    self.to(S::CData)
                } else {
                    self.to(S::BogusComment)
                }
            }
            // The name runs to white space, `/` or `>` (one arm each, so that `end_tag_name`
            // inlines to the code of its byte alone).
            S::TagName => loop {
                match self.consume() {
                    Some(c) if is_ws(c) => return self.end_tag_name(b' ', sink),
                    Some(b'>') => return self.end_tag_name(b'>', sink),
                    Some(b'/') => return self.end_tag_name(b'/', sink),
                    None => return false,
                    Some(c) => self.tag.hash = self.tag.hash.update(c),
                }
            },
            // A `/` in a tag: `/>`, or on with the attributes.
            _ => match self.consume() {
                Some(b'>') => {
                    self.tag.self_closing = self.tag.start;
                    self.emit_tag(sink)
                }
                None => false,
                Some(_) => self.reconsume(S::BeforeAttrName),
            },
        }
    }

    /// A tag's attributes, stepped over.
    #[inline(always)]
    pub(super) fn step_attribute<F: FnMut(Event) -> bool>(
        &mut self,
        state: S,
        sink: &mut F,
    ) -> bool {
        match state {
            S::BeforeAttrName | S::AfterAttrName => {
                let after = state == S::AfterAttrName;
                match self.consume() {
                    Some(c) if is_ws(c) => true,
                    Some(b'/') => self.to(S::SelfClosingStartTag),
                    Some(b'>') => self.emit_tag(sink),
                    None => false,
                    Some(b'=') if after => self.to(S::BeforeAttrValue),
                    Some(b'=') => {
                        // A name that starts with `=` (see `Tag::scan_agrees`).
                        self.tag.odd = true;
                        self.begin_attr(b'=');
                        self.to(S::AttrName)
                    }
                    Some(c) => {
                        self.begin_attr(c);
                        self.to(S::AttrName)
                    }
                }
            }
            S::AttrName => loop {
                match self.consume() {
                    Some(c) if is_ws(c) => {
                        self.end_attr_name();
                        return self.to(S::AfterAttrName);
                    }
                    Some(b'=') => {
                        self.end_attr_name();
                        return self.to(S::BeforeAttrValue);
                    }
                    Some(b'/') => {
                        self.end_attr_name();
                        return self.to(S::SelfClosingStartTag);
                    }
                    Some(b'>') => {
                        self.end_attr_name();
                        return self.emit_tag(sink);
                    }
                    None => return false,
                    Some(_) => {}
                }
            },
            S::BeforeAttrValue => match self.consume() {
                Some(c) if is_ws(c) => true,
                Some(q @ (b'"' | b'\'')) => {
                    self.closing_quote = q;
                    self.begin_attr_value(self.np);
                    self.to(S::AttrValueQuoted)
                }
                Some(b'>') => {
                    // lol_html goes on in the data state here, whatever the text type.
                    let go = self.emit_tag(sink);
                    self.state = S::Data;
                    go
                }
                None => false,
                Some(_) => {
                    self.begin_attr_value(self.pos());
                    self.reconsume(S::AttrValueUnquoted)
                }
            },
            S::AttrValueQuoted => {
                let closed = self.skip_past(self.closing_quote);
                // The value ends before its closing quote (a value cut off by the end of the
                // input ends no tag).
                self.end_attr_value();
                closed && self.to(S::BeforeAttrName)
            }
            // An unquoted value runs to white space or `>`.
            _ => loop {
                match self.consume() {
                    Some(c) if is_ws(c) => {
                        self.end_attr_value();
                        return self.to(S::BeforeAttrName);
                    }
                    Some(b'>') => {
                        self.end_attr_value();
                        return self.emit_tag(sink);
                    }
                    None => return false,
                    Some(_) => {}
                }
            },
        }
    }

    /// What follows a `<` in RCDATA, raw text and script data (an end tag, or text after all),
    /// and a `]` in a CDATA section (its end, or text).
    #[inline(always)]
    pub(super) fn step_text_markup<F: FnMut(Event) -> bool>(
        &mut self,
        state: S,
        sink: &mut F,
    ) -> bool {
        match state {
            S::RcDataLt | S::RawTextLt | S::ScriptLt => {
                let (text, end_tag_open) = match state {
                    S::RcDataLt => (S::RcData, S::RcDataEndTagOpen),
                    S::RawTextLt => (S::RawText, S::RawTextEndTagOpen),
                    _ => (S::Script, S::ScriptEndTagOpen),
                };
                match self.consume() {
                    Some(b'/') => self.to(end_tag_open),
                    Some(b'!') if text == S::Script => self.to(S::ScriptEscapeStart),
                    None => self.eof_text(sink),
                    Some(_) => self.text_again(text, sink),
                }
            }
            S::RcDataEndTagOpen
            | S::RawTextEndTagOpen
            | S::ScriptEndTagOpen
            | S::ScriptEscapedEndTagOpen => {
                let (text, name_state) = match state {
                    S::RcDataEndTagOpen => (S::RcData, S::RcDataEndTagName),
                    S::RawTextEndTagOpen => (S::RawText, S::RawTextEndTagName),
                    S::ScriptEndTagOpen => (S::Script, S::ScriptEndTagName),
                    _ => (S::ScriptEscaped, S::ScriptEscapedEndTagName),
                };
                match self.consume() {
                    Some(c) if c.is_ascii_alphabetic() => {
                        self.start_tag_token(false, c);
                        self.to(name_state)
                    }
                    None => self.eof_text(sink),
                    Some(_) => self.text_again(text, sink),
                }
            }
            S::CDataBracket => {
                if self.eat(b"]>", false) {
                    self.skip_inclusive();
                    self.text_type = TextType::Data;
                    self.to(S::Data)
                } else {
                    self.not_markup(S::CData, sink)
                }
            }
            _ => {
                let text = match state {
                    S::RcDataEndTagName => S::RcData,
                    S::RawTextEndTagName => S::RawText,
                    S::ScriptEndTagName => S::Script,
                    _ => S::ScriptEscaped,
                };
                match self.consume() {
                    Some(c) if c.is_ascii_alphabetic() => {
                        self.tag.hash = self.tag.hash.update(c);
                        true
                    }
                    Some(c) if ends_name(c) && self.appropriate_end_tag() => {
                        self.end_tag_name(c, sink)
                    }
                    None => self.eof_text(sink),
                    Some(_) => self.text_again(text, sink),
                }
            }
        }
    }

    /// Script data's escapes: `<!--` and `<script>` inside it.
    #[inline(always)]
    pub(super) fn step_script_escape<F: FnMut(Event) -> bool>(
        &mut self,
        state: S,
        sink: &mut F,
    ) -> bool {
        // The escaped and the double-escaped states go the same ways, each to its own level.
        let double = matches!(
            state,
            S::ScriptDoubleEscaped | S::ScriptDoubleEscapedDashDash
        );
        let (escaped, dash_dash, lt) = if double {
            (
                S::ScriptDoubleEscaped,
                S::ScriptDoubleEscapedDashDash,
                S::ScriptDoubleEscapedLt,
            )
        } else {
            (
                S::ScriptEscaped,
                S::ScriptEscapedDashDash,
                S::ScriptEscapedLt,
            )
        };
        match state {
            S::ScriptEscapeStart => {
                if self.eat(b"--", false) {
                    self.to(S::ScriptEscapedDashDash)
                } else {
                    self.not_markup(S::Script, sink)
                }
            }
            S::ScriptEscapedDashDash | S::ScriptDoubleEscapedDashDash => match self.consume() {
                Some(b'-') => true,
                // Only the escaped state's `<` ends a piece of text.
                Some(b'<') => (double || self.emit_text(sink)) && self.to(lt),
                Some(b'>') => self.text_again(S::Script, sink),
                None => self.eof_text(sink),
                Some(_) => self.to(escaped),
            },
            // Only `--` and `<` leave these states: skip to the next `-` or `<`.
            S::ScriptEscaped | S::ScriptDoubleEscaped => loop {
                match self.skip_past2(b'-', b'<') {
                    None => return self.eof_text(sink),
                    Some(b'-') if self.eat(b"-", false) => return self.to(dash_dash),
                    Some(b'-') => {}
                    Some(_) => return self.emit_text(sink) && self.to(lt),
                }
            },
            S::ScriptEscapedLt => {
                if self.eat(b"SCRIPT", true) {
                    self.to(S::ScriptDoubleEscapeStart)
                } else {
                    match self.consume() {
                        Some(b'/') => self.to(S::ScriptEscapedEndTagOpen),
                        None => self.eof_text(sink),
                        Some(_) => self.text_again(S::ScriptEscaped, sink),
                    }
                }
            }
            S::ScriptDoubleEscapeStart | S::ScriptDoubleEscapeEnd => {
                let (on_name_end, otherwise) = if state == S::ScriptDoubleEscapeStart {
                    (S::ScriptDoubleEscaped, S::ScriptEscaped)
                } else {
                    (S::ScriptEscaped, S::ScriptDoubleEscaped)
                };
                match self.consume() {
                    Some(c) if ends_name(c) => self.to(on_name_end),
                    None => self.eof_text(sink),
                    Some(_) => self.reconsume(otherwise),
                }
            }
            S::ScriptDoubleEscapedLt => match self.consume() {
                Some(b'/') => self.to(S::ScriptDoubleEscapedEndTagName),
                None => self.eof_text(sink),
                Some(_) => self.reconsume(S::ScriptDoubleEscaped),
            },
            _ => {
                // S::ScriptDoubleEscapedEndTagName
                if self.eat(b"SCRIPT", true) {
                    self.to(S::ScriptDoubleEscapeEnd)
                } else if self.consume().is_none() {
                    self.eof_text(sink)
                } else {
                    self.reconsume(S::ScriptDoubleEscaped)
                }
            }
        }
    }

    /// Comments, bogus ones included.
    #[inline(always)]
    pub(super) fn step_comment<F: FnMut(Event) -> bool>(&mut self, state: S, sink: &mut F) -> bool {
        match state {
            S::BogusComment => self.bogus(true, sink),
            // Everything up to the next `-` or `<` stays in this state.
            S::Comment => match self.skip_past2(b'-', b'<') {
                Some(b'-') => self.to(S::CommentEndDash),
                Some(_) => self.to(S::CommentLt),
                None => self.eof_token(true, sink),
            },
            S::CommentLt => match self.consume() {
                Some(b'!') => self.to(S::CommentLtBang),
                Some(b'<') => true,
                _ => self.reconsume(S::Comment),
            },
            S::CommentLtBang => match self.consume() {
                Some(b'-') => self.to(S::CommentLtBangDash),
                _ => self.reconsume(S::Comment),
            },
            S::CommentLtBangDash => match self.consume() {
                Some(b'-') => self.to(S::CommentLtBangDashDash),
                _ => self.reconsume(S::CommentEndDash),
            },
            S::CommentLtBangDashDash => {
                self.consume();
                self.reconsume(S::CommentEnd)
            }
            // The states around the `--` that may end the comment.
            _ => match (state, self.consume()) {
                (S::CommentEndDash, Some(b'>')) | (S::CommentStart, None) => {
                    self.reconsume(S::Comment)
                }
                (_, Some(b'>')) => self.token_done(true, sink),
                (S::CommentStart, Some(b'-')) => self.to(S::CommentStartDash),
                (S::CommentEnd, Some(b'!')) => self.to(S::CommentEndBang),
                (S::CommentEndBang, Some(b'-')) => self.to(S::CommentEndDash),
                (_, Some(b'-')) => self.to(S::CommentEnd),
                (_, None) => self.eof_token(true, sink),
                (_, Some(_)) => self.reconsume(S::Comment),
            },
        }
    }

    /// Doctypes: the name and the two identifiers are noted, the rest stepped over.
    #[inline(always)]
    pub(super) fn step_doctype<F: FnMut(Event) -> bool>(&mut self, state: S, sink: &mut F) -> bool {
        match state {
            S::BogusDoctype => return self.bogus(false, sink),
            S::AfterDoctypeName => {
                for (keyword, system) in [(b"PUBLIC", false), (b"SYSTEM", true)] {
                    if self.eat(keyword, true) {
                        self.doctype.reading_system = system;
                        return self.to(S::AfterDoctypeKeyword);
                    }
                }
            }
            _ => {}
        }
        let c = self.consume();
        // A name ends at white space, an identifier at its closing quote; both at `>` and at
        // the end of the input.
        let part = self.part..self.pos().min(self.input.len());
        match (state, c) {
            (S::DoctypeName, Some(c)) if !is_ws(c) && c != b'>' => return true,
            (S::DoctypeId, Some(c)) if c != self.closing_quote && c != b'>' => return true,
            (S::DoctypeName, _) => self.doctype.name = Some(part),
            (S::DoctypeId, _) if self.doctype.reading_system => self.doctype.system_id = Some(part),
            (S::DoctypeId, _) => self.doctype.public_id = Some(part),
            _ => {}
        }
        match (state, c) {
            (_, Some(b'>')) => self.token_done(false, sink),
            (_, None) => self.eof_token(false, sink),
            (S::DoctypeName, _) => self.to(S::AfterDoctypeName),
            (S::DoctypeId, _) if self.doctype.reading_system => self.to(S::AfterSystemId),
            (S::DoctypeId, _) => self.to(S::AfterPublicId),
            (S::Doctype, Some(c)) if is_ws(c) => self.to(S::BeforeDoctypeName),
            (S::Doctype, _) => self.reconsume(S::BeforeDoctypeName),
            (S::BeforeDoctypeName | S::AfterDoctypeName | S::AfterSystemId, Some(c))
                if is_ws(c) =>
            {
                true
            }
            (S::BeforeDoctypeName, _) => {
                self.part = self.pos();
                self.to(S::DoctypeName)
            }
            (S::AfterDoctypeKeyword | S::BeforeDoctypeId, Some(c)) if is_ws(c) => {
                self.to(S::BeforeDoctypeId)
            }
            (S::AfterPublicId | S::BetweenDoctypeIds, Some(c)) if is_ws(c) => {
                self.to(S::BetweenDoctypeIds)
            }
            (
                S::AfterDoctypeKeyword
                | S::BeforeDoctypeId
                | S::AfterPublicId
                | S::BetweenDoctypeIds,
                Some(q @ (b'"' | b'\'')),
            ) => {
                // A quoted string after the public one is the system identifier.
                self.doctype.reading_system |=
                    matches!(state, S::AfterPublicId | S::BetweenDoctypeIds);
                self.closing_quote = q;
                self.part = self.np;
                self.to(S::DoctypeId)
            }
            _ => self.to(S::BogusDoctype),
        }
    }
}

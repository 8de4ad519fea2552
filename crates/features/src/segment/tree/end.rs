//! End tags: the end-tag rules of the body and table modes and the generic end-tag walk that
//! ignores stray end tags.

use super::*;

impl Tree {
    /// Handles an end tag. Returns whether it changed the tree (a stray end tag does not).
    pub fn end(&mut self, tag: Tag) -> bool {
        let before = self.changes;
        self.end_inner(tag);
        self.changes != before
    }

    pub(super) fn end_inner(&mut self, tag: Tag) {
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

    pub(super) fn end_in_body_modes(&mut self, tag: Tag) {
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

    pub(super) fn end_in_body(&mut self, tag: Tag) {
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
    pub(super) fn end_generic(&mut self, tag: Tag) {
        let Some(pos) = self.top_pos(tag) else {
            return;
        };
        if top(&self.special).is_some_and(|s| s > pos) {
            return;
        }
        self.generate_implied_end(Some(tag));
        self.pop_to(pos as usize);
    }
}

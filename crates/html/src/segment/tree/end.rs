//! End tags: the end-tag rules of the body and table modes and the generic end-tag walk that
//! ignores stray end tags.

use super::*;

impl Tree {
    /// Handles an end tag. Returns whether it changed the tree (a stray end tag does not).
    // Inlined into its callers, the segmenter and the floor (`segment::tokenize_and_build`):
    // with two of them the compiler no longer inlines it into the segmenter by itself.
    #[inline(always)]
    pub fn end(&mut self, tag: Tag) -> bool {
        let before = self.changes;
        self.end_inner(tag);
        self.changes != before
    }

    #[inline(always)]
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

    // One caller (`end_inner`); kept inline as it was before the floor became a second caller.
    #[inline(always)]
    pub(super) fn end_in_body_modes(&mut self, tag: Tag) {
        // Bounded: each retry pops at least one element or changes the mode element.
        for _ in 0..4 {
            let again = match self.mode_tag() {
                Some(Tag::SELECT) => self.end_in_select(tag),
                Some(
                    mode @ (Tag::TD
                    | Tag::TH
                    | Tag::TR
                    | Tag::TBODY
                    | Tag::THEAD
                    | Tag::TFOOT
                    | Tag::TABLE
                    | Tag::CAPTION),
                ) => self.end_in_table_part(mode, tag),
                Some(Tag::COLGROUP) => match tag {
                    Tag::COL => false,
                    _ => {
                        self.pop_through(Tag::COLGROUP);
                        tag != Tag::COLGROUP
                    }
                },
                _ => {
                    self.end_in_body(tag);
                    false
                }
            };
            if !again {
                return;
            }
        }
    }

    /// An end tag in a select. Returns whether to handle it again in the mode that closing the
    /// select leaves.
    fn end_in_select(&mut self, tag: Tag) -> bool {
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
            _ if ends_select(tag) => {
                if self.in_scope(tag, Scope::Table).is_some() {
                    self.pop_through(Tag::SELECT);
                    return true;
                }
            }
            _ => {
                if self.current_tag() == Some(tag) && tag.is(Props::HEAD_CONTENT) {
                    self.pop();
                }
            }
        }
        false
    }

    /// An end tag in a table, table section, row, cell or caption (`mode`, the innermost of them
    /// open). Returns whether to handle it again in the mode that closing `mode` leaves.
    fn end_in_table_part(&mut self, mode: Tag, tag: Tag) -> bool {
        let rules = TableEnds::of(mode);
        let own = rules.own.contains(&tag);
        if own || rules.outer.contains(&tag) {
            // A caption closes on `</table>` only if the caption itself is in scope.
            let scoped = if mode == Tag::CAPTION { mode } else { tag };
            if self.in_scope(scoped, Scope::Table).is_none() {
                return false;
            }
            match mode {
                Tag::TD | Tag::TH if own => self.close_marker_element(tag),
                Tag::TD | Tag::TH => self.close_cell(),
                Tag::TR => self.close_row_or_body(true),
                Tag::TABLE => self.pop_through(Tag::TABLE),
                Tag::CAPTION => self.close_marker_element(Tag::CAPTION),
                _ => self.close_row_or_body(false),
            }
            return !own;
        }
        if !TableEnds::ALWAYS_IGNORED.contains(&tag) && !rules.ignored.contains(&tag) {
            self.end_in_body(tag);
        }
        false
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
                    self.close_marker_element(tag);
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

    /// Closes an element that put a marker on the list of active formatting elements (a cell,
    /// a caption, an applet, marquee or object), and the list's entries up to that marker.
    pub(super) fn close_marker_element(&mut self, tag: Tag) {
        self.generate_implied_end(None);
        self.pop_through(tag);
        self.afe_clear_to_marker();
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

/// The end-tag rules of one table insertion mode.
struct TableEnds {
    /// End tags that close the mode's element, and nothing more.
    own: &'static [Tag],
    /// End tags that close the mode's element and are then handled by the enclosing mode.
    outer: &'static [Tag],
    /// End tags ignored in this mode besides [`TableEnds::ALWAYS_IGNORED`]; any other end tag
    /// goes to the in-body rules.
    ignored: &'static [Tag],
}

impl TableEnds {
    /// End tags every table mode ignores, besides its own [`TableEnds::ignored`].
    const ALWAYS_IGNORED: &'static [Tag] = &[Tag::BODY, Tag::COL, Tag::COLGROUP, Tag::HTML];

    fn of(mode: Tag) -> Self {
        use Tag as T;
        let (own, outer, ignored): (&[Tag], &[Tag], &[Tag]) = match mode {
            T::TD | T::TH => (
                &[T::TD, T::TH],
                &[T::TABLE, T::TBODY, T::TFOOT, T::THEAD, T::TR],
                &[T::CAPTION],
            ),
            T::TR => (
                &[T::TR],
                &[T::TABLE, T::TBODY, T::TFOOT, T::THEAD],
                &[T::CAPTION, T::TD, T::TH],
            ),
            T::TABLE => (
                &[T::TABLE],
                &[],
                &[
                    T::CAPTION,
                    T::TBODY,
                    T::TD,
                    T::TFOOT,
                    T::TH,
                    T::THEAD,
                    T::TR,
                ],
            ),
            T::CAPTION => (
                &[T::CAPTION],
                &[T::TABLE],
                &[T::TBODY, T::TD, T::TFOOT, T::TH, T::THEAD, T::TR],
            ),
            // TBODY, THEAD, TFOOT.
            _ => (
                &[T::TBODY, T::THEAD, T::TFOOT],
                &[T::TABLE],
                &[T::CAPTION, T::TD, T::TH, T::TR],
            ),
        };
        TableEnds {
            own,
            outer,
            ignored,
        }
    }
}

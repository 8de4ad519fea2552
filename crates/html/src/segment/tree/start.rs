//! Doctypes and start tags: quirks mode, the head and body phases, and the insertion modes of
//! the body, tables, select and foreign content.

use super::*;

impl Tree {
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
    /// else the tag tells. Returns whether it changed the tree (an ignored start tag does not).
    // Inlined into its callers, as `Tree::end`.
    #[inline(always)]
    pub fn start(
        &mut self,
        tag: Tag,
        class: Range<u32>,
        id: Range<u32>,
        token: TokenAttrs,
    ) -> bool {
        let before = self.changes;
        self.token_hash = token.hash;
        self.token_placeholder = token.placeholder;
        self.start_inner(tag, class, id, token);
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
    pub(super) fn in_island(&self) -> bool {
        match (top(&self.islands), top(&self.foreign)) {
            (Some(i), Some(f)) => i > f,
            _ => false,
        }
    }

    #[inline(always)]
    pub(super) fn start_inner(
        &mut self,
        tag: Tag,
        class: Range<u32>,
        id: Range<u32>,
        token: TokenAttrs,
    ) {
        let TokenAttrs {
            self_closing,
            breakout,
            ..
        } = token;
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
                self.insert_under(self.current_elem(), tag, class, id, void);
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
                        let eid = self.insert_under(parent, t, class, id, t.is(Props::VOID));
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

    pub(super) fn start_html(&mut self, attrs: (Range<u32>, Range<u32>)) {
        let eid = self.new_element(Tag::HTML, 0, attrs.0, attrs.1);
        self.note_split(Tag::HTML, 1, 0);
        self.push(Tag::HTML, eid);
        self.phase = Phase::BeforeHead;
    }

    pub(super) fn leave_head(&mut self) {
        if self.current_tag() == Some(Tag::HEAD) {
            self.pop();
        } else if let Some(p) = self.top_pos(Tag::HEAD) {
            self.pop_to(p as usize);
        }
        self.phase = Phase::AfterHead;
    }

    pub(super) fn insert_head_content(&mut self, tag: Tag, class: Range<u32>, id: Range<u32>) {
        let void = tag.is(Props::VOID);
        let eid = self.insert(tag, class, id, void);
        self.note_title(tag, eid);
    }

    pub(super) fn note_title(&mut self, tag: Tag, eid: ElementId) {
        if tag == Tag::TITLE && self.title_elem.is_none() {
            self.title_elem = Some(eid);
        }
    }

    // One caller (`start_inner`); kept inline as `end_in_body_modes`.
    #[inline(always)]
    pub(super) fn start_in_body_modes(
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
                Some(Tag::SELECT) => match self.start_in_select(tag) {
                    InSelect::Insert => {
                        self.insert(tag, class, id, false);
                        return;
                    }
                    InSelect::Ignore => return,
                    InSelect::Reprocess => {}
                },
                Some(Tag::TABLE | Tag::TBODY | Tag::THEAD | Tag::TFOOT | Tag::TR) => {
                    if self.start_in_table(tag, &class, &id, mode) {
                        return;
                    }
                }
                Some(m @ (Tag::TD | Tag::TH | Tag::CAPTION)) => {
                    if is_table_part(tag) {
                        if m == Tag::CAPTION {
                            self.close_marker_element(Tag::CAPTION);
                        } else {
                            self.close_cell();
                        }
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

    pub(super) fn close_cell(&mut self) {
        self.generate_implied_end(None);
        let td = self.top_pos(Tag::TD);
        let th = self.top_pos(Tag::TH);
        if let Some(p) = td.max(th) {
            self.pop_to(p as usize);
        }
        self.afe_clear_to_marker();
    }

    /// Pops until the current node is one of `stop` (or html).
    pub(super) fn clear_back_to(&mut self, stop: &[Tag]) {
        while let Some(t) = self.current_tag() {
            if stop.contains(&t) || t == Tag::HTML || t == Tag::TEMPLATE {
                break;
            }
            self.pop();
        }
    }

    /// Start tag in a table, table body or row. Returns false to ask for reprocessing.
    pub(super) fn start_in_table(
        &mut self,
        tag: Tag,
        class: &Range<u32>,
        id: &Range<u32>,
        mode: Option<Tag>,
    ) -> bool {
        let in_body_part = matches!(mode, Some(Tag::TBODY | Tag::THEAD | Tag::TFOOT));
        let in_row = mode == Some(Tag::TR);
        match tag {
            Tag::CAPTION | Tag::COLGROUP | Tag::COL | Tag::TBODY | Tag::THEAD | Tag::TFOOT
                if in_row || in_body_part =>
            {
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
                self.enter_table_section(in_body_part);
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
                    self.enter_table_section(in_body_part);
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
                self.insert_under(self.current_elem(), tag, class.clone(), id.clone(), false);
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

    /// Makes a table section the current node for a new row: the open one, or an implied
    /// `tbody` when the current mode is the table itself.
    fn enter_table_section(&mut self, in_body_part: bool) {
        if !in_body_part {
            self.clear_back_to(&[Tag::TABLE]);
            self.insert_implied(Tag::TBODY);
        }
        self.clear_back_to(&[Tag::TBODY, Tag::THEAD, Tag::TFOOT]);
    }

    pub(super) fn close_row_or_body(&mut self, in_row: bool) {
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

    /// Start tag in a select: closes what the tag closes and says what becomes of the tag
    /// itself (the caller inserts it).
    pub(super) fn start_in_select(&mut self, tag: Tag) -> InSelect {
        match tag {
            Tag::OPTION | Tag::OPTGROUP => {
                if self.current_tag() == Some(Tag::OPTION) {
                    self.pop();
                }
                if tag == Tag::OPTGROUP && self.current_tag() == Some(Tag::OPTGROUP) {
                    self.pop();
                }
                InSelect::Insert
            }
            Tag::SCRIPT | Tag::TEMPLATE => InSelect::Insert,
            Tag::SELECT => {
                self.pop_through(Tag::SELECT);
                InSelect::Ignore
            }
            Tag::INPUT | Tag::KEYGEN | Tag::TEXTAREA => {
                self.pop_through(Tag::SELECT);
                InSelect::Reprocess
            }
            _ if ends_select(tag) => {
                self.pop_through(Tag::SELECT);
                InSelect::Reprocess
            }
            _ => InSelect::Ignore,
        }
    }

    pub(super) fn start_in_body(
        &mut self,
        tag: Tag,
        class: Range<u32>,
        id: Range<u32>,
        self_closing: bool,
    ) {
        let Some(void) = self.before_body_insert(tag, self_closing) else {
            return;
        };
        let eid = self.insert(tag, class, id, void);
        self.note_title(tag, eid);
        if tag == Tag::FORM {
            self.form = Some(eid);
        } else if tag.is(Props::FORMATTING) {
            self.afe_push(eid);
        } else if matches!(tag, Tag::APPLET | Tag::MARQUEE | Tag::OBJECT) {
            self.afe.push(Afe::Marker);
        }
    }

    /// The in-body rules for a start tag up to its insertion: closes and reopens what the tag
    /// asks for, then says whether it is inserted as a void element (`Some(true)`), as an open
    /// one (`Some(false)`), or ignored (`None`).
    fn before_body_insert(&mut self, tag: Tag, self_closing: bool) -> Option<bool> {
        let p = tag.props();
        match tag {
            Tag::HTML | Tag::BODY | Tag::FRAMESET | Tag::HEAD => return None,
            Tag::FRAME => return None,
            _ if is_table_part(tag) => return None,
            Tag::BASE | Tag::BASEFONT | Tag::BGSOUND | Tag::LINK | Tag::META => return Some(true),
            Tag::TITLE
            | Tag::NOSCRIPT
            | Tag::NOFRAMES
            | Tag::STYLE
            | Tag::SCRIPT
            | Tag::TEMPLATE
            | Tag::IFRAME
            | Tag::NOEMBED
            | Tag::TEXTAREA => {}
            Tag::H1 | Tag::H2 | Tag::H3 | Tag::H4 | Tag::H5 | Tag::H6 => {
                self.close_p();
                if self.current_tag().is_some_and(Tag::is_heading) {
                    self.pop();
                }
            }
            Tag::FORM => {
                if self.form.is_some() {
                    return None;
                }
                self.close_p();
            }
            Tag::LI => {
                self.close_list_item(&[Tag::LI]);
                self.close_p();
            }
            Tag::DD | Tag::DT => {
                self.close_list_item(&[Tag::DD, Tag::DT]);
                self.close_p();
            }
            Tag::BUTTON => {
                if self.in_scope(Tag::BUTTON, Scope::Default).is_some() {
                    self.generate_implied_end(None);
                    self.pop_through(Tag::BUTTON);
                }
                self.reconstruct();
            }
            Tag::A => {
                self.close_open_a();
                self.reconstruct();
            }
            Tag::NOBR => {
                self.reconstruct();
                if self.in_scope(Tag::NOBR, Scope::Default).is_some() {
                    self.adoption_agency(Tag::NOBR);
                    self.reconstruct();
                }
            }
            Tag::TABLE => {
                if !self.quirks {
                    self.close_p();
                }
            }
            Tag::HR => {
                self.close_p();
                return Some(true);
            }
            Tag::PARAM | Tag::SOURCE | Tag::TRACK => return Some(true),
            Tag::XMP => {
                self.close_p();
                self.reconstruct();
            }
            Tag::OPTGROUP | Tag::OPTION => {
                if self.current_tag() == Some(Tag::OPTION) {
                    self.pop();
                }
                self.reconstruct();
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
            }
            Tag::SVG | Tag::MATH => {
                self.reconstruct();
                return Some(self_closing);
            }
            _ if p.has(Props::CLOSES_P) => self.close_p(),
            _ => {
                // Formatting elements (never void), applet, marquee, object, select and the rest.
                self.reconstruct();
                return Some(p.has(Props::VOID));
            }
        }
        Some(false)
    }

    /// An `<a>` while another is open in the list of active formatting elements (after its
    /// last marker): the adoption agency closes the old one, which then leaves the list and the
    /// stack.
    fn close_open_a(&mut self) {
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
        let Some(e) = open_a else {
            return;
        };
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

    /// The `li` / `dd` / `dt` start-tag loop: closes an open item of the same kind unless a special
    /// element (other than address, div, p) intervenes.
    pub(super) fn close_list_item(&mut self, kinds: &[Tag]) {
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
}

/// What the select mode makes of a start tag.
pub(super) enum InSelect {
    /// Insert it as an element.
    Insert,
    /// Drop it.
    Ignore,
    /// Handle it again in the mode that closing the select left.
    Reprocess,
}

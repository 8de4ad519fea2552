//! The open-element stack and its bookkeeping: element records, the per-tag and per-scope
//! position indexes behind O(1) scope checks, implied end tags and the insertion point (with
//! foster parenting).

use super::*;

impl Tree {
    pub(super) fn note_split(&mut self, tag: Tag, opened: u16, closed: u16) {
        self.pending.push(Split {
            tag,
            opened,
            closed,
        });
    }

    pub(super) fn new_element(
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

    pub(super) fn clone_element(&mut self, of: ElementId, parent: ElementId) -> ElementId {
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
    pub(super) fn is_link(&self, elem: ElementId) -> bool {
        self.elements
            .get(elem as usize)
            .is_some_and(|e| e.tag == Tag::A && !e.placeholder)
    }

    pub(super) fn index_push(&mut self, pos: u32, tag: Tag, elem: ElementId) {
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

    pub(super) fn index_pop(&mut self, pos: u32, tag: Tag, elem: ElementId) {
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

    /// Empties every index of the stack (the stack itself is left as it is).
    pub(super) fn clear_index(&mut self) {
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
    }

    /// Recomputes every index from the stack, after an edit in the middle of it.
    pub(super) fn rebuild_index(&mut self) {
        self.clear_index();
        for i in 0..self.stack.len() {
            let Open { tag, elem } = self.stack[i];
            self.index_push(i as u32, tag, elem);
        }
    }

    pub(super) fn push(&mut self, tag: Tag, elem: ElementId) {
        let pos = self.stack.len() as u32;
        self.changes += 1;
        self.stack.push(Open { tag, elem });
        if let Some(f) = self.on_stack.get_mut(elem as usize) {
            *f = true;
        }
        self.index_push(pos, tag, elem);
    }

    pub(super) fn pop(&mut self) -> Option<Open> {
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
    pub(super) fn remove_from_stack(&mut self, pos: usize) {
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
    pub(super) fn pop_to(&mut self, len: usize) {
        while self.stack.len() > len {
            self.pop();
        }
    }

    /// Pops up to and including the topmost open element with this tag.
    pub(super) fn pop_through(&mut self, tag: Tag) {
        if let Some(p) = self.top_pos(tag) {
            self.pop_to(p as usize);
        }
    }

    #[inline]
    pub(super) fn top_pos(&self, tag: Tag) -> Option<u32> {
        self.tag_pos.get(tag.0 as usize).and_then(|v| top(v))
    }

    pub(super) fn in_scope(&self, tag: Tag, scope: Scope) -> Option<u32> {
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

    pub(super) fn heading_in_scope(&self) -> Option<u32> {
        [Tag::H1, Tag::H2, Tag::H3, Tag::H4, Tag::H5, Tag::H6]
            .iter()
            .filter_map(|&h| self.in_scope(h, Scope::Default))
            .max()
    }

    /// The insertion-mode element: the nearest table part, select, body, ... on the stack.
    #[inline]
    pub(super) fn mode_tag(&self) -> Option<Tag> {
        top(&self.mode)
            .and_then(|p| self.stack.get(p as usize))
            .map(|o| o.tag)
    }

    pub(super) fn generate_implied_end(&mut self, except: Option<Tag>) {
        while let Some(t) = self.current_tag() {
            if t.is(Props::IMPLIED_END) && Some(t) != except {
                self.pop();
            } else {
                break;
            }
        }
    }

    pub(super) fn close_p(&mut self) {
        if self.in_scope(Tag::P, Scope::Button).is_some() {
            self.generate_implied_end(Some(Tag::P));
            self.pop_through(Tag::P);
        }
    }

    /// The parent for a new node: the current node, or the foster parent when the current node
    /// is a table part that cannot hold it.
    pub(super) fn insertion_parent(&self) -> ElementId {
        match self.stack.last() {
            Some(o) if o.tag.is(Props::TABLE_CONTEXT) => self.foster_parent(),
            Some(o) => o.elem,
            None => 0,
        }
    }

    /// The parent for a new element of this tag: table parts go into the table itself.
    pub(super) fn parent_for(&self, tag: Tag) -> ElementId {
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

    pub(super) fn foster_parent(&self) -> ElementId {
        match self.top_pos(Tag::TABLE) {
            Some(p) => {
                let table = self.stack.get(p as usize).map_or(0, |o| o.elem);
                self.elements.get(table as usize).map_or(0, |e| e.parent)
            }
            None => self.current_elem(),
        }
    }

    /// Creates an element at the insertion point and pushes it (unless void).
    pub(super) fn insert(
        &mut self,
        tag: Tag,
        class: Range<u32>,
        id: Range<u32>,
        void: bool,
    ) -> ElementId {
        let parent = self.parent_for(tag);
        self.insert_under(parent, tag, class, id, void)
    }

    /// Creates an element under a given parent and pushes it (unless void).
    pub(super) fn insert_under(
        &mut self,
        parent: ElementId,
        tag: Tag,
        class: Range<u32>,
        id: Range<u32>,
        void: bool,
    ) -> ElementId {
        let eid = self.new_element(tag, parent, class, id);
        self.note_split(tag, 1, 0);
        if !void {
            self.push(tag, eid);
        }
        eid
    }

    pub(super) fn insert_implied(&mut self, tag: Tag) -> ElementId {
        self.insert(tag, 0..0, 0..0, false)
    }
}

//! The list of active formatting elements: pushing with Noah's Ark clause, clearing to a
//! marker, reconstruction, and the adoption agency algorithm (which may move blocks already
//! emitted).

use super::*;

impl Tree {
    /// Pushes a formatting element created for the current start tag.
    pub(super) fn afe_push(&mut self, elem: ElementId) {
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

    pub(super) fn afe_clear_to_marker(&mut self) {
        while let Some(a) = self.afe.pop() {
            if a == Afe::Marker {
                break;
            }
        }
    }

    pub(super) fn afe_position(&self, elem: ElementId) -> Option<usize> {
        self.afe.iter().rposition(|a| *a == Afe::Entry(elem))
    }

    /// Reopens formatting elements that were closed implicitly (HTML5 "reconstruct the active
    /// formatting elements").
    pub(super) fn reconstruct(&mut self) {
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
    pub(super) fn adoption_agency(&mut self, tag: Tag) -> bool {
        if let Some(o) = self.stack.last()
            && o.tag == tag
            && self.afe_position(o.elem).is_none()
        {
            self.pop();
            return true;
        }
        for _ in 0..8 {
            let Some((fe_afe, fe)) = self.formatting_entry(tag) else {
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
            let (last, mut bookmark) = self.adoption_inner_loop(fe, fb_pos, common, fe_afe);
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

    /// The last formatting element with `tag` after the last marker: its place in the list of
    /// active formatting elements and its id.
    fn formatting_entry(&self, tag: Tag) -> Option<(usize, ElementId)> {
        for (i, a) in self.afe.iter().enumerate().rev() {
            match *a {
                Afe::Marker => break,
                Afe::Entry(e) if self.elements.get(e as usize).is_some_and(|x| x.tag == tag) => {
                    return Some((i, e));
                }
                Afe::Entry(_) => {}
            }
        }
        None
    }

    /// The adoption agency's inner loop: from the furthest block (at `fb_pos` on the stack)
    /// down to the formatting element `fe`, a node that is no longer a formatting element (or
    /// is one past the third step) leaves the stack, and every other is replaced by a clone
    /// under `common` that takes the node above it as its child. Returns the last node moved
    /// and the bookmark (from `bookmark`, the formatting element's place in the list).
    fn adoption_inner_loop(
        &mut self,
        fe: ElementId,
        fb_pos: usize,
        common: ElementId,
        mut bookmark: usize,
    ) -> (ElementId, usize) {
        let fb = self.stack[fb_pos].elem;
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
        (last, bookmark)
    }

    pub(super) fn set_parent(&mut self, child: ElementId, parent: ElementId) {
        if child != parent
            && let Some(e) = self.elements.get_mut(child as usize)
        {
            e.parent = parent;
        }
    }

    /// Moves every child (element or block) of `from` under `to`, within the re-parenting budget.
    pub(super) fn move_children(&mut self, from: ElementId, to: ElementId) {
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
}

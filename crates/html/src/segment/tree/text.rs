//! Text: where a run of text goes (its parent element, foster parenting, whether it is
//! excluded or part of the title), and the raw-text elements.

use super::*;

impl Tree {
    /// Decides where text goes. `has_text` tells whether it has anything but white space. Returns
    /// `None` for text the tree drops (white space before the body, frameset pages).
    // Inlined into its callers, as `Tree::end`.
    #[inline(always)]
    pub fn text(&mut self, has_text: bool) -> Option<TextTarget> {
        loop {
            match self.phase {
                Phase::Initial => {
                    if !has_text {
                        return None;
                    }
                    self.start_html((0..0, 0..0));
                }
                Phase::BeforeHead => {
                    if !has_text {
                        return None;
                    }
                    let h = self.insert_implied(Tag::HEAD);
                    self.head = Some(h);
                    self.phase = Phase::InHead;
                }
                Phase::InHead => {
                    if self.current_tag() != Some(Tag::HEAD) {
                        return Some(self.target_here());
                    }
                    if !has_text {
                        return None;
                    }
                    self.leave_head();
                }
                Phase::AfterHead => {
                    if self.current_tag().is_some_and(|t| t != Tag::HTML) {
                        return Some(self.target_here());
                    }
                    if !has_text {
                        return None;
                    }
                    self.insert_implied(Tag::BODY);
                    self.phase = Phase::InBody;
                }
                Phase::Frameset => return None,
                Phase::InBody => break,
            }
        }
        let cur = self.current_tag();
        if cur.is_some_and(|t| t.is(Props::EXCLUDED)) || !self.foreign.is_empty() {
            return Some(self.target_here());
        }
        if self.mode_tag() == Some(Tag::SELECT) {
            return Some(self.target_here());
        }
        if cur.is_some_and(|t| t.is(Props::TABLE_CONTEXT)) && !has_text {
            return None;
        }
        self.reconstruct();
        let parent = self.insertion_parent();
        let mut t = self.target_here();
        t.parent = parent;
        Some(t)
    }

    pub(super) fn target_here(&self) -> TextTarget {
        let cur = self.current_tag();
        TextTarget {
            parent: self.current_elem(),
            excluded: self.excluded_depth > 0 || !self.foreign.is_empty(),
            title: cur == Some(Tag::TITLE),
            in_anchor: self.anchor_depth > 0,
            in_pre: self.pre_depth > 0,
        }
    }

    /// A raw-text element (title, textarea, ...) that is the current node, with its element id.
    pub fn open_raw_text(&self) -> Option<(Tag, ElementId)> {
        let o = self.stack.last()?;
        matches!(
            o.tag,
            Tag::TITLE
                | Tag::TEXTAREA
                | Tag::XMP
                | Tag::NOSCRIPT
                | Tag::NOFRAMES
                | Tag::NOEMBED
                | Tag::IFRAME
                | Tag::STYLE
        )
        .then_some((o.tag, o.elem))
    }

    /// Records a new block's parent (so adoption-agency moves can follow it).
    pub fn note_block(&mut self, parent: ElementId) {
        self.block_parents.push(parent);
    }
}

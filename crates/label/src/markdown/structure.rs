//! The structure of a page's tree that Markdown shows: for every element, its kind (heading,
//! list, item, data table, row, cell, pre, blockquote) and its nearest structural ancestor.
//!
//! Computed once a page in a few passes over the elements, parents before children, so a block's
//! structural ancestors are found by following `near` links past every non-structural element.
//! Tables are sorted into data tables (kept as tables) and layout tables (one column, a table
//! nested in a cell, cells holding headings, lists, code or quotes), whose parts are not
//! structural: their text becomes paragraphs.

use victor_features::{Page, Tag};

/// Deepest nesting of structural elements kept; deeper ones render as their parent's text (a
/// page nested thousands of lists deep must not cost thousands of steps a block).
pub(super) const MAX_DEPTH: u8 = 24;

/// What an element is to Markdown.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) enum Kind {
    /// Nothing structural (its text flows in its parent's structure).
    #[default]
    None,
    /// `<blockquote>`.
    Quote,
    /// `<ul>`, `<menu>`, `<dir>` (`ordered: false`) or `<ol>`.
    List { ordered: bool },
    /// `<li>`.
    Item,
    /// A data table.
    Table,
    /// A row of a data table.
    Row,
    /// A cell of a data table.
    Cell,
    /// `<pre>`, `<listing>`, `<xmp>`.
    Pre,
    /// `<h1>`..`<h6>` (the level).
    Heading(u8),
}

impl Kind {
    fn of(tag: Tag) -> Kind {
        match tag {
            Tag::BLOCKQUOTE => Kind::Quote,
            Tag::UL | Tag::MENU | Tag::DIR => Kind::List { ordered: false },
            Tag::OL => Kind::List { ordered: true },
            Tag::LI => Kind::Item,
            Tag::TABLE => Kind::Table,
            Tag::TR => Kind::Row,
            Tag::TD | Tag::TH => Kind::Cell,
            Tag::PRE | Tag::LISTING | Tag::XMP => Kind::Pre,
            t if t.is_heading() => Kind::Heading((t.0 - Tag::H1.0 + 1).clamp(1, 6) as u8),
            _ => Kind::None,
        }
    }
}

/// One element's structure.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Info {
    /// Its kind.
    pub kind: Kind,
    /// Its nearest structural ancestor (0: none).
    pub near: u32,
    /// Item: its number in its list (from 1). Cell: its column (from 1). Table: its columns.
    pub ord: u32,
    /// Row and cell: their table. Scratch for the passes otherwise.
    tab: u32,
    /// Structural elements from the root down to it (itself included).
    depth: u8,
    /// Table: a layout table.
    layout: bool,
}

/// The structure of a page's elements (see the module docs).
#[derive(Debug, Default)]
pub(super) struct Structure {
    /// One a element, by id.
    pub info: Vec<Info>,
}

impl Structure {
    /// Computes the structure of `page`'s elements: O(elements).
    pub(super) fn new(page: &Page) -> Structure {
        let order = parents_first(page);
        let mut info = vec![Info::default(); page.elements.len()];
        kinds(page, &order, &mut info);
        place_parts(&order, &mut info);
        settle(page, &order, &mut info);
        Structure { info }
    }

    /// The kind of an element.
    #[inline]
    pub(super) fn kind(&self, e: u32) -> Kind {
        self.info.get(e as usize).map_or(Kind::None, |i| i.kind)
    }

    /// Makes an element not structural (its text flows in its parent's structure).
    pub(super) fn demote(&mut self, e: u32) {
        if let Some(i) = self.info.get_mut(e as usize) {
            i.kind = Kind::None;
        }
    }

    /// The `ord` of an element (see [`Info::ord`]).
    #[inline]
    pub(super) fn ord(&self, e: u32) -> u32 {
        self.info.get(e as usize).map_or(0, |i| i.ord)
    }

    /// The structural elements around an element (itself included), outermost first, into
    /// `chain`; a heading, cell or pre ends the chain (their content is text), and a heading
    /// inside a list item or a cell is not one (its text joins the item's line or the cell).
    pub(super) fn chain(&self, from: u32, chain: &mut Vec<u32>) {
        chain.clear();
        let mut e = if self.kind(from) != Kind::None {
            from
        } else {
            self.info.get(from as usize).map_or(0, |i| i.near)
        };
        while e != 0 && chain.len() <= MAX_DEPTH as usize {
            if self.kind(e) != Kind::None {
                chain.push(e);
            }
            e = self.info.get(e as usize).map_or(0, |i| i.near);
        }
        chain.reverse();
        let mut in_item = false;
        for (k, &e) in chain.iter().enumerate() {
            match self.kind(e) {
                Kind::Item | Kind::Cell => in_item = true,
                Kind::Heading(_) if in_item => {
                    chain.truncate(k);
                    return;
                }
                _ => {}
            }
            if matches!(self.kind(e), Kind::Cell | Kind::Pre | Kind::Heading(_)) {
                chain.truncate(k + 1);
                return;
            }
        }
    }
}

/// The parent of element `e` of `page` (0, the root, for the root itself or a parent out of
/// range).
fn parent_of(page: &Page, e: usize) -> usize {
    let n = page.elements.len();
    let p = page.elements.get(e).map_or(0, |el| el.parent as usize);
    if p < n && p != e { p } else { 0 }
}

/// Pass 1 of [`Structure::new`]: kinds from tags, nearest structural ancestor.
fn kinds(page: &Page, order: &[u32], info: &mut [Info]) {
    for &e in order {
        let e = e as usize;
        if e == 0 {
            continue;
        }
        let p = parent_of(page, e);
        let kind = Kind::of(page.element(e as u32).tag);
        let near = match info.get(p) {
            Some(pi) if pi.kind != Kind::None => p as u32,
            Some(pi) => pi.near,
            None => 0,
        };
        if let Some(i) = info.get_mut(e) {
            i.kind = kind;
            i.near = near;
        }
    }
}

/// Pass 2 of [`Structure::new`]: rows and cells find their tables, items their numbers, cells
/// their columns; tables with blocks in their cells are layout tables.
fn place_parts(order: &[u32], info: &mut [Info]) {
    for &e in order {
        let e = e as usize;
        let Some(&me) = info.get(e) else { continue };
        let near = me.near as usize;
        let near_kind = info.get(near).map_or(Kind::None, |i| i.kind);
        match me.kind {
            Kind::Row => {
                let tab = if near_kind == Kind::Table {
                    near as u32
                } else {
                    0
                };
                set(info, e, |i| {
                    i.tab = tab;
                    if tab == 0 {
                        i.kind = Kind::None;
                    }
                });
            }
            Kind::Cell => {
                let tab = if near_kind == Kind::Row {
                    info.get(near).map_or(0, |r| r.tab)
                } else {
                    0
                };
                if tab == 0 {
                    set(info, e, |i| i.kind = Kind::None);
                    continue;
                }
                // The row counts its cells in `ord` until its own `ord` is needed (never).
                let mut col = 0;
                set(info, near, |r| {
                    r.ord += 1;
                    col = r.ord;
                });
                set(info, tab as usize, |t| t.ord = t.ord.max(col));
                set(info, e, |i| {
                    i.tab = tab;
                    i.ord = col;
                });
            }
            Kind::Item => {
                if let Kind::List { .. } = near_kind {
                    let mut ord = 0;
                    set(info, near, |l| {
                        l.tab += 1;
                        ord = l.tab;
                    });
                    set(info, e, |i| i.ord = ord);
                } else {
                    set(info, e, |i| i.ord = 1);
                }
            }
            _ => {}
        }
        if me.kind == Kind::Table && near_kind == Kind::Cell {
            let tab = info.get(near).map_or(0, |c| c.tab) as usize;
            set(info, tab, |t| t.layout = true);
        }
    }
}

/// Pass 3 of [`Structure::new`]: the parts of layout tables are not structural; nesting is
/// capped.
fn settle(page: &Page, order: &[u32], info: &mut [Info]) {
    for &e in order {
        let e = e as usize;
        if e == 0 {
            continue;
        }
        let Some(&me) = info.get(e) else { continue };
        let table = match me.kind {
            Kind::Table => Some(e),
            Kind::Row | Kind::Cell => Some(me.tab as usize),
            _ => None,
        };
        let mut kind = me.kind;
        if let Some(t) = table
            && info.get(t).is_none_or(|t| t.layout || t.ord <= 1)
        {
            kind = Kind::None;
        }
        let p = parent_of(page, e);
        let (pk, pnear, pdepth) = info
            .get(p)
            .map_or((Kind::None, 0, 0), |i| (i.kind, i.near, i.depth));
        if pdepth >= MAX_DEPTH {
            kind = Kind::None;
        }
        let near = if pk != Kind::None { p as u32 } else { pnear };
        let depth = pdepth + u8::from(kind != Kind::None);
        set(info, e, |i| {
            i.near = near;
            i.depth = depth;
            if i.kind == Kind::Table {
                // Data tables keep their columns in `ord`; write the final kind last.
                i.layout |= kind == Kind::None;
            }
            i.kind = kind;
        });
    }
}

fn set(info: &mut [Info], e: usize, f: impl FnOnce(&mut Info)) {
    if let Some(i) = info.get_mut(e) {
        f(i);
    }
}

/// The page's element ids ordered so that every parent comes before its children (parents are
/// usually created first, but the adoption agency moves elements under later ones).
fn parents_first(page: &Page) -> Vec<u32> {
    let n = page.elements.len();
    let mut seen = vec![false; n];
    let mut order = Vec::with_capacity(n);
    let mut path = Vec::new();
    if n > 0 {
        seen[0] = true;
        order.push(0);
    }
    for e in 1..n {
        let mut x = e;
        while x < n && !seen[x] {
            seen[x] = true;
            path.push(x as u32);
            let p = page.elements[x].parent as usize;
            x = if p == x { 0 } else { p };
        }
        order.extend(path.drain(..).rev());
    }
    order
}

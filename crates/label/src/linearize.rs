//! Kitten's treatment of lists and tables in the text output (seed `003`, section 3;
//! `victor label --format text --linearize`).
//!
//! The kept text is first cut into lines as [`crate::render_text`] cuts it, then:
//!
//! - lists (3.2): only one-level lists (`ul`, `ol`, `dl` without a list inside or around
//!   them). A list made only of links drops its items of fewer than five words (3.2.1). A list
//!   whose introductory clause (the line before it) ends with a colon is flattened (3.2.3): when
//!   the median length of its non-empty items is under 60 characters, the clause and the items
//!   become one sentence, a comma after each item that does not end with `.`, `?`, `!`, `;` or
//!   `,`, and a full stop at the end; otherwise each item becomes a sentence, a missing full stop
//!   added and a trailing `:`, `,` or `;` replaced by one;
//! - tables (3.1): a leaf table (no table inside) with header cells (`th`) in its first row or
//!   first column is a data table; each of its rows is written as one sentence of `header:
//!   value` pairs separated by ` / ` (`column ; row: value` where a cell has both headers),
//!   after its caption and `;;` (Kitten's pattern `thema ;; (header ; header: data /)+ .`). The
//!   seed's decision trees for data tables and cell types are replaced by these two markup
//!   rules. Other tables are written as usual;
//! - `<abbr>` and `<acronym>`: the `title` follows in parentheses (3.3);
//! - a header line without an end mark gets a full stop before the next line (3.3).

use rustc_hash::FxHashMap;
use victor_core::Label;
use victor_features::Page;
use victor_features::Tag;

use crate::text::{Line, marker, render_text, text_lines};
use victor_features::within::ItemAt;

/// The structure every element belongs to, found in one pass over the elements from the root.
#[derive(Clone, Copy, Debug, Default)]
struct Place {
    /// Nearest list element (`ul`, `ol`, `dl`), 0 for none.
    list: u32,
    /// Nearest list item (`li`, `dt`, `dd`), 0 for none.
    item: u32,
    /// Nearest table, 0 for none.
    table: u32,
    /// Nearest row, 0 for none.
    row: u32,
    /// Nearest cell (`td`, `th`), 0 for none.
    cell: u32,
    /// Inside a `caption`.
    caption: bool,
}

fn is_list(t: Tag) -> bool {
    t == Tag::UL || t == Tag::OL || t == Tag::DL
}

fn places(page: &Page) -> (Vec<Place>, Vec<bool>) {
    let n = page.elements.len();
    let mut p = vec![Place::default(); n];
    // Lists and tables with another of their kind inside or around them.
    let mut nested = vec![false; n];
    for e in victor_features::top_down(page) {
        let el = page.element(e);
        // Every element's parent is an element (the root is its own).
        let up = p.item_at(el.parent as usize);
        let mut me = up;
        let t = el.tag;
        if is_list(t) {
            if up.list != 0 {
                nested[up.list as usize] = true;
                nested[e as usize] = true;
            }
            me.list = e;
            me.item = 0;
        } else if t == Tag::LI || t == Tag::DT || t == Tag::DD {
            me.item = e;
        } else if t == Tag::TABLE {
            if up.table != 0 {
                nested[up.table as usize] = true;
            }
            me = Place {
                table: e,
                ..Place::default()
            };
            me.list = up.list;
            me.item = up.item;
        } else if t == Tag::TR {
            me.row = e;
            me.cell = 0;
        } else if t == Tag::TD || t == Tag::TH {
            me.cell = e;
        } else if t == Tag::CAPTION {
            me.caption = true;
        }
        if let Some(slot) = p.get_mut(e as usize) {
            *slot = me;
        }
    }
    (p, nested)
}

fn ends_with_any(s: &str, marks: &[char]) -> bool {
    s.trim_end()
        .chars()
        .last()
        .is_some_and(|c| marks.contains(&c))
}

/// The median of the lengths (characters) of the non-empty items.
fn median_len(items: &[String]) -> usize {
    let mut lens: Vec<usize> = items
        .iter()
        .filter(|i| !i.trim().is_empty())
        .map(|i| i.chars().count())
        .collect();
    lens.sort_unstable();
    lens.get(lens.len() / 2).copied().unwrap_or(0)
}

/// A run of lines that belong to one list or table.
enum Group {
    /// An ordinary line.
    Plain(Line),
    /// A one-level list: its items' text, and whether all its kept blocks are links.
    List {
        items: Vec<String>,
        links_only: bool,
        first: usize,
    },
    /// A data table: its rows as sentences.
    Table { rows: Vec<String>, first: usize },
}

/// The rows of a table, each with its cells (element id, is a `th`), in document order.
type Rows = Vec<(u32, Vec<(u32, bool)>)>;

/// The rows and cells of every table, and the text of every cell, in one pass over the
/// elements and one over the blocks.
fn tables(page: &Page, place: &[Place]) -> (FxHashMap<u32, Rows>, FxHashMap<u32, String>) {
    let mut rows: FxHashMap<u32, Rows> = FxHashMap::default();
    for (e, el) in page.elements.iter().enumerate() {
        let pl = place[e];
        if pl.table == 0 {
            continue;
        }
        if el.tag == Tag::TR {
            rows.entry(pl.table)
                .or_default()
                .push((e as u32, Vec::new()));
        } else if (el.tag == Tag::TD || el.tag == Tag::TH)
            && let Some(r) = rows
                .get_mut(&pl.table)
                .and_then(|t| t.iter_mut().rev().find(|r| r.0 == pl.row))
        {
            r.1.push((e as u32, el.tag == Tag::TH));
        }
    }
    let mut texts: FxHashMap<u32, String> = FxHashMap::default();
    for b in &page.blocks {
        let cell = place.get(b.parent as usize).map_or(0, |p| p.cell);
        if cell == 0 {
            continue;
        }
        let s = texts.entry(cell).or_default();
        if !s.is_empty() && b.space_before {
            s.push(' ');
        }
        s.push_str(page.block_text(b));
    }
    (rows, texts)
}

/// One data table as sentences, or `None` when it is a layout table. `blocks` are the table's
/// blocks from its first kept one on.
fn table_rows(
    page: &Page,
    labels: &[Label],
    place: &[Place],
    rows: &Rows,
    texts: &FxHashMap<u32, String>,
    blocks: &[usize],
) -> Option<Vec<String>> {
    let head_row = rows
        .first()
        .is_some_and(|r| r.1.len() >= 2 && r.1.iter().all(|c| c.1));
    let head_col = rows
        .iter()
        .skip(usize::from(head_row))
        .all(|r| r.1.first().is_some_and(|c| c.1));
    if rows.len() < 2 || !(head_row || head_col) {
        return None;
    }
    let text = |cell: u32| texts.get(&cell).map_or("", |t| t.trim());
    let mut kept_cells: Vec<u32> = Vec::new();
    let mut caption = String::new();
    for &i in blocks {
        let Some(b) = page.blocks.get(i) else {
            continue;
        };
        let pl = place.item_at(b.parent as usize);
        if !labels.get(i).is_some_and(|l| l.is_content()) {
            continue;
        }
        if pl.caption {
            if !caption.is_empty() {
                caption.push(' ');
            }
            caption.push_str(page.block_text(b));
        } else if pl.cell != 0 && kept_cells.last() != Some(&pl.cell) {
            kept_cells.push(pl.cell);
        }
    }
    kept_cells.sort_unstable();
    let headers: Vec<&str> = if head_row {
        rows[0].1.iter().map(|c| text(c.0)).collect()
    } else {
        Vec::new()
    };
    let mut out = Vec::new();
    for (_, cells) in rows.iter().skip(usize::from(head_row)) {
        let row_head = if head_col {
            cells.first().map(|c| text(c.0)).filter(|t| !t.is_empty())
        } else {
            None
        };
        let mut pairs = Vec::new();
        for (j, (cell, _)) in cells.iter().enumerate().skip(usize::from(head_col)) {
            let v = text(*cell);
            if v.is_empty() || kept_cells.binary_search(cell).is_err() {
                continue;
            }
            let col = headers.get(j).copied().filter(|h| !h.is_empty());
            pairs.push(match (col, row_head) {
                (Some(c), Some(r)) => format!("{c} ; {r}: {v}"),
                (Some(h), None) | (None, Some(h)) => format!("{h}: {v}"),
                (None, None) => v.to_string(),
            });
        }
        if pairs.is_empty() {
            continue;
        }
        let mut s = String::new();
        if !caption.is_empty() {
            s.push_str(&caption);
            s.push_str(" ;; ");
        }
        s.push_str(&pairs.join(" / "));
        s.push('.');
        out.push(s);
    }
    Some(out)
}

/// Options of [`render_text_with`].
#[derive(Clone, Copy, Debug, Default)]
pub struct TextOptions<'a> {
    /// Start each line with CleanEval's `<h>`, `<p>` or `<l>`.
    pub markers: bool,
    /// Write lists and data tables as Kitten does (this module); the decoded document
    /// the page was segmented from (for the titles of `<abbr>` and `<acronym>`).
    pub linearize: Option<&'a str>,
}

/// Appends the kept text of a page to `out` as [`render_text`] does, or linearized as
/// this module describes.
pub fn render_text_with(page: &Page, labels: &[Label], opts: TextOptions<'_>, out: &mut String) {
    match opts.linearize {
        None => render_text(page, labels, opts.markers, out),
        Some(doc) => {
            let lines = text_lines(page, labels, Some(doc));
            linearize(page, labels, lines, opts.markers, out);
        }
    }
}

/// Writes the lines, linearized (see the module docs), to `out`.
pub(crate) fn linearize(
    page: &Page,
    labels: &[Label],
    lines: Vec<Line>,
    markers: bool,
    out: &mut String,
) {
    let groups = group_lines(page, labels, lines);
    let written = paragraphs(groups);
    let n = written.len();
    for (x, (text, first, label)) in written.into_iter().enumerate() {
        if markers && let Some(b) = page.blocks.get(first) {
            out.push_str(marker(page, b, label));
        }
        out.push_str(&text);
        if label == Label::Header && x + 1 < n && !ends_with_any(&text, &['.', '?', '!', ':', ';'])
        {
            out.push('.');
        }
        out.push('\n');
    }
}

/// The lines grouped: the lines of a leaf data table become its rows, those of a one-level
/// list its items; every other line stands alone.
fn group_lines(page: &Page, labels: &[Label], lines: Vec<Line>) -> Vec<Group> {
    let (place, nested) = places(page);
    let (table_structure, cell_texts) = tables(page, &place);
    let place_of = |block: usize| {
        page.blocks
            .get(block)
            .map(|b| place.item_at(b.parent as usize))
            // A block index past the page (none is asked for) has no place.
            .unwrap_or_default()
    };
    let mut groups: Vec<Group> = Vec::new();
    let mut k = 0;
    while k < lines.len() {
        let pl = place_of(lines[k].first);
        // A leaf data table: all its lines together.
        if pl.table != 0 && !nested[pl.table as usize] {
            let mut j = k;
            while j < lines.len() && place_of(lines[j].first).table == pl.table {
                j += 1;
            }
            let blocks: Vec<usize> =
                (lines[k].first..lines.get(j).map_or(page.blocks.len(), |l| l.first)).collect();
            let rows = table_structure
                .get(&pl.table)
                .and_then(|t| table_rows(page, labels, &place, t, &cell_texts, &blocks));
            if let Some(rows) = rows {
                groups.push(Group::Table {
                    rows,
                    first: lines[k].first,
                });
                k = j;
                continue;
            }
        }
        // A one-level list: its lines grouped by item.
        if pl.list != 0 && !nested[pl.list as usize] {
            let mut items: Vec<(u32, String)> = Vec::new();
            let mut j = k;
            let mut links_only = true;
            while j < lines.len() && place_of(lines[j].first).list == pl.list {
                let it = place_of(lines[j].first).item;
                match items.last_mut() {
                    Some((id, text)) if *id == it => {
                        text.push(' ');
                        text.push_str(&lines[j].text);
                    }
                    _ => items.push((it, lines[j].text.clone())),
                }
                j += 1;
            }
            let end = lines.get(j).map_or(page.blocks.len(), |l| l.first);
            for i in lines[k].first..end {
                if labels.get(i).is_some_and(|l| l.is_content())
                    && place_of(i).list == pl.list
                    && page.blocks.get(i).is_some_and(|b| !b.in_anchor)
                {
                    links_only = false;
                }
            }
            groups.push(Group::List {
                items: items.into_iter().map(|(_, t)| t).collect(),
                links_only,
                first: lines[k].first,
            });
            k = j;
            continue;
        }
        groups.push(Group::Plain(lines[k].clone()));
        k += 1;
    }
    groups
}

/// The groups as paragraphs (text, first block, label), a line each: a table's rows, a list's
/// items (joined to a short introduction ending in `:` when the items are short, as
/// sentences after a longer one; items of a list of links alone kept only when long).
fn paragraphs(groups: Vec<Group>) -> Vec<(String, usize, Label)> {
    let mut written: Vec<(String, usize, Label)> = Vec::new();
    for g in groups {
        match g {
            Group::Plain(l) => written.push((l.text, l.first, l.label)),
            Group::Table { rows, first } => {
                written.extend(rows.into_iter().map(|r| (r, first, Label::Text)));
            }
            Group::List {
                mut items,
                links_only,
                first,
            } => {
                if links_only {
                    items.retain(|i| i.split_whitespace().count() >= 5);
                }
                items.retain(|i| !i.trim().is_empty());
                if items.is_empty() {
                    continue;
                }
                let intro = written
                    .last_mut()
                    .filter(|(t, _, _)| t.trim_end().ends_with(':'));
                match intro {
                    Some((t, _, _)) if median_len(&items) < 60 => {
                        let n = items.len();
                        for (x, item) in items.iter().enumerate() {
                            t.push(' ');
                            t.push_str(item.trim_end());
                            if x + 1 < n {
                                if !ends_with_any(item, &['.', '?', '!', ';', ',']) {
                                    t.push(',');
                                }
                            } else if !ends_with_any(item, &['.', '?', '!']) {
                                t.push('.');
                            }
                        }
                    }
                    Some(_) => {
                        for item in items {
                            written.push((full_stop(&item), first, Label::Text));
                        }
                    }
                    None => written.extend(items.into_iter().map(|i| (i, first, Label::Text))),
                }
            }
        }
    }
    written
}

/// An item as a sentence: a trailing `:`, `,` or `;` becomes a full stop, and a full stop is
/// added where no end mark (`.`, `?`, `!`, a closing bracket or a dash) ends it.
fn full_stop(item: &str) -> String {
    let t = item.trim_end().trim_end_matches([':', ',', ';']);
    let mut s = t.to_string();
    if !ends_with_any(t, &['.', '?', '!', ')', ']', '-', '–', '—']) {
        s.push('.');
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lin(html: &str) -> String {
        let page = victor_features::segment(html).expect("segment");
        let labels: Vec<Label> = page
            .blocks
            .iter()
            .map(|b| {
                if page.ancestors(b.parent).any(|(_, e)| e.tag.is_heading()) {
                    Label::Header
                } else {
                    Label::Text
                }
            })
            .collect();
        let mut out = String::new();
        render_text_with(
            &page,
            &labels,
            TextOptions {
                markers: false,
                linearize: Some(html),
            },
            &mut out,
        );
        out
    }

    #[test]
    fn short_items_after_a_colon_are_one_sentence() {
        assert_eq!(
            lin("<p>Things to bring:</p><ul><li>a tent</li><li>a lamp;</li><li>water</li></ul>"),
            "Things to bring: a tent, a lamp; water.\n"
        );
    }

    #[test]
    fn long_items_after_a_colon_are_sentences() {
        let long =
            "an item that is long enough to be a sentence of its own, more than sixty characters";
        assert_eq!(
            lin(&format!(
                "<p>Steps:</p><ol><li>{long}:</li><li>{long}.</li></ol>"
            )),
            format!("Steps:\n{long}.\n{long}.\n")
        );
    }

    #[test]
    fn lists_without_a_colon_stay_lines_and_link_lists_lose_short_items() {
        assert_eq!(
            lin("<p>Menu</p><ul><li>one</li><li>two</li></ul>"),
            "Menu\none\ntwo\n"
        );
        assert_eq!(
            lin(
                "<ul><li><a href=/>Home</a></li><li><a href=/x>A story about the long winter</a></li></ul>"
            ),
            "A story about the long winter\n"
        );
        // Nested lists are written as usual.
        assert_eq!(
            lin("<p>Intro:</p><ul><li>a<ul><li>b</li></ul></li></ul>"),
            "Intro:\na\nb\n"
        );
    }

    #[test]
    fn data_tables_are_written_row_by_row() {
        let html = "<table><caption>Dimensions</caption><tr><th></th><th>DS Lite</th><th>PSP</th></tr>\
                    <tr><th>Length</th><td>133.0mm</td><td>170.0mm</td></tr>\
                    <tr><th>Weight</th><td>218g</td><td>260g</td></tr></table>";
        assert_eq!(
            lin(html),
            "Dimensions ;; DS Lite ; Length: 133.0mm / PSP ; Length: 170.0mm.\n\
             Dimensions ;; DS Lite ; Weight: 218g / PSP ; Weight: 260g.\n"
        );
        let header_row =
            "<table><tr><th>Name</th><th>Age</th></tr><tr><td>Ann</td><td>31</td></tr></table>";
        assert_eq!(lin(header_row), "Name: Ann / Age: 31.\n");
        // No header cells: a layout table, written as usual.
        assert_eq!(
            lin("<table><tr><td>a</td><td>b</td></tr><tr><td>c</td></tr></table>"),
            "a\nb\nc\n"
        );
    }

    #[test]
    fn abbreviations_get_their_titles_and_headers_a_full_stop() {
        assert_eq!(
            lin(
                "<h2>Arts in NSW</h2><p>Arts in <abbr title=\"New South Wales\">NSW</abbr> grow.</p>"
            ),
            "Arts in NSW.\nArts in NSW (New South Wales) grow.\n"
        );
    }
}

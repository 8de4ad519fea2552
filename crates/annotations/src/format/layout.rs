//! The JSON layouts of victor's files: readable and diff-friendly without being long.
//!
//! Containers down to some depth are expanded, one element a line, indented two spaces a level;
//! deeper ones are written on one line. A page's labels file ([`JsonLayout::LABELS`]) expands
//! the top-level object and the arrays directly inside it, so it reads like a table, one
//! labelled block per line, and a changed label is a one-line diff; a bundle's `victor.json`
//! ([`JsonLayout::BUNDLE`]) expands four levels, so a boosted forest takes a line per tree.

use std::io;

use serde::Serialize;
use serde_json::ser::{Formatter, Serializer};

/// Serializes `value` in the label-file layout, ending with a newline.
pub(crate) fn to_string<T: Serialize>(value: &T) -> Result<String, serde_json::Error> {
    let mut s = JsonLayout::LABELS.to_string(value)?;
    s.push('\n');
    Ok(s)
}

/// A JSON layout: which containers are expanded, and the separators of the others.
#[derive(Clone, Copy, Debug)]
pub struct JsonLayout {
    /// Whether a container opened at `depth` (0: the top level) is expanded; `array` tells
    /// arrays from objects.
    pub expand: fn(depth: usize, array: bool) -> bool,
    /// Between the elements of a compact container.
    pub comma: &'static str,
    /// Between a key and its value in a compact object.
    pub colon: &'static str,
}

impl JsonLayout {
    /// Label files: the top-level object and the arrays it holds expanded; compact parts
    /// spaced (`{"block": 1, "label": "text"}`).
    pub const LABELS: JsonLayout = JsonLayout {
        expand: |depth, array| depth == 0 || (array && depth == 1),
        comma: ", ",
        colon: ": ",
    };

    /// Bundle descriptions (`victor.json`): four levels expanded, `serde_json::to_string_pretty`
    /// style; compact parts unspaced.
    pub const BUNDLE: JsonLayout = JsonLayout {
        expand: |depth, _| depth < 4,
        comma: ",",
        colon: ":",
    };

    /// Serializes `value` in this layout (no newline at the end).
    ///
    /// # Errors
    ///
    /// When `value`'s `Serialize` implementation fails.
    pub fn to_string<T: Serialize>(self, value: &T) -> Result<String, serde_json::Error> {
        let mut out = Vec::with_capacity(1024);
        let mut ser = Serializer::with_formatter(
            &mut out,
            LayoutFormatter {
                layout: self,
                open: Vec::new(),
                has_value: false,
            },
        );
        value.serialize(&mut ser)?;
        // serde_json writes valid UTF-8 only.
        String::from_utf8(out).map_err(|e| serde_json::Error::io(io::Error::other(e)))
    }
}

/// The formatter of a [`JsonLayout`].
#[derive(Debug)]
struct LayoutFormatter {
    layout: JsonLayout,
    /// For each open container, whether it is expanded (one element a line).
    open: Vec<bool>,
    /// Whether the innermost open container has an element yet.
    has_value: bool,
}

impl LayoutFormatter {
    fn begin<W: ?Sized + io::Write>(&mut self, w: &mut W, array: bool) -> io::Result<()> {
        self.open.push((self.layout.expand)(self.open.len(), array));
        self.has_value = false;
        w.write_all(if array { b"[" } else { b"{" })
    }

    fn end<W: ?Sized + io::Write>(&mut self, w: &mut W, array: bool) -> io::Result<()> {
        let expand = self.open.pop().unwrap_or(false);
        if expand && self.has_value {
            self.newline(w)?;
        }
        w.write_all(if array { b"]" } else { b"}" })
    }

    fn expanded(&self) -> bool {
        self.open.last().copied().unwrap_or(false)
    }

    fn element<W: ?Sized + io::Write>(&mut self, w: &mut W, first: bool) -> io::Result<()> {
        match (first, self.expanded()) {
            (true, false) => Ok(()),
            (false, false) => w.write_all(self.layout.comma.as_bytes()),
            (true, true) => self.newline(w),
            (false, true) => {
                w.write_all(b",")?;
                self.newline(w)
            }
        }
    }

    fn newline<W: ?Sized + io::Write>(&self, w: &mut W) -> io::Result<()> {
        w.write_all(b"\n")?;
        for _ in 0..self.open.len() {
            w.write_all(b"  ")?;
        }
        Ok(())
    }
}

impl Formatter for LayoutFormatter {
    fn begin_array<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.begin(w, true)
    }

    fn end_array<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.end(w, true)
    }

    fn begin_array_value<W: ?Sized + io::Write>(
        &mut self,
        w: &mut W,
        first: bool,
    ) -> io::Result<()> {
        self.element(w, first)
    }

    fn end_array_value<W: ?Sized + io::Write>(&mut self, _w: &mut W) -> io::Result<()> {
        self.has_value = true;
        Ok(())
    }

    fn begin_object<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.begin(w, false)
    }

    fn end_object<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.end(w, false)
    }

    fn begin_object_key<W: ?Sized + io::Write>(
        &mut self,
        w: &mut W,
        first: bool,
    ) -> io::Result<()> {
        self.element(w, first)
    }

    fn begin_object_value<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        w.write_all(if self.expanded() {
            b": "
        } else {
            self.layout.colon.as_bytes()
        })
    }

    fn end_object_value<W: ?Sized + io::Write>(&mut self, _w: &mut W) -> io::Result<()> {
        self.has_value = true;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn expands_top_level_and_its_arrays_only() {
        let v = serde_json::json!({
            "id": "a",
            "page": {"blocks": 3, "list": [1, 2]},
            "labels": [{"block": 1, "label": "text"}, {"block": 2, "label": "header"}],
            "empty": [],
            "none": {}
        });
        let s = to_string(&v).unwrap();
        let expected = "{\n  \"empty\": [],\n  \"id\": \"a\",\n  \"labels\": [\n    \
             {\"block\": 1, \"label\": \"text\"},\n    {\"block\": 2, \"label\": \"header\"}\n  ],\n  \
             \"none\": {},\n  \"page\": {\"blocks\": 3, \"list\": [1, 2]}\n}\n";
        assert_eq!(s, expected);
        let back: serde_json::Value = serde_json::from_str(&s).unwrap();
        assert_eq!(back, v);
    }
}

//! The JSON layout of label files: readable and diff-friendly without being long.
//!
//! The top-level object has one field a line; arrays directly inside it (the labels) have one
//! element a line; everything deeper is written compactly. A page's labels file then reads
//! like a table, one labelled block per line, and a changed label is a one-line diff.

use std::io;

use serde::Serialize;
use serde_json::ser::{Formatter, Serializer};

/// Serializes `value` in the label-file layout, ending with a newline.
pub(crate) fn to_string<T: Serialize>(value: &T) -> Result<String, serde_json::Error> {
    let mut out = Vec::with_capacity(1024);
    let mut ser = Serializer::with_formatter(&mut out, LayoutFormatter::default());
    value.serialize(&mut ser)?;
    out.push(b'\n');
    // serde_json writes valid UTF-8 only.
    String::from_utf8(out).map_err(|e| serde_json::Error::io(io::Error::other(e)))
}

/// A formatter that expands the top-level object and the arrays it holds, nothing deeper.
#[derive(Debug, Default)]
struct LayoutFormatter {
    /// For each open container, whether it is expanded (one element a line).
    open: Vec<bool>,
    /// Whether the innermost open container has an element yet.
    has_value: bool,
}

impl LayoutFormatter {
    fn begin<W: ?Sized + io::Write>(&mut self, w: &mut W, array: bool) -> io::Result<()> {
        let depth = self.open.len();
        let expand = depth == 0 || (array && depth == 1);
        self.open.push(expand);
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

    fn element<W: ?Sized + io::Write>(&mut self, w: &mut W, first: bool) -> io::Result<()> {
        let expanded = self.open.last().copied().unwrap_or(false);
        match (first, expanded) {
            (true, false) => Ok(()),
            (false, false) => w.write_all(b", "),
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
        w.write_all(b": ")
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

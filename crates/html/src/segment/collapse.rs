//! White space as the segmenter collapses it in block text.

#[inline]
pub(super) fn is_html_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r' | b'\x0c')
}

/// Appends `s` to `out` with white space collapsed and trimmed, control and zero-width characters
/// dropped. Returns whether `s` had leading and trailing white space.
pub(super) fn collapse_into(s: &str, out: &mut String) -> (bool, bool) {
    let mut st = Collapse::default();
    let bytes = s.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        // Fast path: a run of printable ASCII, single spaces between its words included (what
        // `Collapse::push` would write for them is the same bytes), is copied as one slice.
        let rest = bytes.get(i..).unwrap_or_default();
        let printable = |k: usize| rest.get(k).is_some_and(|b| (0x21..=0x7e).contains(b));
        let mut run = 0;
        loop {
            if printable(run) {
                run += 1;
            } else if run > 0 && rest.get(run) == Some(&b' ') && printable(run + 1) {
                run += 2;
            } else {
                break;
            }
        }
        if run > 0 {
            st.start_visible(out);
            out.push_str(&s[i..i + run]);
            i += run;
            continue;
        }
        // Anything else, one character at a time.
        let Some(c) = s[i..].chars().next() else {
            break;
        };
        i += c.len_utf8();
        st.push(c, out);
    }
    st.ends()
}

/// [`collapse_into`] character by character, without its fast path (what the tests compare it
/// with).
#[cfg(test)]
pub(super) fn collapse_chars(s: &str, out: &mut String) -> (bool, bool) {
    let mut st = Collapse::default();
    for c in s.chars() {
        st.push(c, out);
    }
    st.ends()
}

/// Where collapsing stands: white space seen before anything visible, white space pending, and
/// whether anything visible was written.
#[derive(Default)]
struct Collapse {
    lead: bool,
    in_space: bool,
    any: bool,
}

impl Collapse {
    /// Writes one character: white space is held back as one pending space, control and
    /// zero-width characters are dropped.
    #[inline]
    fn push(&mut self, c: char, out: &mut String) {
        if c.is_whitespace() {
            self.lead |= !self.any;
            self.in_space = true;
            return;
        }
        if c.is_control() || matches!(c, '\u{200b}' | '\u{feff}' | '\u{ad}') {
            return;
        }
        self.start_visible(out);
        out.push(c);
    }

    /// Before visible text: the pending space, if any text came before it.
    #[inline]
    fn start_visible(&mut self, out: &mut String) {
        if self.in_space && self.any {
            out.push(' ');
        }
        self.in_space = false;
        self.any = true;
    }

    /// Whether the text had leading and trailing white space (an all-space text has both).
    fn ends(&self) -> (bool, bool) {
        (self.lead, self.in_space || (!self.any && self.lead))
    }
}

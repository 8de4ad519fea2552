//! White space as the segmenter collapses it in block text.

#[inline]
pub(super) fn is_html_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r' | b'\x0c')
}

/// Appends `s` to `out` with white space collapsed and trimmed, control and zero-width characters
/// dropped. Returns whether `s` had leading and trailing white space.
pub(super) fn collapse_into(s: &str, out: &mut String) -> (bool, bool) {
    let mut lead = false;
    let mut in_space = false;
    let mut any = false;
    let bytes = s.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        // Fast path: a run of printable ASCII, single spaces between its words included (what
        // the loop below would write for them is the same bytes), is copied as one slice.
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
            if in_space && any {
                out.push(' ');
            }
            in_space = false;
            any = true;
            out.push_str(&s[i..i + run]);
            i += run;
            continue;
        }
        // Anything else, one character at a time.
        let Some(c) = s[i..].chars().next() else {
            break;
        };
        i += c.len_utf8();
        if c.is_whitespace() {
            if !any {
                lead = true;
            }
            in_space = true;
            continue;
        }
        if c.is_control() || matches!(c, '\u{200b}' | '\u{feff}' | '\u{ad}') {
            continue;
        }
        if in_space && any {
            out.push(' ');
        }
        in_space = false;
        any = true;
        out.push(c);
    }
    (lead, in_space || (!any && lead))
}

//! The corpus wrapper the segmenter skips (its module docs, "Corpus wrappers"), blanked out so
//! that an oracle parser (html5ever) sees the page victor reads.

/// `html` with a corpus wrapper's start tag replaced by spaces (offsets stay the same): the
/// first tag opens an element HTML does not know, and the document ends with its end tag. The
/// tag's attributes are quoted and may hold `>` (a title with markup).
pub fn without_wrapper(html: &str) -> String {
    let t = html.trim_start_matches(|c: char| c.is_whitespace() || c == '\u{feff}');
    let Some(rest) = t.strip_prefix('<') else {
        return html.to_string();
    };
    let name_len = rest
        .find(|c: char| c.is_ascii_whitespace() || c == '/' || c == '>')
        .unwrap_or(rest.len());
    let name = &rest[..name_len];
    let mut quote = None;
    let end = t.char_indices().find_map(|(i, c)| {
        match (quote, c) {
            (None, '"' | '\'') => quote = Some(c),
            (Some(q), _) if c == q => quote = None,
            (None, '>') => return Some(i),
            _ => {}
        }
        None
    });
    let closes = t
        .trim_end()
        .to_ascii_lowercase()
        .ends_with(&format!("</{}>", name.to_ascii_lowercase()));
    match end {
        Some(end)
            if !name.is_empty()
                && name.starts_with(|c: char| c.is_ascii_alphabetic())
                && victor_html::Tag::lookup(name.as_bytes()).is_none()
                && closes =>
        {
            let skip = html.len() - t.len() + end + 1;
            format!("{}{}", " ".repeat(skip), &html[skip..])
        }
        _ => html.to_string(),
    }
}

//! The page as the annotator sees it: victor's blocks marked, scripts and ways out removed.
//!
//! Each block's source text (the text between two tags, [`victor_features::Block::source`]) is
//! wrapped in `<v-b data-b="INDEX">…</v-b>`, an unknown inline element that changes neither the
//! layout nor the text, so the tool's script finds every block in the rendered page and a click
//! maps to a block index without guessing. The marked document then goes through a lol_html
//! pass that removes what could run or leave the page: `script` and every element that loads
//! another document or program (`iframe`, `frame`, `object`, `embed`, `applet`, `portal`),
//! `base`, `link`, `meta` with `http-equiv` or `charset` (the page is served as UTF-8), every
//! `on*` event attribute, `srcdoc`, `ping`, `target`, `action`/`formaction`, and the `href` of
//! links (kept as `data-href`, so the link is still shown as one but leads nowhere). Any URL
//! attribute with a `javascript:` URL is removed too. The server adds a strict
//! Content-Security-Policy and the tool shows the page in a sandboxed iframe, so these are
//! layers, not the only guard.

use std::fmt::Write as _;

use lol_html::html_content::Element;
use lol_html::{RewriteStrSettings, element, rewrite_str};
use victor_features::Page;

/// Why a page could not be prepared for the browser.
#[derive(Debug, thiserror::Error)]
#[error("cannot rewrite the page's HTML: {0}")]
pub(crate) struct RenderError(String);

/// Elements removed with their content: they run code or load another document.
const REMOVED: &str = "script, iframe, frame, frameset, object, embed, applet, portal, base, link, \
                       meta[http-equiv], meta[charset]";

/// The page's decoded `text` with every block of `page` wrapped in `<v-b data-b="i">`, then
/// made inert (see the module docs).
///
/// # Errors
///
/// [`RenderError`] when lol_html refuses the document (it is given valid UTF-8, so only on
/// its internal limits).
pub(crate) fn render(text: &str, page: &Page) -> Result<String, RenderError> {
    let marked = mark_blocks(text, page);
    let settings = RewriteStrSettings::new()
        .append_element_content_handler(element!(REMOVED, |el| {
            el.remove();
            Ok(())
        }))
        .append_element_content_handler(element!("*", |el| {
            neutralise(el);
            Ok(())
        }))
        // Ambiguous markup is rendered as a browser would, not refused: nothing of the page
        // can run whatever the parser's state.
        .with_strict(false)
        .with_enable_esi_tags(false);
    rewrite_str(&marked, settings).map_err(|e| RenderError(e.to_string()))
}

/// `text` with each block's source range wrapped in a `v-b` element. Blocks whose range is out
/// of order, out of bounds or not on character boundaries (which the segmenter does not make)
/// are left unmarked rather than risk cutting a character.
fn mark_blocks(text: &str, page: &Page) -> String {
    let mut out = String::with_capacity(text.len() + page.blocks.len() * 24);
    let mut at = 0usize;
    for (i, b) in page.blocks.iter().enumerate() {
        let (s, e) = (b.source.start as usize, b.source.end as usize);
        if s < at
            || e < s
            || e > text.len()
            || !text.is_char_boundary(s)
            || !text.is_char_boundary(e)
        {
            continue;
        }
        out.push_str(&text[at..s]);
        if i == 0 && page.recovered {
            close_swallowing(&text[..s], &mut out);
        }
        let _ = write!(out, "<v-b data-b=\"{i}\">");
        out.push_str(&text[s..e]);
        out.push_str("</v-b>");
        at = e;
    }
    out.push_str(&text[at..]);
    out
}

/// Ends the raw-text elements left open before the first block. The segmenter reads a page
/// whose unclosed `<title>`, `<textarea>` or `<xmp>` swallows the rest of the document as
/// browsers of the time showed it ([`victor_features::Page::recovered`]); a browser of today
/// would show none of the page, so the end tag is added where the blocks begin.
fn close_swallowing(before: &str, out: &mut String) {
    let lower = before.to_ascii_lowercase();
    for tag in ["title", "textarea", "xmp"] {
        let open = lower.rfind(&format!("<{tag}"));
        let close = lower.rfind(&format!("</{tag}"));
        if let Some(o) = open
            && close.is_none_or(|c| c < o)
        {
            let _ = write!(out, "</{tag}>");
        }
    }
}

/// Removes from one element every attribute that runs code, submits, or navigates.
fn neutralise(el: &mut Element<'_, '_>) {
    let names: Vec<String> = el
        .attributes()
        .iter()
        .map(|a| a.name())
        .filter(|n| {
            n.starts_with("on")
                || matches!(
                    n.as_str(),
                    "srcdoc" | "ping" | "target" | "action" | "formaction" | "http-equiv"
                )
        })
        .collect();
    for n in &names {
        el.remove_attribute(n);
    }
    if let Some(href) = el.get_attribute("href") {
        el.remove_attribute("href");
        // Only a valid attribute value can fail here, and a link without its old target is
        // still inert.
        let _ = el.set_attribute("data-href", &href);
    }
    for attr in ["src", "data", "background", "poster", "xlink:href"] {
        if el.get_attribute(attr).is_some_and(|v| is_script_url(&v)) {
            el.remove_attribute(attr);
        }
    }
}

/// Whether a URL is a `javascript:` or `vbscript:` URL (ignoring case and the white space and
/// control characters a browser skips).
fn is_script_url(v: &str) -> bool {
    let cleaned: String = v
        .chars()
        .filter(|c| !c.is_whitespace() && !c.is_control())
        .take(11)
        .collect::<String>()
        .to_ascii_lowercase();
    cleaned.starts_with("javascript:") || cleaned.starts_with("vbscript:")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn served(html: &str) -> String {
        let page = victor_features::segment(html).expect("segments");
        render(html, &page).expect("renders")
    }

    #[test]
    fn blocks_are_wrapped_in_order() {
        let out = served("<html><body><h1>Title</h1><p>One <b>two</b></p></body></html>");
        assert!(
            out.contains(r#"<h1><v-b data-b="0">Title</v-b></h1>"#),
            "{out}"
        );
        assert!(
            out.contains(r#"<p><v-b data-b="1">One</v-b> <b><v-b data-b="2">two</v-b></b></p>"#),
            "{out}"
        );
    }

    #[test]
    fn an_unclosed_title_is_ended_before_the_blocks() {
        let out = served(
            "<html><head><title>T<script src=x></script></head><body><p>Text here</p></body></html>",
        );
        assert!(
            out.contains(r#"</title><v-b data-b="0">Text here</v-b>"#),
            "{out}"
        );
    }

    #[test]
    fn scripts_handlers_and_ways_out_are_removed() {
        let out = served(
            r#"<html><head><meta http-equiv="refresh" content="0;url=x"><base href="http://e/">
            <script>alert(1)</script></head><body onload="x()"><a href="http://e/" target="_top"
            onclick="y()">link</a><form action="/api/page/0/labels"><button formaction="/x">b</button>
            </form><iframe src="/"></iframe><img src="javascript:alert(1)"></body></html>"#,
        );
        for bad in [
            "<script", "alert", "onload", "onclick", "refresh", "<base", "action=", "target=",
            "<iframe", " href=",
        ] {
            assert!(!out.contains(bad), "{bad} left in {out}");
        }
        assert!(out.contains(r#"data-href="http://e/""#), "{out}");
    }
}

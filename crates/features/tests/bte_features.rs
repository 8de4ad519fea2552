//! The `bte` module (body text extraction, seed 004): `bte.in` marks the run of blocks that
//! maximizes the words inside it plus the tags outside it; `bte.in-text` counts the words of
//! links as markup too.

mod common;

use common::column;
use victor_features::FeatureConfig;

fn config(modules: &[&str]) -> FeatureConfig {
    FeatureConfig {
        modules: modules.iter().map(|m| m.to_string()).collect(),
        bins: Default::default(),
        ..FeatureConfig::default()
    }
}

fn flags(module: &str, name: &str, html: &str) -> Vec<u8> {
    column(&config(&[module]), html, name)
        .into_iter()
        .map(|v| v as u8)
        .collect()
}

/// A menu of tagged links, an article of two long paragraphs, and a tagged footer.
const PAGE: &str = r#"<html><body>
<ul><li><a href="/">Home</a></li><li><a href="/n">News</a></li><li><a href="/c">Contact</a></li></ul>
<div><p>The first paragraph of the article runs on for a good number of plain words here.</p>
<p>The second paragraph goes on in the same way with many more words and few tags.</p></div>
<div><span><b>Footer</b></span> <span><i>links</i></span></div>
</body></html>"#;

#[test]
fn the_window_holds_the_text_between_the_markup() {
    // Blocks: Home, News, Contact, the two paragraphs, Footer, links.
    assert_eq!(flags("bte", "bte.in", PAGE), [0, 0, 0, 1, 1, 0, 0]);
}

#[test]
fn a_page_of_text_is_one_window() {
    let html = "<p>One paragraph of several words.</p><p>And another paragraph of words.</p>";
    assert_eq!(flags("bte", "bte.in", html), [1, 1]);
}

#[test]
fn links_are_markup_for_bte_text() {
    // A run of long links outweighs the tags around them for bte.in, not for bte.in-text.
    let html = r#"<p>Short intro words here.</p>
<div><a href="/1">a long link of many many words in a row one</a>
<a href="/2">a long link of many many words in a row two</a></div>
<p>The article text itself, with plenty of plain words and no links at all.</p>"#;
    assert_eq!(flags("bte", "bte.in", html), [1, 1, 1, 1]);
    assert_eq!(flags("bte", "bte.in-text", html), [0, 0, 0, 1]);
}

#[test]
fn no_words_no_window() {
    assert_eq!(flags("bte", "bte.in", "<div><p> </p><br>!</div>"), [0]);
}

//! Link features read only real links: an `<a>` without `href` (or `onclick`) is a placeholder
//! such as a named anchor, and its text is not link text. An unclosed `<a name="top">` at the
//! top of a page holds everything after it; before this rule, every block of such a page had
//! `container.a` = 1 and link density 1, the shape of a navigation menu.

mod common;

use victor_features::FeatureConfig;

/// The raw values of column `name` for every block of `html`, with the shipped configuration.
fn column(html: &str, name: &str) -> Vec<f32> {
    common::column(&FeatureConfig::default(), html, name)
}

const PAGE: &str = r#"<body><a name="top"><table><tr><td>
<p>Before you hear my impressions, perhaps it would be easier to understand my point of view.</p>
<p>Read the <a href="/review">full review</a> later.</p>
<p><a onclick="more()">More</a></p>
</td></tr></table></body>"#;

#[test]
fn text_in_a_named_anchor_is_not_in_a_link() {
    // Blocks: the first paragraph; "Read the", "full review", "later."; "More".
    assert_eq!(column(PAGE, "container.a"), [0.0, 0.0, 1.0, 0.0, 1.0]);
}

#[test]
fn link_density_counts_real_links_only() {
    let density = column(PAGE, "paragraph.link-density");
    assert_eq!(density[0], 0.0, "{density:?}");
    // "full review" is 10 of the 24 letters and spaces of its paragraph: a share, not 1.
    assert!(density[1] > 0.2 && density[1] < 0.6, "{density:?}");
    assert_eq!(density[4], 1.0, "{density:?}");
}

#[test]
fn a_named_anchor_with_href_is_a_link() {
    let html = r#"<p><a name="x" href="/x">Both a name and a target</a></p>"#;
    assert_eq!(column(html, "container.a"), [1.0]);
    assert_eq!(column(html, "paragraph.link-density"), [1.0]);
}

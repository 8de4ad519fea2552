//! The `density` module: where the page's text is, in terms that hold on any site and in any
//! language, and the whole-name rule for classes that hide an element.

mod common;

use victor_features::FeatureConfig;

/// The shipped configuration with the `density` module on.
fn web() -> FeatureConfig {
    let mut cfg = FeatureConfig::default();
    cfg.modules.push("density".into());
    cfg
}

fn column(html: &str, name: &str) -> Vec<f32> {
    common::column(&web(), html, name)
}

const LONG: &str = "The committee met on Tuesday, and after a long debate, it agreed to fund the new \
                    library, the bridge repairs, and a study of the harbour's water quality.";

/// A page whose article is split into one `div` per section (four paragraphs, then two),
/// between a menu and a footer.
fn sectioned() -> String {
    format!(
        r#"<html><body class="mw-hide-empty-elt"><ul class="menu"><li><a href="/">Home</a></li>
<li><a href="/news">News</a></li></ul>
<div id="wrap"><div class="part"><p>{LONG}</p><p>{LONG}</p><p>{LONG}</p><p>{LONG}</p></div>
<div class="part"><p>{LONG}</p><p>{LONG}</p></div></div>
<div class="footer"><a href="/about">About us</a></div></body></html>"#
    )
}

#[test]
fn an_article_split_into_sections_is_found_whole() {
    // Blocks: Home, News, six paragraphs, About us.
    let in_article = column(&sectioned(), "density.in-article");
    assert_eq!(in_article, [0., 0., 1., 1., 1., 1., 1., 1., 0.]);
    // Before, in (six times), after; `main.in-best` alone sees the first section.
    let place = column(&sectioned(), "density.place");
    assert_eq!(place, [1., 1., 2., 2., 2., 2., 2., 2., 4.]);
    let best = common::column(&web(), &sectioned(), "main.in-best");
    assert_eq!(best, [0., 0., 1., 1., 1., 1., 0., 0., 0.]);
}

#[test]
fn region_shares_and_link_density() {
    let share = column(&sectioned(), "density.region-share");
    // The sections hold two thirds and one third of the page's non-link text; the menu none.
    assert!((share[2] - 2.0 / 3.0).abs() < 0.01, "{share:?}");
    assert!((share[7] - 1.0 / 3.0).abs() < 0.01, "{share:?}");
    assert_eq!(share[0], 0.0);
    let links = column(&sectioned(), "density.region-link");
    assert_eq!(links[0], 1.0);
    assert_eq!(links[2], 0.0);
    let best = column(&sectioned(), "density.best-share");
    assert!(
        best.iter().all(|&b| (b - 2.0 / 3.0).abs() < 0.01),
        "{best:?}"
    );
}

#[test]
fn a_body_class_never_hides_the_page() {
    // MediaWiki writes `mw-hide-empty-elt` on <body>: no block is hidden.
    assert!(
        column(&sectioned(), "container.hidden")
            .iter()
            .all(|&h| h == 0.0)
    );
}

#[test]
fn hiding_classes_are_whole_names() {
    let html = r#"<div class="hide-on-mobile"><p>Shown on a desktop.</p></div>
<div class="teaser d-none"><p>Hidden by Bootstrap.</p></div>
<span class="sr-only">Skip to content</span><div class="comments-hidden-count"><p>3</p></div>"#;
    assert_eq!(column(html, "container.hidden"), [0., 1., 1., 0.]);
}

#[test]
fn html5_and_schema_org_markup_the_main_content() {
    let html = r#"<div><p>Menu</p></div><div role="main"><p>Role main.</p></div>
<article><p>Article tag.</p></article><div itemprop="headline articleBody"><p>Body.</p></div>
<div itemprop="author"><p>Someone</p></div><main><p>Main tag.</p></main>"#;
    assert_eq!(column(html, "density.semantic"), [0., 1., 1., 1., 0., 1.]);
}

#[test]
fn a_page_without_text_has_no_article() {
    let html = r#"<ul><li><a href="/a">A</a></li><li><a href="/b">B</a></li></ul>"#;
    assert_eq!(column(html, "density.place"), [0., 0.]);
    assert_eq!(column(html, "density.in-article"), [0., 0.]);
}

#[test]
fn old_configurations_are_unchanged() {
    // The shipped configuration does not switch `density` on, so bundles trained before it
    // keep their columns.
    let ex = victor_features::Extractor::new(&FeatureConfig::default()).expect("compiles");
    assert!(
        !ex.schema()
            .columns
            .iter()
            .any(|c| c.name.starts_with("density."))
    );
}

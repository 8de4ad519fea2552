//! The `class` module: `class.1` names the keyword group of a block's nearest ancestor with a
//! `class` or `id`. With `class_roles`, a blog post's container is `content` whatever its
//! taxonomy slugs say; without it (bundles made before the setting), the first group in the
//! configuration's order wins, as it always did.

mod common;

use common::column;
use victor_features::{Extractor, FeatureConfig};

/// The shipped configuration with only the `class` module.
fn config(roles: bool) -> FeatureConfig {
    FeatureConfig {
        modules: vec!["class".to_string()],
        bins: Default::default(),
        class_roles: roles,
        ..FeatureConfig::default()
    }
}

/// The group name `class.1` gives every block of `html`.
fn groups(roles: bool, html: &str) -> Vec<String> {
    let cfg = config(roles);
    let mut names = vec!["none".to_string(), "other".to_string()];
    names.extend(cfg.class_keywords.iter().map(|g| g.group.clone()));
    column(&cfg, html, "class.1")
        .into_iter()
        .map(|v| names[v as usize].clone())
        .collect()
}

const WORDPRESS: &str = r#"<div class="post-157 post type-post status-publish format-standard hentry category-worth-sharing"><p>The article's text.</p></div>
<div class="share-buttons"><p>Share this</p></div>
<div class="entry type-page status-draft category-news"><p>A page.</p></div>
<div class="hentry tag-comments"><p>An hAtom entry.</p></div>
<div class="post-footer"><p>Footer of a post.</p></div>"#;

#[test]
fn post_containers_are_content_whatever_their_slugs_say() {
    assert_eq!(
        groups(true, WORDPRESS),
        ["content", "social", "content", "content", "footer"]
    );
}

#[test]
fn without_class_roles_the_first_group_in_order_wins() {
    // `sharing` (social) and `category` (meta) come before `post` (content); `comments` before
    // everything.
    assert_eq!(
        groups(false, WORDPRESS),
        ["social", "social", "meta", "comment", "footer"]
    );
}

#[test]
fn a_post_number_needs_digits() {
    // `post-body` is not a post marker: `body` is read as a keyword (content), like `post`.
    let html = r#"<div class="post-body category-print"><p>Text.</p></div>"#;
    assert_eq!(groups(true, html), ["social"]);
}

/// The `class.in-comment` flag of every block, with `class_outer: ["comment"]`.
fn in_comment(html: &str) -> Vec<f32> {
    let cfg = FeatureConfig {
        class_outer: vec!["comment".to_string()],
        ..config(true)
    };
    column(&cfg, html, "class.in-comment")
}

#[test]
fn outer_groups_are_seen_on_every_ancestor_below_body() {
    let html = r#"<body class="comments-open"><div class="format-text"><p>The post.</p></div>
<dl id="comment-list"><dd class="alt"><div class="format-text"><div class="inner"><p>A reader's comment.</p></div></div></dd></dl>
<div class="commentBody"><p>Another.</p></div><p>After.</p></body>"#;
    // The body's own classes describe the page, not a region; the second comment's element
    // carries the group itself (camelCase split), the first only its third ancestor.
    assert_eq!(in_comment(html), [0.0, 1.0, 1.0, 0.0]);
}

#[test]
fn an_unknown_outer_group_is_a_configuration_error() {
    let cfg = FeatureConfig {
        class_outer: vec!["comments".to_string()],
        ..config(true)
    };
    let err = Extractor::new(&cfg).expect_err("no such group");
    assert!(err.to_string().contains("class_outer"), "{err}");
}

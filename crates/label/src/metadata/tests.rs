//! Fixtures: each source of each field.

use super::*;

/// The metadata of a page whose blocks are all kept (as text).
fn meta(html: &str) -> Metadata {
    let page = victor_features::segment(html).expect("segments");
    let labels = vec![Label::Text; page.blocks.len()];
    metadata(&page, &labels)
}

/// The metadata of a page whose blocks are kept only inside `<main>`.
fn meta_main(html: &str) -> Metadata {
    let page = victor_features::segment(html).expect("segments");
    let labels: Vec<Label> = page
        .blocks
        .iter()
        .map(|b| {
            if within(&page, b.parent, Some(Tag::MAIN), &[]) {
                Label::Text
            } else {
                Label::Other
            }
        })
        .collect();
    metadata(&page, &labels)
}

const LD: &str = r##"<script type="application/ld+json">{"@context":"https://schema.org","@graph":[
    {"@type":"WebSite","@id":"#site","name":"Daily Planet"},
    {"@type":"Person","@id":"#ann","name":"Ann Lee"},
    {"@type":"NewsArticle","headline":"Storm hits the coast","datePublished":"2024-03-05T10:00:00+01:00",
     "dateModified":"2024-04-01","author":[{"@id":"#ann"},{"@type":"Person","name":"Bo Chen","url":"https://x.org/bo"}],
     "publisher":{"@type":"Organization","name":"Daily Planet Media"}}]}</script>"##;

#[test]
fn json_ld_gives_headline_authors_date_and_publisher() {
    let m = meta(&format!(
        "<html><head>{LD}</head><body><p>Text.</p></body></html>"
    ));
    assert_eq!(m.title.as_deref(), Some("Storm hits the coast"));
    assert_eq!(
        m.author.as_deref(),
        Some("Ann Lee, Bo Chen"),
        "names, not URLs"
    );
    assert_eq!(m.date.as_deref(), Some("2024-03-05T10:00:00+01:00"));
    assert_eq!(m.sitename.as_deref(), Some("Daily Planet Media"));
}

#[test]
fn open_graph_title_site_name_and_published_time() {
    let m = meta(
        r#"<head><meta property="og:title" content="Rain &amp; sun | Weather Now">
        <meta property="og:site_name" content="Weather Now">
        <meta property="article:published_time" content="2023-11-02T08:30:00Z">
        <meta property="og:url" content="https://weather.example/a"></head><body><p>x</p></body>"#,
    );
    assert_eq!(
        m.title.as_deref(),
        Some("Rain & sun"),
        "site suffix removed"
    );
    assert_eq!(m.sitename.as_deref(), Some("Weather Now"));
    assert_eq!(m.date.as_deref(), Some("2023-11-02T08:30:00Z"));
    assert_eq!(
        m.canonical.as_deref(),
        Some("https://weather.example/a"),
        "og:url"
    );
}

#[test]
fn the_h1_a_declared_title_confirms_wins_and_title_is_the_fallback() {
    let m = meta_main(
        "<head><title>Best tents of 2025 for families and hikers - Camp Co</title></head><body>\
         <header><h1>Camp Co</h1></header><main><h1>Best tents of 2025</h1><p>Text.</p></main>",
    );
    assert_eq!(m.title.as_deref(), Some("Best tents of 2025"));
    let m = meta("<head><title>News | Acme Support Center</title></head><body><p>x</p></body>");
    assert_eq!(
        m.title.as_deref(),
        Some("Acme Support Center"),
        "the longest part"
    );
    let m = meta(
        "<head><title>Acme Support Center | Contact</title>\
         <link rel=canonical href='https://acme.com/c'></head><body><p>x</p></body>",
    );
    assert_eq!(m.title.as_deref(), Some("Contact"), "the host's name cut");
    assert_eq!(m.canonical.as_deref(), Some("https://acme.com/c"));
    let m = meta("<body><h1>Only a heading</h1><p>x</p></body>");
    assert_eq!(
        m.title.as_deref(),
        Some("Only a heading"),
        "h1 without declared titles"
    );
    let m = meta("<head><title>Plain title</title></head><body><p>x</p></body>");
    assert_eq!(m.title.as_deref(), Some("Plain title"));
}

#[test]
fn meta_author_rel_author_and_bylines_in_several_languages() {
    let m = meta(r#"<head><meta name="author" content="Jane Roe"></head><body><p>x</p></body>"#);
    assert_eq!(m.author.as_deref(), Some("Jane Roe"));
    let m = meta(r#"<body><p>Text</p><a rel="author" href="/u/1">Max Mustermann</a></body>"#);
    assert_eq!(m.author.as_deref(), Some("Max Mustermann"));
    let m = meta(r#"<body><span><a href="/author/kim">Kim Park</a></span><p>Text.</p></body>"#);
    assert_eq!(
        m.author.as_deref(),
        Some("Kim Park"),
        "a link to an author page"
    );
    for (line, name) in [
        ("By John Smith", "John Smith"),
        ("Von Anna Schmidt", "Anna Schmidt"),
        ("Par Marie Dupont", "Marie Dupont"),
        ("Por Lucía García", "Lucía García"),
        ("Written by Tom Hardy | March 3, 2024", "Tom Hardy"),
    ] {
        let m = meta(&format!(
            "<body><h1>T</h1><p>{line}</p><p>Body text of the page.</p></body>"
        ));
        assert_eq!(m.author.as_deref(), Some(name), "{line}");
    }
    let m = meta("<body><p>Written by</p><p>Edzel Tabing</p><p>Text.</p></body>");
    assert_eq!(
        m.author.as_deref(),
        Some("Edzel Tabing"),
        "the name in the next block"
    );
    let m = meta(
        r#"<head><meta name="author" content="https://x.org/u/1"></head><body><p>x</p></body>"#,
    );
    assert_eq!(m.author, None, "a URL is no name");
}

#[test]
fn dates_from_time_url_and_text_but_not_copyright_or_comments() {
    let m = meta(r#"<body><p>x</p><time datetime="2022-06-01T09:00">June 1</time></body>"#);
    assert_eq!(m.date.as_deref(), Some("2022-06-01T09:00"));
    let m = meta(
        r#"<head><link rel="canonical" href="https://x.org/2021/08/04/slug/"></head><body><p>x</p></body>"#,
    );
    assert_eq!(m.date.as_deref(), Some("2021-08-04"), "a date in the URL");
    for (line, want) in [
        ("Published March 5, 2024", "2024-03-05"),
        ("Veröffentlicht am 5. März 2024", "2024-03-05"),
        ("Publié le 1er mars 2024", "2024-03-01"),
    ] {
        let m = meta(&format!("<body><p>{line}</p><p>Text.</p></body>"));
        assert_eq!(m.date.as_deref(), Some(want), "{line}");
    }
    let m = meta("<body><p>Text.</p><p>© 2024 Acme. March 5, 2024</p></body>");
    assert_eq!(m.date, None, "a copyright line");
    let m = meta(
        r#"<body><p>Text.</p><div class="comments"><time datetime="2024-05-05">May 5</time></div></body>"#,
    );
    assert_eq!(m.date, None, "a comment's date");
    let m = meta("<body><p>Published 2 May 2024, updated 9 May 2024</p></body>");
    assert_eq!(m.date.as_deref(), Some("2024-05-02"), "not the update");
    let m = meta(
        r#"<head><meta property="article:modified_time" content="2024-01-09"></head><body><p>x</p></body>"#,
    );
    assert_eq!(
        m.date.as_deref(),
        Some("2024-01-09"),
        "the last change, when nothing else"
    );
}

#[test]
fn a_wrapper_classed_sidebar_that_holds_the_content_is_no_aside() {
    // The class names a layout mode, not a sidebar: the wrapper holds the whole content.
    let m = meta_main(
        r#"<body><div class="story sidebar-mode-single"><main><h1>Storm hits the coast</h1>
        <p class="byline">Ann Lee</p><p>Text of the story.</p><p>More text.</p></main></div>
        <div class="sidebar"><h1>Elsewhere</h1><p class="byline">Bo Chen</p></div></body>"#,
    );
    assert_eq!(m.title.as_deref(), Some("Storm hits the coast"));
    assert_eq!(
        m.author.as_deref(),
        Some("Ann Lee"),
        "a byline classed byline"
    );
    // A real sidebar, beside the content, stays one.
    let m = meta_main(
        r#"<body><div class="sidebar"><p class="byline">Bo Chen</p></div>
        <main><p>Text of the story.</p></main></body>"#,
    );
    assert_eq!(m.author, None);
}

#[test]
fn an_article_footer_gives_its_date_and_a_page_footer_does_not() {
    let m = meta(
        r#"<body><article><h1>T</h1><p>Text.</p><footer><span>By Ann Lee</span>
        <time datetime="2023-03-30">March 30, 2023</time></footer></article></body>"#,
    );
    assert_eq!(
        m.date.as_deref(),
        Some("2023-03-30"),
        "the article's footer"
    );
    let m = meta(
        r#"<body><article><p>Text.</p></article><footer><time datetime="2023-03-30">x</time>
        </footer></body>"#,
    );
    assert_eq!(m.date, None, "the page's footer");
}

#[test]
fn an_update_shown_gives_way_to_a_publication_and_stands_when_alone() {
    // "Updated" before a <time>: the update; the publication date after it is the date.
    let m = meta(
        r#"<body><p>Text.</p><div>Updated <time datetime="2026-02-12">February 12, 2026</time></div>
        <div>Published <time datetime="2017-04-03">April 3, 2017</time></div></body>"#,
    );
    assert_eq!(m.date.as_deref(), Some("2017-04-03"));
    let m = meta(
        r#"<body><p>Text.</p><time class="updated" datetime="2026-02-12">x</time>
        <time class="entry-date published updated" datetime="2017-04-03">y</time></body>"#,
    );
    assert_eq!(
        m.date.as_deref(),
        Some("2017-04-03"),
        "class updated, not published"
    );
    // A declared publication outranks an update shown (issue 62: the original publication).
    let m = meta(
        r#"<head><meta property="article:published_time" content="2015-04-06"></head>
        <body><p>Updated September 28, 2025</p><p>Text.</p></body>"#,
    );
    assert_eq!(m.date.as_deref(), Some("2015-04-06"));
    // An update written alone is the page's date when nothing else gives one.
    let m = meta("<body><p>Updated September 28, 2025</p><p>Text.</p></body>");
    assert_eq!(m.date.as_deref(), Some("2025-09-28"));
    let m = meta("<body><p>Last updated:</p><p>January 12, 2026</p><p>Text.</p></body>");
    assert_eq!(
        m.date.as_deref(),
        Some("2026-01-12"),
        "the date in the next block"
    );
}

#[test]
fn other_meta_names_of_a_publication_date() {
    for name in ["published", "w-published-date", "citation_date"] {
        let m = meta(&format!(
            r#"<head><meta name="{name}" content="July 17, 2025"></head><body><p>x</p></body>"#
        ));
        assert_eq!(m.date.as_deref(), Some("2025-07-17"), "{name}");
    }
    let m = meta(
        r#"<head><meta property="article:publisher" content="https://x.org/2025/07/17/"></head>
        <body><p>x</p></body>"#,
    );
    assert_eq!(m.date, None, "the publisher is no date");
}

#[test]
fn the_site_and_a_tag_line_are_cut_from_the_headline() {
    let m = meta_main(
        r#"<head><meta property="og:site_name" content="Artlyst">
        <title>Critics’ Choice: Best Exhibitions 2025 – Artlyst - Artlyst</title></head>
        <body><main><h1>Critics’ Choice: Best Exhibitions 2025 – Artlyst</h1><p>Text.</p></main></body>"#,
    );
    assert_eq!(
        m.title.as_deref(),
        Some("Critics’ Choice: Best Exhibitions 2025")
    );
    let m = meta_main(
        "<head><title>Best Movers in NYC 2025 | Top 19 Companies | Supermove</title></head>\
         <body><main><h1>Best Movers in NYC 2025 | Top 19 Companies</h1><p>Text.</p></main></body>",
    );
    assert_eq!(m.title.as_deref(), Some("Best Movers in NYC 2025"));
    let m = meta("<body><h1>iOS - The Complete Guide</h1><p>x</p></body>");
    assert_eq!(
        m.title.as_deref(),
        Some("iOS - The Complete Guide"),
        "one word before the dash"
    );
}

#[test]
fn forum_and_article_bylines() {
    for (first, name) in [
        ("Thread starter", "SamuelMIz"),
        ("Article by", "Cara Dumaplin"),
    ] {
        let m = meta(&format!(
            "<body><h1>T</h1><p>{first}</p><p>{name}</p><p>Text of the page.</p></body>"
        ));
        assert_eq!(m.author.as_deref(), Some(name), "{first}");
    }
}

/// `n` paragraphs of filler, to push what follows past the top of the content.
fn filler(n: usize) -> String {
    (0..n)
        .map(|i| format!("<p>Paragraph {i} of the text.</p>"))
        .collect()
}

#[test]
fn a_date_shown_only_in_an_aside_counts_when_nothing_else_gives_one() {
    // A `<time>` in an element classed `sidebar` that wraps the whole content.
    let m = meta(
        r#"<body><div class="layout-with-sidebar"><div class="meta"><time datetime="2025-10-09T13:25:18-04:00">
        October 9, 2025</time></div><p>Text of the article.</p></div></body>"#,
    );
    assert_eq!(m.date.as_deref(), Some("2025-10-09T13:25:18-04:00"));
    // A date written in a sidebar beside the content, near its top.
    let m = meta_main(
        r#"<body><div class="post-sidebar"><span>May 31, 2024</span></div>
        <main><p>Text of the article.</p></main></body>"#,
    );
    assert_eq!(m.date.as_deref(), Some("2024-05-31"));
    // Not before a declared date.
    let m = meta_main(
        r#"<head><meta property="article:published_time" content="2024-01-02"></head>
        <body><div class="post-sidebar"><span>May 31, 2024</span></div>
        <main><p>Text of the article.</p></main></body>"#,
    );
    assert_eq!(m.date.as_deref(), Some("2024-01-02"));
}

#[test]
fn a_date_announced_at_the_end_of_the_article() {
    for (line, want) in [
        ("Posted on the 15/12/2025 at 19:00 by Ann", "2025-12-15"),
        ("Published On: 15 August 2025", "2025-08-15"),
        ("Publié le 3 mars 2024", "2024-03-03"),
        ("Veröffentlicht: 12. März 2024", "2024-03-12"),
    ] {
        let m = meta(&format!(
            "<body><h1>T</h1>{}<p>{line}</p></body>",
            filler(60)
        ));
        assert_eq!(m.date.as_deref(), Some(want), "{line}");
    }
    // A date with no announcing word before it is only a last resort: the announced one wins.
    let m = meta(&format!(
        "<body><h1>T</h1>{}<p>Reposted from 15/12/2025</p><p>Posted on 3 March 2024</p></body>",
        filler(60)
    ));
    assert_eq!(m.date.as_deref(), Some("2024-03-03"));
}

#[test]
fn ms_date_meta_and_machine_dates_written_in_text() {
    let m = meta(
        r#"<head><meta name="ms.date" content="2025-03-06T00:00:00Z"></head><body><p>x</p></body>"#,
    );
    assert_eq!(m.date.as_deref(), Some("2025-03-06T00:00:00Z"));
    let m = meta("<body><p>Nick van Mead</p><p>2022-11-23T08:10+02:00</p><p>Text.</p></body>");
    assert_eq!(m.date.as_deref(), Some("2022-11-23T08:10+02:00"));
}

#[test]
fn an_author_signed_at_the_end_of_the_article() {
    let m = meta(&format!(
        "<body><h1>T</h1>{}<p>Written by</p><p>Edzel Tabing</p></body>",
        filler(60)
    ));
    assert_eq!(m.author.as_deref(), Some("Edzel Tabing"));
    let m = meta(&format!(
        "<body><h1>T</h1>{}<h2>Article by Matias Heikkilä</h2></body>",
        filler(60)
    ));
    assert_eq!(m.author.as_deref(), Some("Matias Heikkilä"));
    let m = meta(&format!(
        "<body><h1>T</h1>{}<p>By the way, thanks</p></body>",
        filler(60)
    ));
    assert_eq!(m.author, None, "a lone \"by\" far from the top");
}

#[test]
fn a_shown_name_loses_its_job_title_and_a_forum_avatar_letter() {
    for (line, name) in [
        ("By Harry Rabinowitz Tech Reporter", "Harry Rabinowitz"),
        (
            "By Meghan Neville Content Marketing Coordinator",
            "Meghan Neville",
        ),
        ("Authored by Nicole Hatcher", "Nicole Hatcher"),
    ] {
        let m = meta(&format!(
            "<body><h1>T</h1><p>{line}</p><p>Body text of the page.</p></body>"
        ));
        assert_eq!(m.author.as_deref(), Some(name), "{line}");
    }
    for (text, name) in [
        ("JonB J", "JonB"),
        ("J Offline JonB wrote", "JonB"),
        ("Ann Lee Writer", "Ann Lee"),
        ("Lee Writer", "Lee Writer"),
    ] {
        let m = meta(&format!(
            r#"<body><h1>T</h1><div><a rel="author" href="/u/1">{text}</a></div><p>Text of the page.</p></body>"#
        ));
        assert_eq!(m.author.as_deref(), Some(name), "{text}");
    }
}

#[test]
fn page_furniture_and_dates_are_no_bylines() {
    for line in [
        "By submitting your email to subscribe, you agree to our terms",
        "By Search",
        "By Jul",
        "By What is companion planting?",
    ] {
        let m = meta(&format!(
            r#"<head><meta name="author" content="Jane Roe"><meta property="og:site_name" content="Jane Roe"></head>
            <body><h1>T</h1><p>{line}</p><p>Body text of the page.</p></body>"#
        ));
        assert_eq!(
            m.author.as_deref(),
            Some("Jane Roe"),
            "the declared author, though it names the site: {line}"
        );
    }
    let m = meta(
        r#"<head><meta name="author" content="page.head.extra.author"></head><body><p>x</p></body>"#,
    );
    assert_eq!(m.author, None, "a template's placeholder");
}

#[test]
fn a_malformed_machine_date_in_text_ends() {
    // Once a stack overflow: the machine date's fallback searched the text again.
    for t in ["2024-1-05T10:00 x", "2024-13-45T10:00", "2024/1/5T"] {
        let m = meta(&format!("<body><p>{t}</p><p>Text.</p></body>"));
        assert_eq!(m.date, None, "{t}");
    }
}

#[test]
fn a_forum_post_names_its_author_in_an_element_classed_username() {
    let m = meta(
        r#"<body><h1>Topic</h1><dl><dt><a href="./memberlist.php?u=1" class="username">b.scherer</a></dt></dl>
        <p>The first post of the thread.</p></body>"#,
    );
    assert_eq!(m.author.as_deref(), Some("b.scherer"));
    let m = meta(
        r#"<body><h1>Log in</h1><label class="username">Username</label><p>Text of the page.</p></body>"#,
    );
    assert_eq!(m.author, None, "a login form's label");
}

#[test]
fn a_long_list_of_declared_authors_stays_whole() {
    let names = "Nicholas Collins, Scott Munro, Matt De La O, Vineet Asthana, Rory O'Sullivan, Corey Maurer";
    let m = meta(&format!(
        r#"<head><script type="application/ld+json">{{"@type": "Article", "headline": "H",
        "author": "{names}"}}</script></head><body><p>x</p></body>"#
    ));
    assert_eq!(m.author.as_deref(), Some(names));
}

#[test]
fn opening_words_match_in_any_case_and_other_first_letters_are_refused() {
    assert_eq!(
        SIGNED_OPENERS.after("  WRITTEN BY: Ann Lee"),
        Some("Ann Lee")
    );
    assert_eq!(
        SIGNED_OPENERS.after("Écrit par Jean Roux"),
        Some("Jean Roux")
    );
    assert_eq!(SIGNED_OPENERS.after("Written byline"), None);
    assert_eq!(SIGNED_OPENERS.after("Kitchen tips"), None);
    assert_eq!(
        published::ANNOUNCED_OPENERS.after("Posted on 5 March 2024"),
        Some("on 5 March 2024")
    );
    assert_eq!(published::ANNOUNCED_OPENERS.after(""), None);
}

#[test]
fn the_headline_comes_from_any_of_several_h1s_nested_or_not() {
    // The first h1 is a logo; the second, with an h1 nested in it (inside a `div`, where
    // HTML keeps it nested), is the headline the `<title>` confirms.
    let m = meta(
        "<html><head><title>Storm hits the coast | Daily</title></head><body>\
         <h1><a href=/>Daily</a></h1><main><h1>Storm <span>hits</span> the coast<div><h1>now</h1></div></h1>\
         <p>Text.</p></main></body></html>",
    );
    assert_eq!(m.title.as_deref(), Some("Storm hits the coast now"));
}

/// The date and its source of a page whose blocks are all kept, with what is known of it.
fn dated(html: &str, ctx: PageContext<'_>) -> (Option<String>, Option<&'static str>) {
    let page = victor_features::segment(html).expect("segments");
    let labels = vec![Label::Text; page.blocks.len()];
    let m = metadata_with(&page, &labels, ctx);
    (m.date, m.date_source.map(DateSource::as_str))
}

/// [`dated`] without a URL or a fetch date.
fn dated_alone(html: &str) -> (Option<String>, Option<&'static str>) {
    dated(html, PageContext::default())
}

fn some(d: &str, s: &'static str) -> (Option<String>, Option<&'static str>) {
    (Some(d.to_string()), Some(s))
}

#[test]
fn every_date_source_is_named() {
    let body = "<body><h1>Storm hits the coast</h1><p>Text of the story.</p></body>";
    assert_eq!(
        dated_alone(&format!("<head>{LD}</head>{body}")),
        some("2024-03-05T10:00:00+01:00", "json-ld")
    );
    assert_eq!(
        dated_alone(&format!(
            r#"<head><meta property="article:published_time" content="2023-11-02"></head>{body}"#
        )),
        some("2023-11-02", "meta")
    );
    assert_eq!(
        dated_alone(&format!(
            r#"<head><meta name="DC.date.issued" content="2023-11-02"></head>{body}"#
        )),
        some("2023-11-02", "meta"),
        "Dublin Core"
    );
    assert_eq!(
        dated_alone(&format!(
            r#"<body><h1>T</h1>{}<span itemprop="datePublished">March 5, 2024</span></body>"#,
            filler(60)
        )),
        some("2024-03-05", "meta"),
        "microdata"
    );
    assert_eq!(
        dated_alone(
            r#"<body><h1>T</h1><time datetime="2022-06-01T09:00">June 1</time><p>Text.</p></body>"#
        ),
        some("2022-06-01T09:00", "time")
    );
    assert_eq!(
        dated_alone(&format!(
            r#"<head><link rel="canonical" href="https://x.org/2021/08/04/slug/"></head>{body}"#
        )),
        some("2021-08-04", "url"),
        "the canonical URL"
    );
    let ctx = PageContext {
        url: Some("https://x.org/news/2021-08-04-storm"),
        fetched: None,
    };
    assert_eq!(
        dated(body, ctx),
        some("2021-08-04", "url"),
        "the URL it was fetched from"
    );
    assert_eq!(
        dated_alone("<body><h1>T</h1><p>By Ann Lee, 5. März 2024</p><p>Text.</p></body>"),
        some("2024-03-05", "text")
    );
    assert_eq!(
        dated_alone(
            r#"<head><meta property="article:modified_time" content="2024-01-09"></head><body><p>x</p></body>"#
        ),
        some("2024-01-09", "meta"),
        "the last change, when nothing else"
    );
    assert_eq!(
        dated_alone(
            r#"<head><script type="application/ld+json">{"@type": "Article", "headline": "H",
            "dateModified": "2024-01-09"}</script></head><body><p>x</p></body>"#
        ),
        some("2024-01-09", "json-ld")
    );
    assert_eq!(dated_alone("<body><p>No date.</p></body>"), (None, None));
}

#[test]
fn the_date_most_groups_of_evidence_name_wins() {
    // A teaser's `<time>`, the page's first, against the declared date and the headline's
    // byline: one group to three.
    let m = dated_alone(&format!(
        r#"<head><meta property="article:published_time" content="2023-10-31T08:47:16+00:00">
        <script type="application/ld+json">{{"@type": "BlogPosting", "headline": "Q",
        "datePublished": "2023-10-31T08:47:16+00:00"}}</script></head>
        <body><h1>Three questions</h1><p>31. Oktober 2023</p>{}
        <div class="teaser"><time datetime="2019-10-21">21.10.2019</time></div></body>"#,
        filler(12)
    ));
    assert_eq!(m.0.as_deref().map(|d| &d[..10]), Some("2023-10-31"));
    // The JSON-LD and the `<meta>` a CMS writes together are one group: against the URL and
    // the headline's date they lose.
    let m = dated_alone(
        r#"<head><link rel="canonical" href="https://x.org/2017/7/12/montauk">
        <meta property="article:published_time" content="2019-06-17">
        <script type="application/ld+json">{"@type": "BlogPosting", "headline": "M",
        "datePublished": "2019-06-17"}</script></head>
        <body><h1>Montauk</h1><p>July 12, 2017</p><p>Text of the post.</p></body>"#,
    );
    assert_eq!(m, some("2017-07-12", "url"));
    // One group each: the address is likelier than the declaration.
    let m = dated_alone(
        r#"<head><link rel="canonical" href="https://x.org/2020/08/23/a">
        <meta property="article:published_time" content="2020-08-29"></head>
        <body><p>Text.</p></body>"#,
    );
    assert_eq!(m, some("2020-08-23", "url"));
    // An id after a year and a month is no day.
    let m = dated_alone(
        r#"<head><link rel="canonical" href="https://x.org/2020/08/23646/">
        <meta property="article:published_time" content="2020-08-29"></head>
        <body><p>Text.</p></body>"#,
    );
    assert_eq!(m, some("2020-08-29", "meta"));
}

#[test]
fn publication_beats_modification_and_an_update_shown() {
    let m = dated_alone(
        r#"<head><script type="application/ld+json">{"@type": "NewsArticle", "headline": "H",
        "datePublished": "2019-10-15T16:59:59Z", "dateModified": "2020-03-12T14:42:17Z"}</script>
        <meta property="article:modified_time" content="2020-03-12"></head>
        <body><h1>H</h1><p>Updated Mar 12, 2020</p><p>Text.</p></body>"#,
    );
    assert_eq!(m, some("2019-10-15T16:59:59Z", "json-ld"));
}

#[test]
fn no_date_after_the_fetch_or_before_the_web_is_taken() {
    let page = r#"<head><meta property="article:published_time" content="2019-12-30"></head>
        <body><h1>T</h1><time datetime="2020-05-05">May 5, 2020</time><p>Text.</p></body>"#;
    let fetched = PageContext {
        url: None,
        fetched: Some("2020-01-02T10:00:00Z"),
    };
    assert_eq!(dated(page, fetched), some("2019-12-30", "meta"));
    // A day of slack for time zones ahead of the crawler's.
    let fetched = PageContext {
        url: None,
        fetched: Some("2020-05-04T23:00:00Z"),
    };
    assert_eq!(dated(page, fetched).0.as_deref(), Some("2020-05-05"));
    // Without a fetch date, the present bounds it.
    let far = "<body><h1>T</h1><p>Published March 5, 2099</p><p>Text.</p></body>";
    assert_eq!(dated_alone(far), (None, None));
    let old = "<body><h1>T</h1><p>Published March 5, 1991</p><p>Text.</p></body>";
    assert_eq!(dated_alone(old), (None, None), "before the web");
}

#[test]
fn a_quoted_post_and_its_date_are_not_the_pages() {
    let m = dated_alone(
        r#"<head><meta property="article:published_time" content="2023-11-06"></head>
        <body><h1>Instagram tests a video feature</h1><blockquote class="twitter-tweet"><p>New!</p>
        <p><a href="https://twitter.com/x/status/1">November 3, 2023</a></p></blockquote>
        <p>Text of the article.</p></body>"#,
    );
    assert_eq!(m, some("2023-11-06", "meta"));
}

#[test]
fn a_date_both_ways_readable_takes_the_reading_other_sources_confirm() {
    // `11/01/2021` reads 11 January day first, 1 November month first; the declaration says
    // which.
    let m = dated_alone(
        r#"<head><meta property="article:published_time" content="2021-11-01T04:00:14Z"></head>
        <body><h1>The e-scooter tested</h1><p>11/01/2021</p><p>Text.</p></body>"#,
    );
    assert_eq!(m.0.as_deref().map(|d| &d[..10]), Some("2021-11-01"));
    // Alone, day first.
    let m = dated_alone("<body><h1>T</h1><p>11/01/2021</p><p>Text.</p></body>");
    assert_eq!(m, some("2021-01-11", "text"));
}

#[test]
fn a_date_anywhere_on_the_page_when_nothing_else_gives_one() {
    let m = dated_alone(&format!(
        "<body><h1>T</h1>{}<div class=\"sidebar\"><p>26/10/2018</p></div></body>",
        filler(80)
    ));
    assert_eq!(m, some("2018-10-26", "text"));
}

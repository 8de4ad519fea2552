//! The segmenter's unit tests.

use super::attrs::AttrName;
use super::collapse::collapse_chars;
use super::{collapse_into, hides, marks_main};

fn collapsed(s: &str) -> (String, bool, bool) {
    let mut out = String::from("|");
    let (lead, trail) = collapse_into(s, &mut out);
    (out, lead, trail)
}

#[test]
fn white_space_is_collapsed_and_invisible_characters_dropped() {
    let c = |s: &str, t: &str, l: bool, r: bool| assert_eq!(collapsed(s), (t.into(), l, r));
    c("  a  b\t\n c ", "|a b c", true, true);
    c(
        "plain ASCII, no change.",
        "|plain ASCII, no change.",
        false,
        false,
    );
    c(
        "caf\u{e9}\u{a0}cr\u{e8}me",
        "|caf\u{e9} cr\u{e8}me",
        false,
        false,
    );
    c(
        "zero\u{200b}width\u{ad} soft\u{feff}",
        "|zerowidth soft",
        false,
        false,
    );
    c(
        "bell\u{7}\u{1}s\u{2003}\u{3000}end\r\n",
        "|bells end",
        false,
        true,
    );
    c(" \u{2028} ", "|", true, true);
    c("", "|", false, false);
    c("\u{200b}", "|", false, false);
}

#[test]
fn attribute_names_are_told_apart_in_any_case_and_by_whole_name() {
    for (name, kind) in [
        (&b"class"[..], AttrName::Class),
        (b"ID", AttrName::Id),
        (b"Href", AttrName::Href),
        (b"onClick", AttrName::Onclick),
        (b"hidden", AttrName::Hidden),
        (b"ARIA-HIDDEN", AttrName::AriaHidden),
        (b"style", AttrName::Style),
        (b"role", AttrName::Role),
        (b"itemProp", AttrName::Itemprop),
        (b"rel", AttrName::Rel),
    ] {
        assert_eq!(
            AttrName::of(name),
            kind,
            "{:?}",
            String::from_utf8_lossy(name)
        );
    }
    for other in [
        &b"classes"[..],
        b"ids",
        b"src",
        b"hre",
        b"=class",
        b"",
        b"styles",
        b"aria",
    ] {
        assert_eq!(AttrName::of(other), AttrName::Other);
    }
}

#[test]
fn attributes_that_hide_an_element() {
    assert!(hides(AttrName::of(b"hidden"), b""));
    assert!(hides(AttrName::of(b"HIDDEN"), b"hidden"));
    assert!(hides(AttrName::of(b"aria-hidden"), b"True"));
    assert!(!hides(AttrName::of(b"aria-hidden"), b"false"));
    assert!(marks_main(AttrName::of(b"role"), b" Main "));
    assert!(marks_main(AttrName::of(b"ROLE"), b"article"));
    assert!(!marks_main(AttrName::of(b"role"), b"navigation"));
    assert!(marks_main(
        AttrName::of(b"itemprop"),
        b"headline articleBody"
    ));
    assert!(marks_main(AttrName::of(b"itemprop"), b"text"));
    assert!(!marks_main(AttrName::of(b"itemprop"), b"author"));
    assert!(!marks_main(AttrName::of(b"class"), b"main"));
    assert!(hides(AttrName::of(b"style"), b"color: red; Display : None"));
    assert!(hides(AttrName::of(b"style"), b"visibility:\thidden"));
    assert!(!hides(AttrName::of(b"style"), b"display: block; margin: 0"));
    assert!(!hides(AttrName::of(b"class"), b"display:none"));
    // Short or absurdly long values cost nothing.
    assert!(!hides(AttrName::of(b"style"), b"x"));
    let long = [b'a'; 100_000];
    assert!(!hides(AttrName::of(b"style"), &long));
}

/// What a parse collects beyond the blocks ([`super::Collect`]) changes nothing else: the same
/// blocks, the same elements with the same classes; links and head are there only when asked.
#[test]
fn collecting_less_leaves_blocks_and_elements_alone() {
    use super::{Collect, Segmenter};
    let html = r#"<html><head><base href="https://x.org/d/"><meta name="author" content="Ann">
        <meta property="og:title" content="Head line"><link rel="canonical" href="/a">
        <script type="application/ld+json">{"@type":"Article","headline":"H"}</script></head>
        <body><h1>Title</h1><div class="postBody"><a rel="author" href="/author/ann">Ann</a>
        <time datetime="2024-05-01">May 1</time><p>Some <a href="/b">link</a> text.</p></div>
        </body></html>"#;
    let read = |c: Collect| {
        let mut s = Segmenter::new();
        s.set_collect(c);
        s.segment(html).expect("segments")
    };
    let (all, none) = (read(Collect::ALL), read(Collect::NONE));
    let texts = |p: &crate::Page| -> Vec<(String, u32)> {
        p.blocks
            .iter()
            .map(|b| (p.block_text(b).to_string(), b.parent))
            .collect()
    };
    let elements = |p: &crate::Page| -> Vec<(String, String, String)> {
        p.elements
            .iter()
            .map(|e| {
                let t = p.tag_name(e.tag).to_string();
                (t, p.class_of(e).to_string(), p.id_of(e).to_string())
            })
            .collect()
    };
    assert_eq!(texts(&all), texts(&none));
    assert_eq!(elements(&all), elements(&none));
    assert_eq!(all.declared, none.declared);
    // Everything: the links, the base and the head.
    assert_eq!(all.links.len(), 2);
    assert_eq!(all.base_href(), Some("https://x.org/d/"));
    assert_eq!(all.head.author.as_deref(), Some("Ann"));
    assert_eq!(all.head.og_title.as_deref(), Some("Head line"));
    assert_eq!(all.head.canonical.as_deref(), Some("/a"));
    assert_eq!(all.head.times.len(), 1);
    assert!(!all.head.marked.is_empty() && !all.head.json_ld.is_empty());
    let h1s: Vec<crate::Tag> = all.head.h1s.iter().map(|&e| all.element(e).tag).collect();
    assert_eq!(h1s, [crate::Tag::H1]);
    // Nothing: neither links nor head.
    assert!(none.links.is_empty() && none.base_href().is_none());
    assert_eq!(none.head, crate::Head::default());
    // Links without the head, and the other way round.
    let links = read(Collect {
        links: true,
        head: false,
    });
    assert_eq!(
        (links.links.len(), &links.head),
        (2, &crate::Head::default())
    );
    let head = read(Collect {
        links: false,
        head: true,
    });
    assert!(head.links.is_empty());
    assert_eq!(head.head, all.head);
}

/// [`collapse_chars`]'s output, as [`collapsed`] gives [`collapse_into`]'s.
fn collapsed_slowly(s: &str) -> (String, bool, bool) {
    let mut out = String::from("|");
    let (lead, trail) = collapse_chars(s, &mut out);
    (out, lead, trail)
}

#[test]
fn the_fast_path_for_printable_ascii_writes_what_the_character_loop_writes() {
    let pieces = [
        "a", "bc", " ", "  ", "\t", "\n", ",", "\u{a0}", "\u{e9}", "\u{200b}", "\u{7}", "~", "!",
    ];
    // Every sequence of up to four pieces: spaces single and doubled, at either end, next to
    // non-ASCII and invisible characters.
    let mut texts = vec![String::new()];
    for _ in 0..4 {
        let longer: Vec<String> = texts
            .iter()
            .flat_map(|t| pieces.iter().map(move |p| format!("{t}{p}")))
            .collect();
        texts.extend(longer);
    }
    for t in &texts {
        assert_eq!(collapsed(t), collapsed_slowly(t), "{t:?}");
    }
}

#[test]
fn a_piece_of_the_document_is_read_back_as_its_text() {
    use super::str_within;
    let doc = "<p class=\"caf\u{e9} main\">x</p>";
    let bytes = doc.as_bytes();
    let value = &bytes[10..20];
    assert_eq!(str_within(doc, value), Some("caf\u{e9} main"));
    assert_eq!(str_within(doc, &bytes[..0]), Some(""));
    // Cut inside the two bytes of `é`: not text.
    assert_eq!(str_within(doc, &bytes[10..14]), None);
    // Bytes of another buffer, before or after the document in memory.
    let other = String::from(doc);
    assert_eq!(str_within(doc, &other.as_bytes()[10..20]), None);
}

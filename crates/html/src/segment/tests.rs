//! The segmenter's unit tests.

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
fn attributes_that_hide_an_element() {
    assert!(hides(b"hidden", b""));
    assert!(hides(b"HIDDEN", b"hidden"));
    assert!(hides(b"aria-hidden", b"True"));
    assert!(!hides(b"aria-hidden", b"false"));
    assert!(marks_main(b"role", b" Main "));
    assert!(marks_main(b"ROLE", b"article"));
    assert!(!marks_main(b"role", b"navigation"));
    assert!(marks_main(b"itemprop", b"headline articleBody"));
    assert!(marks_main(b"itemprop", b"text"));
    assert!(!marks_main(b"itemprop", b"author"));
    assert!(!marks_main(b"class", b"main"));
    assert!(hides(b"style", b"color: red; Display : None"));
    assert!(hides(b"style", b"visibility:\thidden"));
    assert!(!hides(b"style", b"display: block; margin: 0"));
    assert!(!hides(b"class", b"display:none"));
    // Short or absurdly long values cost nothing.
    assert!(!hides(b"style", b"x"));
    let long = [b'a'; 100_000];
    assert!(!hides(b"style", &long));
}

//! The tokenizer's unit tests.

use super::*;

fn events(html: &str) -> Vec<String> {
    let mut out = Vec::new();
    Lexer::new(html.as_bytes()).run(|e| {
        out.push(match e {
            Event::Text { range, kind } => format!("{kind:?}:{}", &html[range]),
            Event::Tag(_) => return true,
            Event::Comment(r) => format!("Comment:{}", &html[r]),
            Event::Doctype {
                range,
                name,
                public_id,
                system_id,
            } => format!(
                "Doctype:{}|{:?}|{:?}|{:?}",
                &html[range],
                name.map(|r| &html[r]),
                public_id.map(|r| &html[r]),
                system_id.map(|r| &html[r])
            ),
        });
        true
    });
    out
}

#[test]
fn hashes_are_lol_htmls() {
    // Values from lol_html's `Tag` enum.
    assert_eq!(NameHash::of("svg").0, 25_452);
    assert_eq!(NameHash::of("math").0, 596_781);
    assert_eq!(NameHash::of("font").0, 381_561);
    assert_eq!(NameHash::of("foreignobject").0, 13_428_975_859_192_539_417);
    assert!(NameHash::of("annotation-xml").is_empty());
    assert!(NameHash::of("h7").is_empty());
}

#[test]
fn text_types_follow_the_tags() {
    assert_eq!(
        events("<p>a &amp; b</p><title>x<b></title><script>if (a<b) x()</script>z"),
        vec![
            "Data:a &amp; b",
            "RcData:x",
            "RcData:<",
            "RcData:b>",
            "ScriptData:if (a",
            "ScriptData:<",
            "ScriptData:b) x()",
            "Data:z"
        ]
    );
    assert_eq!(
        events("<svg><style>a</style><![CDATA[x]y]]></svg><style>b</style>"),
        vec![
            "Data:a",
            "CDataSection:x",
            "CDataSection:]",
            "CDataSection:y",
            "RawText:b"
        ]
    );
    // `=` then `>`: the data state, with script's text type.
    assert_eq!(
        events("<script src=>x<b>y</script>"),
        vec!["ScriptData:x", "Data:y"]
    );
}

#[test]
fn comments_doctypes_and_the_end_of_input() {
    assert_eq!(
        events("<!DOCTYPE html PUBLIC \"-//W3C\" 'x'><!--c--><?php x ?>a</ b>b<!x"),
        vec![
            "Doctype:<!DOCTYPE html PUBLIC \"-//W3C\" 'x'>|Some(\"html\")|Some(\"-//W3C\")|Some(\"x\")",
            "Comment:<!--c-->",
            "Comment:<?php x ?>",
            "Data:a",
            "Comment:</ b>",
            "Data:b",
            "Comment:<!x"
        ]
    );
    assert_eq!(
        events("a < b </"),
        vec!["Data:a ", "Data:<", "Data: b ", "Data:</"]
    );
    assert_eq!(events("a<div class=\"x"), vec!["Data:a"]);
    assert_eq!(events("<!-- a -- b"), vec!["Comment:<!-- a -- b"]);
}

#[test]
fn long_pieces_that_continue_text_come_in_chunks_of_at_most_1024_bytes() {
    let long = "\u{e9}".repeat(1000);
    let html = format!("a < {long}");
    let mut lens = Vec::new();
    Lexer::new(html.as_bytes()).run(|e| {
        if let Event::Text { range, .. } = e {
            lens.push(range.len());
        }
        true
    });
    // "a ", then "<" starts a text node's continuation: " " and 2,000 bytes of text.
    assert_eq!(lens.iter().sum::<usize>(), html.len());
    assert_eq!(&lens[..2], &[2, 1]);
    assert!(lens.len() >= 4 && lens[2..].iter().all(|&n| n <= TEXT_BUFFER_LEN));
}

#[test]
fn script_escapes() {
    assert_eq!(
        events("<script><!--<script>x</script>y</script>z"),
        vec![
            "ScriptData:<!--",
            "ScriptData:<script>x",
            "ScriptData:</script>y",
            "Data:z"
        ]
    );
}

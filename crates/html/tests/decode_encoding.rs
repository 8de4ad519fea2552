//! Encoding detection, end to end: raw bytes -> [`decode`] -> [`segment`] -> exact block texts.
//!
//! The order of evidence is the one `decode`'s module docs give: byte-order mark, valid UTF-8
//! (whatever a `<meta>` claims), a `<meta>` declaration, chardetng's guess, UTF-8. Every case
//! asserts the encoding chosen, how it was chosen, and the text that comes out.

use std::path::{Path, PathBuf};

use victor_html::EncodingSource;
use victor_html::{DecodeError, decode, segment};

/// Decodes and segments, returning the encoding's name, its source, and the block texts.
fn read(bytes: &[u8]) -> (&'static str, EncodingSource, Vec<String>) {
    let d = decode(bytes).expect("decodes");
    let page = segment(&d.text).expect("segments");
    let texts = page
        .blocks
        .iter()
        .map(|b| page.block_text(b).to_string())
        .collect();
    (d.encoding.name(), d.source, texts)
}

fn encode(enc: &'static encoding_rs::Encoding, text: &str) -> Vec<u8> {
    let (bytes, _, unmappable) = enc.encode(text);
    assert!(!unmappable, "test text not representable in {}", enc.name());
    bytes.into_owned()
}

// ----- byte-order marks ---------------------------------------------------------------------

#[test]
fn utf8_bom_is_dropped_and_wins_over_a_meta() {
    let mut page = vec![0xef, 0xbb, 0xbf];
    page.extend_from_slice("<meta charset=windows-1252><p>caf\u{e9} \u{2019}</p>".as_bytes());
    let (enc, source, blocks) = read(&page);
    assert_eq!((enc, source), ("UTF-8", EncodingSource::Bom));
    assert_eq!(blocks, ["caf\u{e9} \u{2019}"]);
}

#[test]
fn utf16le_bom() {
    let mut page = vec![0xff, 0xfe];
    for u in "<title>T\u{e9}</title><p>\u{17e}luto \u{1f600}</p>".encode_utf16() {
        page.extend_from_slice(&u.to_le_bytes());
    }
    let d = decode(&page).expect("decodes");
    assert_eq!(d.text, "<title>T\u{e9}</title><p>\u{17e}luto \u{1f600}</p>");
    let (enc, source, blocks) = read(&page);
    assert_eq!((enc, source), ("UTF-16LE", EncodingSource::Bom));
    assert_eq!(blocks, ["\u{17e}luto \u{1f600}"]);
}

#[test]
fn utf16be_bom() {
    let mut page = vec![0xfe, 0xff];
    for u in "<p>\u{3b1}\u{3b2}\u{3b3}</p><p>two</p>".encode_utf16() {
        page.extend_from_slice(&u.to_be_bytes());
    }
    let (enc, source, blocks) = read(&page);
    assert_eq!((enc, source), ("UTF-16BE", EncodingSource::Bom));
    assert_eq!(blocks, ["\u{3b1}\u{3b2}\u{3b3}", "two"]);
}

// ----- declarations -------------------------------------------------------------------------

#[test]
fn meta_charset_decides_for_legacy_bytes() {
    let mut page = b"<html><head><meta charset=\"windows-1252\"></head><body><p>".to_vec();
    page.extend_from_slice(&encode(
        encoding_rs::WINDOWS_1252,
        "\u{201c}Caf\u{e9}\u{201d} \u{2013} na\u{ef}ve",
    ));
    page.extend_from_slice(b"</p></body></html>");
    let (enc, source, blocks) = read(&page);
    assert_eq!((enc, source), ("windows-1252", EncodingSource::Meta));
    assert_eq!(blocks, ["\u{201c}Caf\u{e9}\u{201d} \u{2013} na\u{ef}ve"]);
}

#[test]
fn http_equiv_content_type_decides_for_legacy_bytes() {
    let text = "\u{41f}\u{440}\u{438}\u{432}\u{435}\u{442}, \u{43c}\u{438}\u{440}";
    let mut page = b"<html><head><META HTTP-EQUIV=\"Content-Type\" CONTENT=\"text/html; charset=windows-1251\"></head><body><p>".to_vec();
    page.extend_from_slice(&encode(encoding_rs::WINDOWS_1251, text));
    page.extend_from_slice(b"</p></body></html>");
    let (enc, source, blocks) = read(&page);
    assert_eq!((enc, source), ("windows-1251", EncodingSource::Meta));
    assert_eq!(blocks, [text]);
}

#[test]
fn iso_8859_1_label_means_windows_1252() {
    // As in browsers: bytes 0x80..0x9f of a page declared ISO-8859-1 are windows-1252.
    let mut page =
        b"<meta http-equiv=content-type content='text/html;charset=iso-8859-1'><p>".to_vec();
    page.extend_from_slice(b"\x93quoted\x94 \x85 \xe9t\xe9");
    let (enc, source, blocks) = read(&page);
    assert_eq!((enc, source), ("windows-1252", EncodingSource::Meta));
    assert_eq!(blocks, ["\u{201c}quoted\u{201d} \u{2026} \u{e9}t\u{e9}"]);
}

#[test]
fn declared_utf16_in_an_ascii_document_means_utf8() {
    let mut page = b"<meta charset=utf-16><p>".to_vec();
    page.extend_from_slice(b"\xff plain");
    let d = decode(&page).expect("decodes");
    assert_eq!(d.encoding, encoding_rs::UTF_8);
    assert_eq!(d.source, EncodingSource::Meta);
    assert!(d.had_errors, "0xff is not UTF-8");
}

#[test]
fn a_stray_legacy_byte_in_a_declared_utf8_page_is_windows_1252() {
    // Declared UTF-8, ASCII but for one windows-1252 apostrophe and one e acute: too little
    // UTF-8 to call it mostly UTF-8, but the declaration says UTF-8; the stray bytes are read
    // as windows-1252 rather than as U+FFFD.
    let page = b"<meta charset=utf-8><p>Insurance coverage\x92s and VisualCaf\xe9 tools</p>";
    let (enc, source, blocks) = read(page);
    assert_eq!((enc, source), ("UTF-8", EncodingSource::Meta));
    assert_eq!(
        blocks,
        ["Insurance coverage\u{2019}s and VisualCaf\u{e9} tools"]
    );
}

#[test]
fn ascii_page_with_a_declaration_reports_it() {
    let (enc, source, blocks) = read(b"<meta charset=iso-8859-2><p>plain ascii</p>");
    assert_eq!((enc, source), ("UTF-8", EncodingSource::Meta));
    assert_eq!(blocks, ["plain ascii"]);
    let (enc, source, _) = read(b"<p>plain ascii</p>");
    assert_eq!((enc, source), ("UTF-8", EncodingSource::Default));
}

// ----- a meta that lies ---------------------------------------------------------------------

#[test]
fn lying_meta_valid_utf8_stays_utf8() {
    let page = "<html><head><meta http-equiv=\"Content-Type\" content=\"text/html; charset=ISO-8859-1\"/></head>\
                <body><h1>No agreement reached on Kosovo\u{2019}s future</h1><p>\u{201c}Talks\u{201d} \u{2014} caf\u{e9}</p></body></html>";
    let (enc, source, blocks) = read(page.as_bytes());
    assert_eq!((enc, source), ("UTF-8", EncodingSource::ValidUtf8));
    assert_eq!(
        blocks,
        [
            "No agreement reached on Kosovo\u{2019}s future",
            "\u{201c}Talks\u{201d} \u{2014} caf\u{e9}"
        ]
    );
}

fn data_dir() -> Option<PathBuf> {
    let dir = std::env::var_os("VICTOR_DATA")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data"));
    dir.is_dir().then_some(dir)
}

#[test]
fn lying_meta_on_a_real_l3s_page() {
    let Some(dir) = data_dir() else {
        eprintln!("skipped: ../shared/data not found (set VICTOR_DATA); lying-meta page not read");
        return;
    };
    let path = dir.join("l3s-gn1/html/01ccc7c5-a1d1-46e1-a5f7-43310df16575.html");
    let Ok(bytes) = std::fs::read(&path) else {
        eprintln!(
            "skipped: {} not found; lying-meta page not read",
            path.display()
        );
        return;
    };
    // The page declares ISO-8859-1 ...
    let head = String::from_utf8_lossy(&bytes[..bytes.len().min(4096)]).to_ascii_lowercase();
    assert!(head.contains("charset=iso-8859-1"));
    // ... but is UTF-8, and must read as such.
    let (enc, source, blocks) = read(&bytes);
    assert_eq!((enc, source), ("UTF-8", EncodingSource::ValidUtf8));
    assert!(
        blocks
            .iter()
            .any(|b| b.contains("No agreement reached on Kosovo\u{2019}s future status")),
        "the headline with U+2019 is missing"
    );
    for b in &blocks {
        assert!(
            !b.contains("\u{e2}\u{80}") && !b.contains('\u{fffd}'),
            "mojibake in {b:?}"
        );
    }
}

// ----- mostly UTF-8 ------------------------------------------------------------------------

#[test]
fn utf8_page_with_a_stray_legacy_byte_stays_utf8() {
    // A UTF-8 page (curly quotes, an e acute) with one windows-1252 apostrophe pasted in, and a
    // meta that claims ISO-8859-1: not valid UTF-8, but plainly UTF-8.
    let mut page =
        b"<meta charset=iso-8859-1><p>\xe2\x80\x9cCaf\xc3\xa9\xe2\x80\x9d, they said. It".to_vec();
    page.extend_from_slice(b"\x92s open.</p>");
    let d = decode(&page).expect("decodes");
    assert_eq!(
        (d.encoding.name(), d.source, d.had_errors),
        ("UTF-8", EncodingSource::MostlyUtf8, true)
    );
    let (_, _, blocks) = read(&page);
    assert_eq!(
        blocks,
        ["\u{201c}Caf\u{e9}\u{201d}, they said. It\u{2019}s open."]
    );
}

#[test]
fn cut_utf8_sequences_become_replacement_characters() {
    // Em dashes whose last byte a broken converter replaced with a quote, and apostrophes that
    // survived: without this rule chardetng read the page as IBM866 (`you\u{442}\u{410}\u{429}ll`).
    let mut page = b"<p>".to_vec();
    for _ in 0..5 {
        page.extend_from_slice(b"our Sun signs\xe2\x80\"Libra and you\xe2\x80\x99ll see. ");
    }
    page.extend_from_slice(b"</p>");
    let (enc, source, blocks) = read(&page);
    assert_eq!((enc, source), ("UTF-8", EncodingSource::MostlyUtf8));
    assert_eq!(
        blocks,
        ["our Sun signs\u{fffd}\"Libra and you\u{2019}ll see. "
            .repeat(5)
            .trim_end()]
    );
}

#[test]
fn legacy_text_with_a_chance_utf8_pair_is_not_utf8() {
    // Windows-1252 French with many lone accented bytes and one pair that happens to be valid
    // UTF-8 ("\u{c3}\u{a9}" = C3 A9): the lone bytes outvote it.
    let mut page = b"<meta charset=windows-1252><p>".to_vec();
    page.extend_from_slice(&encode(
        encoding_rs::WINDOWS_1252,
        "L\u{e9}t\u{e9} fut tr\u{e8}s long, d\u{e9}j\u{e0} \u{c3}\u{a9}trange.",
    ));
    page.extend_from_slice(b"</p>");
    let (enc, source, blocks) = read(&page);
    assert_eq!((enc, source), ("windows-1252", EncodingSource::Meta));
    assert_eq!(
        blocks,
        ["L\u{e9}t\u{e9} fut tr\u{e8}s long, d\u{e9}j\u{e0} \u{c3}\u{a9}trange."]
    );
}

// ----- guesses ------------------------------------------------------------------------------

#[test]
fn english_with_a_few_symbol_bytes_is_windows_1252() {
    // Undeclared English with pound signs and a section sign: chardetng alone reads 0xA3 as a
    // Polish capital L with stroke (`\u{141}3,000`).
    let text = "Graduates joining the scheme in Bristol will be earning \u{a3}3,000 more than \
                last year, and those in the region of \u{a3}6,000 to \u{a3}8,000 a year can \
                expect a rise as well. See the terms in \u{a7}4 of the agreement, which every \
                employer in the region signed in the spring after long talks with the unions.";
    let more = "The unions said that the talks had been hard but fair, and that their members \
                would vote on the offer before the end of the month. Employers in the city said \
                they hoped the agreement would help them to keep their staff, since many young \
                people leave the region for jobs in the capital after their first few years. \
                The scheme will be reviewed again next year by both sides of the agreement.";
    let mut page = b"<html><body><p>".to_vec();
    page.extend_from_slice(&encode(encoding_rs::WINDOWS_1252, text));
    page.extend_from_slice(format!("</p><p>{more}</p><p>{more}</p></body></html>").as_bytes());
    let (enc, source, blocks) = read(&page);
    assert_eq!(
        (enc, source),
        ("windows-1252", EncodingSource::SparseSymbols)
    );
    assert_eq!(blocks, [text, more, more]);
}

#[test]
fn undeclared_central_european_text_keeps_its_guess() {
    // Czech: one letter in ten carries a diacritic, far more than a few symbols.
    let text = "P\u{159}\u{ed}li\u{161} \u{17e}lu\u{165}ou\u{10d}k\u{fd} k\u{16f}\u{148} \
                \u{fa}p\u{11b}l \u{10f}\u{e1}belsk\u{e9} \u{f3}dy. V\u{161}echny d\u{11b}ti \
                \u{161}ly do \u{161}koly a u\u{10d}itel\u{e9} jim \u{159}ekli, \u{17e}e \
                zem\u{11b}d\u{11b}lstv\u{ed} je d\u{16f}le\u{17e}it\u{e9}.";
    let mut page = b"<html><body><p>".to_vec();
    page.extend_from_slice(&encode(encoding_rs::WINDOWS_1250, text));
    page.extend_from_slice(b"</p></body></html>");
    let (enc, source, blocks) = read(&page);
    assert_eq!((enc, source), ("windows-1250", EncodingSource::Guess));
    assert_eq!(blocks, [text]);
}

#[test]
fn a_long_script_does_not_make_legacy_text_sparse() {
    // Script code is not text: counted as letters, 10 KB of it outweighed the diacritics of a
    // Czech paragraph, and the page was read as windows-1252 with a few symbols.
    let text = "P\u{159}\u{ed}li\u{161} \u{17e}lu\u{165}ou\u{10d}k\u{fd} k\u{16f}\u{148} \
                \u{fa}p\u{11b}l \u{10f}\u{e1}belsk\u{e9} \u{f3}dy.";
    let script = "var a = function (x) { return x * 2; }; ".repeat(250);
    let mut page = format!(
        "<html><head><script>{script}</script><style>p {{ color: red; }}</style></head><body><p>"
    )
    .into_bytes();
    page.extend_from_slice(&encode(encoding_rs::WINDOWS_1250, text));
    page.extend_from_slice(b"</p></body></html>");
    let (enc, source, blocks) = read(&page);
    assert_eq!((enc, source), ("windows-1250", EncodingSource::Guess));
    assert_eq!(blocks, [text]);
}

#[test]
fn undeclared_windows_1252_is_guessed() {
    let text = "Le caf\u{e9} est d\u{e9}j\u{e0} ferm\u{e9} \u{2013} \u{ab}\u{a0}tr\u{e8}s \
                t\u{f4}t\u{a0}\u{bb}, dit-elle. L\u{2019}\u{e9}t\u{e9} fut tr\u{e8}s long \
                et la for\u{ea}t br\u{fb}lait pr\u{e8}s du ch\u{e2}teau.";
    let mut page = b"<html><body><p>".to_vec();
    page.extend_from_slice(&encode(encoding_rs::WINDOWS_1252, text));
    page.extend_from_slice(b"</p></body></html>");
    let (enc, source, blocks) = read(&page);
    assert_eq!((enc, source), ("windows-1252", EncodingSource::Guess));
    // No-break spaces are white space for the block text.
    assert_eq!(blocks, [text.replace("\u{a0}", " ")]);
}

#[test]
fn undeclared_windows_1251_is_guessed() {
    let text = "\u{41c}\u{43e}\u{441}\u{43a}\u{432}\u{430} - \u{441}\u{442}\u{43e}\u{43b}\u{438}\u{446}\u{430} \
                \u{420}\u{43e}\u{441}\u{441}\u{438}\u{438}, \u{43a}\u{440}\u{443}\u{43f}\u{43d}\u{435}\u{439}\u{448}\u{438}\u{439} \
                \u{433}\u{43e}\u{440}\u{43e}\u{434} \u{441}\u{442}\u{440}\u{430}\u{43d}\u{44b}.";
    let mut page = b"<html><body><div>".to_vec();
    page.extend_from_slice(&encode(encoding_rs::WINDOWS_1251, text));
    page.extend_from_slice(b"</div></body></html>");
    let (enc, source, blocks) = read(&page);
    assert_eq!((enc, source), ("windows-1251", EncodingSource::Guess));
    assert_eq!(blocks, [text]);
}

#[test]
fn undeclared_shift_jis_is_guessed() {
    let text = "\u{65e5}\u{672c}\u{8a9e}\u{306e}\u{30da}\u{30fc}\u{30b8}\u{3067}\u{3059}\u{3002}\
                \u{6771}\u{4eac}\u{306f}\u{4eca}\u{65e5}\u{3082}\u{6674}\u{308c}\u{3066}\u{3044}\u{307e}\u{3059}\u{3002}\
                \u{30cb}\u{30e5}\u{30fc}\u{30b9}\u{306e}\u{672c}\u{6587}\u{3092}\u{8aad}\u{307f}\u{307e}\u{3057}\u{3087}\u{3046}\u{3002}";
    let mut page = b"<html><body><p>".to_vec();
    page.extend_from_slice(&encode(encoding_rs::SHIFT_JIS, text));
    page.extend_from_slice(b"</p></body></html>");
    let (enc, source, blocks) = read(&page);
    assert_eq!((enc, source), ("Shift_JIS", EncodingSource::Guess));
    assert_eq!(blocks, [text]);
}

#[test]
fn legacy_text_far_apart_in_long_markup_is_still_guessed() {
    // chardetng sees only the non-ASCII bytes with some ASCII around them: pieces of text tens
    // of kilobytes apart, with only markup between them, must give the same guesses as before.
    let markup =
        r#"<div class="navigation-item-wrapper" data-href="/section/item/index.html"></div>"#
            .repeat(300);
    // chardetng answers KOI8-U, KOI8-R's superset, for the KOI8 family.
    let cases: [(
        &'static encoding_rs::Encoding,
        &'static encoding_rs::Encoding,
        &str,
    ); 3] = [
        (
            encoding_rs::WINDOWS_1251,
            encoding_rs::WINDOWS_1251,
            "\u{41c}\u{43e}\u{441}\u{43a}\u{432}\u{430} - \u{441}\u{442}\u{43e}\u{43b}\u{438}\u{446}\u{430} \u{420}\u{43e}\u{441}\u{441}\u{438}\u{438}.",
        ),
        (
            encoding_rs::KOI8_R,
            encoding_rs::KOI8_U,
            "\u{41c}\u{43e}\u{441}\u{43a}\u{432}\u{430} - \u{441}\u{442}\u{43e}\u{43b}\u{438}\u{446}\u{430} \u{420}\u{43e}\u{441}\u{441}\u{438}\u{438}.",
        ),
        (
            encoding_rs::SHIFT_JIS,
            encoding_rs::SHIFT_JIS,
            "\u{6771}\u{4eac}\u{306f}\u{4eca}\u{65e5}\u{3082}\u{6674}\u{308c}\u{3066}\u{3044}\u{307e}\u{3059}\u{3002}",
        ),
    ];
    for (encoding, guessed, text) in cases {
        let mut page = b"<html><body>".to_vec();
        for _ in 0..3 {
            page.extend_from_slice(markup.as_bytes());
            page.extend_from_slice(b"<p>");
            page.extend_from_slice(&encode(encoding, text));
            page.extend_from_slice(b"</p>");
        }
        page.extend_from_slice(markup.as_bytes());
        page.extend_from_slice(b"</body></html>");
        let (enc, source, blocks) = read(&page);
        assert_eq!((enc, source), (guessed.name(), EncodingSource::Guess));
        assert_eq!(blocks, [text, text, text]);
    }
}

// ----- not a page ---------------------------------------------------------------------------

#[test]
fn binary_junk_is_refused() {
    let samples: [&[u8]; 4] = [
        b"\x7fELF\x02\x01\x01\0\0\0\0\0\0\0\0\0\x03\0>\0\x01\0\0\0",
        b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\0\x10\0\0\0\x10\x08\x06\0\0\0",
        b"\x1f\x8b\x08\0\0\0\0\0\0\x03\xcbH\xcd\xc9\xc9\x07\0\x86\xa6\x106\x05\0\0\0",
        // no NUL, but mostly control characters
        b"\x01\x02\x03\x04\x05\x06\x07\x08\x0e\x0f\x10\x11\x12\x13\x14\x15\x16\x17<p>x</p>",
    ];
    for s in samples {
        assert!(
            matches!(decode(s), Err(DecodeError::Binary(_))),
            "accepted {s:?}"
        );
    }
}

#[test]
fn empty_and_blank_input_give_no_blocks() {
    for input in [
        &b""[..],
        b"   \n\t  ",
        b"\xef\xbb\xbf",
        b"<!-- only a comment -->",
    ] {
        let (_, _, blocks) = read(input);
        assert!(blocks.is_empty(), "{input:?} gave {blocks:?}");
    }
    let d = decode(b"").expect("empty decodes");
    assert_eq!(
        (&*d.text, d.source, d.had_errors),
        ("", EncodingSource::Default, false)
    );
}

// ----- issue 34: a declared UTF-8 that lies, UTF-16 without a byte-order mark ---------------

#[test]
fn a_utf8_declaration_over_windows_1251_bytes_falls_back_to_detection() {
    let text = "Москва является столицей России и крупнейшим городом страны.";
    let page = format!(
        "<html><head><meta charset=\"utf-8\"><title>Новости</title></head><body><p>{}</p></body></html>",
        [text; 6].join(" ")
    );
    let (enc, source, blocks) = read(&encode(encoding_rs::WINDOWS_1251, &page));
    assert_eq!((enc, source), ("windows-1251", EncodingSource::Guess));
    assert_eq!(blocks, [[text; 6].join(" ")]);
    // The same bytes without the declaration read the same.
    let bare = page.replace("<meta charset=\"utf-8\">", "");
    let (enc, _, blocks) = read(&encode(encoding_rs::WINDOWS_1251, &bare));
    assert_eq!(enc, "windows-1251");
    assert_eq!(blocks, [[text; 6].join(" ")]);
}

#[test]
fn utf16_without_a_byte_order_mark_but_declared_is_decoded() {
    let page = "<html><head><meta charset=\"utf-16\"><title>T</title></head>\
                <body><p>\u{17e}luto\u{17e} k\u{16f}\u{148} \u{3b1}\u{3b2}\u{3b3}</p></body></html>";
    let le: Vec<u8> = page.encode_utf16().flat_map(u16::to_le_bytes).collect();
    let be: Vec<u8> = page.encode_utf16().flat_map(u16::to_be_bytes).collect();
    for (bytes, name) in [(le, "UTF-16LE"), (be, "UTF-16BE")] {
        let (enc, source, blocks) = read(&bytes);
        assert_eq!((enc, source), (name, EncodingSource::Meta));
        assert_eq!(
            blocks,
            ["\u{17e}luto\u{17e} k\u{16f}\u{148} \u{3b1}\u{3b2}\u{3b3}"]
        );
    }
}

// ----- issue 60: UTF-16 without a byte-order mark nor a declaration -------------------------

#[test]
fn undeclared_utf16_without_a_byte_order_mark_is_recognised_by_its_layout() {
    let page = "<html><head><title>Zpr\u{e1}vy</title></head>\
                <body><p>\u{17e}luto\u{17e} k\u{16f}\u{148} \u{3b1}\u{3b2}\u{3b3} \u{1f600}</p></body></html>";
    let le: Vec<u8> = page.encode_utf16().flat_map(u16::to_le_bytes).collect();
    let be: Vec<u8> = page.encode_utf16().flat_map(u16::to_be_bytes).collect();
    for (bytes, name) in [(le, "UTF-16LE"), (be, "UTF-16BE")] {
        let (enc, source, blocks) = read(&bytes);
        assert_eq!((enc, source), (name, EncodingSource::Utf16Layout));
        assert_eq!(
            blocks,
            ["\u{17e}luto\u{17e} k\u{16f}\u{148} \u{3b1}\u{3b2}\u{3b3} \u{1f600}"]
        );
    }
    // A surrogate pair across the end of the 4 KiB looked at (code units 2047 and 2048) does not
    // count as a broken code unit.
    let long = format!("<p>{}\u{1f600}{}</p>", "a".repeat(2044), "b".repeat(100));
    let bytes: Vec<u8> = long.encode_utf16().flat_map(u16::to_le_bytes).collect();
    assert_eq!(
        decode(&bytes).expect("decodes").source,
        EncodingSource::Utf16Layout
    );
    // UTF-16 that is not markup is still refused, and the message says what it looks like.
    let prose: Vec<u8> = "plain text in UTF-16, no markup"
        .encode_utf16()
        .flat_map(u16::to_le_bytes)
        .collect();
    let err = decode(&prose).expect_err("not HTML");
    assert!(err.to_string().contains("laid out as UTF-16"), "{err}");
    // Binary data with NUL bytes everywhere stays plain binary.
    let err = decode(&[0u8; 64]).expect_err("binary");
    assert!(err.to_string().contains("(NUL bytes)"), "{err}");
}

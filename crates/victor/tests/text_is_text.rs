//! Issue 60, item 4: the text output holds no markup that stands in the page as markup. A page
//! saved from a browser's document with scripting on holds each `<noscript>`'s raw text
//! escaped; its escaped tags once tipped the page into its crawler view, whose text then showed
//! them (readability-tests' yahoo-4: `<div class="alertBox"> <div class="alert"> ...`). The
//! real page is checked when `../shared/data` (or `$VICTOR_DATA`) is there; without it that
//! part says `skipped`.

use std::path::PathBuf;

/// A tag of the kinds that leaked, as text: `<div`, `<p>`, `<img `, `</div>`, `<i></i>`.
fn has_tag(text: &str) -> bool {
    [
        "<div", "</div>", "<p>", "</p>", "<img ", "<i></i>", "<em>", "<br>",
    ]
    .iter()
    .any(|t| text.contains(t))
}

#[test]
fn escaped_tags_in_noscript_stay_out_of_the_text() {
    let cleaner = victor::Cleaner::builtin().expect("built-in model");
    let pixel = "<noscript>&lt;div style=\"position:absolute;\"&gt;&lt;img width=1 height=1 alt=\"\" src=\"http://b5.example.jp/b?P=oI9TLjE4Mi66RLpAorxEdAVuMTE4LgAAAAA2TzUA&amp;T=16lu7dcl9%2fX%3d1489053188%2fE%3d2078709551%2fR%3djp_hdln_te%2fK%3d5%2fV%3d2.1%2fW%3dH%2fY%3djp%2fF%3d779653832\"&gt;&lt;/div&gt;</noscript>";
    let notice = "<noscript>\n&lt;div class=\"alertBox\"&gt;&lt;p&gt;現在&lt;em&gt;JavaScriptが無効&lt;/em&gt;になっています。&lt;br&gt;設定を有効にしてください。&lt;/p&gt;&lt;/div&gt;\n</noscript>";
    let body = "<p>トレンドマイクロは3月9日、Wi-Fi利用時の通信を暗号化し保護するスマホ・タブレット向けのセキュリティアプリの発売を開始すると発表した。1年版ライセンスは2900円（税込）で、2年版ライセンスは5000円（税込）。</p>";
    let html = format!(
        "<html><head><meta charset=utf-8><title>ニュース</title></head><body>{}<div id=main>{notice}<h1>見出し</h1>{}</div>{}</body></html>",
        pixel.repeat(10),
        body.repeat(3),
        pixel.repeat(10)
    );
    let text = cleaner.clean(html.as_bytes()).expect("cleans");
    assert!(text.contains("トレンドマイクロ"), "{text}");
    assert!(!has_tag(&text), "markup in the text: {text}");
}

fn data_dir() -> Option<PathBuf> {
    let dir = std::env::var_os("VICTOR_DATA").map_or_else(
        || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data"),
        PathBuf::from,
    );
    dir.is_dir().then_some(dir)
}

#[test]
fn yahoo_4_keeps_its_text_without_the_noscript_markup() {
    let Some(data) = data_dir() else {
        eprintln!("skipped: ../shared/data (or $VICTOR_DATA) not found");
        return;
    };
    let page = data.join("readability-tests/html/yahoo-4.html");
    let Ok(bytes) = std::fs::read(&page) else {
        eprintln!("skipped: {} not found", page.display());
        return;
    };
    let text = victor::Cleaner::builtin()
        .expect("built-in model")
        .clean(&bytes)
        .expect("cleans");
    assert!(!has_tag(&text), "markup in the text: {text:.300}");
    assert!(
        text.starts_with("トレンドマイクロは3月9日"),
        "the article first: {text:.300}"
    );
}

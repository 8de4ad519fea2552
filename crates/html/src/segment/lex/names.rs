//! lol_html's local name hash of tag names, which the tree-builder simulator compares names
//! by and the segmenter looks tags up by ([`name_hash`]), and the hashes of the names the
//! simulator knows.

/// lol_html's local name hash of a tag name: five bits a character (the digits 1 to 6, then
/// letters in any case), `None` for a name with any other character or too long for 64 bits.
/// Distinct names that start with a letter (every tag name does) have distinct hashes: the
/// first character's code is not 0, so the hash is the name written in base 32.
pub(crate) fn name_hash(name: &[u8]) -> Option<u64> {
    let h = name.iter().fold(NameHash(0), |h, &c| h.update(c));
    (!h.is_empty() && !name.is_empty()).then_some(h.0)
}

/// lol_html's local name hash: five bits a character (digits 1 to 6, then letters, any case),
/// [`EMPTY`] for a name with any other character or too long to fit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct NameHash(pub(super) u64);

pub(super) const EMPTY: u64 = !0;

impl NameHash {
    #[inline]
    pub(super) const fn update(self, ch: u8) -> NameHash {
        let h = self.0;
        if h >> (64 - 5) != 0 {
            return NameHash(EMPTY);
        }
        NameHash(match ch {
            b'a'..=b'z' | b'A'..=b'Z' => (h << 5) | ((ch as u64 & 0x1F) + 5),
            b'1'..=b'6' => (h << 5) | ((ch as u64 & 0x0F) - 1),
            _ => EMPTY,
        })
    }

    pub(super) const fn of(name: &str) -> NameHash {
        let b = name.as_bytes();
        let mut h = NameHash(0);
        let mut i = 0;
        while i < b.len() {
            h = h.update(b[i]);
            i += 1;
        }
        h
    }

    #[inline]
    pub(super) fn is_empty(self) -> bool {
        self.0 == EMPTY
    }

    #[inline]
    pub(super) fn is_one_of(self, names: &[NameHash]) -> bool {
        names.contains(&self)
    }
}

/// The hashes of the tag names the tree-builder simulator knows.
pub(super) mod known {
    use super::NameHash;

    macro_rules! hashes {
        ($($id:ident = $s:literal),* $(,)?) => {
            $(pub(in crate::segment::lex) const $id: NameHash = NameHash::of($s);)*
        };
    }

    hashes!(
        TEXTAREA = "textarea",
        TITLE = "title",
        PLAINTEXT = "plaintext",
        SCRIPT = "script",
        STYLE = "style",
        IFRAME = "iframe",
        XMP = "xmp",
        NOEMBED = "noembed",
        NOFRAMES = "noframes",
        NOSCRIPT = "noscript",
        SVG = "svg",
        MATH = "math",
        FONT = "font",
        P = "p",
        BR = "br",
        MI = "mi",
        MO = "mo",
        MN = "mn",
        MS = "ms",
        MTEXT = "mtext",
        DESC = "desc",
        FOREIGN_OBJECT = "foreignobject",
    );

    /// Start tags that end foreign content (HTML5 13.2.6.5).
    pub(in crate::segment::lex) const BREAKOUT: &[NameHash] = &[
        NameHash::of("b"),
        NameHash::of("big"),
        NameHash::of("blockquote"),
        NameHash::of("body"),
        BR,
        NameHash::of("center"),
        NameHash::of("code"),
        NameHash::of("dd"),
        NameHash::of("div"),
        NameHash::of("dl"),
        NameHash::of("dt"),
        NameHash::of("em"),
        NameHash::of("embed"),
        NameHash::of("h1"),
        NameHash::of("h2"),
        NameHash::of("h3"),
        NameHash::of("h4"),
        NameHash::of("h5"),
        NameHash::of("h6"),
        NameHash::of("head"),
        NameHash::of("hr"),
        NameHash::of("i"),
        NameHash::of("img"),
        NameHash::of("li"),
        NameHash::of("listing"),
        NameHash::of("menu"),
        NameHash::of("meta"),
        NameHash::of("nobr"),
        NameHash::of("ol"),
        P,
        NameHash::of("pre"),
        NameHash::of("ruby"),
        NameHash::of("s"),
        NameHash::of("small"),
        NameHash::of("span"),
        NameHash::of("strong"),
        NameHash::of("strike"),
        NameHash::of("sub"),
        NameHash::of("sup"),
        NameHash::of("table"),
        NameHash::of("tt"),
        NameHash::of("u"),
        NameHash::of("ul"),
        NameHash::of("var"),
    ];
}

//! Tag identities and the HTML5 categories the tree builder and the features need.
//!
//! Every tag name is mapped to a [`Tag`]: a small integer. Names the HTML standard knows (plus the
//! obsolete ones that 2000s pages still use) have fixed ids with a row of [`Props`] flags; any other
//! name is interned per page by the segmenter and gets an id at or above [`Tag::FIRST_UNKNOWN`], with
//! no flags. Lookup lowercases into a stack buffer: no allocation.

/// A tag name, as a small integer. See the module docs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Tag(pub u16);

/// Category flags of a known tag (a bit set).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Props(u32);

impl Props {
    /// Void element: never has content, never pushed on the stack.
    pub const VOID: Props = Props(1);
    /// HTML5 "special" category (stops the generic end-tag walk and the adoption agency).
    pub const SPECIAL: Props = Props(1 << 1);
    /// HTML5 formatting element (tracked in the list of active formatting elements).
    pub const FORMATTING: Props = Props(1 << 2);
    /// Closed by "generate implied end tags".
    pub const IMPLIED_END: Props = Props(1 << 3);
    /// A start tag that closes an open `<p>` in button scope.
    pub const CLOSES_P: Props = Props(1 << 4);
    /// Boundary of the default element scope.
    pub const SCOPE: Props = Props(1 << 5);
    /// Rendered as a block (or table part, list item) by default: splits paragraphs.
    pub const BLOCK: Props = Props(1 << 6);
    /// Rendered inline by default.
    pub const INLINE: Props = Props(1 << 7);
    /// `h1`..`h6`.
    pub const HEADING: Props = Props(1 << 8);
    /// Lists and their items.
    pub const LIST: Props = Props(1 << 9);
    /// Forms and their controls.
    pub const FORM: Props = Props(1 << 10);
    /// Bold text.
    pub const BOLD: Props = Props(1 << 11);
    /// Italic text.
    pub const ITALIC: Props = Props(1 << 12);
    /// Content never becomes a block (scripts, styles, embedded objects, fallback content).
    pub const EXCLUDED: Props = Props(1 << 13);
    /// Sets the insertion mode when it is the nearest such element on the stack.
    pub const MODE: Props = Props(1 << 14);
    /// Table structure (table, tbody, thead, tfoot, tr): text directly inside is foster-parented.
    pub const TABLE_CONTEXT: Props = Props(1 << 15);
    /// Allowed in `<head>`.
    pub const HEAD_CONTENT: Props = Props(1 << 16);
    /// Breaks out of SVG/MathML foreign content.
    pub const BREAKOUT: Props = Props(1 << 17);

    /// Whether all flags of `other` are set.
    #[inline]
    pub const fn has(self, other: Props) -> bool {
        self.0 & other.0 == other.0
    }

    const fn or(self, other: Props) -> Props {
        Props(self.0 | other.0)
    }
}

macro_rules! tags {
    ($( $konst:ident = $name:literal : [$($flag:ident),*] ;)*) => {
        #[allow(missing_docs)]
        impl Tag {
            tags!(@consts 0u16; $($konst,)*);
        }
        /// Names of the known tags, indexed by id.
        const NAMES: &[&str] = &[$($name),*];
        /// Flags of the known tags, indexed by id.
        const PROPS: &[Props] = &[$( Props(0) $(.or(Props::$flag))* ),*];

    };
    (@consts $n:expr; $konst:ident, $($rest:ident,)*) => {
        pub const $konst: Tag = Tag($n);
        tags!(@consts $n + 1; $($rest,)*);
    };
    (@consts $n:expr;) => {
        /// First id of names interned per page.
        pub const FIRST_UNKNOWN: u16 = $n;
    };
}

tags! {
    A = "a": [FORMATTING, INLINE];
    ABBR = "abbr": [INLINE];
    ACRONYM = "acronym": [INLINE];
    ADDRESS = "address": [SPECIAL, CLOSES_P, BLOCK];
    APPLET = "applet": [SPECIAL, SCOPE, EXCLUDED];
    AREA = "area": [VOID, SPECIAL];
    ARTICLE = "article": [SPECIAL, CLOSES_P, BLOCK];
    ASIDE = "aside": [SPECIAL, CLOSES_P, BLOCK];
    AUDIO = "audio": [EXCLUDED];
    B = "b": [FORMATTING, INLINE, BOLD, BREAKOUT];
    BASE = "base": [VOID, SPECIAL, HEAD_CONTENT];
    BASEFONT = "basefont": [VOID, SPECIAL, HEAD_CONTENT];
    BDI = "bdi": [INLINE];
    BDO = "bdo": [INLINE];
    BGSOUND = "bgsound": [VOID, SPECIAL, HEAD_CONTENT];
    BIG = "big": [FORMATTING, INLINE, BREAKOUT];
    BLINK = "blink": [INLINE];
    BLOCKQUOTE = "blockquote": [SPECIAL, CLOSES_P, BLOCK, BREAKOUT];
    BODY = "body": [SPECIAL, BLOCK, MODE, BREAKOUT];
    BR = "br": [VOID, SPECIAL, BREAKOUT];
    BUTTON = "button": [SPECIAL, INLINE, FORM];
    CANVAS = "canvas": [EXCLUDED];
    CAPTION = "caption": [SPECIAL, SCOPE, BLOCK, MODE];
    CENTER = "center": [SPECIAL, CLOSES_P, BLOCK, BREAKOUT];
    CITE = "cite": [INLINE, ITALIC];
    CODE = "code": [FORMATTING, INLINE, BREAKOUT];
    COL = "col": [VOID, SPECIAL];
    COLGROUP = "colgroup": [SPECIAL, MODE];
    DATA = "data": [INLINE];
    DATALIST = "datalist": [FORM, EXCLUDED];
    DD = "dd": [SPECIAL, IMPLIED_END, BLOCK, LIST, BREAKOUT];
    DEL = "del": [INLINE];
    DETAILS = "details": [SPECIAL, CLOSES_P, BLOCK];
    DFN = "dfn": [INLINE, ITALIC];
    DIALOG = "dialog": [CLOSES_P, BLOCK];
    DIR = "dir": [SPECIAL, CLOSES_P, BLOCK, LIST];
    DIV = "div": [SPECIAL, CLOSES_P, BLOCK, BREAKOUT];
    DL = "dl": [SPECIAL, CLOSES_P, BLOCK, LIST, BREAKOUT];
    DT = "dt": [SPECIAL, IMPLIED_END, BLOCK, LIST, BREAKOUT];
    EM = "em": [FORMATTING, INLINE, ITALIC, BREAKOUT];
    EMBED = "embed": [VOID, SPECIAL, EXCLUDED, BREAKOUT];
    FIELDSET = "fieldset": [SPECIAL, CLOSES_P, BLOCK, FORM];
    FIGCAPTION = "figcaption": [SPECIAL, CLOSES_P, BLOCK];
    FIGURE = "figure": [SPECIAL, CLOSES_P, BLOCK];
    FONT = "font": [FORMATTING, INLINE];
    FOOTER = "footer": [SPECIAL, CLOSES_P, BLOCK];
    FORM = "form": [SPECIAL, BLOCK, FORM];
    FRAME = "frame": [VOID, SPECIAL];
    FRAMESET = "frameset": [SPECIAL, BLOCK, MODE];
    H1 = "h1": [SPECIAL, CLOSES_P, BLOCK, HEADING, BREAKOUT];
    H2 = "h2": [SPECIAL, CLOSES_P, BLOCK, HEADING, BREAKOUT];
    H3 = "h3": [SPECIAL, CLOSES_P, BLOCK, HEADING, BREAKOUT];
    H4 = "h4": [SPECIAL, CLOSES_P, BLOCK, HEADING, BREAKOUT];
    H5 = "h5": [SPECIAL, CLOSES_P, BLOCK, HEADING, BREAKOUT];
    H6 = "h6": [SPECIAL, CLOSES_P, BLOCK, HEADING, BREAKOUT];
    HEAD = "head": [SPECIAL, EXCLUDED, MODE, BREAKOUT];
    HEADER = "header": [SPECIAL, CLOSES_P, BLOCK];
    HGROUP = "hgroup": [SPECIAL, CLOSES_P, BLOCK];
    HR = "hr": [VOID, SPECIAL, BLOCK, BREAKOUT];
    HTML = "html": [SPECIAL, SCOPE, BLOCK, MODE];
    I = "i": [FORMATTING, INLINE, ITALIC, BREAKOUT];
    IFRAME = "iframe": [SPECIAL, EXCLUDED];
    IMAGE = "image": [VOID];
    IMG = "img": [VOID, SPECIAL, INLINE, BREAKOUT];
    INPUT = "input": [VOID, SPECIAL, INLINE, FORM];
    INS = "ins": [INLINE];
    ISINDEX = "isindex": [VOID, FORM];
    KBD = "kbd": [INLINE];
    KEYGEN = "keygen": [VOID, SPECIAL, FORM];
    LABEL = "label": [INLINE, FORM];
    LEGEND = "legend": [BLOCK, FORM];
    LI = "li": [SPECIAL, IMPLIED_END, BLOCK, LIST, BREAKOUT];
    LINK = "link": [VOID, SPECIAL, HEAD_CONTENT];
    LISTING = "listing": [SPECIAL, CLOSES_P, BLOCK, BREAKOUT];
    MAIN = "main": [SPECIAL, CLOSES_P, BLOCK];
    MAP = "map": [INLINE];
    MARK = "mark": [INLINE];
    MARQUEE = "marquee": [SPECIAL, SCOPE, BLOCK];
    MATH = "math": [EXCLUDED];
    MENU = "menu": [SPECIAL, CLOSES_P, BLOCK, LIST, BREAKOUT];
    MENUITEM = "menuitem": [];
    META = "meta": [VOID, SPECIAL, HEAD_CONTENT, BREAKOUT];
    METER = "meter": [INLINE];
    NAV = "nav": [SPECIAL, CLOSES_P, BLOCK];
    NOBR = "nobr": [FORMATTING, INLINE, BREAKOUT];
    NOEMBED = "noembed": [SPECIAL, EXCLUDED];
    NOFRAMES = "noframes": [SPECIAL, EXCLUDED, HEAD_CONTENT];
    NOSCRIPT = "noscript": [SPECIAL, EXCLUDED, HEAD_CONTENT];
    OBJECT = "object": [SPECIAL, SCOPE, EXCLUDED];
    OL = "ol": [SPECIAL, CLOSES_P, BLOCK, LIST, BREAKOUT];
    OPTGROUP = "optgroup": [IMPLIED_END, BLOCK, FORM];
    OPTION = "option": [IMPLIED_END, BLOCK, FORM];
    OUTPUT = "output": [INLINE, FORM];
    P = "p": [SPECIAL, IMPLIED_END, CLOSES_P, BLOCK, BREAKOUT];
    PARAM = "param": [VOID, SPECIAL];
    PICTURE = "picture": [INLINE];
    PLAINTEXT = "plaintext": [SPECIAL, CLOSES_P, BLOCK];
    PRE = "pre": [SPECIAL, CLOSES_P, BLOCK, BREAKOUT];
    PROGRESS = "progress": [INLINE];
    Q = "q": [INLINE];
    RB = "rb": [IMPLIED_END, INLINE];
    RP = "rp": [IMPLIED_END, INLINE];
    RT = "rt": [IMPLIED_END, INLINE];
    RTC = "rtc": [IMPLIED_END, INLINE];
    RUBY = "ruby": [INLINE, BREAKOUT];
    S = "s": [FORMATTING, INLINE, BREAKOUT];
    SAMP = "samp": [INLINE];
    SCRIPT = "script": [SPECIAL, EXCLUDED, HEAD_CONTENT];
    SEARCH = "search": [SPECIAL, CLOSES_P, BLOCK];
    SECTION = "section": [SPECIAL, CLOSES_P, BLOCK];
    SELECT = "select": [SPECIAL, INLINE, FORM, MODE, EXCLUDED];
    SLOT = "slot": [];
    SMALL = "small": [FORMATTING, INLINE, BREAKOUT];
    SOURCE = "source": [VOID, SPECIAL];
    SPAN = "span": [INLINE, BREAKOUT];
    STRIKE = "strike": [FORMATTING, INLINE, BREAKOUT];
    STRONG = "strong": [FORMATTING, INLINE, BOLD, BREAKOUT];
    STYLE = "style": [SPECIAL, EXCLUDED, HEAD_CONTENT];
    SUB = "sub": [INLINE, BREAKOUT];
    SUMMARY = "summary": [SPECIAL, CLOSES_P, BLOCK];
    SUP = "sup": [INLINE, BREAKOUT];
    SVG = "svg": [EXCLUDED];
    TABLE = "table": [SPECIAL, SCOPE, BLOCK, MODE, TABLE_CONTEXT, BREAKOUT];
    TBODY = "tbody": [SPECIAL, BLOCK, MODE, TABLE_CONTEXT];
    TD = "td": [SPECIAL, SCOPE, BLOCK, MODE];
    TEMPLATE = "template": [SPECIAL, SCOPE, EXCLUDED, HEAD_CONTENT];
    TEXTAREA = "textarea": [SPECIAL, INLINE, FORM, EXCLUDED];
    TFOOT = "tfoot": [SPECIAL, BLOCK, MODE, TABLE_CONTEXT];
    TH = "th": [SPECIAL, SCOPE, BLOCK, MODE];
    THEAD = "thead": [SPECIAL, BLOCK, MODE, TABLE_CONTEXT];
    TIME = "time": [INLINE];
    TITLE = "title": [SPECIAL, EXCLUDED, HEAD_CONTENT];
    TR = "tr": [SPECIAL, BLOCK, MODE, TABLE_CONTEXT];
    TRACK = "track": [VOID, SPECIAL];
    TT = "tt": [FORMATTING, INLINE, BREAKOUT];
    U = "u": [FORMATTING, INLINE, BREAKOUT];
    UL = "ul": [SPECIAL, CLOSES_P, BLOCK, LIST, BREAKOUT];
    VAR = "var": [INLINE, ITALIC, BREAKOUT];
    VIDEO = "video": [EXCLUDED];
    WBR = "wbr": [VOID, SPECIAL, INLINE];
    XMP = "xmp": [SPECIAL, CLOSES_P, BLOCK];
}

impl Tag {
    /// The known tag with this name (any ASCII case), or `None` for names the table lacks.
    pub fn lookup(name: &[u8]) -> Option<Tag> {
        let key = name_key(name)?;
        let table = HASHED.get_or_init(build_hash_table);
        probe(table, slot_of(key), key)
    }

    /// The known tag whose name has lol_html's local name hash `hash` (see
    /// [`crate::segment::lex::name_hash`]; the tokenizer hands it over with the tag), or `None`
    /// for a name the table lacks: a lookup without reading the name again.
    #[inline]
    pub(crate) fn lookup_hashed(hash: u64) -> Option<Tag> {
        let table = BY_NAME_HASH.get_or_init(build_name_hash_table);
        probe(table, name_hash_slot(hash), hash)
    }

    /// Flags of this tag (empty for interned unknown names).
    #[inline]
    pub fn props(self) -> Props {
        // Ids past the known tags are interned unknown names: no flags, by design.
        PROPS.get(self.0 as usize).copied().unwrap_or_default()
    }

    /// Whether this tag has all the given flags.
    #[inline]
    pub fn is(self, p: Props) -> bool {
        self.props().has(p)
    }

    /// The name of a known tag; `None` for interned unknown names (ask the page for those).
    pub fn known_name(self) -> Option<&'static str> {
        NAMES.get(self.0 as usize).copied()
    }

    /// Whether the id belongs to the fixed table of known names.
    #[inline]
    pub fn is_known(self) -> bool {
        self.0 < Tag::FIRST_UNKNOWN
    }

    /// `h1`..`h6`.
    #[inline]
    pub fn is_heading(self) -> bool {
        self.is(Props::HEADING)
    }
}

/// Slots of the open-addressing table behind [`Tag::lookup`] (a power of two, about four times
/// the number of names, so probes are short).
const HASH_SLOTS: usize = 1024;

/// Linear probing in an open-addressing table of both lookups (`u16::MAX` marks an empty slot):
/// the tag stored under `key`, from its home `slot` on.
#[inline(always)]
fn probe<K: Copy + Eq>(table: &[(K, u16)], mut slot: usize, key: K) -> Option<Tag> {
    loop {
        let &(k, id) = table.get(slot)?;
        if id == u16::MAX {
            return None;
        }
        if k == key {
            return Some(Tag(id));
        }
        slot = (slot + 1) & (HASH_SLOTS - 1);
    }
}

/// The table: each slot a name's key ([`name_key`]) and its id, `u16::MAX` for an empty slot.
static HASHED: std::sync::OnceLock<Vec<(u128, u16)>> = std::sync::OnceLock::new();

/// A name of at most 16 bytes as one number: its bytes lowercased, zero-padded, little-endian
/// (no known name is longer). Comparing two keys compares the names, without a call.
#[inline]
fn name_key(name: &[u8]) -> Option<u128> {
    let mut buf = [0u8; 16];
    if name.is_empty() || name.len() > buf.len() {
        return None;
    }
    for (d, s) in buf.iter_mut().zip(name) {
        *d = s.to_ascii_lowercase();
    }
    Some(u128::from_le_bytes(buf))
}

/// The home slot of a key: its halves mixed by a multiplication, the top bits kept.
#[inline]
fn slot_of(key: u128) -> usize {
    let mixed =
        ((key as u64) ^ ((key >> 64) as u64).rotate_left(29)).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    (mixed >> (64 - HASH_SLOTS.trailing_zeros())) as usize
}

fn build_hash_table() -> Vec<(u128, u16)> {
    let mut t = vec![(0u128, u16::MAX); HASH_SLOTS];
    for (id, n) in NAMES.iter().enumerate() {
        let Some(key) = name_key(n.as_bytes()) else {
            continue;
        };
        let mut slot = slot_of(key);
        while t[slot].1 != u16::MAX {
            slot = (slot + 1) & (HASH_SLOTS - 1);
        }
        t[slot] = (key, id as u16);
    }
    t
}

/// The table behind [`Tag::lookup_hashed`]: each slot a known name's local name hash and its
/// id, `u16::MAX` for an empty slot (every known name has a hash: letters and the digits 1 to
/// 6, at most 12 of them).
static BY_NAME_HASH: std::sync::OnceLock<Vec<(u64, u16)>> = std::sync::OnceLock::new();

/// The home slot of a local name hash.
#[inline]
fn name_hash_slot(hash: u64) -> usize {
    (hash.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> (64 - HASH_SLOTS.trailing_zeros())) as usize
}

fn build_name_hash_table() -> Vec<(u64, u16)> {
    let mut t = vec![(0u64, u16::MAX); HASH_SLOTS];
    for (id, n) in NAMES.iter().enumerate() {
        let Some(hash) = crate::segment::lex::name_hash(n.as_bytes()) else {
            continue;
        };
        let mut slot = name_hash_slot(hash);
        while t[slot].1 != u16::MAX {
            slot = (slot + 1) & (HASH_SLOTS - 1);
        }
        t[slot] = (hash, id as u16);
    }
    t
}

/// Number of known tags.
pub const KNOWN_TAGS: usize = Tag::FIRST_UNKNOWN as usize;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lookup_is_case_insensitive_and_consistent_with_names() {
        assert_eq!(Tag::lookup(b"DiV"), Some(Tag::DIV));
        assert_eq!(Tag::lookup(b"blockquote"), Some(Tag::BLOCKQUOTE));
        assert_eq!(Tag::lookup(b"o:p"), None);
        assert_eq!(Tag::lookup(b""), None);
        assert_eq!(Tag::lookup(b"averyveryverylongname"), None);
        for id in 0..Tag::FIRST_UNKNOWN {
            let t = Tag(id);
            let name = t.known_name().unwrap_or_default();
            assert_eq!(Tag::lookup(name.as_bytes()), Some(t), "{name}");
        }
    }

    #[test]
    fn lookup_by_name_hash_agrees_with_lookup_by_name() {
        for id in 0..Tag::FIRST_UNKNOWN {
            let name = Tag(id).known_name().unwrap_or_default();
            let hash = crate::segment::lex::name_hash(name.as_bytes());
            assert!(hash.is_some(), "{name} has a local name hash");
            assert_eq!(hash.and_then(Tag::lookup_hashed), Some(Tag(id)), "{name}");
            let upper = name.to_ascii_uppercase();
            assert_eq!(crate::segment::lex::name_hash(upper.as_bytes()), hash);
        }
        for unknown in ["divx", "p1", "o", "blockquotes", "h7", "xyz"] {
            let hash = crate::segment::lex::name_hash(unknown.as_bytes());
            assert_eq!(
                hash.and_then(Tag::lookup_hashed),
                Tag::lookup(unknown.as_bytes()),
                "{unknown}"
            );
        }
    }

    #[test]
    fn table_is_sorted_for_binary_search() {
        assert!(NAMES.windows(2).all(|w| w[0] < w[1]));
    }

    #[test]
    fn categories() {
        assert!(Tag::BR.is(Props::VOID));
        assert!(Tag::P.is(Props::CLOSES_P) && Tag::P.is(Props::IMPLIED_END));
        assert!(Tag::B.is(Props::FORMATTING) && Tag::B.is(Props::BOLD));
        assert!(Tag::H3.is_heading());
        assert!(!Tag(Tag::FIRST_UNKNOWN).is(Props::SPECIAL));
        assert!(Tag::SCRIPT.is(Props::EXCLUDED));
    }

    #[test]
    fn formatting_elements_are_neither_void_nor_close_a_paragraph() {
        // The tree's in-body rules lean on it: a formatting element is reopened and pushed.
        for t in 0..Tag::FIRST_UNKNOWN {
            let p = Tag(t).props();
            if p.has(Props::FORMATTING) {
                assert!(!p.has(Props::VOID) && !p.has(Props::CLOSES_P), "{t}");
            }
        }
    }
}

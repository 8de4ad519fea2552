"""compare.py's data sets and pages: finding a set, reading its split's pages with their gold
(tokens of the text-level measure, or the snippets), the page bytes as victor reads them (gunzipped),
the name victor gives a page's output, the sniffed decoding, and the page language jusText's
stoplist needs when the set gives none (<html lang>, a <meta>, else a guess from the text)."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

from victor_score import gold_text, tokens

ROOT = Path(__file__).resolve().parent.parent


# Page language for jusText's stoplist when the set gives none (snippet sets have no `lang`).
HTML_LANG = re.compile(rb"<html\b[^>]*?\s(?:xml:)?lang\s*=\s*[\"']?\s*([a-z]{2,3})(?![a-z])", re.IGNORECASE)


META_LANG = [
    re.compile(
        rb"<meta\b[^>]*?http-equiv\s*=\s*[\"']?content-language"
        rb"[^>]*?content\s*=\s*[\"']?\s*([a-z]{2,3})(?![a-z])",
        re.I,
    ),
    re.compile(
        rb"<meta\b[^>]*?content\s*=\s*[\"']?\s*([a-z]{2,3})(?![a-z])"
        rb"[^>]*?http-equiv\s*=\s*[\"']?content-language",
        re.I,
    ),
    re.compile(
        rb"<meta\b[^>]*?property\s*=\s*[\"']?og:locale[\"']?"
        rb"[^>]*?content\s*=\s*[\"']?\s*([a-z]{2,3})(?![a-z])",
        re.I,
    ),
    re.compile(
        rb"<meta\b[^>]*?content\s*=\s*[\"']?\s*([a-z]{2,3})(?:[-_][a-z]+)?[\"']?"
        rb"[^>]*?property\s*=\s*[\"']?og:locale\b",
        re.I,
    ),
]


STRIP_SCRIPTS = re.compile(r"<(script|style|noscript|template)\b.*?</\1\s*>|<!--.*?-->", re.I | re.S)


STRIP_TAGS = re.compile(r"<[^>]*>")


_STOPLISTS: dict | None = None


def page_lang(raw: bytes) -> tuple[str | None, str]:
    r"""(ISO 639-1 code or None, where it came from) of a page: `<html lang>`, else a
    Content-Language or og:locale `<meta>`, else a guess from its text (see guess_lang).

    >>> page_lang(b'<html class="x" lang="de-DE"><p>Hallo')
    ('de', 'html lang')
    >>> page_lang(b'<html><head><meta property="og:locale" content="en_US" />')
    ('en', 'meta')
    """
    m = HTML_LANG.search(raw[:65536])
    if m:
        return m.group(1).decode("ascii").lower(), "html lang"
    head = raw[:65536]
    for rx in META_LANG:
        m = rx.search(head)
        if m:
            return m.group(1).decode("ascii").lower(), "meta"
    guess = guess_lang(sniff_decode(raw))
    return guess, "guessed" if guess else "none"


def guess_lang(text: str) -> str | None:
    """Guess a page's language from its visible text (scripts, styles, comments and tags removed):
    mostly Han -> zh, kana -> ja, Hangul -> ko, Thai -> th; otherwise the language of compare.py's
    jusText table whose jusText stoplist covers the largest share of the word tokens (at least 10 %,
    of at least 20 words). None when jusText is not importable or nothing fits."""
    global _STOPLISTS
    body = STRIP_TAGS.sub(" ", STRIP_SCRIPTS.sub(" ", text))
    letters = [c for c in body if c.isalpha()]
    if letters:
        share = lambda lo, hi: sum(lo <= c <= hi for c in letters) / len(letters)  # noqa: E731
        if share("\u3040", "\u30ff") > 0.1:
            return "ja"
        if share("\uac00", "\ud7af") > 0.3:
            return "ko"
        if share("\u4e00", "\u9fff") > 0.3:
            return "zh"
        if share("\u0e00", "\u0e7f") > 0.3:
            return "th"
    if _STOPLISTS is None:
        _STOPLISTS = {}
        try:
            import justext

            available = set(justext.get_stoplists())
            for code, name in JUSTEXT_LANGS.items():
                if name in available and name not in _STOPLISTS.values():
                    _STOPLISTS[code] = justext.get_stoplist(name)
        except ImportError:
            pass
    words = re.findall(r"[^\W\d_]+", body.lower())
    if len(words) < 20 or not _STOPLISTS:  # too little text to tell
        return None
    best, best_share = None, 0.1
    for code, stop in _STOPLISTS.items():
        share = sum(w in stop for w in words) / len(words)
        if share > best_share:
            best, best_share = code, share
    return best


BOMS = [
    (b"\xef\xbb\xbf", "utf-8"),
    (b"\xff\xfe\x00\x00", "utf-32-le"),
    (b"\x00\x00\xfe\xff", "utf-32-be"),
    (b"\xff\xfe", "utf-16-le"),
    (b"\xfe\xff", "utf-16-be"),
]


DECLARED = re.compile(
    rb"""<meta[^>]*?charset\s*=\s*["']?\s*([a-z0-9._:-]+)|<\?xml[^>]*?encoding\s*=\s*["']([a-z0-9._:-]+)""",
    re.IGNORECASE,
)


LATIN1_ALIASES = {"iso-8859-1", "iso8859-1", "latin-1", "latin1", "l1", "us-ascii", "ascii", "iso_8859-1"}


def sniff_decode(raw: bytes) -> str:
    r"""Decode page bytes: BOM, else valid UTF-8, else declared charset, else cp1252.

    >>> sniff_decode('<meta charset="iso-8859-1">Kosovo’s'.encode("utf-8"))[-8:]
    'Kosovo’s'
    >>> sniff_decode('<meta charset="koi8-r">мир'.encode("koi8-r"))[-3:]
    'мир'
    >>> sniff_decode(b"caf\xe9 \x93q\x94"), sniff_decode(b"\xff\xfeh\x00i\x00")
    ('café “q”', 'hi')
    """
    for bom, enc in BOMS:
        if raw.startswith(bom):
            return raw[len(bom) :].decode(enc, "replace")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        pass
    m = DECLARED.search(raw[:4096])
    if m:
        enc = (m.group(1) or m.group(2)).decode("ascii").lower()
        if enc in LATIN1_ALIASES:
            enc = "cp1252"
        if not enc.startswith("utf-"):  # the bytes are not UTF-8 (checked above)
            try:
                return raw.decode(enc, "replace")
            except LookupError:
                pass
    return raw.decode("cp1252", "replace")


def read_page(path) -> bytes:
    """The bytes of a page file, gunzipped when they start with the gzip magic number (as victor
    reads pages: `page.html.gz`)."""
    with open(path, "rb") as f:
        raw = f.read()
    if raw[:2] == b"\x1f\x8b":
        import gzip

        raw = gzip.decompress(raw)
    return raw


def out_stem(path: Path) -> str:
    """The name victor gives the output of a page file: its file name without `.gz` and without
    its extension (`html/0001.html.gz` -> `0001`; victor's page_stem).

    >>> out_stem(Path("html/0001.html.gz")), out_stem(Path("a/b.htm")), out_stem(Path("x.GZ"))
    ('0001', 'b', 'x')
    """
    name = path.name
    if name.lower().endswith(".gz"):
        name = name[:-3]
    return Path(name).stem or "page"


JUSTEXT_LANGS = {
    "af": "Afrikaans",
    "ar": "Arabic",
    "bg": "Bulgarian",
    "ca": "Catalan",
    "cs": "Czech",
    "cy": "Welsh",
    "da": "Danish",
    "de": "German",
    "el": "Greek",
    "en": "English",
    "eo": "Esperanto",
    "es": "Spanish",
    "et": "Estonian",
    "eu": "Basque",
    "fa": "Persian",
    "fi": "Finnish",
    "fr": "French",
    "ga": "Irish",
    "gl": "Galician",
    "he": "Hebrew",
    "hi": "Hindi",
    "hr": "Croatian",
    "hu": "Hungarian",
    "hy": "Armenian",
    "id": "Indonesian",
    "is": "Icelandic",
    "it": "Italian",
    "ja": "Japanese",
    "ka": "Georgian",
    "ko": "Korean",
    "la": "Latin",
    "lt": "Lithuanian",
    "lv": "Latvian",
    "mk": "Macedonian",
    "ms": "Malay",
    "nl": "Dutch",
    "nn": "Norwegian_Nynorsk",
    "no": "Norwegian_Bokmal",
    "nb": "Norwegian_Bokmal",
    "pl": "Polish",
    "pt": "Portuguese",
    "ro": "Romanian",
    "ru": "Russian",
    "sk": "Slovak",
    "sl": "Slovenian",
    "sq": "Albanian",
    "sr": "Serbian",
    "sv": "Swedish",
    "sw": "Swahili",
    "ta": "Tamil",
    "te": "Telugu",
    "th": "Thai",
    "tr": "Turkish",
    "uk": "Ukrainian",
    "ur": "Urdu",
    "vi": "Vietnamese",
    "zh": "Chinese",
}


def is_snippet_set(set_dir: Path) -> bool:
    """A snippet set has snippets.jsonl and no manifest.jsonl."""
    return not (set_dir / "manifest.jsonl").is_file() and (set_dir / "snippets.jsonl").is_file()


def resolve_set(arg: str) -> Path:
    """A set directory (manifest.jsonl or snippets.jsonl), or a set name under $VICTOR_DATA or
    ../shared/data."""
    base = Path(os.environ.get("VICTOR_DATA") or ROOT.parent / "shared" / "data")
    for p in (Path(arg), base / arg):
        if (p / "manifest.jsonl").is_file() or (p / "snippets.jsonl").is_file():
            return p.resolve()
    raise SystemExit(f"compare.py: no manifest.jsonl or snippets.jsonl in {arg} (nor in {base / arg})")


def load_pages(set_dir: Path, split: str, limit: int | None) -> list[dict]:
    """The entries of the split, with the html path and the gold tokens (manifest sets) or the
    snippets (snippet sets). `lang` is the set's, else derived from the page (page_lang)."""
    snippets = is_snippet_set(set_dir)
    pages = []
    with open(set_dir / ("snippets.jsonl" if snippets else "manifest.jsonl"), encoding="utf-8") as f:
        for line in f:
            if not line.strip():
                continue
            m = json.loads(line)
            if split != "all" and m.get("split") != split:
                continue
            m["html_path"] = set_dir / m["html"]
            if snippets:
                m["with"], m["without"] = list(m.get("with") or []), list(m.get("without") or [])
            else:
                gold = (set_dir / m["gold"]).read_text(encoding="utf-8", errors="replace")
                m["gold_tokens"] = tokens(gold_text(gold))
            raw = read_page(m["html_path"])  # also warms the page cache
            m["bytes"] = len(raw)
            if m.get("lang"):
                m["lang_source"] = "set"
            else:
                m["lang"], m["lang_source"] = page_lang(raw)
            pages.append(m)
            if limit is not None and len(pages) >= limit:
                break
    return pages


def is_wcxb_set(set_dir: Path) -> bool:
    """A manifest set whose entries carry `page_type` (the first entry tells)."""
    manifest = set_dir / "manifest.jsonl"
    if not manifest.is_file():
        return False
    with open(manifest, encoding="utf-8") as f:
        for line in f:
            if line.strip():
                return "page_type" in json.loads(line)
    return False

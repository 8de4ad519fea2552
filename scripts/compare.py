#!/usr/bin/env python3
"""Compare victor with established boilerplate removers: same pages, same measure, one core each.

For each data set (a folder with manifest.jsonl: one page a line with id, html, gold, split, lang),
every tool extracts the text of the pages of the chosen split, and the text is scored against the
gold standard with the text-level measure of shared/checks/score.py (re-implemented here, same rules):
tokens are NFKC-normalised, lowercased runs of letters/digits (each CJK/kana/Thai character alone),
compared as multisets; P = overlap / extracted tokens, R = overlap / gold tokens; gold line markers
(<p>, <h>, <l>, <s>) and a leading "URL:" line are stripped; empty gold scores R = 1, and P = F1 = 1
only if the output is empty too.

Snippet sets (a folder with snippets.jsonl and no manifest.jsonl: one page a line with id, url,
html, with, without, split; e.g. shared/data/trafilatura-eval) are scored with the measure of
shared/checks/score_snippets.py (re-implemented, same rules): a `with` snippet found in the output
(case-sensitive substring after collapsing whitespace runs to one space) is a true positive, a
`without` snippet found a false positive, a `with` snippet missed a false negative; counts are
summed over the pages (micro over snippets): P = tp/(tp+fp), R = tp/(tp+fn), F1 = 2tp/(2tp+fp+fn).
A page is "collapsed" when it has `with` snippets and the output keeps none (the snippet analogue
of F1 < .5). Their CSVs have snippet_* columns instead of the macro/micro ones.

WCXB-style sets (a manifest whose entries carry `page_type`; e.g. shared/data/wcxb, pages stored as
`.html.gz`) are scored with WCXB's own measure by calling shared/checks/score_wcxb.py (bag-of-words
F1 over lowercased `\w+` words per page, averaged over pages), overall and per page type, with the
count of collapsed pages (F1 < .5) per type. The script is looked for in $VICTOR_CHECKS, then in
the set's ../../checks, then in ../shared/checks beside the project; without it such a set is
refused. Their CSVs have per-type columns (F1:<type>, P:<type>, R:<type>, lt_0.5:<type>,
pages:<type>) and no micro figures; their pages CSV has a page_type column.
A page file whose bytes start with the gzip magic number is decompressed before any tool gets it
(victor does the same); MB and pages/s count the decompressed HTML.

Tools (--tools, comma-separated; default all):
  victor                 `victor label --format text --jobs 1 --out DIR --files-from LIST [--model M]`
                         (output DIR/<html file stem>.txt); one run per --victor-model
                         (default: victor's own default model)
  trafilatura            trafilatura.extract(bytes) with default settings
  trafilatura-precision  the same with favor_precision=True
  trafilatura-recall     the same with favor_recall=True
  trafilatura-nocomments the same with include_comments=False, include_tables=True: the setting of
                         trafilatura's own evaluation (the figures of the trafilatura-eval README)
  rs-trafilatura         rs_trafilatura.extract_bytes(bytes, url=URL).main_content with its defaults
                         (Rust, page-type profiles; URL = the manifest's `url` when the set has one,
                         as its README's quick start passes it: it feeds its page-type classifier;
                         --decoding sniff: extract(string, url=URL))
  readability            readability-lxml Document(page).summary(), then the text of that HTML
  justext                jusText paragraphs not marked boilerplate; stoplist from the set's `lang`
                         (ISO 639-1); when the set has none (snippet sets; some manifest pages),
                         from the page: <html lang>, else a Content-Language or og:locale <meta>,
                         else a guess (mostly Han/kana/Hangul/Thai letters -> zh/ja/ko/th, else the
                         jusText stoplist covering most of the visible words, >= 10 % of >= 20
                         words); English when nothing fits or jusText has no such stoplist
  boilerpy3              boilerpy3 ArticleExtractor on lxml-normalised HTML (its own parser raises
                         on many pages: the page is parsed by lxml and re-serialised first)
  resiliparse            extract_plain_text(bytes_to_str(raw, detect_encoding(raw)), main_content=True)
  all-visible            baseline: every text node outside script/style/noscript/template/head (lxml)

Decoding (--decoding):
  native (default)  tools that take bytes get the raw bytes and decode them their own way
                    (trafilatura, readability, jusText); resiliparse uses its own detect_encoding;
                    boilerpy3 and all-visible get the sniffed string below.
  sniff             every Python tool gets the sniffed string.
  The sniff: a BOM if any; else strict UTF-8 if the bytes are valid UTF-8 (l3s-gn1 pages are UTF-8
  but often declare ISO-8859-1); else the charset declared in a <meta> or <?xml?> in the first
  4 KiB (ISO-8859-1/ASCII read as cp1252, as browsers do); else cp1252. Undecodable bytes -> U+FFFD.

Timing: each tool runs in its own subprocess pinned to ONE core (sched_setaffinity, --core), tools
one after the other, never in parallel; pages are read once beforehand to warm the page cache.
  extraction time  (Python tools) the sum over pages of reading the file + decoding + extracting,
                   measured inside the worker: interpreter start-up, imports and writing the
                   output are excluded. Wall-clock (pages/s, MB/s) and CPU time are both reported.
  process time     the wall-clock time of the whole process(es), start-up included. For victor,
                   which runs as one process, this is the primary figure (the median of three
                   runs, each waited for in one blocking call); its "extraction" time is
                   estimated as process time minus the best time of the same command on a list
                   of one empty page (start-up and model loading), and marked with "~".
MB = 10^6 bytes of raw HTML.

Robustness: a page that raises, exceeds --timeout seconds, or crashes the worker gets empty output
and is counted as a failure; the run goes on (a hung or crashed worker is killed and restarted on
the next page). If the victor binary is missing or fails without output, victor is reported as
unavailable and the peers still run.

Outputs (--out-dir, default eval/peers under the project root), written atomically:
  <set>-<split>.csv        one row per tool: macro P/R/F1, median F1, micro P/R/F1, pages with
                           F1 < 0.5, failures, timings, versions
                           (snippet sets: snippet P/R/F1, snippets found, collapsed pages,
                           failures, timings, versions); every row records when, on which machine,
                           under which load and with which options it was measured
  <set>-<split>-pages.csv  one row per tool and page: P, R, F1, status, seconds, token counts
                           (snippet sets: snippets found, collapsed, status, seconds, lang used)
  summary.md               a Markdown table per <set>-<split>.csv present in --out-dir, regenerated
                           from those CSVs after every run (also printed on stdout)
Merging: the rows of a tool run now replace that tool's rows in <set>-<split>.csv and -pages.csv;
the rows of tools not run this time are kept (unless they cover another number of pages, e.g. an
earlier --limit run), so `--tools victor` refreshes victor's rows alone. victor's rows are named
victor or victor:<model folder>: a run with another --victor-model adds rows and leaves the others.
--fresh writes only this run's rows.
Extracted texts go to a temporary folder (removed at the end) unless --texts-dir is given; they
derive from research-only pages: never commit them.

Dependencies: on first use the script makes a virtualenv (default
${XDG_CACHE_HOME:-~/.cache}/victor-compare-venv, or --venv / $VICTOR_COMPARE_VENV), installs the
versions pinned in this script (REQUIREMENTS) from PyPI into it, and re-executes itself there (--no-venv: use the current
interpreter as it is). Progress goes to stderr.

Example:
  scripts/compare.py ../shared/data/l3s-gn1 ../shared/data/cleaneval --split test
  scripts/compare.py l3s-gn1 --limit 20 --tools resiliparse,readability --out-dir /tmp/peers
  scripts/compare.py readability-tests trafilatura-eval            # a manifest and a snippet set
  scripts/compare.py readability-tests trafilatura-eval --tools victor --victor-bin PATH/victor
"""

from __future__ import annotations

import argparse
import csv
import io
import json
import os
import re
import resource
import selectors
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import unicodedata
from collections import Counter
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = Path(__file__).resolve()

# Versions tested together (Python 3.11, 2026-11). Changing this list rebuilds the virtualenv.
PIP_VERSION = "26.3"
REQUIREMENTS = """\
trafilatura==2.3.1
rs-trafilatura==0.1.1
readability-lxml==0.9
jusText==3.0.2
boilerpy3==1.0.7
Resiliparse==2.0.1
FastWARC==2.0.1
lxml==6.1.3
lxml_html_clean==0.4.6
tqdm==4.70.1
babel==2.18.0
brotli==1.2.1
certifi==2026.10.18
chardet==5.2.0
charset-normalizer==3.5.2
click==8.5.1
courlan==1.4.0
cssselect==1.3.0
dateparser==1.5.0
htmldate==1.11.0
python-dateutil==4.0.0
pytz==2026.6
regex==2026.11.15
tld==0.13.2
typing_extensions==4.16.0
tzdata==2026.6
tzlocal==5.4.5
urllib3==2.8.0
"""

PEERS = [
    "trafilatura",
    "trafilatura-precision",
    "trafilatura-recall",
    "trafilatura-nocomments",
    "rs-trafilatura",
    "readability",
    "justext",
    "boilerpy3",
    "resiliparse",
    "all-visible",
]
ALL_TOOLS = ["victor", *PEERS]
PACKAGE_OF = {
    "trafilatura": "trafilatura",
    "trafilatura-precision": "trafilatura",
    "trafilatura-recall": "trafilatura",
    "trafilatura-nocomments": "trafilatura",
    "rs-trafilatura": "rs-trafilatura",
    "readability": "readability-lxml",
    "justext": "jusText",
    "boilerpy3": "boilerpy3",
    "resiliparse": "Resiliparse",
    "all-visible": "lxml",
}

# ---------------------------------------------------------------------------------------------
# Scoring: the rules of shared/checks/score.py, re-implemented (no import from ../shared).

MARKER = re.compile(r"^\s*(?:<\s*/?\s*[a-z][a-z0-9]{0,9}\s*/?\s*>\s*)+", re.IGNORECASE)
SINGLE = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\u0e00-\u0e7f"
TOKEN = re.compile(rf"[{SINGLE}]|[^\W_{SINGLE}]+")


def gold_text(raw: str) -> str:
    r"""Gold file content without a leading URL: line and without line markers.

    >>> gold_text("URL: http://x\n<h>Title\n<p> <l>Item one\nplain <b>kept</b>")
    'Title\nItem one\nplain <b>kept</b>'
    """
    lines = raw.splitlines()
    if lines and lines[0].lstrip().startswith("URL:"):
        lines = lines[1:]
    return "\n".join(MARKER.sub("", ln) for ln in lines)


def tokens(text: str) -> Counter:
    r"""Multiset of NFKC-normalised, lowercased tokens.

    >>> sorted(tokens("Ｆｕｌｌ-width, e.g. 3.5 km_h 東京!").elements())
    ['3', '5', 'e', 'full', 'g', 'h', 'km', 'width', '京', '東']
    """
    return Counter(TOKEN.findall(unicodedata.normalize("NFKC", text).lower()))


def score_page(ext: Counter, gold: Counter) -> tuple[float, float, float, int, int, int]:
    r"""P, R, F1 (score.py's rules) plus extracted, gold and overlapping token counts.

    >>> score_page(tokens("a b b c"), tokens("b c d"))
    (0.5, 0.6666666666666666, 0.5714285714285715, 4, 3, 2)
    >>> score_page(tokens(""), tokens("")), score_page(tokens("x"), tokens(""))
    ((1.0, 1.0, 1.0, 0, 0, 0), (0.0, 1.0, 0.0, 1, 0, 0))
    >>> score_page(tokens(""), tokens("gold"))
    (0.0, 0.0, 0.0, 0, 1, 0)
    """
    ne, ng = sum(ext.values()), sum(gold.values())
    if ng == 0:
        p = 1.0 if ne == 0 else 0.0
        return p, 1.0, p, ne, ng, 0
    if ne == 0:
        return 0.0, 0.0, 0.0, ne, ng, 0
    ov = sum((ext & gold).values())
    p, r = ov / ne, ov / ng
    return p, r, (2 * p * r / (p + r) if p + r else 0.0), ne, ng, ov


# Snippet sets: the rules of shared/checks/score_snippets.py, re-implemented (same rules).


def snippet_norm(text: str) -> str:
    r"""Whitespace runs collapsed to one space, ends stripped (score_snippets.py's `norm`).

    >>> snippet_norm(" a\n\tb\u00a0 c ")
    'a b c'
    """
    return re.sub(r"\s+", " ", text).strip()


def snippet_counts(output: str, with_: list[str], without: list[str]) -> tuple[int, int, int]:
    r"""(tp, fp, fn) of one page: a `with` snippet found in the whitespace-normalised output is a
    true positive, a `without` snippet found a false positive, a `with` snippet missed a false
    negative. Case-sensitive substring match, as score_snippets.py.

    >>> snippet_counts("Main  text\nhere. Footer", ["Main text here.", "lost"], ["Footer", "Nav"])
    (1, 1, 1)
    >>> snippet_counts("", ["a"], ["b"])
    (0, 0, 1)
    """
    out = snippet_norm(output)
    tp = sum(snippet_norm(w) in out for w in with_)
    fp = sum(snippet_norm(w) in out for w in without)
    return tp, fp, len(with_) - tp


def snippet_prf(tp: int, fp: int, fn: int) -> tuple[float, float, float]:
    """P = tp/(tp+fp), R = tp/(tp+fn), F1 = 2tp/(2tp+fp+fn); 0 when undefined (score_snippets.py).

    >>> snippet_prf(3, 1, 1), snippet_prf(0, 0, 0)
    ((0.75, 0.75, 0.75), (0.0, 0.0, 0.0))
    """
    p = tp / (tp + fp) if tp + fp else 0.0
    r = tp / (tp + fn) if tp + fn else 0.0
    f = 2 * tp / (2 * tp + fp + fn) if tp + fp + fn else 0.0
    return p, r, f


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


# ---------------------------------------------------------------------------------------------
# Decoding and HTML-to-text helpers (used inside the workers).

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


BLOCK_TAGS = frozenset(
    """address article aside blockquote body br caption center dd details dialog dir div dl dt
    fieldset figcaption figure footer form frame frameset h1 h2 h3 h4 h5 h6 header hgroup hr html
    li main menu nav noframes ol option p pre section summary table tbody td tfoot th thead title
    tr ul""".split()
)


def element_text(root, skip: frozenset) -> str:
    """Text of an lxml tree: text nodes in document order, a line break around block elements,
    subtrees whose tag is in `skip` and comments/processing instructions left out."""
    out: list[str] = []
    stack = [(root, False)]
    while stack:
        el, closing = stack.pop()
        tag = el.tag.lower() if isinstance(el.tag, str) else None
        if closing:
            if tag in BLOCK_TAGS:
                out.append("\n")
            if el.tail:
                out.append(el.tail)
            continue
        if tag is None or tag in skip:
            if el is not root and el.tail:
                out.append(el.tail)
            continue
        if tag in BLOCK_TAGS:
            out.append("\n")
        if el.text:
            out.append(el.text)
        stack.append((el, True))
        stack.extend((child, False) for child in reversed(el))
    lines = (" ".join(ln.split()) for ln in "".join(out).splitlines())
    return "\n".join(ln for ln in lines if ln)


def parse_html(text: str):
    """lxml HTML tree of a decoded page (None for an empty document)."""
    import lxml.html
    from lxml import etree

    parser = lxml.html.HTMLParser(encoding="utf-8")
    data = text.encode("utf-8", "replace")
    if not data.strip():
        return None
    try:
        return lxml.html.document_fromstring(data, parser=parser)
    except etree.ParserError:  # "Document is empty"
        return None


# ---------------------------------------------------------------------------------------------
# Extractors: tool name -> (function(raw bytes, lang) -> text, version).

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


def build_extractor(tool: str, decoding: str):
    """Import the tool and return (extract(raw: bytes, lang: str | None, url: str | None) -> str,
    version)."""
    from importlib.metadata import version

    native = decoding == "native"
    if tool.startswith("trafilatura"):
        import logging

        import trafilatura

        logging.getLogger("trafilatura").setLevel(logging.CRITICAL)
        kw = {
            "trafilatura": {},
            "trafilatura-precision": {"favor_precision": True},
            "trafilatura-recall": {"favor_recall": True},
            # trafilatura's own evaluation setting (tests/eval_common.py, shared trafilatura-eval)
            "trafilatura-nocomments": {"include_comments": False, "include_tables": True},
        }[tool]

        def extract(raw, lang, url):
            return trafilatura.extract(raw if native else sniff_decode(raw), **kw) or ""

    elif tool == "rs-trafilatura":
        import rs_trafilatura

        def extract(raw, lang, url):
            if native:
                return rs_trafilatura.extract_bytes(raw, url=url).main_content or ""
            return rs_trafilatura.extract(sniff_decode(raw), url=url).main_content or ""

    elif tool == "readability":
        import logging

        import lxml.html
        from readability import Document

        logging.getLogger("readability").setLevel(logging.CRITICAL)

        def extract(raw, lang, url):
            summary = Document(raw if native else sniff_decode(raw)).summary()
            tree = parse_html(summary)
            return "" if tree is None else element_text(tree, frozenset())

    elif tool == "justext":
        import justext

        available = set(justext.get_stoplists())
        cache: dict[str, frozenset] = {}

        def stoplist(lang):
            name = JUSTEXT_LANGS.get((lang or "en").lower().split("-")[0], "English")
            if name not in available:
                name = "English"
            if name not in cache:
                cache[name] = justext.get_stoplist(name)
            return cache[name]

        def extract(raw, lang, url):
            paragraphs = justext.justext(raw if native else sniff_decode(raw), stoplist(lang))
            return "\n".join(p.text for p in paragraphs if not p.is_boilerplate)

    elif tool == "boilerpy3":
        import lxml.html
        from boilerpy3 import extractors

        article = extractors.ArticleExtractor()  # raise_on_failure=True: failures are counted

        def extract(raw, lang, url):
            tree = parse_html(sniff_decode(raw))
            if tree is None:
                return ""
            return article.get_content(lxml.html.tostring(tree, encoding="unicode", method="html"))

    elif tool == "resiliparse":
        from resiliparse.extract.html2text import extract_plain_text
        from resiliparse.parse.encoding import bytes_to_str, detect_encoding

        def extract(raw, lang, url):
            html = bytes_to_str(raw, detect_encoding(raw)) if native else sniff_decode(raw)
            return extract_plain_text(html, main_content=True)

    elif tool == "all-visible":
        skip = frozenset({"script", "style", "noscript", "template", "head"})

        def extract(raw, lang, url):
            tree = parse_html(sniff_decode(raw))
            return "" if tree is None else element_text(tree, skip)

    else:
        raise ValueError(f"unknown tool {tool!r}")
    return extract, f"{PACKAGE_OF[tool]} {version(PACKAGE_OF[tool])}"


# ---------------------------------------------------------------------------------------------
# Worker: runs one tool over a list of pages, one JSON line per page on the protocol fd.


class PageTimeout(Exception):
    """Raised by SIGALRM when a page takes longer than the per-page timeout."""


def _alarm(signum, frame):
    raise PageTimeout()


def worker_main(job_path: str) -> int:
    """Entry point of `compare.py --worker JOB.json` (internal)."""
    proto = os.fdopen(os.dup(1), "w", buffering=1, encoding="utf-8")
    os.dup2(2, 1)  # whatever the tools print goes to the log, not into the protocol
    job = json.loads(Path(job_path).read_text(encoding="utf-8"))
    start = job["start"]
    pages = job["pages"][start:]

    def emit(obj):
        proto.write(json.dumps(obj) + "\n")

    t0 = time.perf_counter()
    try:
        extract, ver = build_extractor(job["tool"], job["decoding"])
    except Exception as e:  # noqa: BLE001 - reported to the parent, which marks the tool unavailable
        from importlib.metadata import PackageNotFoundError

        error = f"{type(e).__name__}: {e}"
        if isinstance(e, (ImportError, PackageNotFoundError)):
            package = PACKAGE_OF.get(job["tool"], job["tool"])
            pins = [r for r in REQUIREMENTS.split() if r.lower().startswith(package.lower() + "==")]
            pinned_as = pins[0] if pins else package
            error = f"not installed: pip package {pinned_as} is missing from {sys.prefix} ({error})"
        emit({"ready": False, "error": error})
        return 1
    emit({"ready": True, "version": ver, "import_s": time.perf_counter() - t0})
    signal.signal(signal.SIGALRM, _alarm)
    timeout = float(job["timeout"])
    out_dir = Path(job["out_dir"])
    for i, page in enumerate(pages, start):
        status, err, text = "ok", "", ""
        w0, c0 = time.perf_counter(), time.process_time()
        try:
            signal.setitimer(signal.ITIMER_REAL, timeout)
            raw = read_page(page["html"])
            text = extract(raw, page.get("lang"), page.get("url"))
            signal.setitimer(signal.ITIMER_REAL, 0)
        except PageTimeout:
            status, text = "timeout", ""
        except Exception as e:  # noqa: BLE001 - any failure of the tool counts as empty output
            signal.setitimer(signal.ITIMER_REAL, 0)
            status, err, text = "error", f"{type(e).__name__}: {e}"[:300], ""
        wall, cpu = time.perf_counter() - w0, time.process_time() - c0
        if not isinstance(text, str):
            text = "" if text is None else str(text)
        (out_dir / f"{page['id']}.txt").write_text(text, encoding="utf-8", errors="replace")
        emit({"i": i, "status": status, "error": err, "wall": wall, "cpu": cpu})
    return 0


# ---------------------------------------------------------------------------------------------
# Parent side: running workers and victor, pinned to one core.


@contextmanager
def pinned(core: int):
    """Pin the calling thread to one core while a child is forked (the child inherits the
    affinity from its first instruction on), then restore the thread's own affinity."""
    before = os.sched_getaffinity(0)
    os.sched_setaffinity(0, {core})
    try:
        yield
    finally:
        os.sched_setaffinity(0, before)


class LineReader:
    """Reads JSON lines from a pipe with a timeout per line."""

    def __init__(self, stream):
        self.fd = stream.fileno()
        self.sel = selectors.DefaultSelector()
        self.sel.register(self.fd, selectors.EVENT_READ)
        self.buf = b""
        self.eof = False

    def read(self, timeout: float):
        """Next decoded object; None on EOF; raises TimeoutError if nothing arrives in time."""
        deadline = time.monotonic() + timeout
        while b"\n" not in self.buf:
            if self.eof:
                return None
            left = deadline - time.monotonic()
            if left <= 0 or not self.sel.select(left):
                raise TimeoutError
            chunk = os.read(self.fd, 65536)
            if not chunk:
                self.eof = True
            self.buf += chunk
        line, self.buf = self.buf.split(b"\n", 1)
        return json.loads(line)

    def close(self):
        self.sel.close()


def children_cpu() -> float:
    """User + system CPU seconds of the waited-for children so far."""
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def kill_group(proc: subprocess.Popen):
    """Kill a worker started in its own session (its pid is the group id)."""
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    proc.wait()


def wait_exact(proc: subprocess.Popen, limit: float):
    """Wait for a process in one blocking call, so the caller's clock stops when it exits, and
    kill its group after `limit` seconds. (`Popen.wait(timeout=...)` polls with sleeps of up to
    50 ms: a run of victor over a set's test pages takes about 0.1 to 0.3 s, so the poll had
    added up to half of that again.) Returns the exit code, or "timeout"."""
    fired = threading.Event()

    def kill():
        fired.set()
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass

    timer = threading.Timer(limit, kill)
    timer.daemon = True
    timer.start()
    try:
        rc = proc.wait()
    finally:
        timer.cancel()
    return "timeout" if fired.is_set() else rc


def progress(total: int, desc: str):
    """A tqdm bar on stderr, or a silent stand-in when tqdm is missing."""
    try:
        from tqdm import tqdm

        tqdm.monitor_interval = 0  # no monitor thread: children are forked from this process
        return tqdm(total=total, desc=desc, file=sys.stderr, leave=False, dynamic_ncols=True)
    except ImportError:

        class Bar:
            def update(self, n=1):
                pass

            def set_postfix_str(self, s):
                pass

            def close(self):
                pass

        print(f"{desc}: {total} pages", file=sys.stderr)
        return Bar()


def run_python_tool(tool, pages, out_dir: Path, args, log_path: Path, desc: str) -> dict:
    """Run one peer over the pages in pinned worker subprocesses (restarted after a hang/crash)."""
    out_dir.mkdir(parents=True, exist_ok=True)
    n = len(pages)
    per_page = [{"status": "missing", "error": "", "wall": 0.0, "cpu": 0.0} for _ in pages]
    job_path = out_dir.parent / f".{tool}.job.json"
    job = {
        "tool": tool,
        "decoding": args.decoding,
        "timeout": args.timeout,
        "out_dir": str(out_dir),
        "pages": [
            {"id": p["id"], "html": str(p["html_path"]), "lang": p.get("lang"), "url": p.get("url")}
            for p in pages
        ],
    }
    process_wall, version, import_s, spawns = 0.0, "", 0.0, 0
    cpu0 = children_cpu()
    bar = progress(n, desc)
    nxt = 0
    with open(log_path, "ab") as log:
        while nxt < n:
            job["start"] = nxt
            job_path.write_text(json.dumps(job), encoding="utf-8")
            t_spawn = time.perf_counter()
            with pinned(args.core):
                proc = subprocess.Popen(
                    [sys.executable, str(SCRIPT), "--worker", str(job_path)],
                    stdin=subprocess.DEVNULL,
                    stdout=subprocess.PIPE,
                    stderr=log,
                    start_new_session=True,
                )
            spawns += 1
            reader = LineReader(proc.stdout)
            try:
                try:
                    ready = reader.read(args.startup_timeout)
                except TimeoutError:
                    ready = {"ready": False, "error": f"no start-up within {args.startup_timeout} s"}
                if not ready or not ready.get("ready"):
                    kill_group(proc)
                    why = (ready or {}).get("error") or f"worker exited with {proc.returncode}"
                    bar.close()
                    return {"unavailable": why, "per_page": per_page}
                version, import_s = ready["version"], max(import_s, ready["import_s"])
                while nxt < n:
                    try:
                        msg = reader.read(args.timeout + args.grace)
                    except TimeoutError:
                        kill_group(proc)
                        per_page[nxt] = {
                            "status": "timeout",
                            "error": "killed after hang",
                            "wall": args.timeout + args.grace,
                            "cpu": 0.0,
                        }
                        nxt += 1
                        bar.update(1)
                        break
                    if msg is None:  # the worker died on this page
                        proc.wait()
                        per_page[nxt] = {
                            "status": "crash",
                            "error": f"worker exit {proc.returncode}",
                            "wall": 0.0,
                            "cpu": 0.0,
                        }
                        nxt += 1
                        bar.update(1)
                        break
                    per_page[msg["i"]] = {k: msg[k] for k in ("status", "error", "wall", "cpu")}
                    nxt = msg["i"] + 1
                    bar.update(1)
                else:
                    proc.wait()
            finally:
                reader.close()
                proc.stdout.close()
                if proc.poll() is None:
                    kill_group(proc)
                process_wall += time.perf_counter() - t_spawn
    bar.close()
    job_path.unlink(missing_ok=True)
    return {
        "per_page": per_page,
        "version": version,
        "process_wall": process_wall,
        "process_cpu": children_cpu() - cpu0,
        "import_s": import_s,
        "spawns": spawns,
    }


def shown(path: Path) -> str:
    """A path as shown in reports: relative to the project root when inside it."""
    try:
        return str(path.resolve().relative_to(ROOT))
    except ValueError:
        return str(path)


# Timed runs of victor over a set's pages (the median is reported).
VICTOR_RUNS = 3


def victor_startup(command: list[str], core: int, runs: int = 3) -> tuple[float, float] | None:
    """Best of `runs` (wall, CPU) times of victor on a list holding one empty page (start-up and
    model loading; `victor label` refuses an empty list), or None if that command fails."""
    best = None
    out = Path(command[command.index("--out") + 1])
    for _ in range(runs):
        t0, c0 = time.perf_counter(), children_cpu()
        try:
            with pinned(core):
                proc = subprocess.Popen(
                    command,
                    stdin=subprocess.DEVNULL,
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL,
                    start_new_session=True,
                )
            if wait_exact(proc, 120) == "timeout":
                return None
            rc = proc.returncode
        except OSError:
            return None
        shutil.rmtree(out, ignore_errors=True)
        if rc != 0:
            return None
        took = (time.perf_counter() - t0, children_cpu() - c0)
        best = took if best is None else min(best, took)
    return best


def run_victor(binary: Path, model: str | None, pages, out_dir: Path, args, log_path: Path) -> dict:
    """Run the victor CLI once over all pages, pinned to one core; time the whole process."""
    per_page = [{"status": "missing", "error": "", "wall": 0.0, "cpu": 0.0} for _ in pages]
    if not (binary.is_file() and os.access(binary, os.X_OK)):
        return {"unavailable": f"binary not found: {shown(binary)}", "per_page": per_page}
    if out_dir.exists():
        shutil.rmtree(out_dir)
    work = out_dir.parent
    list_path = work / f".{out_dir.name}.list"
    list_path.write_text("".join(f"{p['html_path']}\n" for p in pages), encoding="utf-8")
    # victor label refuses an empty list: start-up is timed on one empty page
    empty_page = work / ".victor-empty.html"
    empty_page.write_text("<html><body></body></html>\n", encoding="utf-8")
    empty_list = work / ".victor-empty.list"
    empty_list.write_text(f"{empty_page}\n", encoding="utf-8")
    model_args = ["--model", model] if model else []

    def cmd(files_from: Path, out: Path):
        return [
            str(binary),
            "label",
            *model_args,
            "--format",
            "text",
            "--jobs",
            "1",
            "--out",
            str(out),
            "--files-from",
            str(files_from),
        ]

    version = ""
    try:
        v = subprocess.run(
            [str(binary), "--version"], check=False, capture_output=True, text=True, timeout=30
        )
        version = v.stdout.strip() if v.returncode == 0 else ""
    except (OSError, subprocess.TimeoutExpired):
        pass
    print(
        f"victor{' --model ' + model if model else ''}: {len(pages)} pages in one process...", file=sys.stderr
    )
    limit = args.timeout * max(1, len(pages)) + 60
    walls, cpus = [], []
    with open(log_path, "ab") as log:
        # The whole run takes a fraction of a second: time it VICTOR_RUNS times, keep the median.
        for _ in range(VICTOR_RUNS):
            shutil.rmtree(out_dir, ignore_errors=True)
            cpu0 = children_cpu()
            t0 = time.perf_counter()
            try:
                with pinned(args.core):
                    proc = subprocess.Popen(
                        cmd(list_path, out_dir),
                        stdin=subprocess.DEVNULL,
                        stdout=subprocess.DEVNULL,
                        stderr=log,
                        start_new_session=True,
                    )
                rc = wait_exact(proc, limit)
            except OSError as e:
                return {"unavailable": f"cannot run {binary}: {e}", "per_page": per_page}
            walls.append(time.perf_counter() - t0)
            cpus.append(children_cpu() - cpu0)
            if rc != 0:
                break
        process_wall = statistics.median(walls)
        process_cpu = statistics.median(cpus)
        startup = victor_startup(cmd(empty_list, work / ".victor-empty-out"), args.core) if rc == 0 else None
    list_path.unlink(missing_ok=True)
    empty_list.unlink(missing_ok=True)
    empty_page.unlink(missing_ok=True)
    found = 0
    for p, rec in zip(pages, per_page):
        if (out_dir / f"{out_stem(p['html_path'])}.txt").exists():
            rec["status"] = "ok"
            found += 1
    if rc != 0 and found == 0:
        tail = log_path.read_text(encoding="utf-8", errors="replace").strip().splitlines()[-1:] or [""]
        return {"unavailable": f"exit {rc}: {tail[0][:200]}", "per_page": per_page}
    return {
        "per_page": per_page,
        "version": version,
        "process_wall": process_wall,
        "process_cpu": process_cpu,
        "startup": startup,
        "note": "" if rc == 0 else f"exit {rc}",
    }


# ---------------------------------------------------------------------------------------------
# Data, scoring of a run, tables.


def unavailable_row(set_name: str, split: str, tool: str, run: dict, pages: int) -> dict:
    """The results row of a tool that could not run on a set (said on stderr as well)."""
    print(f"{tool}: unavailable ({run['unavailable']})", file=sys.stderr)
    return {
        "set": set_name,
        "split": split,
        "tool": tool,
        "status": f"unavailable: {run['unavailable']}",
        "unavailable": run["unavailable"],
        "pages": pages,
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


def score_run(tool: str, pages, texts_dir: Path, run: dict, victor: bool) -> tuple[dict, list[dict]]:
    """Score one tool's outputs: the row of the set table and the per-page rows."""
    rows, f1s = [], []
    se = sg = so = 0
    failures = timeouts = empty = 0
    per_page = run["per_page"]
    for p, rec in zip(pages, per_page):
        name = out_stem(p["html_path"]) if victor else p["id"]
        f = texts_dir / f"{name}.txt"
        text = f.read_text(encoding="utf-8", errors="replace") if f.exists() else ""
        pr, rc, f1, ne, ng, ov = score_page(tokens(text), p["gold_tokens"])
        se, sg, so = se + ne, sg + ng, so + ov
        f1s.append((pr, rc, f1))
        status = rec["status"]
        failures += status != "ok"
        timeouts += status == "timeout"
        empty += ne == 0
        rows.append(
            {
                "tool": tool,
                "id": p["id"],
                "P": f"{pr:.4f}",
                "R": f"{rc:.4f}",
                "F1": f"{f1:.4f}",
                "status": status,
                "error": rec["error"],
                "seconds": "" if victor else f"{rec['wall']:.4f}",
                "extracted_tokens": ne,
                "gold_tokens": ng,
                "overlap_tokens": ov,
            }
        )
    n = len(pages)
    row = {"tool": tool, "pages": n}
    row["macro_P"] = sum(s[0] for s in f1s) / n
    row["macro_R"] = sum(s[1] for s in f1s) / n
    row["macro_F1"] = sum(s[2] for s in f1s) / n
    row["median_F1"] = statistics.median(s[2] for s in f1s)
    mp = so / se if se else 0.0
    mr = so / sg if sg else 1.0
    row["micro_P"], row["micro_R"] = mp, mr
    row["micro_F1"] = 2 * mp * mr / (mp + mr) if mp + mr else 0.0
    row["pages_F1_lt_0.5"] = sum(s[2] < 0.5 for s in f1s)
    row["failures"], row["timeouts"], row["empty_outputs"] = failures, timeouts, empty
    add_timing(row, pages, run, victor)
    return row, rows


def score_snippet_run(tool: str, pages, texts_dir: Path, run: dict, victor: bool) -> tuple[dict, list[dict]]:
    """Score one tool's outputs on a snippet set: counts summed over pages (micro over snippets),
    and the pages that have `with` snippets but kept none of them ("collapsed")."""
    rows = []
    tp = fp = fn = n_with = n_without = collapsed = 0
    failures = timeouts = empty = 0
    for p, rec in zip(pages, run["per_page"]):
        name = out_stem(p["html_path"]) if victor else p["id"]
        f = texts_dir / f"{name}.txt"
        text = f.read_text(encoding="utf-8", errors="replace") if f.exists() else ""
        ptp, pfp, pfn = snippet_counts(text, p["with"], p["without"])
        tp, fp, fn = tp + ptp, fp + pfp, fn + pfn
        n_with, n_without = n_with + len(p["with"]), n_without + len(p["without"])
        page_collapsed = bool(p["with"]) and ptp == 0
        collapsed += page_collapsed
        status = rec["status"]
        failures += status != "ok"
        timeouts += status == "timeout"
        empty += not text.strip()
        pp, pr, pf = snippet_prf(ptp, pfp, pfn)
        rows.append(
            {
                "tool": tool,
                "id": p["id"],
                "with_found": ptp,
                "with": len(p["with"]),
                "without_found": pfp,
                "without": len(p["without"]),
                "snippet_P": f"{pp:.4f}",
                "snippet_R": f"{pr:.4f}",
                "snippet_F1": f"{pf:.4f}",
                "collapsed": "yes" if page_collapsed else "no",
                "status": status,
                "error": rec["error"],
                "seconds": "" if victor else f"{rec['wall']:.4f}",
                "lang": p.get("lang") or "",
                "lang_source": p.get("lang_source", ""),
            }
        )
    row = {"tool": tool, "pages": len(pages), "measure": "snippet (micro over snippets)"}
    row["snippet_P"], row["snippet_R"], row["snippet_F1"] = snippet_prf(tp, fp, fn)
    row["with_found"], row["with_total"] = tp, n_with
    row["without_found"], row["without_total"] = fp, n_without
    row["pages_collapsed"] = collapsed
    row["failures"], row["timeouts"], row["empty_outputs"] = failures, timeouts, empty
    add_timing(row, pages, run, victor)
    return row, rows


# WCXB-style sets (manifest entries with `page_type`): WCXB's measure, by calling its scorer.


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


def score_wcxb_script(set_dir: Path) -> Path:
    """shared/checks/score_wcxb.py: in $VICTOR_CHECKS, else the set's ../../checks, else
    ../shared/checks beside the project."""
    places = [Path(os.environ["VICTOR_CHECKS"])] if os.environ.get("VICTOR_CHECKS") else []
    places += [set_dir.parent.parent / "checks", ROOT.parent / "shared" / "checks"]
    for place in places:
        if (place / "score_wcxb.py").is_file():
            return (place / "score_wcxb.py").resolve()
    raise SystemExit(
        f"compare.py: {set_dir.name} is a WCXB-style set (page_type in its manifest) and is scored "
        f"with score_wcxb.py, which is not in {', '.join(str(p) for p in places)} (set $VICTOR_CHECKS)"
    )


def wcxb_types(pages) -> list[str]:
    """The page types of the pages, most pages first (then by name), as score_wcxb.py lists them."""
    count = Counter(p.get("page_type") or "all" for p in pages)
    return sorted(count, key=lambda t: (-count[t], t))


def score_wcxb_run(
    tool: str, pages, texts_dir: Path, run: dict, victor: bool, set_dir: Path, split: str
) -> tuple[dict, list[dict]]:
    """Score one tool's outputs on a WCXB-style set with shared/checks/score_wcxb.py (called, not
    re-implemented): per page P, R, F1 and the shares of `with`/`without` snippets found; the row
    has the means over pages, overall and per page type, and the collapsed pages (F1 < .5)."""
    texts_dir.mkdir(parents=True, exist_ok=True)
    src = texts_dir
    if victor and any(out_stem(p["html_path"]) != p["id"] for p in pages):
        # score_wcxb.py reads <id>.txt; victor names its outputs after the page files
        src = texts_dir.parent / f".{texts_dir.name}.by-id"
        shutil.rmtree(src, ignore_errors=True)
        src.mkdir(parents=True)
        for p in pages:
            f = texts_dir / f"{out_stem(p['html_path'])}.txt"
            if f.exists():
                (src / f"{p['id']}.txt").symlink_to(f.resolve())
    fd, scored_csv = tempfile.mkstemp(prefix=".score_wcxb.", suffix=".csv", dir=texts_dir.parent)
    os.close(fd)
    try:
        cmd = [sys.executable, str(score_wcxb_script(set_dir)), "--set", str(set_dir), "--out-dir", str(src)]
        cmd += ["--pages-out", scored_csv] + (["--split", split] if split != "all" else [])
        done = subprocess.run(cmd, capture_output=True, text=True, check=False)
        if done.returncode != 0:
            raise SystemExit(f"compare.py: {' '.join(cmd)} failed: {done.stderr.strip()[-500:]}")
        with open(scored_csv, encoding="utf-8", newline="") as f:
            scored = {r["id"]: r for r in csv.DictReader(f)}
    finally:
        os.unlink(scored_csv)
        if src != texts_dir:
            shutil.rmtree(src, ignore_errors=True)
    missing = [p["id"] for p in pages if p["id"] not in scored]
    if missing:
        raise SystemExit(f"compare.py: score_wcxb.py did not score {len(missing)} pages ({missing[0]}, ...)")
    rows, per = [], []
    failures = timeouts = empty = 0
    for p, rec in zip(pages, run["per_page"]):
        s = scored[p["id"]]
        name = out_stem(p["html_path"]) if victor else p["id"]
        f = texts_dir / f"{name}.txt"
        text = f.read_text(encoding="utf-8", errors="replace") if f.exists() else ""
        status = rec["status"]
        failures += status != "ok"
        timeouts += status == "timeout"
        empty += not re.search(r"\w", text)
        vals = {k: float(s[k]) for k in ("P", "R", "F1", "with", "without")}
        per.append((s["page_type"], vals))
        rows.append(
            {
                "tool": tool,
                "id": p["id"],
                "page_type": s["page_type"],
                **{k: f"{v:.4f}" for k, v in vals.items()},
                "status": status,
                "error": rec["error"],
                "seconds": "" if victor else f"{rec['wall']:.4f}",
            }
        )

    def mean(vs, k):
        return sum(v[k] for v in vs) / len(vs)

    allv = [v for _, v in per]
    row = {"tool": tool, "pages": len(pages), "measure": "WCXB word F1 (score_wcxb.py)"}
    row["macro_P"], row["macro_R"], row["macro_F1"] = (mean(allv, k) for k in ("P", "R", "F1"))
    row["median_F1"] = statistics.median(v["F1"] for v in allv)
    row["pages_F1_lt_0.5"] = sum(v["F1"] < 0.5 for v in allv)
    row["with_found"], row["without_found"] = mean(allv, "with"), mean(allv, "without")
    for t in wcxb_types(pages):
        vs = [v for pt, v in per if pt == t]
        row[f"pages:{t}"] = len(vs)
        row[f"F1:{t}"], row[f"P:{t}"], row[f"R:{t}"] = (mean(vs, k) for k in ("F1", "P", "R"))
        row[f"lt_0.5:{t}"] = sum(v["F1"] < 0.5 for v in vs)
    row["failures"], row["timeouts"], row["empty_outputs"] = failures, timeouts, empty
    add_timing(row, pages, run, victor)
    return row, rows


def add_timing(row: dict, pages, run: dict, victor: bool):
    """The size and timing columns of a set row (shared by both kinds of set)."""
    n = len(pages)
    per_page = run["per_page"]
    mb = sum(p["bytes"] for p in pages) / 1e6
    row["MB"] = mb
    if victor:
        wall, startup, pcpu = run["process_wall"], run.get("startup"), run["process_cpu"]
        ext = wall - startup[0] if startup is not None and wall > startup[0] else None
        cpu = pcpu - startup[1] if startup is not None and pcpu > startup[1] else None
        row["extract_wall_s"], row["extract_cpu_s"] = ext, cpu
        row["extract_is_estimate"] = ext is not None
        row["startup_s"] = startup[0] if startup is not None else None
    else:
        ext = sum(r["wall"] for r in per_page)
        row["extract_wall_s"], row["extract_cpu_s"] = ext, sum(r["cpu"] for r in per_page)
        row["extract_is_estimate"] = False
        row["startup_s"] = run.get("import_s")
        wall = run["process_wall"]
    row["pages_per_s"] = n / ext if ext else None
    row["MB_per_s"] = mb / ext if ext else None
    row["pages_per_cpu_s"] = n / row["extract_cpu_s"] if row["extract_cpu_s"] else None
    row["process_wall_s"] = wall
    row["process_cpu_s"] = run.get("process_cpu")
    row["process_pages_per_s"] = n / wall if wall else None
    row["process_MB_per_s"] = mb / wall if wall else None
    row["version"] = run.get("version", "")
    row["status"] = run.get("note") or "ok"


# The first columns of every set's CSV.
ROW_FIELDS = ["set", "split", "tool", "status", "version", "pages"]
SET_FIELDS = [
    *ROW_FIELDS,
    "macro_P",
    "macro_R",
    "macro_F1",
    "median_F1",
    "micro_P",
    "micro_R",
    "micro_F1",
    "pages_F1_lt_0.5",
    "failures",
    "timeouts",
    "empty_outputs",
    "MB",
    "extract_wall_s",
    "extract_cpu_s",
    "extract_is_estimate",
    "pages_per_s",
    "MB_per_s",
    "pages_per_cpu_s",
    "startup_s",
    "process_wall_s",
    "process_cpu_s",
    "process_pages_per_s",
    "process_MB_per_s",
    "run_utc",
    "machine",
    "load_avg",
    "options",
]
TIMING_FIELDS = SET_FIELDS[SET_FIELDS.index("MB") :]
# Snippet sets (snippets.jsonl): the measure of shared/checks/score_snippets.py.
SNIPPET_SET_FIELDS = [
    *ROW_FIELDS,
    "measure",
    "snippet_P",
    "snippet_R",
    "snippet_F1",
    "with_found",
    "with_total",
    "without_found",
    "without_total",
    "pages_collapsed",
    "failures",
    "timeouts",
    "empty_outputs",
    *TIMING_FIELDS,
]
SNIPPET_PAGE_FIELDS = [
    "tool",
    "id",
    "with_found",
    "with",
    "without_found",
    "without",
    "snippet_P",
    "snippet_R",
    "snippet_F1",
    "collapsed",
    "status",
    "error",
    "seconds",
    "lang",
    "lang_source",
]
# WCXB-style sets: the per-type columns go between these (wcxb_fields).
WCXB_HEAD_FIELDS = [
    *ROW_FIELDS,
    "measure",
    "macro_P",
    "macro_R",
    "macro_F1",
    "median_F1",
    "pages_F1_lt_0.5",
    "with_found",
    "without_found",
]
WCXB_TAIL_FIELDS = ["failures", "timeouts", "empty_outputs", *TIMING_FIELDS]
WCXB_PAGE_FIELDS = [
    *("tool", "id", "page_type", "P", "R", "F1", "with", "without"),
    *("status", "error", "seconds"),
]


def header_types(fields) -> list[str]:
    """The page types of a WCXB-style CSV header or row (its F1:<type> columns), in order."""
    return [f[3:] for f in fields if f.startswith("F1:")]


def wcxb_fields(types: list[str]) -> list[str]:
    """The columns of a WCXB-style set's CSV for these page types."""
    per_type = [f"{k}:{t}" for t in types for k in ("pages", "F1", "P", "R", "lt_0.5")]
    return [*WCXB_HEAD_FIELDS, *per_type, *WCXB_TAIL_FIELDS]


def csv_kind(header) -> str:
    """'snippet', 'wcxb' or 'text': the kind of set a CSV header was written for."""
    if "snippet_F1" in header:
        return "snippet"
    return "wcxb" if header_types(header) else "text"


PAGE_FIELDS = [
    "tool",
    "id",
    "P",
    "R",
    "F1",
    "status",
    "error",
    "seconds",
    "extracted_tokens",
    "gold_tokens",
    "overlap_tokens",
]


def fmt(v, digits=4):
    """CSV cell: floats rounded, None empty."""
    if v is None:
        return ""
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, float):
        return f"{v:.{digits}f}"
    return v


def write_atomic(path: Path, text: str):
    """Write via a temporary file in the same folder, then rename."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as f:
            f.write(text)
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)  # mkstemp makes 0600 files
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def csv_text(fields, rows) -> str:
    """CSV document of dict rows."""
    buf = io.StringIO()
    w = csv.DictWriter(buf, fieldnames=fields, lineterminator="\n", extrasaction="ignore")
    w.writeheader()
    for r in rows:
        w.writerow({k: fmt(r.get(k)) for k in fields})
    return buf.getvalue()


def num(v):
    """A CSV cell (or an in-memory value) as a float, None when empty."""
    if v is None or v == "":
        return None
    if isinstance(v, bool):
        return float(v)
    try:
        return float(v)
    except (TypeError, ValueError):
        return None


def f3(v):
    """.123 style (1.000 kept)."""
    v = num(v)
    return "" if v is None else f"{v:.3f}".replace("0.", ".", 1) if v < 1 else f"{v:.3f}"


def rate(v, d=0):
    v = num(v)
    return "" if v is None else f"{v:,.{d}f}"


def timing_cells(r: dict) -> str:
    """pages/s | MB/s | pages/CPU-s | process pages/s | version cells of a row."""
    est = "~" if str(r.get("extract_is_estimate")) in ("yes", "True") else ""
    cells = [
        est + rate(r.get("pages_per_s")) if num(r.get("pages_per_s")) else "",
        est + rate(r.get("MB_per_s"), 2) if num(r.get("MB_per_s")) else "",
        est + rate(r.get("pages_per_cpu_s")) if num(r.get("pages_per_cpu_s")) else "",
        rate(r.get("process_pages_per_s")),
        r.get("version") or "",
    ]
    return " | ".join(cells)


def unavailable(r: dict) -> str:
    """The reason a tool was unavailable, or ''."""
    st = r.get("status") or ""
    return st[len("unavailable: ") :] if st.startswith("unavailable") else ""


def run_lines(rows: list[dict]) -> list[str]:
    """When and how the rows of a section were measured (rows of one set can come from
    several runs: a --tools subset refreshes only its own rows)."""
    groups: dict[tuple, list[str]] = {}
    for r in rows:
        key = (
            r.get("run_utc") or "",
            r.get("machine") or "",
            r.get("load_avg") or "",
            r.get("options") or "",
        )
        groups.setdefault(key, []).append(r["tool"])

    def describe(key):
        when, machine, load, opts = key
        if not when:
            return "run time not recorded"
        return (
            f"measured {when}"
            + (f" (`{opts}`)" if opts else "")
            + (f" on {machine}" if machine else "")
            + (f"; load average at start {load}" if load else "")
        )

    if len(groups) == 1:
        d = describe(next(iter(groups)))
        return [d[:1].upper() + d[1:] + "."]
    return [f"- {', '.join(tools)}: {describe(key)}." for key, tools in groups.items()]


def md_section(set_name: str, split: str, rows: list[dict], header: str, cells, note=(), kind="") -> str:
    """Markdown section of one set's rows: heading, `note` lines, run lines, then a table with
    `header` (its columns: the last four are the timings) and a line `cells(row)` per tool."""
    n = rows[0].get("pages") if rows else 0
    mb = next((num(r["MB"]) for r in rows if num(r.get("MB")) is not None), 0.0)
    columns = header.count("|") - 1
    out = [f"### {set_name} ({split}: {n} pages, {mb:.1f} MB){kind}", "", *note, *run_lines(rows), ""]
    out += [header, "|---" + "|---:" * (columns - 2) + "|---|"]
    for r in rows:
        if unavailable(r):
            out.append(f"| {r['tool']} | unavailable: {unavailable(r)} " + "|" * (columns - 1))
            continue
        out.append(f"| {r['tool']} | {cells(r)} | {timing_cells(r)} |")
    return "\n".join(out) + "\n"


def md_table(set_name: str, split: str, rows: list[dict]) -> str:
    """Markdown section of one set's rows (CSV rows: strings; in-memory rows work too)."""
    return md_section(
        set_name,
        split,
        rows,
        "| tool | macro P | macro R | macro F1 | median F1 | micro F1 | F1 < .5 | failures "
        "| pages/s | MB/s | pages/CPU-s | process pages/s | version |",
        lambda r: f"{f3(r['macro_P'])} | {f3(r['macro_R'])} | **{f3(r['macro_F1'])}** "
        f"| {f3(r['median_F1'])} | {f3(r['micro_F1'])} | {r['pages_F1_lt_0.5']} | {r['failures']}",
    )


def md_snippet_table(set_name: str, split: str, rows: list[dict]) -> str:
    """Markdown section of a snippet set's rows."""
    ok = [r for r in rows if not unavailable(r)]
    n_with = ok[0]["with_total"] if ok else "?"
    n_without = ok[0]["without_total"] if ok else "?"
    note = [
        f"The F1 of this set is **snippet F1, micro over snippets** ({n_with} `with` and {n_without} "
        "`without` snippets summed over the pages; shared/checks/score_snippets.py), not the "
        "text-level F1 of the other sets. collapsed = pages that have `with` snippets and kept none.",
        "",
    ]
    return md_section(
        set_name,
        split,
        rows,
        "| tool | snippet P | snippet R | snippet F1 | with found | without found | collapsed "
        "| failures | pages/s | MB/s | pages/CPU-s | process pages/s | version |",
        lambda r: f"{f3(r['snippet_P'])} | {f3(r['snippet_R'])} | **{f3(r['snippet_F1'])}** "
        f"| {r['with_found']}/{r['with_total']} | {r['without_found']}/{r['without_total']} "
        f"| {r['pages_collapsed']} | {r['failures']}",
        note,
        " — snippet set",
    )


def md_wcxb_table(set_name: str, split: str, rows: list[dict]) -> str:
    """Markdown section of a WCXB-style set's rows: WCXB's F1 overall and per page type (with the
    timings), then the collapsed pages (F1 < .5) per page type."""
    ok = [r for r in rows if not unavailable(r)]
    types = header_types(ok[0].keys()) if ok else []
    n_of = {t: ok[0].get(f"pages:{t}") for t in types} if ok else {}
    note = [
        "The F1 of this set is **WCXB's measure** (shared/checks/score_wcxb.py: bag-of-words F1 over "
        "lowercased `\\w+` words per page, averaged over pages), not the text-level F1 of the other "
        "sets. with / without = mean share of WCXB's `with` / `without` snippets found.",
        "",
    ]
    type_cols = "".join(f" {t} ({n_of[t]}) |" for t in types)
    text = md_section(
        set_name,
        split,
        rows,
        f"| tool | all |{type_cols} F1 < .5 | with | without | failures "
        "| pages/s | MB/s | pages/CPU-s | process pages/s | version |",
        lambda r: f"**{f3(r['macro_F1'])}** | "
        + "".join(f"{f3(r.get(f'F1:{t}'))} | " for t in types)
        + f"{r['pages_F1_lt_0.5']} | {f3(r['with_found'])} | {f3(r['without_found'])} | {r['failures']}",
        note,
        " — WCXB-style set",
    )
    out = [text, f"Collapsed pages (F1 < .5) per page type, {set_name} {split}:", ""]
    out.append(f"| tool | all |{type_cols}")
    out.append("|---" + "|---:" * (len(types) + 1) + "|")
    for r in ok:
        cells = "".join(f" {r.get(f'lt_0.5:{t}')} |" for t in types)
        out.append(f"| {r['tool']} | {r['pages_F1_lt_0.5']} |{cells}")
    return "\n".join(out) + "\n"


def machine_line(core: int) -> str:
    """A line describing the machine and its load."""
    model = ""
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                if line.startswith("model name"):
                    model = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return (
        f"{model or 'unknown CPU'}, {os.cpu_count()} cores, every tool pinned to core {core}, "
        f"Python {sys.version.split()[0]}"
    )


def load_line() -> str:
    """The load averages (1, 5, 15 minutes)."""
    return ", ".join(f"{x:.2f}" for x in os.getloadavg())


SUMMARY_NOTES = """\
Manifest sets (gold full text): text-level measure of shared/checks/score.py (token multisets,
NFKC, lowercased), per page. macro = mean over pages; micro = summed token counts; F1 < .5 = pages below; failures = pages
where the tool raised, timed out or crashed (scored as empty output).
pages/s and MB/s: extraction only (reading the file + decoding + extracting, one core, wall
clock), interpreter start-up excluded; pages/CPU-s: the same per CPU second of the process (less
sensitive to other load on the machine). For victor, marked ~: process time (median of three runs) minus its best time
on a list of one empty page. process pages/s: whole process(es), wall clock, start-up included (victor's
primary figure). Timings of different runs (machine, load) are not comparable: each section says
when, where and under which load its rows were measured; trust ratios within one run.

Snippet sets (snippets.jsonl, gold = `with`/`without` snippets): measure of
shared/checks/score_snippets.py. A `with` snippet found in the output (substring after collapsing
whitespace) is a true positive, a `without` snippet found a false positive, a missed `with` snippet
a false negative; counts summed over pages (micro over snippets): P = tp/(tp+fp), R = tp/(tp+fn),
F1 = 2tp/(2tp+fp+fn). collapsed = pages with `with` snippets of which the output kept none (the
snippet analogue of F1 < .5).

WCXB-style sets (manifest entries with `page_type`, e.g. wcxb): WCXB's own measure, computed by
shared/checks/score_wcxb.py: per page, bag-of-words F1 over lowercased `\\w+` words; averaged over
pages, overall and per page type; collapsed = pages with F1 < .5, per type.

trafilatura runs with its defaults (include_comments=True, include_tables=True);
trafilatura-nocomments with include_comments=False, include_tables=True, the setting of
trafilatura's own evaluation (the trafilatura-eval README's figures). rs-trafilatura runs with its
defaults, given the page's URL when the set has one. jusText's stoplist: the
set's `lang`, else the page's `<html lang>`, else a Content-Language/og:locale `<meta>`, else a
guess from the page text (script share, then jusText stoplist coverage); English when no
stoplist fits.
"""


def set_csv_rows(path: Path) -> tuple[list[str], list[dict]]:
    """Header and rows of a CSV written by this script ([], [] when missing)."""
    if not path.is_file():
        return [], []
    with open(path, encoding="utf-8", newline="") as f:
        r = csv.DictReader(f)
        return list(r.fieldnames or []), list(r)


def tool_order(name: str) -> tuple:
    """victor rows first (by name), then the peers in the order of ALL_TOOLS."""
    base = name.split(":", 1)[0]
    return (ALL_TOOLS.index(base) if base in ALL_TOOLS else len(ALL_TOOLS), name)


def merge_rows(old: list[dict], new: list[dict], n_pages: int, what: str) -> tuple[list[dict], set]:
    """The rows of this run plus the old rows of tools not run this time, sorted by tool_order.
    Old rows over a different number of pages (another --limit) are dropped. Returns the rows and
    the names of the old tools kept."""
    ran = {r["tool"] for r in new}
    kept, dropped = [], []
    for r in old:
        if r.get("tool") in ran:
            continue
        if str(r.get("pages")) != str(n_pages):
            dropped.append(r.get("tool"))
            continue
        kept.append(r)
    if dropped:
        print(
            f"compare.py: {what}: dropped the old rows of {', '.join(dropped)} "
            f"(over another number of pages than this run's {n_pages})",
            file=sys.stderr,
        )
    if kept:
        names = ", ".join(r["tool"] for r in kept)
        print(f"compare.py: {what}: kept the earlier rows of {names}", file=sys.stderr)
    rows = sorted([*kept, *new], key=lambda r: tool_order(r["tool"]))
    return rows, {r["tool"] for r in kept}


def write_set(
    out_dir: Path, set_name: str, split: str, kind: str, rows, page_rows, n_pages, fresh, types=()
):
    """Write <set>-<split>.csv and -pages.csv, keeping (unless fresh) the rows of the tools that
    this run did not run. kind: 'text', 'snippet' or 'wcxb' (with the set's page `types`)."""
    fields, pfields = {
        "text": (SET_FIELDS, PAGE_FIELDS),
        "snippet": (SNIPPET_SET_FIELDS, SNIPPET_PAGE_FIELDS),
        "wcxb": (wcxb_fields(list(types)), WCXB_PAGE_FIELDS),
    }[kind]
    base = f"{set_name}-{split}"
    if not fresh:
        header, old = set_csv_rows(out_dir / f"{base}.csv")
        if old and (csv_kind(header) != kind or (kind == "wcxb" and header_types(header) != list(types))):
            why = "another kind of set (or other page types)"
            print(f"compare.py: {base}.csv is of {why}; replaced", file=sys.stderr)
            old = []
        rows, kept = merge_rows(old, rows, n_pages, f"{base}.csv")
        _, old_pages = set_csv_rows(out_dir / f"{base}-pages.csv")
        page_rows = [r for r in old_pages if r.get("tool") in kept] + page_rows
        page_rows.sort(key=lambda r: tool_order(r["tool"]))  # stable: page order kept per tool
    write_atomic(out_dir / f"{base}.csv", csv_text(fields, rows))
    write_atomic(out_dir / f"{base}-pages.csv", csv_text(pfields, page_rows))


SPLIT_ORDER = {"test": 0, "dev": 1, "all": 2}


def summary_text(out_dir: Path) -> str:
    """summary.md, regenerated from every <set>-<split>.csv in out_dir (so that a run on some sets,
    or of some tools, keeps the sections and rows of the others)."""
    sections = []
    for path in sorted(out_dir.glob("*.csv")):
        if path.name.endswith("-pages.csv"):
            continue
        header, rows = set_csv_rows(path)
        if not rows or "tool" not in header or "set" not in header:
            continue
        set_name, split = rows[0]["set"], rows[0]["split"]
        kind = csv_kind(header)
        sections.append((SPLIT_ORDER.get(split, 9), kind, set_name, split, rows))
    sections.sort(key=lambda t: (t[0], {"text": 0, "snippet": 1, "wcxb": 2}[t[1]], t[2]))
    stamp = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    out = [
        "# victor and its peers: text-level F1 (snippet F1 on snippet sets) and speed",
        "",
        f"Regenerated {stamp} by scripts/compare.py from the per-set CSVs in this folder "
        "(`<set>-<split>.csv`, per page `<set>-<split>-pages.csv`).",
        "",
        SUMMARY_NOTES,
    ]
    tables = {"text": md_table, "snippet": md_snippet_table, "wcxb": md_wcxb_table}
    for _, kind, set_name, split, rows in sections:
        out.append(tables[kind](set_name, split, rows))
    return "\n".join(out)


# ---------------------------------------------------------------------------------------------
# Virtualenv bootstrap.


def default_venv() -> Path:
    """${VICTOR_COMPARE_VENV} or ${XDG_CACHE_HOME:-~/.cache}/victor-compare-venv."""
    if os.environ.get("VICTOR_COMPARE_VENV"):
        return Path(os.environ["VICTOR_COMPARE_VENV"])
    cache = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(cache) / "victor-compare-venv"


def ensure_venv(venv: Path):
    """Create the virtualenv and install the pinned requirements if it is missing or stale."""
    marker = venv / "victor-compare-requirements.txt"
    wanted = f"pip=={PIP_VERSION}\n{REQUIREMENTS}"
    py = venv / "bin" / "python"
    if py.exists() and marker.exists() and marker.read_text(encoding="utf-8") == wanted:
        return
    print(f"compare.py: setting up {venv} (pinned peers from PyPI; once)...", file=sys.stderr)
    if not py.exists():
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    req = venv / "requirements.txt"
    req.write_text(REQUIREMENTS, encoding="utf-8")
    pip = [str(py), "-m", "pip", "install", "--quiet", "--disable-pip-version-check"]
    subprocess.run([*pip, f"pip=={PIP_VERSION}"], check=True)
    subprocess.run([*pip, "-r", str(req)], check=True)
    marker.write_text(wanted, encoding="utf-8")


# ---------------------------------------------------------------------------------------------


def parse_args(argv):
    ap = argparse.ArgumentParser(
        prog="compare.py", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument(
        "sets",
        nargs="+",
        metavar="SET",
        help="set directory with manifest.jsonl, or a set name under $VICTOR_DATA "
        "(default ../shared/data from the project root)",
    )
    ap.add_argument("--split", default="test", help="manifest split to run: test (default), dev or all")
    ap.add_argument("--limit", type=int, metavar="N", help="only the first N pages of the split per set")
    ap.add_argument(
        "--tools",
        default=",".join(ALL_TOOLS),
        help=f"comma-separated subset of: {', '.join(ALL_TOOLS)} (default: all)",
    )
    ap.add_argument(
        "--victor",
        "--victor-bin",
        dest="victor",
        type=Path,
        default=ROOT / "target" / "release" / "victor",
        help="victor binary, also --victor-bin (default: target/release/victor under the project root)",
    )
    ap.add_argument(
        "--victor-model",
        action="append",
        default=[],
        metavar="M",
        help="model bundle passed to victor as --model M; repeat to compare several "
        "(default: victor's own default)",
    )
    ap.add_argument(
        "--out-dir",
        type=Path,
        default=ROOT / "eval" / "peers",
        help="where the CSVs and summary.md go (default: eval/peers)",
    )
    ap.add_argument(
        "--fresh",
        action="store_true",
        help="write only this run's rows into <set>-<split>.csv (default: the rows of tools not "
        "run this time, over the same number of pages, are kept)",
    )
    ap.add_argument(
        "--texts-dir",
        type=Path,
        help="keep the extracted texts here (<set>-<split>/<tool>/<id>.txt); "
        "default: a temporary folder, removed at the end",
    )
    ap.add_argument("--timeout", type=float, default=30.0, help="per-page time limit in seconds (default 30)")
    ap.add_argument(
        "--grace",
        type=float,
        default=15.0,
        help="extra seconds before a worker that ignores the timeout is killed (default 15)",
    )
    ap.add_argument("--startup-timeout", type=float, default=300.0, help=argparse.SUPPRESS)
    ap.add_argument(
        "--core",
        type=int,
        default=max(os.sched_getaffinity(0)),
        help="the core every tool is pinned to (default: the highest allowed core)",
    )
    ap.add_argument(
        "--decoding",
        choices=["native", "sniff"],
        default="native",
        help="native (default): bytes to the tools that decode themselves; sniff: the "
        "script's sniffed string to every Python tool (see above)",
    )
    ap.add_argument(
        "--venv",
        type=Path,
        default=None,
        help="virtualenv to create/use (default: $VICTOR_COMPARE_VENV or "
        "${XDG_CACHE_HOME:-~/.cache}/victor-compare-venv)",
    )
    ap.add_argument(
        "--no-venv",
        action="store_true",
        help="run with the current interpreter, whose packages must already be there",
    )
    a = ap.parse_args(argv)
    tools = [t.strip() for t in a.tools.split(",") if t.strip()]
    bad = [t for t in tools if t not in ALL_TOOLS]
    if bad:
        ap.error(f"unknown tool(s) {', '.join(bad)}; choose from {', '.join(ALL_TOOLS)}")
    a.tools = [t for t in ALL_TOOLS if t in tools]
    if a.split not in ("test", "dev", "all"):
        ap.error("--split must be test, dev or all")
    if a.core not in os.sched_getaffinity(0):
        ap.error(f"--core {a.core} is not among the allowed cores {sorted(os.sched_getaffinity(0))}")
    return a


def main(argv) -> int:
    args = parse_args(argv)
    if not args.no_venv:
        venv = (args.venv or default_venv()).absolute()
        ensure_venv(venv)
        if Path(sys.prefix).resolve() != venv.resolve():
            py = venv / "bin" / "python"
            os.execv(str(py), [str(py), str(SCRIPT), *argv])
    sets = [resolve_set(s) for s in args.sets]
    victor_runs = (
        ([None] if not args.victor_model else list(args.victor_model)) if "victor" in args.tools else []
    )
    peers = [t for t in args.tools if t != "victor"]
    victor_bin = args.victor if args.victor.is_absolute() else (Path.cwd() / args.victor)

    tmp_root = None
    if args.texts_dir:
        texts_root = args.texts_dir.absolute()
    else:
        tmp_root = tempfile.mkdtemp(prefix="victor-compare-")
        texts_root = Path(tmp_root)
    limit = f" --limit {args.limit}" if args.limit else ""
    options = f"--split {args.split}{limit} --decoding {args.decoding}"
    run_info = {
        "run_utc": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
        "machine": machine_line(args.core),
        "load_avg": load_line(),
        "options": options,
    }
    try:
        # load_pages reads every page once: the page cache is warm for the first tool
        all_pages = {}
        for s in sets:
            pages = load_pages(s, args.split, args.limit)
            if not pages:
                print(f"compare.py: no pages of split {args.split!r} in {s}", file=sys.stderr)
                continue
            all_pages[s] = pages
            derived = Counter(
                f"{p['lang']} ({p['lang_source']})" if p.get("lang") else "none (English stoplist)"
                for p in pages
                if p["lang_source"] != "set"
            )
            if derived:
                print(
                    f"compare.py: {s.name}: page languages derived for jusText: "
                    + ", ".join(f"{k} x{v}" for k, v in derived.most_common()),
                    file=sys.stderr,
                )
        for s, pages in all_pages.items():
            set_name = s.name
            snippets = is_snippet_set(s)
            kind = "snippet" if snippets else "wcxb" if is_wcxb_set(s) else "text"
            score = {"snippet": score_snippet_run, "text": score_run}.get(kind)
            if kind == "wcxb":
                score_wcxb_script(s)  # refuse now rather than after the runs

                def score(*a, set_dir=s, **kw):
                    return score_wcxb_run(*a, **kw, set_dir=set_dir, split=args.split)

            work = texts_root / f"{set_name}-{args.split}"
            work.mkdir(parents=True, exist_ok=True)
            rows, page_rows = [], []
            names: set[str] = set()
            for model in victor_runs:
                name = "victor" if model is None else f"victor:{Path(model).name or model}"
                while name in names:  # two bundles with the same folder name
                    name += "'"
                names.add(name)
                out = work / re.sub(r"[^\w.'-]", "_", name)
                run = run_victor(victor_bin, model, pages, out, args, work / f"{out.name}.stderr.log")
                if "unavailable" in run:
                    rows.append(unavailable_row(set_name, args.split, name, run, len(pages)))
                    continue
                row, pr = score(name, pages, out, run, victor=True)
                built = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(victor_bin.stat().st_mtime))
                vopts = f" --victor-bin {shown(victor_bin)} (built {built})"
                vopts += f" --victor-model {model}" if model else ""
                rows.append(
                    {"set": set_name, "split": args.split, **row, **run_info, "options": options + vopts}
                )
                page_rows += pr
            for tool in peers:
                out = work / tool
                run = run_python_tool(
                    tool, pages, out, args, work / f"{tool}.stderr.log", f"{set_name} {tool}"
                )
                if "unavailable" in run:
                    rows.append(unavailable_row(set_name, args.split, tool, run, len(pages)))
                    continue
                row, pr = score(tool, pages, out, run, victor=False)
                rows.append({"set": set_name, "split": args.split, **row, **run_info})
                page_rows += pr
                figure = (
                    f"snippet F1 {row['snippet_F1']:.4f} (P {row['snippet_P']:.4f}, R {row['snippet_R']:.4f})"
                    if snippets
                    else f"macro F1 {row['macro_F1']:.4f}"
                )
                print(
                    f"{set_name} {tool}: {figure}, "
                    f"{row['failures']} failures, {row['pages_per_s'] or 0:.1f} pages/s",
                    file=sys.stderr,
                )
            for r in rows:  # unavailable rows carry the run too
                r.update({k: v for k, v in run_info.items() if k not in r})
            write_set(
                args.out_dir, set_name, args.split, kind, rows, page_rows, len(pages), args.fresh,
                types=wcxb_types(pages),
            )
        text = summary_text(args.out_dir)
        write_atomic(args.out_dir / "summary.md", text)
        print(text)
    finally:
        if tmp_root:
            shutil.rmtree(tmp_root, ignore_errors=True)
    return 0


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--worker":
        sys.exit(worker_main(sys.argv[2]))
    sys.exit(main(sys.argv[1:]))

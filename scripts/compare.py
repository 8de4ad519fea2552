#!/usr/bin/env python3
"""Compare victor with established boilerplate removers: same pages, same measure, one core each.

For each data set (a folder with manifest.jsonl: one page a line with id, html, gold, split, lang),
every tool extracts the text of the pages of the chosen split, and the text is scored against the
gold standard with the text-level measure of shared/checks/score.py (re-implemented here, same rules):
tokens are NFKC-normalised, lowercased runs of letters/digits (each CJK/kana/Thai character alone),
compared as multisets; P = overlap / extracted tokens, R = overlap / gold tokens; gold line markers
(<p>, <h>, <l>, <s>) and a leading "URL:" line are stripped; empty gold scores R = 1, and P = F1 = 1
only if the output is empty too.

Tools (--tools, comma-separated; default all):
  victor                 `victor label --format text --jobs 1 --out DIR --files-from LIST [--model M]`
                         (output DIR/<html file stem>.txt); one run per --victor-model
                         (default: victor's own default model)
  trafilatura            trafilatura.extract(bytes) with default settings
  trafilatura-precision  the same with favor_precision=True
  trafilatura-recall     the same with favor_recall=True
  readability            readability-lxml Document(page).summary(), then the text of that HTML
  justext                jusText paragraphs not marked boilerplate; stoplist from the manifest's
                         `lang` (ISO 639-1), English when absent or unknown
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
  <set>-<split>-pages.csv  one row per tool and page: P, R, F1, status, seconds, token counts
  summary.md               a Markdown table per set of this run (also printed on stdout)
Extracted texts go to a temporary folder (removed at the end) unless --texts-dir is given; they
derive from research-only pages: never commit them.

Dependencies: on first use the script makes a virtualenv (default
${XDG_CACHE_HOME:-~/.cache}/victor-compare-venv, or --venv / $VICTOR_COMPARE_VENV), installs the
versions pinned in this script (REQUIREMENTS) from PyPI into it, and re-executes itself there (--no-venv: use the current
interpreter as it is). Progress goes to stderr.

Example:
  scripts/compare.py ../shared/data/l3s-gn1 ../shared/data/cleaneval --split test
  scripts/compare.py l3s-gn1 --limit 20 --tools resiliparse,readability --out-dir /tmp/peers
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
    """Import the tool and return (extract(raw: bytes, lang: str | None) -> str, version)."""
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
        }[tool]

        def extract(raw, lang):
            return trafilatura.extract(raw if native else sniff_decode(raw), **kw) or ""

    elif tool == "readability":
        import logging

        import lxml.html
        from readability import Document

        logging.getLogger("readability").setLevel(logging.CRITICAL)

        def extract(raw, lang):
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

        def extract(raw, lang):
            paragraphs = justext.justext(raw if native else sniff_decode(raw), stoplist(lang))
            return "\n".join(p.text for p in paragraphs if not p.is_boilerplate)

    elif tool == "boilerpy3":
        import lxml.html
        from boilerpy3 import extractors

        article = extractors.ArticleExtractor()  # raise_on_failure=True: failures are counted

        def extract(raw, lang):
            tree = parse_html(sniff_decode(raw))
            if tree is None:
                return ""
            return article.get_content(lxml.html.tostring(tree, encoding="unicode", method="html"))

    elif tool == "resiliparse":
        from resiliparse.extract.html2text import extract_plain_text
        from resiliparse.parse.encoding import bytes_to_str, detect_encoding

        def extract(raw, lang):
            html = bytes_to_str(raw, detect_encoding(raw)) if native else sniff_decode(raw)
            return extract_plain_text(html, main_content=True)

    elif tool == "all-visible":
        skip = frozenset({"script", "style", "noscript", "template", "head"})

        def extract(raw, lang):
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
        emit({"ready": False, "error": f"{type(e).__name__}: {e}"})
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
            with open(page["html"], "rb") as f:
                raw = f.read()
            text = extract(raw, page.get("lang"))
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
        "pages": [{"id": p["id"], "html": str(p["html_path"]), "lang": p.get("lang")} for p in pages],
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
        if (out_dir / f"{p['html_path'].stem}.txt").exists():
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


def resolve_set(arg: str) -> Path:
    """A set directory, or a set name under $VICTOR_DATA or ../shared/data."""
    p = Path(arg)
    if (p / "manifest.jsonl").is_file():
        return p.resolve()
    base = Path(os.environ.get("VICTOR_DATA") or ROOT.parent / "shared" / "data")
    if (base / arg / "manifest.jsonl").is_file():
        return (base / arg).resolve()
    raise SystemExit(f"compare.py: no manifest.jsonl in {arg} (nor in {base / arg})")


def load_pages(set_dir: Path, split: str, limit: int | None) -> list[dict]:
    """The manifest entries of the split, with the html path and the gold tokens."""
    pages = []
    with open(set_dir / "manifest.jsonl", encoding="utf-8") as f:
        for line in f:
            if not line.strip():
                continue
            m = json.loads(line)
            if split != "all" and m.get("split") != split:
                continue
            m["html_path"] = set_dir / m["html"]
            gold = (set_dir / m["gold"]).read_text(encoding="utf-8", errors="replace")
            m["gold_tokens"] = tokens(gold_text(gold))
            m["bytes"] = m["html_path"].stat().st_size
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
        name = p["html_path"].stem if victor else p["id"]
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
    mb = sum(p["bytes"] for p in pages) / 1e6
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
    return row, rows


SET_FIELDS = [
    "set",
    "split",
    "tool",
    "status",
    "version",
    "pages",
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
]
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


def md_table(set_name: str, split: str, rows: list[dict]) -> str:
    """Markdown table of one set's rows."""

    def f3(v):
        return "" if v is None else f"{v:.3f}".replace("0.", ".", 1) if v < 1 else f"{v:.3f}"

    def rate(v, d=0):
        return "" if v is None else f"{v:,.{d}f}"

    n = rows[0]["pages"] if rows else 0
    mb = next((r["MB"] for r in rows if r.get("MB") is not None), 0.0)
    out = [
        f"### {set_name} ({split}: {n} pages, {mb:.1f} MB)",
        "",
        (
            "| tool | macro P | macro R | macro F1 | median F1 | micro F1 | F1 < .5 | failures "
            "| pages/s | MB/s | pages/CPU-s | process pages/s | version |"
        ),
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|",
    ]
    for r in rows:
        if r.get("unavailable"):
            out.append(f"| {r['tool']} | unavailable: {r['unavailable']} ||||||||||||")
            continue
        est = "~" if r.get("extract_is_estimate") else ""
        pps = r.get("pages_per_s")
        mbs = r.get("MB_per_s")
        cps = r.get("pages_per_cpu_s")
        out.append(
            f"| {r['tool']} | {f3(r['macro_P'])} | {f3(r['macro_R'])} | **{f3(r['macro_F1'])}** "
            f"| {f3(r['median_F1'])} | {f3(r['micro_F1'])} | {r['pages_F1_lt_0.5']} | {r['failures']} "
            f"| {est + rate(pps) if pps else ''} | {est + rate(mbs, 2) if mbs else ''} "
            f"| {est + rate(cps) if cps else ''} "
            f"| {rate(r.get('process_pages_per_s'))} | {r.get('version', '')} |"
        )
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
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    return (
        f"{model or 'unknown CPU'}, {os.cpu_count()} cores, every tool pinned to core {core}; "
        f"load average at start {load}; Python {sys.version.split()[0]}"
    )


SUMMARY_NOTES = """\
Text-level measure of shared/checks/score.py (token multisets, NFKC, lowercased), per page.
macro = mean over pages; micro = summed token counts; F1 < .5 = pages below; failures = pages
where the tool raised, timed out or crashed (scored as empty output).
pages/s and MB/s: extraction only (reading the file + decoding + extracting, one core, wall
clock), interpreter start-up excluded; pages/CPU-s: the same per CPU second of the process (less
sensitive to other load on the machine). For victor, marked ~: process time (median of three runs) minus its best time
on a list of one empty page. process pages/s: whole process(es), wall clock, start-up included (victor's
primary figure).
"""


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
        type=Path,
        default=ROOT / "target" / "release" / "victor",
        help="victor binary (default: target/release/victor under the project root)",
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
    command = (
        f"scripts/compare.py --split {args.split}{f' --limit {args.limit}' if args.limit else ''} "
        f"--decoding {args.decoding}"
    )
    stamp = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    summary = [
        "# victor and its peers: text-level F1 and speed",
        "",
        f"Generated {stamp} by `{command}`.",
        "",
        machine_line(args.core) + ".",
        "",
        SUMMARY_NOTES,
    ]
    try:
        # warm the page cache so that the first tool does not pay for disk reads
        all_pages = {}
        for s in sets:
            pages = load_pages(s, args.split, args.limit)
            if not pages:
                print(f"compare.py: no pages of split {args.split!r} in {s}", file=sys.stderr)
                continue
            for p in pages:
                p["html_path"].read_bytes()
            all_pages[s] = pages
        for s, pages in all_pages.items():
            set_name = s.name
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
                    print(f"{name}: unavailable ({run['unavailable']})", file=sys.stderr)
                    rows.append(
                        {
                            "set": set_name,
                            "split": args.split,
                            "tool": name,
                            "status": f"unavailable: {run['unavailable']}",
                            "unavailable": run["unavailable"],
                            "pages": len(pages),
                        }
                    )
                    continue
                row, pr = score_run(name, pages, out, run, victor=True)
                rows.append({"set": set_name, "split": args.split, **row})
                page_rows += pr
            for tool in peers:
                out = work / tool
                run = run_python_tool(
                    tool, pages, out, args, work / f"{tool}.stderr.log", f"{set_name} {tool}"
                )
                if "unavailable" in run:
                    print(f"{tool}: unavailable ({run['unavailable']})", file=sys.stderr)
                    rows.append(
                        {
                            "set": set_name,
                            "split": args.split,
                            "tool": tool,
                            "status": f"unavailable: {run['unavailable']}",
                            "unavailable": run["unavailable"],
                            "pages": len(pages),
                        }
                    )
                    continue
                row, pr = score_run(tool, pages, out, run, victor=False)
                rows.append({"set": set_name, "split": args.split, **row})
                page_rows += pr
                print(
                    f"{set_name} {tool}: macro F1 {row['macro_F1']:.4f}, "
                    f"{row['failures']} failures, {row['pages_per_s'] or 0:.1f} pages/s",
                    file=sys.stderr,
                )
            base = f"{set_name}-{args.split}"
            write_atomic(args.out_dir / f"{base}.csv", csv_text(SET_FIELDS, rows))
            write_atomic(args.out_dir / f"{base}-pages.csv", csv_text(PAGE_FIELDS, page_rows))
            summary.append(md_table(set_name, args.split, rows))
        text = "\n".join(summary)
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

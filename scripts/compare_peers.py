"""compare.py's peers: the pinned Python packages and their virtualenv, the extractors (tool name ->
extract(raw bytes, lang, url) -> text), the worker that runs one tool over a list of pages
(`compare.py --worker JOB.json`, one JSON line per page on its protocol fd), and the parent side
that runs it pinned to one core, restarting it after a hang or a crash."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from compare_pages import sniff_decode, read_page, JUSTEXT_LANGS
from compare_proc import pinned, LineReader, children_cpu, kill_group, progress

# the entry point: the parent runs workers as `compare.py --worker JOB.json`
SCRIPT = Path(__file__).resolve().parent / "compare.py"


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

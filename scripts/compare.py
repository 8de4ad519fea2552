#!/usr/bin/env python3
"""Compare victor with established boilerplate removers: same pages, same measure, one core each.

For each data set (a folder with manifest.jsonl: one page a line with id, html, gold, split, lang),
every tool extracts the text of the pages of the chosen split, and the text is scored against the
gold standard with the text-level measure of shared/checks/score.py (scripts/victor_score.py, same rules):
tokens are NFKC-normalised, lowercased runs of letters/digits (each CJK/kana/Thai character alone),
compared as multisets; P = overlap / extracted tokens, R = overlap / gold tokens; gold line markers
(<p>, <h>, <l>, <s>) and a leading "URL:" line are stripped; empty gold scores R = 1, and P = F1 = 1
only if the output is empty too.

Snippet sets (a folder with snippets.jsonl and no manifest.jsonl: one page a line with id, url,
html, with, without, split; e.g. shared/data/trafilatura-eval) are scored with the measure of
shared/checks/score_snippets.py (scripts/victor_score.py, same rules): a `with` snippet found in the output
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
import os
import re
import shutil
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

from compare_pages import is_snippet_set, is_wcxb_set, resolve_set, load_pages
from compare_peers import ALL_TOOLS, worker_main, run_python_tool, default_venv, ensure_venv
from compare_run import shown, run_victor
from compare_score import unavailable_row, score_run, score_snippet_run, score_wcxb_script, wcxb_types, score_wcxb_run
from compare_report import write_atomic, machine_line, load_line, write_set, summary_text

# The entry point: the command line and the run over the sets. The jobs live beside it:
# compare_pages.py (sets, pages, decoding, languages), compare_peers.py (the pinned peers, their
# extractors and workers), compare_run.py (victor's runs), compare_proc.py (pinned, timed child
# processes), compare_score.py (a run's rows; the measures are victor_score.py's) and
# compare_report.py (the CSVs and summary.md).
ROOT = Path(__file__).resolve().parent.parent
SCRIPT = Path(__file__).resolve()


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

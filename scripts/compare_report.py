"""compare.py's outputs: the CSV columns of each kind of set, merging a run's rows with the earlier
ones, the atomic writes of <set>-<split>.csv and -pages.csv, and summary.md regenerated from them."""

from __future__ import annotations

import csv
import io
import os
import sys
import tempfile
import time
from pathlib import Path

from compare_peers import ALL_TOOLS


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

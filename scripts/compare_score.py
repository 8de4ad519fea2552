"""compare.py's scoring of one tool's run on a set: the set's row and the per-page rows, with the
measures of victor_score.py (text level, snippets) or WCXB's own scorer (shared/checks/
score_wcxb.py, called, not re-implemented), and the size and timing columns."""

from __future__ import annotations

import csv
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

from compare_pages import out_stem
from victor_score import score_page, snippet_counts, snippet_prf, tokens

ROOT = Path(__file__).resolve().parent.parent


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

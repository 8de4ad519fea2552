#!/usr/bin/env python3
"""Regenerate everything under eval/: victor's figures for every model bundle, the peers, and
the Markdown summary eval/README.md.

usage: scripts/eval_all.py [--data DIR] [--models DIR] [--sets a,b,c] [--split test]
                           [--skip-peers] [--out DIR]

For each data set (default: l3s-gn1, cleaneval, dragnet-train under $VICTOR_DATA, else
../shared/data beside the project) and each model bundle (every folder of models/ holding a
victor.json), on the chosen split (default test):
  victor eval   -> eval/<set>/<model>-eval.txt   the terminal tables, with the 10 worst pages
                   eval/<set>/<model>-eval.csv   block- and text-level figures
                   eval/<set>/<model>-pages.csv  the same per page
  victor sweep  -> eval/<set>/<model>-sweep.txt, -sweep.csv, -sweep.svg (thresholds 0..1 by .02,
                   precision against recall for blocks and text)
Then scripts/compare.py runs the peers and every model (victor label --jobs 1) on one core, with
the same text-level measure, into eval/peers/ (--skip-peers keeps the existing eval/peers/).
Last, eval/README.md: the headline table (text-level macro F1 and pages/s on one core, victor
against the peers, per set), victor's block- and text-level figures per set and model, and the
sweep plots.

The first step builds the release binary (cargo build --release -p victor-cli). Only figures,
page ids and plots are written: no page text (the data sets are research-only).
"""

from __future__ import annotations

import argparse
import csv
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SETS = ["l3s-gn1", "cleaneval", "dragnet-train"]
VICTOR = ROOT / "target" / "release" / "victor"


def log(msg: str) -> None:
    print(f"eval_all: {msg}", file=sys.stderr, flush=True)


def run(cmd: list[str], stdout_path: Path | None = None) -> None:
    """Runs a command from the project root; its standard output goes to `stdout_path` if given."""
    log(" ".join(str(c) for c in cmd))
    if stdout_path is None:
        subprocess.run(cmd, cwd=ROOT, check=True)
        return
    tmp = stdout_path.with_name(f".{stdout_path.name}.tmp")
    with open(tmp, "wb") as out:
        subprocess.run(cmd, cwd=ROOT, check=True, stdout=out)
    tmp.replace(stdout_path)


def read_rows(path: Path) -> list[dict]:
    if not path.is_file():
        return []
    with open(path, newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


def f3(x: str | float | None) -> str:
    """.959 style, as in peers/summary.md; '' when missing."""
    if x is None or x == "":
        return ""
    s = f"{float(x):.3f}"
    return s[1:] if s.startswith("0.") else s


def rate(x: str | None, estimate: bool = False) -> str:
    if not x:
        return ""
    return f"{'~' if estimate else ''}{float(x):.0f}"


def shown(p: Path) -> str:
    """A path relative to the project root when it is inside it."""
    try:
        return str(p.relative_to(ROOT))
    except ValueError:
        return str(p)


def models_in(models_dir: Path) -> list[Path]:
    if not models_dir.is_dir():
        return []
    # A symbolic link (models/default -> article) names a bundle already in the list.
    return sorted(
        p for p in models_dir.iterdir() if (p / "victor.json").is_file() and not p.is_symlink()
    )


def victor_figures(set_dir: Path, models: list[Path], out: Path, split: str) -> None:
    """victor eval and victor sweep of every model on one set."""
    out.mkdir(parents=True, exist_ok=True)
    for m in models:
        name = m.name
        base = [str(VICTOR)]
        common = ["--model", str(m), str(set_dir), "--split", split, "--quiet"]
        run(
            [*base, "eval", *common, "--csv", str(out / f"{name}-eval.csv"),
             "--pages-csv", str(out / f"{name}-pages.csv"), "--worst", "10"],
            out / f"{name}-eval.txt",
        )
        run(
            [*base, "sweep", *common, "--min-threshold", "0", "--max-threshold", "1", "--step", "0.02",
             "--csv", str(out / f"{name}-sweep.csv"), "--plot", str(out / f"{name}-sweep.svg"),
             "--title", f"{set_dir.name} ({split}), model {name}: precision and recall by threshold"],
            out / f"{name}-sweep.txt",
        )


def headline(sets: list[str], split: str, peers_dir: Path) -> list[str]:
    """The table tool x set: text-level macro F1 and pages/s on one core."""
    per_set = {s: read_rows(peers_dir / f"{s}-{split}.csv") for s in sets}
    tools: list[str] = []
    for rows in per_set.values():
        for r in rows:
            if r["tool"] not in tools:
                tools.append(r["tool"])
    # victor's rows first, then the peers in compare.py's order
    first_seen = {t: i for i, t in enumerate(tools)}
    tools.sort(key=lambda t: (not t.startswith("victor"), first_seen[t]))
    best = {}
    for s, rows in per_set.items():
        f1s = [float(r["macro_F1"]) for r in rows if r.get("macro_F1")]
        best[s] = max(f1s) if f1s else None
    head = "| tool | " + " | ".join(f"{s} F1 | pages/s" for s in sets) + " |"
    lines = [head, "|---|" + "---:|---:|" * len(sets)]
    for t in tools:
        cells = []
        for s in sets:
            r = next((r for r in per_set[s] if r["tool"] == t), None)
            if r is None or not r.get("macro_F1"):
                cells += ["", ""]
                continue
            f = f3(r["macro_F1"])
            if best[s] is not None and float(r["macro_F1"]) == best[s]:
                f = f"**{f}**"
            cells += [f, rate(r.get("pages_per_s"), r.get("extract_is_estimate") == "yes")]
        lines.append(f"| {t} | " + " | ".join(cells) + " |")
    return lines


def standing(sets: list[str], split: str, peers_dir: Path) -> list[str]:
    """One line per set: victor's best model against the best peer."""
    out = []
    for s in sets:
        rows = [r for r in read_rows(peers_dir / f"{s}-{split}.csv") if r.get("macro_F1")]
        victors = [r for r in rows if r["tool"].startswith("victor")]
        peers = [r for r in rows if not r["tool"].startswith("victor")]
        if not victors or not peers:
            continue
        v = max(victors, key=lambda r: float(r["macro_F1"]))
        p = max(peers, key=lambda r: float(r["macro_F1"]))
        d = float(v["macro_F1"]) - float(p["macro_F1"])
        word = "ahead of" if d > 0.0005 else ("behind" if d < -0.0005 else "level with")
        out.append(
            f"- **{s}**: {v['tool']} {f3(v['macro_F1'])} is {word} the best peer, "
            f"{p['tool']} {f3(p['macro_F1'])} ({d:+.3f})."
        )
    return out


def victor_tables(sets: list[str], models: list[Path], out_dir: Path) -> list[str]:
    lines = []
    for s in sets:
        lines += ["", f"### {s}", ""]
        lines.append(
            "| model | decoding | pages | blocks | acc T/H/O | acc TH/O | block P | block R | "
            "block F1 | text P | text R | text F1 | median F1 | micro F1 | F1 < .5 | failed |"
        )
        lines.append("|---|---|" + "---:|" * 14)
        plots = []
        for m in models:
            rows = read_rows(out_dir / s / f"{m.name}-eval.csv")
            r = next((r for r in rows if r["set"] == s), None)
            if r is None:
                continue
            lines.append(
                f"| {m.name} | {r['decoding']} | {r['pages']} | {r['blocks']} | "
                + " | ".join(
                    f3(r[k])
                    for k in (
                        "accuracy", "unlabelled_accuracy", "block_precision", "block_recall",
                        "block_f1", "text_precision", "text_recall", "text_f1", "text_median_f1",
                        "text_micro_f1",
                    )
                )
                + f" | {r['text_pages_f1_below_0.5']} | {r['failed']} |"
            )
            sweep = read_rows(out_dir / s / f"{m.name}-sweep.csv")
            best = max(
                (x for x in sweep if x.get("text_f1")),
                key=lambda x: float(x["text_f1"]),
                default=None,
            )
            note = (
                f" Best text F1 on this sweep: {f3(best['text_f1'])} at T = {best['threshold']}"
                " (chosen on the test pages themselves, so optimistic)."
                if best
                else ""
            )
            plots += [
                "",
                f"**{m.name}**: [eval]({s}/{m.name}-eval.txt) · [figures]({s}/{m.name}-eval.csv) · "
                f"[per page]({s}/{m.name}-pages.csv) · [sweep]({s}/{m.name}-sweep.csv).{note}",
                "",
                f"![{s}, model {m.name}: precision against recall by threshold]({s}/{m.name}-sweep.svg)",
            ]
        lines += plots
    return lines


README_HEAD = """\
# Evaluation: victor against the established extractors

- Generated {stamp} by `scripts/eval_all.py`.
- Data: the `{split}` split of {sets}.
- Model bundles: {models}.{load}

Regenerate everything here with `scripts/eval_all.py` (needs `../shared/data` beside the project,
or `$VICTOR_DATA`; the peers are installed from PyPI on first use). Only figures, page ids and
plots are committed: the data sets are research-only.

## Headline: text-level F1 and speed on one core

Text-level F1: the mean over pages of the F1 of the extracted text's word tokens against the gold
text's (NFKC, lowercased, compared as multisets; the measure of `shared/checks/score.py`, with its
rule for empty gold). pages/s: extraction on one core, tools one after the other in the same run
(`scripts/compare.py`): for a Python peer, reading + decoding + extracting inside the worker; for
victor (`~`), the time of `victor label --jobs 1` minus its start-up. Best F1 per set in bold.
Details: [peers/summary.md](peers/summary.md).

"""

README_VICTOR = """
## victor's figures per set

`victor eval` (block level as in the Victor paper: text/header/other accuracy, text+header/other
accuracy, block precision and recall with header and text interchangeable; text level as above,
macro, median and micro) at each model's default decoding (expected-F1 decoding where its
cross-validation chose it, else its recommended threshold, or Viterbi),
and `victor sweep`: precision against recall for thresholds on P(other) from 0 to 1 by 0.02, for
blocks and for text, in the style of the paper's Figure 2 (T = 0 and T = 1 are left out of the
plots). The gold block labels of each page come from importing its gold standard on the fly, as
`victor import` does.
"""


def machine_line(peers_dir: Path, sets: list[str], split: str) -> str:
    """Machine, load and time of the compare.py runs behind the sets' rows (compare.py records
    them in every row of <set>-<split>.csv; a set's rows can come from several runs)."""
    runs = []
    for s in sets:
        for r in read_rows(peers_dir / f"{s}-{split}.csv"):
            run = (r.get("machine") or "", r.get("load_avg") or "", r.get("run_utc") or "")
            if run[0] and run not in runs:
                runs.append(run)
    return "".join(
        f"\n- Timed on: {machine}; load average at start {load} ({when})" for machine, load, when in runs
    )


def write_readme(out_dir: Path, sets: list[str], split: str, models: list[Path], load: str) -> None:
    stamp = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    lines = [
        README_HEAD.format(
            stamp=stamp,
            split=split,
            sets=", ".join(f"`{s}`" for s in sets),
            models=", ".join(f"`{shown(m)}`" for m in models) or "(none found)",
            load=load,
        ).rstrip("\n"),
        "",
    ]
    lines += headline(sets, split, out_dir / "peers")
    st = standing(sets, split, out_dir / "peers")
    if st:
        lines += ["", "Where victor stands (its best model against the best peer, macro F1):", ""] + st
    lines.append(README_VICTOR.rstrip("\n"))
    lines += victor_tables(sets, models, out_dir)
    text = "\n".join(lines) + "\n"
    tmp = out_dir / ".README.md.tmp"
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(out_dir / "README.md")


BEGIN, END = "<!-- results table: scripts/eval_all.py writes it -->", "<!-- end of results table -->"


def update_project_readme(readme: Path, sets: list[str], split: str, peers_dir: Path) -> None:
    """Replaces the table between the two markers of the project's README with the headline table
    of eval/README.md, so the README never holds a hand copy that can drift."""
    if not readme.is_file():
        return
    text = readme.read_text(encoding="utf-8")
    a, b = text.find(BEGIN), text.find(END)
    if a < 0 or b < a:
        log(f"warning: {readme} has no results-table markers; left as it is")
        return
    table = "\n".join(headline(sets, split, peers_dir))
    new = text[: a + len(BEGIN)] + "\n" + table.strip("\n") + "\n" + text[b:]
    tmp = readme.with_name(".README.md.tmp")
    tmp.write_text(new, encoding="utf-8")
    tmp.replace(readme)


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(
        prog="eval_all.py", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    default_data = Path(os.environ.get("VICTOR_DATA", ROOT.parent / "shared" / "data"))
    ap.add_argument("--data", type=Path, default=default_data, help="folder of the data sets")
    ap.add_argument("--models", type=Path, default=ROOT / "models", help="folder of model bundles")
    ap.add_argument("--sets", default=",".join(SETS), help="comma-separated set names")
    ap.add_argument("--split", default="test")
    ap.add_argument("--out", type=Path, default=ROOT / "eval", help="output folder (default eval/)")
    ap.add_argument("--skip-peers", action="store_true", help="keep eval/peers as it is")
    a = ap.parse_args(argv)
    sets = [s.strip() for s in a.sets.split(",") if s.strip()]
    for s in sets:
        if not (a.data / s / "manifest.jsonl").is_file():
            ap.error(f"no data set {a.data / s} (set --data or $VICTOR_DATA)")
    models = [m.resolve() for m in models_in(a.models)]
    if not models:
        log(f"warning: no model bundle in {a.models}: only the peers are evaluated")
    out = a.out.resolve()
    out.mkdir(parents=True, exist_ok=True)

    run(["cargo", "build", "--release", "-p", "victor-cli", "--bin", "victor"])
    for s in sets:
        set_out = out / s
        if set_out.exists():
            shutil.rmtree(set_out)
        if models:
            victor_figures(a.data / s, models, set_out, a.split)
    if not a.skip_peers:
        cmd = [sys.executable, str(ROOT / "scripts" / "compare.py"),
               *[str(a.data / s) for s in sets], "--split", a.split, "--out-dir", str(out / "peers")]
        if models:
            for m in models:
                cmd += ["--victor-model", str(m)]
        else:
            cmd += ["--tools", "trafilatura,trafilatura-precision,trafilatura-recall,readability,"
                    "justext,boilerpy3,resiliparse,all-visible"]
        (out / "peers").mkdir(parents=True, exist_ok=True)
        run(cmd, out / "peers" / ".compare-stdout.md")
        (out / "peers" / ".compare-stdout.md").unlink(missing_ok=True)
    write_readme(out, sets, a.split, models, machine_line(out / "peers", sets, a.split))
    log(f"wrote {out / 'README.md'}")
    if out == (ROOT / "eval").resolve():
        update_project_readme(ROOT / "README.md", sets, a.split, out / "peers")
        log(f"updated the results table of {ROOT / 'README.md'}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

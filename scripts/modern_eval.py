#!/usr/bin/env python3
"""Score model bundles on every shared set with the checks' own measures, and count collapsed pages.

usage: scripts/modern_eval.py [--split test|dev] [--model DIR ...] [--label-args "..."]

For each bundle (default: models/default) and each set (l3s-gn1, dragnet-train, cleaneval,
readability-tests: text-level macro P/R/F1 of ../shared/checks/score.py; trafilatura-eval: snippet
P/R/F1 of ../shared/checks/score_snippets.py), labels the split's pages with `victor label --format
text --out` and prints one line per set: the figures and the pages whose F1 is under .5 ("collapsed";
for the snippet set: pages that keep none of their `with` snippets although they have some).
With --by-lang, the snippet F1 of trafilatura-eval per page language follows (the language victor
detects, ISO 639-3, from its jsonl output). Writes nothing into the repository."""
import argparse, json, os, subprocess, tempfile
from pathlib import Path

from victor_score import gold_text, prf, snippet_counts, snippet_prf, tokens  # the shared measures

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(os.environ.get("VICTOR_DATA", ROOT.parent / "shared" / "data"))
FULL = ["l3s-gn1", "dragnet-train", "cleaneval", "readability-tests"]


def label(victor, model, files, out, extra):
    lst = out.with_suffix(".list")
    lst.write_text("".join(f"{f}\n" for f in files))
    cmd = [victor, "label", "--format", "text", "--out", str(out), "--files-from", str(lst)]
    if model:
        cmd += ["--model", model]
    cmd += extra
    subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def full_set(victor, model, s, split, tmp, extra):
    d = DATA / s
    items = [json.loads(l) for l in open(d / "manifest.jsonl")]
    items = [m for m in items if split == "all" or m.get("split") == split]
    out = tmp / f"{s}"
    label(victor, model, [d / m["html"] for m in items], out, extra)
    rows = []
    for m in items:
        g = gold_text((d / m["gold"]).read_text(encoding="utf-8", errors="replace"))
        f = out / f"{Path(m['html']).name.split('.')[0]}.txt"
        f = out / f"{m['id']}.txt" if not f.exists() else f
        e = f.read_text(encoding="utf-8", errors="replace") if f.exists() else ""
        rows.append((m["id"],) + prf(tokens(e), tokens(g)))
    n = len(rows)
    P, R, F = (sum(r[i] for r in rows) / n for i in (1, 2, 3))
    low = [r[0] for r in rows if r[3] < 0.5]
    return P, R, F, n, low


def languages(victor, model, files, extra):
    """The page language victor detects (ISO 639-3), by file name."""
    cmd = [victor, "label", "--format", "jsonl-text", *map(str, files)]
    if model:
        cmd += ["--model", model]
    res = subprocess.run(cmd + extra, capture_output=True, text=True)
    out = {}
    for line in res.stdout.splitlines():
        d = json.loads(line)
        out[Path(d["source"]).name] = d.get("language") or "und"
    return out


def snippet_set(victor, model, split, tmp, extra, by_lang=None):
    d = DATA / "trafilatura-eval"
    items = [json.loads(l) for l in open(d / "snippets.jsonl")]
    items = [m for m in items if split == "all" or m["split"] == split]
    out = tmp / "trafilatura-eval"
    label(victor, model, [d / m["html"] for m in items], out, extra)
    langs = languages(victor, model, [d / m["html"] for m in items], extra) if by_lang is not None else {}
    tp = fp = fn = 0
    low = []
    for m in items:
        f = out / f"{m['id']}.txt"
        a, b, c = snippet_counts(f.read_text(encoding="utf-8", errors="replace") if f.exists() else "",
                                 m["with"], m["without"])
        tp += a; fp += b; fn += c
        if by_lang is not None:
            c = by_lang.setdefault(langs.get(Path(m["html"]).name, "und"), [0, 0, 0, 0])
            c[0] += a; c[1] += b; c[2] += len(m["with"]) - a; c[3] += 1
        if m["with"] and a == 0:
            low.append(m["id"])
    return (*snippet_prf(tp, fp, fn), len(items), low)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--split", default="test")
    ap.add_argument("--model", action="append")
    ap.add_argument("--sets", default=",".join(FULL + ["trafilatura-eval"]))
    ap.add_argument("--label-args", default="")
    ap.add_argument("--victor", default=str(ROOT / "target" / "release" / "victor"))
    ap.add_argument("--show-low", action="store_true")
    ap.add_argument("--by-lang", action="store_true", help="snippet F1 of trafilatura-eval per detected page language")
    a = ap.parse_args()
    for model in a.model or [None]:
        with tempfile.TemporaryDirectory() as t:
            tmp = Path(t)
            for s in a.sets.split(","):
                by_lang = {} if a.by_lang else None
                if s == "trafilatura-eval":
                    P, R, F, n, low = snippet_set(a.victor, model, a.split, tmp, a.label_args.split(), by_lang)
                else:
                    P, R, F, n, low = full_set(a.victor, model, s, a.split, tmp, a.label_args.split())
                print(f"{model or 'default'}\t{s}\t{a.split}\tP={P:.4f}\tR={R:.4f}\tF1={F:.4f}\tpages={n}\tcollapsed={len(low)}"
                      + (f"\t{' '.join(low)}" if a.show_low else ""), flush=True)
                for lang, (tp, fp, fn, n) in sorted((by_lang or {}).items(), key=lambda kv: -kv[1][3]):
                    print(f"  {lang}\tpages={n}\tsnippet F1={2 * tp / max(1, 2 * tp + fp + fn):.4f}", flush=True)


if __name__ == "__main__":
    main()

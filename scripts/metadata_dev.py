#!/usr/bin/env python3
"""Metadata and confidence on a split of the shared sets (issue 51): the figures of
eval/metadata.md. Develop on `dev`; the `test` figures come from ../shared/checks/run metadata
confidence, once.

Usage: metadata_dev.py [--victor target/release/victor] [--split dev]

Metadata (wcxb, whose manifest has title/author/date gold): the share of pages whose field is
right as ../shared/checks/metadata judges it (title/author: the \\w+ words lowercased equal the
gold's; date: the first 10 characters). Confidence (wcxb, cleaneval, l3s-gn1, dragnet-train):
Spearman correlation of `confidence` with the page's true word F1, the lowest tenth's share of
the pages under F1 .5, and the mean true F1 per confidence bin (is it calibrated?). The default
model was trained on the dev pages of every set but cleaneval, so only cleaneval's figures are
free of that bias.
"""
import argparse, json, subprocess, statistics, tempfile
from pathlib import Path

from victor_score import wcxb_f1 as f1, wcxb_words as W  # the shared measure: WCXB's word F1

DATA = Path(__file__).resolve().parent.parent.parent / "shared" / "data"
words = lambda s: " ".join(W(str(s or "")))


def ranks(v):
    order = sorted(range(len(v)), key=lambda i: v[i]); r = [0.0] * len(v); i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and v[order[j + 1]] == v[order[i]]:
            j += 1
        for k in range(i, j + 1):
            r[order[k]] = (i + j) / 2
        i = j + 1
    return r


def spearman(q, f):
    rq, rf = ranks(q), ranks(f); n = len(q)
    mq, mf = sum(rq) / n, sum(rf) / n
    den = (sum((a - mq) ** 2 for a in rq) * sum((b - mf) ** 2 for b in rf)) ** .5
    return sum((a - mq) * (b - mf) for a, b in zip(rq, rf)) / den if den else 0.0


def run(victor, name, split):
    d = DATA / name
    man = {}
    for line in open(d / "manifest.jsonl", encoding="utf-8"):
        m = json.loads(line)
        if m["split"] == split:
            man[m["id"]] = m
    with tempfile.NamedTemporaryFile("w", suffix=".list") as lst:
        lst.write("\n".join(str(d / m["html"]) for m in man.values()) + "\n"); lst.flush()
        out = subprocess.run([victor, "label", "-q", "--format", "jsonl-text", "--files-from", lst.name],
                             capture_output=True, text=True, check=True).stdout
    docs = {}
    for line in out.splitlines():
        o = json.loads(line)
        docs[Path(o["source"]).name.split(".")[0]] = o
    return d, man, docs


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--victor", default="target/release/victor")
    ap.add_argument("--split", default="dev")
    a = ap.parse_args()
    d, man, docs = run(a.victor, "wcxb", a.split)
    hit = {k: [0, 0] for k in ("title", "author", "date")}
    for pid, g in man.items():
        o = docs.get(pid, {})
        for k in hit:
            if not g.get(k):
                continue
            hit[k][1] += 1
            v = o.get(k)
            hit[k][0] += (str(v or "")[:10] == str(g[k])[:10]) if k == "date" else (words(v) == words(g[k]) != "")
    print(f"wcxb {a.split} metadata: " + " ".join(f"{k} {h[0] / max(1, h[1]):.3f} ({h[0]}/{h[1]})" for k, h in hit.items()))
    for name in ("wcxb", "cleaneval", "l3s-gn1", "dragnet-train"):
        d, man, docs = run(a.victor, name, a.split) if name != "wcxb" else (d, man, docs)
        q, f = [], []
        for pid, m in man.items():
            o = docs.get(pid)
            if o is None:
                continue
            q.append(o["confidence"]); f.append(f1(o["text"], (d / m["gold"]).read_text(encoding="utf-8", errors="replace")))
        n = len(q); bad = {i for i in range(n) if f[i] < .5}
        low = set(sorted(range(n), key=lambda i: q[i])[: n // 10])
        bins = [(0, .5), (.5, .7), (.7, .8), (.8, .9), (.9, .95), (.95, 1.01)]
        cal = " ".join(f"[{lo},{hi}):{statistics.mean([y for x, y in zip(q, f) if lo <= x < hi]):.2f}/{sum(lo <= x < hi for x in q)}"
                       for lo, hi in bins if any(lo <= x < hi for x in q))
        print(f"{name} {a.split} confidence: Spearman {spearman(q, f):.3f}; lowest tenth holds {len(bad & low)} of {len(bad)} pages under F1 .5; mean F1 by confidence {cal}")


if __name__ == "__main__":
    main()

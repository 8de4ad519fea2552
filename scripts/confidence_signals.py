#!/usr/bin/env python3
"""Page signals against the true word F1 (issue 51, the confidence's lowest tenth): which
page-level signal finds the pages a model collapses on (F1 < .5)? eval/metadata.md, "Out-of-sample
study of the lowest tenth".

Usage: confidence_signals.py NAME=OUT.jsonl:GOLD_DIR [...] [--fit NAME]

Each OUT.jsonl is `victor label --format jsonl` (blocks with labels and marginals) of pages a
model did NOT train on (e.g. `victor train` on wcxb dev part A and the other sets, labelling
part B; eval/metadata.md says how the models were made); GOLD_DIR holds `<id>.txt`. Prints, per
set and signal, the Spearman correlation with the true F1 and how many of the pages under F1 .5
the lowest-scoring tenth holds (the checks/confidence measures). With --fit NAME, a logistic
model of the F1 on a few signals is fitted on that set and scored on the others.
"""
import argparse, json, math, re
from collections import Counter
from pathlib import Path

import sys
sys.path.insert(0, str(Path(__file__).resolve().parent))
from metadata_dev import ranks, spearman  # noqa: E402
from victor_score import wcxb_f1 as f1, wcxb_words as W  # noqa: E402  (the one home of the page F1)


def tenth(q, f):
    n = len(q); bad = {i for i in range(n) if f[i] < .5}
    low = set(sorted(range(n), key=lambda i: q[i])[: n // 10])
    return len(bad & low), len(bad)


def signals(o):
    """The page signals of one labelled page (c = 1 - P(other), w = a block's words)."""
    kw = tw = kb = cw = ov = ent = mx = 0.0
    for b in o["blocks"]:
        w = len(W(b["text"])); p = b["probabilities"]; c = 1 - p["other"]
        tw += w; cw += c * w
        if b["label"] != "other":
            kw += w; kb += 1; ov += c * w
            ent += w * -sum(v * math.log(v) for v in p.values() if v > 0)
            mx += w * max(p.values())
    return {
        "confidence": o["confidence"],
        "precision": ov / kw if kw else 0.0,
        "recall": ov / cw if cw else 0.0,
        "kept_share": kw / tw if tw else 0.0,
        "kept_words": kw,
        "kept_blocks": kb,
        "words_per_kept_block": kw / kb if kb else 0.0,
        "max_marginal": mx / kw if kw else 0.0,
        "neg_entropy": -ent / kw if kw else 0.0,
    }


def load(spec):
    name, rest = spec.split("=", 1)
    out, gold = rest.rsplit(":", 1)
    rows = []
    for line in open(out, encoding="utf-8"):
        o = json.loads(line)
        pid = Path(o["source"]).name.split(".")[0]
        g = (Path(gold) / f"{pid}.txt").read_text(encoding="utf-8", errors="replace")
        r = signals(o); r["f1"] = f1(o["text"], g); rows.append(r)
    return name, rows


def fit(rows, keys, steps=2000, lr=0.5, l2=1e-3):
    """Logistic regression of the F1 (a soft target) on standardized signals."""
    X = [[math.log1p(r[k]) if k in ("kept_words", "kept_blocks", "words_per_kept_block") else r[k] for k in keys] for r in rows]
    mu = [sum(c) / len(c) for c in zip(*X)]
    sd = [(sum((v - m) ** 2 for v in c) / len(c)) ** .5 or 1.0 for c, m in zip(zip(*X), mu)]
    z = lambda x: [(v - m) / s for v, m, s in zip(x, mu, sd)]
    Z = [z(x) for x in X]; y = [r["f1"] for r in rows]; w = [0.0] * (len(keys) + 1)
    for _ in range(steps):
        g = [0.0] * len(w)
        for x, t in zip(Z, y):
            p = 1 / (1 + math.exp(-max(-30, min(30, w[0] + sum(a * b for a, b in zip(w[1:], x))))))
            g[0] += p - t
            for j, v in enumerate(x):
                g[j + 1] += (p - t) * v
        w = [wj - lr * (gj / len(Z) + (l2 * wj if j else 0)) for j, (wj, gj) in enumerate(zip(w, g))]
    def predict(r):
        x = z([math.log1p(r[k]) if k in ("kept_words", "kept_blocks", "words_per_kept_block") else r[k] for k in keys])
        return 1 / (1 + math.exp(-(w[0] + sum(a * b for a, b in zip(w[1:], x)))))
    return predict


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("sets", nargs="+", help="NAME=OUT.jsonl:GOLD_DIR")
    ap.add_argument("--fit", help="fit a logistic combination on this set, score it on the others")
    a = ap.parse_args()
    data = dict(load(s) for s in a.sets)
    for name, rows in data.items():
        f = [r["f1"] for r in rows]
        for k in rows[0]:
            if k == "f1":
                continue
            q = [r[k] for r in rows]; caught, bad = tenth(q, f)
            print(f"{name}\t{k}\tSpearman {spearman(q, f):.3f}\tlowest tenth {caught}/{bad}")
    if a.fit:
        for keys in (["confidence"], ["confidence", "kept_share", "neg_entropy", "kept_words"],
                     ["confidence", "precision", "recall"]):
            predict = fit(data[a.fit], keys)
            for name, rows in data.items():
                if name == a.fit:
                    continue
                q = [predict(r) for r in rows]; f = [r["f1"] for r in rows]; caught, bad = tenth(q, f)
                print(f"fit on {a.fit} {'+'.join(keys)}\t{name}\tSpearman {spearman(q, f):.3f}\tlowest tenth {caught}/{bad}")


if __name__ == "__main__":
    main()

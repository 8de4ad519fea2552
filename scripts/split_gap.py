#!/usr/bin/env python3
"""How much harder a set's test pages are than its dev pages, measured by the peers.

A model's test figure can sit below its cross-validated dev figure for two reasons: the test pages
are harder than an average draw of dev pages, or the model fits the dev pages better than it
generalises. The established extractors were never tuned to either split, so their own drop from
dev to test measures the first. This script reads two `compare.py` per-page tables of the same set
(one run with `--split dev`, one with `--split test`) and prints, per peer:

- its macro F1 on dev and on test, and the drop;
- where its test figure falls among 20,000 means of random draws (with replacement) of as many
  of its own dev page scores as the test split has pages (50 % = an average test split).

Given victor's out-of-fold texts of the dev pages (`scripts/cv_gold.py --keep-out`) and the name
of victor's row in the test table, it then predicts victor's test figure from how hard the test
pages are for the peers: per dev page, the peers' mean F1 is its difficulty; victor's out-of-fold
F1 is fitted on it by least squares (one slope and one intercept) and the fit is averaged over the
test pages' difficulties. The gap between that prediction and the real test figure is the part of
the drop the pages' difficulty does not explain; it prints its standard error too (the residual
standard deviation over the square root of the number of test pages). Last, the mean F1 of victor
on the pages of each band of difficulty, dev (out of fold) beside test.

    scripts/compare.py cleaneval --split dev --out-dir work/peers-dev --tools \\
        trafilatura,trafilatura-precision,trafilatura-recall,readability,justext,boilerpy3,resiliparse,all-visible
    scripts/split_gap.py --set ../shared/data/cleaneval \\
        --dev work/peers-dev/cleaneval-dev-pages.csv --test eval/peers/cleaneval-test-pages.csv \\
        --oof 'work/out/e_0.8,1,10,3' --victor victor:corpus --skip boilerpy3

The measure is compare.py's (the shared text-level measure). Peers that failed on a page score 0
there, as in compare.py's tables. `--skip boilerpy3` leaves a peer out of the difficulty (its
parser fails on many pages, which says little about the page)."""

import argparse
import csv
import json
import pathlib
import sys
from collections import defaultdict

import numpy as np

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import victor_score  # noqa: E402  (the same tokens and per-page score as compare.py's peer tables)

BANDS = ((0.0, 0.5), (0.5, 0.8), (0.8, 0.9), (0.9, 0.95), (0.95, 1.01))


def per_page(path: pathlib.Path) -> dict[str, dict[str, float]]:
    """tool -> page id -> F1, from a compare.py `-pages.csv` table."""
    out: dict[str, dict[str, float]] = defaultdict(dict)
    with open(path, newline="", encoding="utf-8") as f:
        for row in csv.DictReader(f):
            out[row["tool"]][row["id"]] = float(row["F1"])
    return out


def oof_scores(set_dir: pathlib.Path, oof: pathlib.Path, ids: list[str]) -> np.ndarray:
    """victor's F1 per dev page, from its out-of-fold texts (a missing text is an empty output)."""
    gold_of = {}
    for line in open(set_dir / "manifest.jsonl", encoding="utf-8"):
        m = json.loads(line)
        gold_of[m["id"]] = set_dir / m["gold"]
    scores = []
    for i in ids:
        gold = victor_score.tokens(victor_score.gold_text(gold_of[i].read_text(encoding="utf-8", errors="replace")))
        out = oof / f"{i}.txt"
        ext = victor_score.tokens(out.read_text(encoding="utf-8", errors="replace") if out.exists() else "")
        scores.append(victor_score.score_page(ext, gold)[2])
    return np.array(scores)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--set", required=True, type=pathlib.Path, help="the data set folder (manifest.jsonl)")
    ap.add_argument("--dev", required=True, type=pathlib.Path, help="compare.py per-page table of the dev split")
    ap.add_argument("--test", required=True, type=pathlib.Path, help="compare.py per-page table of the test split")
    ap.add_argument("--oof", type=pathlib.Path, help="victor's out-of-fold texts of the dev pages (<id>.txt)")
    ap.add_argument("--victor", default="victor:corpus", help="victor's tool name in the test table")
    ap.add_argument("--skip", action="append", default=[], help="a peer left out of the difficulty")
    ap.add_argument("--draws", type=int, default=20000)
    a = ap.parse_args()

    dev, test = per_page(a.dev), per_page(a.test)
    peers = [t for t in dev if t in test and not t.startswith("victor")]
    if not peers:
        sys.exit("no peer is in both tables")
    rng = np.random.default_rng(1)
    print(f"{'tool':<24}{'dev':>8}{'test':>8}{'drop':>9}  test among dev draws")
    drops = []
    for t in peers:
        d, s = np.array(list(dev[t].values())), np.array(list(test[t].values()))
        means = rng.choice(d, size=(a.draws, len(s)), replace=True).mean(axis=1)
        drops.append(s.mean() - d.mean())
        print(f"{t:<24}{d.mean():>8.4f}{s.mean():>8.4f}{s.mean() - d.mean():>+9.4f}  "
              f"{100 * (means <= s.mean()).mean():5.1f} %")
    print(f"{'peers, mean':<24}{'':>16}{np.mean(drops):>+9.4f}  median {np.median(drops):+.4f}")

    if a.oof is None:
        return 0
    if a.victor not in test:
        sys.exit(f"{a.victor} is not in {a.test}")
    used = [t for t in peers if t not in a.skip]
    ids = sorted(set.intersection(*(set(dev[t]) for t in used)))
    tids = sorted(set.intersection(*(set(test[t]) for t in used)) & set(test[a.victor]))
    v = oof_scores(a.set, a.oof, ids)
    vt = np.array([test[a.victor][i] for i in tids])
    dd = np.array([np.mean([dev[t][i] for t in used]) for i in ids])
    dt = np.array([np.mean([test[t][i] for t in used]) for i in tids])
    x = np.column_stack([np.ones_like(dd), dd])
    coef, *_ = np.linalg.lstsq(x, v, rcond=None)
    pred = float((coef[0] + coef[1] * dt).mean())
    se = float((v - x @ coef).std() / np.sqrt(len(tids)))
    print()
    print(f"difficulty = mean F1 of {len(used)} peers ({', '.join(used)})")
    print(f"dev: {len(ids)} pages, difficulty {dd.mean():.4f}, victor out of fold {v.mean():.4f}")
    print(f"test: {len(tids)} pages, difficulty {dt.mean():.4f}, {a.victor} {vt.mean():.4f}")
    print(f"fit on dev: victor = {coef[0]:.3f} + {coef[1]:.3f} * difficulty; "
          f"predicted test {pred:.4f}, real {vt.mean():.4f}, "
          f"gap {vt.mean() - pred:+.4f} (standard error {se:.4f})")
    for lo, hi in BANDS:
        m, mt = (dd >= lo) & (dd < hi), (dt >= lo) & (dt < hi)
        dv = f"{v[m].mean():.4f}" if m.any() else "-"
        tv = f"{vt[mt].mean():.4f}" if mt.any() else "-"
        print(f"difficulty [{lo:.2f}, {min(hi, 1):.2f}): dev {m.sum():>4} pages victor {dv}"
              f"   test {mt.sum():>4} pages victor {tv}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Summarises the learning curves of scripts/active_learning.sh.

Usage: active_learning.py DIR

Reads DIR/uncertain.csv and DIR/random-*.csv (`victor cv --learning-curve --csv`), writes
DIR/summary.csv (per share: the uncertainty order's figure, the random orders' mean, standard
deviation, minimum and maximum, and the difference in random standard deviations) and prints
the same as a markdown table, for text-level macro F1 under expected-F1 decoding (the settings
best on the held-out pages, `victor cv`'s own figure) and under Viterbi decoding.
Standard library only.
"""

import csv
import statistics
import sys
from pathlib import Path


def read(path):
    with open(path, newline="") as f:
        return {float(r["share"]): r for r in csv.DictReader(f)}


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    d = Path(sys.argv[1])
    unc = read(d / "uncertain.csv")
    rand = [read(p) for p in sorted(d.glob("random-*.csv"))]
    if not rand:
        sys.exit(f"{d}: no random-*.csv")
    rows = []
    for share in sorted(unc):
        u = unc[share]
        row = {
            "share": share,
            "train_pages": float(u["train_pages"]),
            "uncertain_blocks": float(u.get("train_blocks") or "nan"),
            "random_blocks": statistics.mean(float(r[share].get("train_blocks") or "nan") for r in rand),
        }
        for measure, col in (("expected", "expected_f1"), ("viterbi", "viterbi_f1")):
            rs = [float(r[share][col]) for r in rand]
            mean = statistics.mean(rs)
            sd = statistics.stdev(rs) if len(rs) > 1 else 0.0
            x = float(u[col])
            row.update({
                f"{measure}_uncertain": x,
                f"{measure}_random_mean": mean,
                f"{measure}_random_sd": sd,
                f"{measure}_random_min": min(rs),
                f"{measure}_random_max": max(rs),
                f"{measure}_diff": x - mean,
                f"{measure}_diff_in_sd": (x - mean) / sd if sd > 0 else float("nan"),
            })
        rows.append(row)
    with open(d / "summary.csv", "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]))
        w.writeheader()
        for r in rows:
            w.writerow({k: (f"{v:.6f}" if isinstance(v, float) else v) for k, v in r.items()})
    print(f"{len(rand)} random orders (seeds of random-*.csv); F1 in points (%)\n")
    print("| share | train pages a fold | blocks a fold: uncertain / random mean "
          "| expected-F1: uncertain | random mean ± sd [min, max] | difference (in random sd) "
          "| Viterbi: uncertain | random mean ± sd [min, max] | difference (in random sd) |")
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for r in rows:
        cells = [f"{r['share']:g}", f"{r['train_pages']:.1f}",
                 f"{r['uncertain_blocks']:,.0f} / {r['random_blocks']:,.0f}"]
        for m in ("expected", "viterbi"):
            cells += [
                f"{100 * r[m + '_uncertain']:.2f}",
                f"{100 * r[m + '_random_mean']:.2f} ± {100 * r[m + '_random_sd']:.2f} "
                f"[{100 * r[m + '_random_min']:.2f}, {100 * r[m + '_random_max']:.2f}]",
                f"{100 * r[m + '_diff']:+.2f} ({r[m + '_diff_in_sd']:+.1f})",
            ]
        print("| " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()

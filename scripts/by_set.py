#!/usr/bin/env python3
"""Leave-one-set-out evaluation of a training recipe: how a model does on pages of sites and
years it never saw.

usage: scripts/by_set.py NAME --sets l3s-gn1,dragnet-train,readability-tests,trafilatura-eval
                         [--train-args "--c2 10 --boost ..."] [--decoding "--expected-f1"]
                         [--jobs 2] [--csv eval/by-set/NAME.csv]

For every set S of --sets: train a bundle on the imported dev pages of all the other sets (of
--train-sets, when given)
(`work/dev-import/<set>`, made by scripts/train_models.sh; trafilatura-eval's snippet gold by
scripts/import_snippets.py) into work/by-set/NAME/without-S, then label every page of S (dev and
test: none of them was trained on) and score them with the shared checks' measures: text-level
macro P, R, F1 and the share of pages with F1 under .5 ("collapsed"); for the snippet set
trafilatura-eval, snippet P, R, F1 (summed over snippets) and the share of pages that keep none
of their main-text snippets. Bundles are trained with `--threshold-folds 0` and labelled with
--decoding (default `--expected-f1`, raw marginals), so that recipes compare under one decoding.
Prints a Markdown table (rows: the set held out) and the mean over sets; --csv writes it too.
Bundles already trained (victor.json present) are reused; delete the folder to retrain."""
import argparse, csv, os, shlex, subprocess, sys, tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))
import modern_eval as me  # noqa: E402

WORK = ROOT / "work"


def train(name, held, sets, args, victor, log):
    """The bundle trained on `sets` less `held`, in work/by-set/NAME/without-HELD."""
    out = WORK / "by-set" / name / f"without-{held}"
    if (out / "victor.json").exists():
        return out
    # Sets the recipe does not train on share one bundle: the recipe's on all its sets.
    if held not in sets:
        held = "none"
        out = WORK / "by-set" / name / "all-sets"
        if (out / "victor.json").exists():
            return out
    data = [str(WORK / "dev-import" / (s if s != "trafilatura-eval" else "trafilatura-eval-snippets"))
            for s in sets if s != held]
    cmd = [victor, "train", *data, "--out", str(out), "--threshold-folds", "0", *shlex.split(args)]
    with open(log, "w") as f:
        r = subprocess.run(cmd, stdout=f, stderr=subprocess.STDOUT)
    if r.returncode != 0:
        sys.exit(f"by_set.py: training without {held} failed: see {log}")
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("name")
    ap.add_argument("--sets", default="l3s-gn1,dragnet-train,readability-tests,trafilatura-eval")
    ap.add_argument("--train-sets", help="the sets a recipe trains on, when not all of --sets "
                    "(the others are only scored: the old article recipe, --train-sets l3s-gn1,dragnet-train)")
    ap.add_argument("--train-args", default="--c2 10 --boost")
    ap.add_argument("--decoding", default="--expected-f1")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--csv", type=Path)
    ap.add_argument("--victor", default=str(ROOT / "target" / "release" / "victor"))
    a = ap.parse_args()
    sets = a.sets.split(",")
    train_sets = a.train_sets.split(",") if a.train_sets else sets
    (WORK / "by-set" / a.name).mkdir(parents=True, exist_ok=True)
    # One training per distinct training set (every set outside --train-sets needs the same one).
    order = [s for s in sets if s in train_sets] + ([next(s for s in sets if s not in train_sets)]
                                                     if any(s not in train_sets for s in sets) else [])
    with ThreadPoolExecutor(a.jobs) as ex:
        done = dict(zip(order, ex.map(
            lambda s: train(a.name, s, train_sets, a.train_args, a.victor, WORK / "by-set" / a.name / f"without-{s}.log"),
            order)))
    models = {s: done.get(s) or done[order[-1]] for s in sets}
    rows = []
    for s in sets:
        with tempfile.TemporaryDirectory() as t:
            extra = shlex.split(a.decoding)
            if s == "trafilatura-eval":
                P, R, F, n, low = me.snippet_set(a.victor, str(models[s]), "all", Path(t), extra)
            else:
                P, R, F, n, low = me.full_set(a.victor, str(models[s]), s, "all", Path(t), extra)
        rows.append((s, n, F, P, R, len(low) / n))
    print(f"| held out ({a.name}) | pages | F1 | P | R | collapsed |")
    print("|---|---:|---:|---:|---:|---:|")
    for s, n, F, P, R, c in rows:
        print(f"| {s} | {n} | {F:.4f} | {P:.4f} | {R:.4f} | {c:.1%} |")
    m = [sum(r[i] for r in rows) / len(rows) for i in (2, 3, 4, 5)]
    print(f"| mean | | {m[0]:.4f} | {m[1]:.4f} | {m[2]:.4f} | {m[3]:.1%} |")
    if a.csv:
        a.csv.parent.mkdir(parents=True, exist_ok=True)
        with open(a.csv, "w", newline="") as f:
            w = csv.writer(f)
            w.writerow(["recipe", "held_out", "pages", "f1", "precision", "recall", "collapsed_share"])
            for s, n, F, P, R, c in rows:
                w.writerow([a.name, s, n, f"{F:.4f}", f"{P:.4f}", f"{R:.4f}", f"{c:.4f}"])


if __name__ == "__main__":
    main()

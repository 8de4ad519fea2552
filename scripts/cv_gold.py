#!/usr/bin/env python3
"""Scores out-of-fold output against a set's own gold text.

`victor cv` scores each held-out page against the text of its gold-labelled blocks. A set such
as CleanEval also has the annotators' own gold text, which victor's blocks cover only up to the
alignment (99 % of CleanEval's tokens). This script labels every held-out page again with its
fold's model, kept by `victor cv --keep-models DIR`, and scores the texts with the shared
text-level measure (`../shared/checks/score.py`) against the gold text.

    victor cv work/dev-import/cleaneval --folds 5 --like models/corpus --keep-models work/cvk
    scripts/cv_gold.py work/cvk --pages work/dev-import/cleaneval/pages \\
        --set ../shared/data/cleaneval --split dev \\
        --setting e:0.4,0.5,10 --setting t:0.5 --setting v

Settings (each scored on its own): `e:SCALE,SHIFT,MIN_WORDS[,SPREAD]` expected-F1 decoding with
that calibration (and page-wide spread) and minimum output size; `t:T` one threshold on every
page; `v` Viterbi. One line
per setting: macro P, R, F1 over the held-out pages. `--keep-out DIR` keeps the texts
(DIR/<setting>/<id>.txt). When the CV ran over several sets, only the held-out pages found in
`--pages` are labelled and scored: run the script once per set.

A learning curve (`victor cv --learning-curve ... --keep-models DIR`, bundles in
DIR/share-S/fold-K) is scored share by share: one line per share and setting with the mean
training pages a fold, the macro F1, and the change from the share before, paired page by page
with its standard error; then the gain per doubling of the training pages (each page's
least-squares slope on log2 of the pages, averaged over pages, with its standard error).

    victor cv work/dev-import/cleaneval --folds 5 --like models/corpus --c2 10 \\
        --learning-curve 0.25,0.5,0.75,1 --keep-models work/lck
    scripts/cv_gold.py work/lck --pages work/dev-import/cleaneval/pages \\
        --set ../shared/data/cleaneval --split dev --setting e:0.6,1,10,2
"""
import argparse
import json
import math
import pathlib
import shutil
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
SCORE = ROOT.parent / "shared/checks/score.py"


def patched_bundle(fold: pathlib.Path, setting: str, tmp: pathlib.Path) -> tuple[pathlib.Path, list[str]]:
    """A copy of a fold's bundle whose recorded decoding is `setting`, and the label flags."""
    kind, _, arg = setting.partition(":")
    if kind == "v":
        return fold, ["--viterbi"]
    if kind == "t":
        return fold, ["--threshold", arg]
    if kind != "e":
        sys.exit(f"unknown setting {setting!r} (e:SCALE,SHIFT,MIN, t:T or v)")
    scale, shift, min_words, *spread = arg.split(",")
    out = tmp / f"{fold.name}-{setting.replace(':', '_').replace(',', '_')}"
    shutil.copytree(fold, out)
    meta = json.loads((out / "victor.json").read_text())
    meta["threshold"] = {
        "value": 0.5,
        "method": "cv_gold.py",
        "f1": 0.0,
        "viterbi_f1": 0.0,
        "decoding": "expected-f1",
        "calibration": {"scale": float(scale), "shift": float(shift),
                        "spread": float(spread[0]) if spread else 0.0},
        "min_words": int(min_words),
    }
    (out / "victor.json").write_text(json.dumps(meta))
    return out, []


def label_folds(folds, setting, out, a, tmp) -> None:
    """Labels every fold's held-out pages of this set with the fold's bundle under `setting`."""
    for fold in folds:
        # A CV over several sets holds out pages of each; label this set's only.
        ids = [i for i in (fold / "held-out.txt").read_text().split()
               if (a.pages / f"{i}.html").exists()]
        if not ids:
            continue
        lst = tmp / "list"
        lst.write_text("".join(f"{a.pages / (i + '.html')}\n" for i in ids))
        model, flags = patched_bundle(fold, setting, tmp)
        subprocess.run(
            [str(a.victor), "label", "-q", "--model", str(model), *flags, "--format", "text",
             "--out", str(out), "--files-from", str(lst)],
            check=True,
        )


def page_f1(set_dir: pathlib.Path, out: pathlib.Path, split: str) -> dict[str, float]:
    """Each page's F1 under the shared measure (score.py's own functions)."""
    sys.path.insert(0, str(SCORE.parent))
    from score import gold_text, prf, tokens  # the shared scorer, beside the project
    f1 = {}
    for line in open(set_dir / "manifest.jsonl", encoding="utf-8"):
        m = json.loads(line)
        if split and m.get("split") != split:
            continue
        gold = gold_text((set_dir / m["gold"]).read_text(encoding="utf-8", errors="replace"))
        o = out / f"{m['id']}.txt"
        ext = o.read_text(encoding="utf-8", errors="replace") if o.exists() else ""
        f1[m["id"]] = prf(tokens(ext), tokens(gold))[2]
    return f1


def mean_se(values: list[float]) -> tuple[float, float]:
    """The mean and its standard error."""
    n = len(values)
    mu = sum(values) / n
    sd = math.sqrt(sum((v - mu) ** 2 for v in values) / (n - 1)) if n > 1 else 0.0
    return mu, sd / math.sqrt(n)


def curve(shares: list[pathlib.Path], a, tmp: pathlib.Path) -> None:
    """Scores a learning curve's shares against the gold text (see the module's docs)."""
    for setting in a.setting or ["e:1,0,0"]:
        sizes, runs = [], []
        for share in shares:
            folds = sorted(p for p in share.glob("fold-*") if (p / "held-out.txt").exists())
            out = (a.keep_out / share.name / setting.replace(":", "_")) if a.keep_out \
                else tmp / f"out-{share.name}-{setting}"
            if out.exists():
                shutil.rmtree(out)
            out.mkdir(parents=True)
            # The patched fold bundles of each share and setting in a folder of their own.
            work = tmp / f"{share.name}-{setting.replace(':', '_')}"
            work.mkdir()
            label_folds(folds, setting, out, a, work)
            pages = [json.loads((f / "victor.json").read_text())["data"]["pages"] for f in folds]
            sizes.append(sum(pages) / len(pages))
            runs.append(page_f1(a.set, out, a.split))
            ids = sorted(runs[-1])
            line = (f"{share.name:12} {setting:16} train pages {sizes[-1]:7.1f}  "
                    f"macro_F1={sum(runs[-1].values()) / len(ids):.4f}")
            if len(runs) > 1:
                d, se = mean_se([runs[-1][i] - runs[-2][i] for i in ids])
                line += f"  change {d:+.4f} [{se:.4f}]"
            print(line, flush=True)
        x = [math.log2(n) for n in sizes]
        xm = sum(x) / len(x)
        sxx = sum((v - xm) ** 2 for v in x)
        if sxx > 0:
            ids = sorted(runs[0])
            g, se = mean_se([sum((xk - xm) * r[i] for xk, r in zip(x, runs)) / sxx for i in ids])
            print(f"{'':12} {setting:16} gain per doubling of the training pages {g:+.4f} [{se:.4f}]",
                  flush=True)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("keep", type=pathlib.Path,
                    help="the --keep-models folder of a victor cv run (of a learning curve too)")
    ap.add_argument("--pages", type=pathlib.Path, required=True, help="folder of the pages (<id>.html)")
    ap.add_argument("--set", type=pathlib.Path, required=True, help="the gold standard (manifest format)")
    ap.add_argument("--split", default="dev")
    ap.add_argument("--setting", action="append", default=[])
    ap.add_argument("--victor", type=pathlib.Path, default=ROOT / "target/release/victor")
    ap.add_argument("--keep-out", type=pathlib.Path)
    a = ap.parse_args()
    shares = sorted(a.keep.glob("share-*"), key=lambda p: float(p.name.removeprefix("share-")))
    if shares:
        with tempfile.TemporaryDirectory() as t:
            curve(shares, a, pathlib.Path(t))
        return 0
    folds = sorted(p for p in a.keep.glob("fold-*") if (p / "held-out.txt").exists())
    if not folds:
        sys.exit(f"no fold-*/held-out.txt (nor share-*/) under {a.keep}")
    with tempfile.TemporaryDirectory() as t:
        tmp = pathlib.Path(t)
        for setting in a.setting or ["e:1,0,0"]:
            out = (a.keep_out / setting.replace(":", "_")) if a.keep_out else tmp / f"out-{setting}"
            if out.exists():
                shutil.rmtree(out)
            out.mkdir(parents=True)
            label_folds(folds, setting, out, a, tmp)
            r = subprocess.run(
                [sys.executable, str(SCORE), "--set", str(a.set),
                 "--out-dir", str(out), "--split", a.split],
                check=True, capture_output=True, text=True,
            )
            print(f"{setting:16} {r.stdout.strip()}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

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
"""
import argparse
import json
import pathlib
import shutil
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent


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


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("keep", type=pathlib.Path, help="the --keep-models folder of a victor cv run")
    ap.add_argument("--pages", type=pathlib.Path, required=True, help="folder of the pages (<id>.html)")
    ap.add_argument("--set", type=pathlib.Path, required=True, help="the gold standard (manifest format)")
    ap.add_argument("--split", default="dev")
    ap.add_argument("--setting", action="append", default=[])
    ap.add_argument("--victor", type=pathlib.Path, default=ROOT / "target/release/victor")
    ap.add_argument("--keep-out", type=pathlib.Path)
    a = ap.parse_args()
    folds = sorted(p for p in a.keep.glob("fold-*") if (p / "held-out.txt").exists())
    if not folds:
        sys.exit(f"no fold-*/held-out.txt under {a.keep}")
    with tempfile.TemporaryDirectory() as t:
        tmp = pathlib.Path(t)
        for setting in a.setting or ["e:1,0,0"]:
            out = (a.keep_out / setting.replace(":", "_")) if a.keep_out else tmp / f"out-{setting}"
            if out.exists():
                shutil.rmtree(out)
            out.mkdir(parents=True)
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
            r = subprocess.run(
                [sys.executable, str(ROOT.parent / "shared/checks/score.py"), "--set", str(a.set),
                 "--out-dir", str(out), "--split", a.split],
                check=True, capture_output=True, text=True,
            )
            print(f"{setting:16} {r.stdout.strip()}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

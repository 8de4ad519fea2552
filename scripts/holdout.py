#!/usr/bin/env python3
"""Held-out dev pages: split an imported set, and score a bundle on the held-out part.

usage: scripts/holdout.py split IMPORTED TRAIN_DIR HOLD_DIR [--every 5]
       scripts/holdout.py score MODEL HOLD_DIR SET_DIR [T ...]

`split` links every page of an imported set (`victor import ... --split dev`) into TRAIN_DIR or,
for every `--every`-th page in the order of its id, HOLD_DIR (both are annotated sets that
`victor train` reads). `score` labels the held-out pages with MODEL at each threshold (`v` for
Viterbi, `e` for expected-F1 decoding; default v e 0.5 0.6 0.7 0.75 0.8) and prints the
text-level macro F1 against the set's gold (the measure of ../shared/checks/score.py) and the number of pages below 0.35. Used to pick
recipes on dev pages only, e.g. (models/README.md):

  scripts/holdout.py split work/dev-import/dragnet-train work/dn-train work/dn-hold
  target/release/victor train work/dn-train work/dev-import/l3s-gn1 --c2 10 --threshold-folds 0 --out work/pooled
  scripts/holdout.py score work/pooled work/dn-hold ../shared/data/dragnet-train
"""
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import victor_score as sc  # the shared text-level measure

ROOT = Path(__file__).resolve().parent.parent


def split(imported: Path, train: Path, hold: Path, every: int) -> None:
    ids = sorted(p.stem for p in (imported / "pages").glob("*.html"))
    for k, i in enumerate(ids):
        d = hold if k % every == 0 else train
        for sub, ext in (("pages", "html"), ("labels", "json")):
            (d / sub).mkdir(parents=True, exist_ok=True)
            link = d / sub / f"{i}.{ext}"
            if not link.exists():
                link.symlink_to((imported / sub / f"{i}.{ext}").resolve())
        if not (d / "set.json").exists():
            (d / "set.json").write_bytes((imported / "set.json").read_bytes())
    n = len(ids)
    print(f"{n - (n + every - 1) // every} pages in {train}, {(n + every - 1) // every} in {hold}")


def score(model: str, hold: Path, setdir: Path, thresholds: list[str]) -> None:
    ids = sorted(p.stem for p in (hold / "pages").glob("*.html"))
    man = {}
    for line in open(setdir / "manifest.jsonl", encoding="utf-8"):
        m = json.loads(line)
        man[m["id"]] = m
    with tempfile.TemporaryDirectory() as tmp:
        lst = Path(tmp) / "list"
        lst.write_text("".join(f"{setdir / man[i]['html']}\n" for i in ids))
        for t in thresholds:
            out = Path(tmp) / f"out-{t}"
            how = {"v": ["--viterbi"], "e": ["--expected-f1"]}.get(t, ["--threshold", t])
            subprocess.run([str(ROOT / "target/release/victor"), "label", "--model", model,
                            "--format", "text", "--out", str(out), "--files-from", str(lst), *how],
                           check=False, capture_output=True)
            f1 = []
            for i in ids:
                gold = sc.tokens(sc.gold_text((setdir / man[i]["gold"]).read_text("utf-8", "replace")))
                p = out / (Path(man[i]["html"]).stem + ".txt")
                ext = sc.tokens(p.read_text("utf-8", "replace") if p.exists() else "")
                f1.append(sc.prf(ext, gold)[2])
            low = sum(x < 0.35 for x in f1)
            print(f"{model} T={t} macro F1 {sum(f1) / len(f1):.4f}, {low} of {len(f1)} pages below 0.35")


def main() -> int:
    a = sys.argv[1:]
    if len(a) >= 4 and a[0] == "split":
        every = int(a[a.index("--every") + 1]) if "--every" in a else 5
        split(Path(a[1]), Path(a[2]), Path(a[3]), every)
    elif len(a) >= 4 and a[0] == "score":
        score(a[1], Path(a[2]), Path(a[3]), a[4:] or ["v", "e", "0.5", "0.6", "0.7", "0.75", "0.8"])
    else:
        print(__doc__, file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Choosing adaptation's settings on dev pages only (eval/adapt.md).

usage: scripts/adapt_dev.py prepare [--work work/adapt-dev]
       scripts/adapt_dev.py run NAME TARGET N [victor train options...]
       scripts/adapt_dev.py base MODEL TARGET

`prepare` imports the dev splits, holds out dev pages that the base will not see (dragnet-train:
every 5th dev page by id; wcxb: the dev pages of the domains whose SHA-256 is 0 modulo 5; CleanEval,
which `web` never trains on: its dev pages after the first 100, every other one) and trains
`webho`, web's recipe (scripts/train_models.sh) without the held-out pages (about 35 minutes and
3.2 GB on 2 busy cores). `run` trains a bundle on the first N pages (by id) of TARGET's pool
(cleaneval: its dev pages; dragnet: dragnet-train's dev pages the base saw, as the adapt check
adapts `web` on pages it saw) with the options given (`--adapt webho --prior 300`, or
`--like webho --boost`), and prints TARGET's held-out F1 (text-level macro F1,
../shared/checks/score.py) and the held-out wcxb pages' F1 (WCXB's measure); `base` scores a bundle
as it is. Lines are appended to WORK/results.txt. No test page is read.
"""
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import victor_score as sc  # the shared measures (text level; WCXB's word F1)
from victor_score import wcxb_f1

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT.parent / "shared" / "data"
WORK = Path(os.environ.get("WORK", ROOT / "work" / "adapt-dev"))
V = os.environ.get("VICTOR", str(ROOT / "target" / "release" / "victor"))


def sh(*cmd, **kw):
    r = subprocess.run([str(c) for c in cmd], capture_output=True, text=True, **kw)
    if r.returncode:
        sys.exit(f"failed: {' '.join(map(str, cmd))}\n{r.stderr[-3000:]}")
    return r


def manifest(set_):
    return {json.loads(l)["id"]: json.loads(l) for l in open(DATA / set_ / "manifest.jsonl", encoding="utf-8")}


def ids_of(d: Path):
    return sorted(p.stem for p in (d / "pages").glob("*.html"))


def link(src: Path, dst: Path, ids):
    for sub, ext in (("pages", "html"), ("labels", "json")):
        (dst / sub).mkdir(parents=True, exist_ok=True)
        for i in ids:
            l = dst / sub / f"{i}.{ext}"
            if not l.exists():
                l.symlink_to((src / sub / f"{i}.{ext}").resolve())
    (dst / "set.json").write_bytes((src / "set.json").read_bytes())


def held_wcxb(m):
    return int(hashlib.sha256(m["domain"].encode()).hexdigest(), 16) % 5 == 0


def prepare():
    WORK.mkdir(parents=True, exist_ok=True)
    for set_, how, extra in (("cleaneval", "cleaneval", []), ("dragnet-train", "text", []),
                             ("l3s-gn1", "l3s-gn1", []), ("readability-tests", "text", []),
                             ("wcxb", "text", ["--min-coverage", "0.5"])):
        d = WORK / f"imp-{set_}"
        if not (d / "set.json").exists():
            sh(V, "import", "--from", how, DATA / set_, "--split", "dev", "--out", d, *extra)
    ids = ids_of(WORK / "imp-dragnet-train")
    hold = set(ids[::5])
    link(WORK / "imp-dragnet-train", WORK / "tr-dragnet", [i for i in ids if i not in hold])
    link(WORK / "imp-dragnet-train", WORK / "ho-dragnet", sorted(hold))
    man = manifest("wcxb")
    ids = ids_of(WORK / "imp-wcxb")
    link(WORK / "imp-wcxb", WORK / "tr-wcxb", [i for i in ids if not held_wcxb(man[i])])
    opts = ["--c2", "10", "--boost", "--boost-depth", "3", "--boost-trees", "30", "--boost-learning-rate",
            "0.3", "--config", ROOT / "templates/features-web.json", "--template", ROOT / "templates/web.tpl"]
    if not (WORK / "seed" / "victor.json").exists():
        sh(V, "train", WORK / "tr-dragnet", WORK / "imp-l3s-gn1", WORK / "imp-readability-tests",
           "--out", WORK / "seed", "--threshold-folds", "0", "-q", *opts)
    if not (WORK / "snip" / "set.json").exists():
        sh(sys.executable, ROOT / "scripts/import_snippets.py", DATA / "trafilatura-eval", WORK / "snip",
           "--model", WORK / "seed", "--victor", V)
    if not (WORK / "webho" / "victor.json").exists():
        sh(V, "train", WORK / "tr-dragnet", WORK / "imp-l3s-gn1", WORK / "imp-readability-tests", WORK / "snip",
           WORK / "tr-wcxb", "--out", WORK / "webho", "--threshold-folds", "5", "--parallel-folds", "2",
           "--set-weight", "wcxb=0.25", "-q", *opts)
    print(f"prepared {WORK}: base {WORK / 'webho'}")


def held_out():
    clean = ids_of(WORK / "imp-cleaneval")
    man = manifest("wcxb")
    return {
        "cleaneval": ("cleaneval", clean[100::2]),
        "dragnet": ("dragnet-train", ids_of(WORK / "ho-dragnet")),
        "wcxb": ("wcxb", sorted(i for i, m in man.items() if m["split"] == "dev" and held_wcxb(m))),
    }


def pool(target):
    d = {"cleaneval": WORK / "imp-cleaneval", "dragnet": WORK / "tr-dragnet"}[target]
    return d, ids_of(d)


def score(model, set_, ids):
    m = manifest(set_)
    with tempfile.TemporaryDirectory() as t:
        lst = Path(t, "list")
        lst.write_text("".join(f"{DATA / set_ / m[i]['html']}\n" for i in ids))
        subprocess.run([V, "label", "-q", "--model", str(model), "--format", "text", "--out", f"{t}/o",
                        "--files-from", str(lst)], capture_output=True)
        fs = []
        for i in ids:
            f = Path(t, "o", f"{i}.txt")
            ext = f.read_text(errors="replace") if f.exists() else ""
            gold = (DATA / set_ / m[i]["gold"]).read_text(errors="replace")
            fs.append(wcxb_f1(ext, gold) if set_ == "wcxb" else sc.prf(sc.tokens(ext), sc.tokens(sc.gold_text(gold)))[2])
        return sum(fs) / len(fs)


def report(name, target, n, model, secs, args):
    ho = held_out()
    t, w = score(model, *ho[target]), score(model, *ho["wcxb"])
    line = f"{name:24s} {target:10s} n={n:<4d} {target}={t:.4f} wcxb={w:.4f} secs={secs}  {' '.join(args)}"
    print(line)
    with open(WORK / "results.txt", "a") as f:
        f.write(line + "\n")


def run(name, target, n, args):
    src, ids = pool(target)
    sub = WORK / "sub" / f"{target}-{n}"
    if not sub.exists():
        link(src, sub, ids[:n])
    out = WORK / "m" / f"{target}-{n}-{name}"
    if out.exists():
        shutil.rmtree(out)
    t0 = time.time()
    sh(V, "train", sub, "--out", out, "-q", *[a.replace("webho", str(WORK / "webho")) for a in args])
    report(name, target, n, out, f"{time.time() - t0:.1f}", args)


if __name__ == "__main__":
    a = sys.argv[1:]
    if a[:1] == ["prepare"]:
        prepare()
    elif a[:1] == ["run"] and len(a) >= 4:
        run(a[1], a[2], int(a[3]), a[4:])
    elif a[:1] == ["base"] and len(a) == 3:
        report(f"base:{Path(a[1]).name}", a[2], 0, a[1].replace("webho", str(WORK / "webho")), "-", [])
    else:
        sys.exit(__doc__)

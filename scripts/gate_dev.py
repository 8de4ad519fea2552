#!/usr/bin/env python3
"""Adapting without forgetting, on dev pages only (issue 68; eval/adapt-gate.md).

usage: scripts/gate_dev.py prepare
       scripts/gate_dev.py adapt NAME TARGET N [victor train options...]
       scripts/gate_dev.py score MODEL [EVALSET...]
       scripts/gate_dev.py table [NAME...]

`prepare` imports the dev splits and trains `base`, web's recipe (scripts/train_models.sh) without
the dev pages held out here, so that every figure below is on pages the base never saw:
  - dragnet-train: every 5th dev page by id held out (`dragnet`, 155 pages);
  - wcxb: the dev pages of the domains whose SHA-256 is 0 modulo 5 (`wcxb`, 186 pages, every kind);
  - l3s-gn1: every other dev page by id held out; of those, the first 100 are the adaptation pool
    of the far guideline `l3s-body` and the rest (148) its scored pages. `l3s-body` is L3S-GN1's
    pages under another guideline than any the base learnt: the article body alone (sel2), without
    the headline (sel1) and the supplemental text (sel3: datelines, captions), like the held-back
    guideline of issue 68;
  - cleaneval (never in web's training): the first 100 dev pages are the pool, the pages after
    them, every other one, are scored (`cleaneval`, 246 pages).
`adapt` trains a bundle on the first N pool pages of TARGET (cleaneval, dragnet: the dev pages the
base saw, as the adapt check adapts `web` on pages it saw; l3s-body) with the options given
(`BASE` stands for the base bundle) and scores it; `score` scores a bundle on the eval sets (the
per-page F1 go to WORK/scores/NAME/SET.json, wcxb's with its page kinds); `table` prints the
figures. No test page is read.
"""
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

import victor_score as sc  # the shared measures (text level; WCXB's word F1)
from victor_score import wcxb_f1

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT.parent / "shared" / "data"
WORK = Path(os.environ.get("WORK", ROOT / "work" / "gate-dev"))
V = os.environ.get("VICTOR", str(ROOT / "target" / "release" / "victor"))
BASE = WORK / "base"


def sh(*cmd, **kw):
    r = subprocess.run([str(c) for c in cmd], capture_output=True, text=True, **kw)
    if r.returncode:
        sys.exit(f"failed: {' '.join(map(str, cmd))}\n{r.stderr[-3000:]}")
    return r


def manifest(d: Path):
    return {json.loads(l)["id"]: json.loads(l) for l in open(d / "manifest.jsonl", encoding="utf-8")}


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


def l3s_body_set():
    """The L3S-GN1 pages with body-only gold (the `<p>` lines of the gold): a set folder in WORK."""
    d = WORK / "set-l3s-body"
    if (d / "manifest.jsonl").exists():
        return d
    src = DATA / "l3s-gn1"
    (d / "gold").mkdir(parents=True, exist_ok=True)
    for sub in ("html", "blocks"):
        if not (d / sub).exists():
            (d / sub).symlink_to((src / sub).resolve())
    for i, m in manifest(src).items():
        lines = (src / m["gold"]).read_text(encoding="utf-8", errors="replace").splitlines()
        body = [l for l in lines if l.lstrip().startswith("<p>")]
        (d / m["gold"]).write_text("\n".join(body) + "\n", encoding="utf-8")
    shutil.copy(src / "manifest.jsonl", d / "manifest.jsonl")
    return d


def body_only(src: Path, dst: Path, ids):
    """Annotated pages of `src` with their header labels dropped (headline -> other)."""
    (dst / "pages").mkdir(parents=True, exist_ok=True)
    (dst / "labels").mkdir(parents=True, exist_ok=True)
    for i in ids:
        p = dst / "pages" / f"{i}.html"
        if not p.exists():
            p.symlink_to((src / "pages" / f"{i}.html").resolve())
        j = json.loads((src / "labels" / f"{i}.json").read_text(encoding="utf-8"))
        j["labels"] = [l for l in j["labels"] if l["label"] != "header"]
        (dst / "labels" / f"{i}.json").write_text(json.dumps(j, ensure_ascii=False), encoding="utf-8")
    s = json.loads((src / "set.json").read_text(encoding="utf-8"))
    s["name"] = "l3s-body"
    s["description"] = "L3S-GN1 pages, the article body alone (no headline, datelines, captions)"
    (dst / "set.json").write_text(json.dumps(s), encoding="utf-8")


def prepare():
    WORK.mkdir(parents=True, exist_ok=True)
    for set_, how, extra in (("cleaneval", "cleaneval", []), ("dragnet-train", "text", []),
                             ("l3s-gn1", "l3s-gn1", []), ("readability-tests", "text", []),
                             ("wcxb", "text", ["--min-coverage", "0.5"])):
        d = WORK / f"imp-{set_}"
        if not (d / "set.json").exists():
            sh(V, "import", "--from", how, DATA / set_, "--split", "dev", "--out", d, *extra)
    d = WORK / "imp-l3s-sel2"
    if not (d / "set.json").exists():
        sh(V, "import", "--from", "l3s-gn1", "--supplemental", "other", DATA / "l3s-gn1", "--split", "dev",
           "--out", d)
    l3s_body_set()
    ids = ids_of(WORK / "imp-dragnet-train")
    hold = set(ids[::5])
    link(WORK / "imp-dragnet-train", WORK / "tr-dragnet", [i for i in ids if i not in hold])
    ids = ids_of(WORK / "imp-l3s-gn1")
    link(WORK / "imp-l3s-gn1", WORK / "tr-l3s", ids[0::2])
    body_only(WORK / "imp-l3s-sel2", WORK / "pool-l3s-body", ids[1::2][:100])
    man = manifest(DATA / "wcxb")
    ids = ids_of(WORK / "imp-wcxb")
    link(WORK / "imp-wcxb", WORK / "tr-wcxb", [i for i in ids if not held_wcxb(man[i])])
    opts = ["--c2", "10", "--boost", "--boost-depth", "3", "--boost-trees", "30", "--boost-learning-rate",
            "0.3", "--config", ROOT / "templates/features-web.json", "--template", ROOT / "templates/web.tpl"]
    if not (WORK / "seed" / "victor.json").exists():
        sh(V, "train", WORK / "tr-dragnet", WORK / "tr-l3s", WORK / "imp-readability-tests",
           "--out", WORK / "seed", "--threshold-folds", "0", "-q", *opts)
    if not (WORK / "snip" / "set.json").exists():
        sh(sys.executable, ROOT / "scripts/import_snippets.py", DATA / "trafilatura-eval", WORK / "snip",
           "--model", WORK / "seed", "--victor", V)
    if not (BASE / "victor.json").exists():
        t0 = time.time()
        sh(V, "train", WORK / "tr-dragnet", WORK / "tr-l3s", WORK / "imp-readability-tests", WORK / "snip",
           WORK / "tr-wcxb", "--out", BASE, "--threshold-folds", "5", "--parallel-folds", "2",
           "--set-weight", "wcxb=0.25", "-q", *opts)
        print(f"base trained in {time.time() - t0:.0f} s")
    print(f"prepared {WORK}: base {BASE}")


def eval_sets():
    """Each eval set: (data folder, ids scored)."""
    clean = ids_of(WORK / "imp-cleaneval")
    wman = manifest(DATA / "wcxb")
    l3s = ids_of(WORK / "imp-l3s-gn1")
    return {
        "cleaneval": (DATA / "cleaneval", clean[100::2]),
        "dragnet": (DATA / "dragnet-train", sorted(set(ids_of(WORK / "imp-dragnet-train")[::5]))),
        "l3s-body": (WORK / "set-l3s-body", l3s[1::2][100:]),
        "wcxb": (DATA / "wcxb", sorted(i for i, m in wman.items() if m["split"] == "dev" and held_wcxb(m))),
    }


def pool(target):
    d = {"cleaneval": WORK / "imp-cleaneval", "dragnet": WORK / "tr-dragnet",
         "l3s-body": WORK / "pool-l3s-body"}[target]
    return d, ids_of(d)


def score(model: Path, name: str, sets=None, extra=()):
    """Per-page F1 of a bundle on eval sets, saved to WORK/scores/NAME/SET.json."""
    out = {}
    for s, (d, ids) in eval_sets().items():
        if sets and s not in sets:
            continue
        m = manifest(d)
        with tempfile.TemporaryDirectory() as t:
            lst = Path(t, "list")
            lst.write_text("".join(f"{d / m[i]['html']}\n" for i in ids))
            r = subprocess.run([V, "label", "-q", "--model", str(model), "--format", "jsonl-text",
                                "--files-from", str(lst), *extra], capture_output=True, text=True)
            by_id = {}
            for line in r.stdout.splitlines():
                j = json.loads(line)
                by_id[Path(j["source"]).name.split(".")[0]] = j
            fs, shares = {}, {}
            for i in ids:
                j = by_id.get(i, {})
                ext = j.get("text", "")
                if "adapted" in j:
                    shares[i] = j["adapted"]
                gold = (d / m[i]["gold"]).read_text(errors="replace")
                fs[i] = wcxb_f1(ext, gold) if s == "wcxb" else sc.prf(sc.tokens(ext), sc.tokens(sc.gold_text(gold)))[2]
        (WORK / "scores" / name).mkdir(parents=True, exist_ok=True)
        (WORK / "scores" / name / f"{s}.json").write_text(json.dumps(fs))
        if shares:
            (WORK / "shares" / name).mkdir(parents=True, exist_ok=True)
            (WORK / "shares" / name / f"{s}.json").write_text(json.dumps(shares))
        out[s] = fs
    return out


def kinds():
    man = manifest(DATA / "wcxb")
    return {i: m["page_type"] for i, m in man.items()}


def summary(fs_by_set):
    k = kinds()
    row = {}
    for s, fs in fs_by_set.items():
        if s == "wcxb":
            by = defaultdict(list)
            for i, f in fs.items():
                by[k[i]].append(f)
            row["wcxb"] = sum(fs.values()) / len(fs)
            oth = [f for i, f in fs.items() if k[i] != "article"]
            row["wcxb-other"] = sum(oth) / len(oth)
            for kind, v in sorted(by.items()):
                row[f"w:{kind}"] = sum(v) / len(v)
        else:
            row[s] = sum(fs.values()) / len(fs)
    return row


def adapt(name, target, n, args):
    src, ids = pool(target)
    sub = WORK / "sub" / f"{target}-{n}"
    if not sub.exists():
        if target == "l3s-body":
            (sub).mkdir(parents=True)
            for x in ("pages", "labels"):
                (sub / x).mkdir()
            for i in ids[:n]:
                (sub / "pages" / f"{i}.html").symlink_to((src / "pages" / f"{i}.html").resolve())
                (sub / "labels" / f"{i}.json").symlink_to((src / "labels" / f"{i}.json").resolve())
            (sub / "set.json").write_bytes((src / "set.json").read_bytes())
        else:
            link(src, sub, ids[:n])
    out = WORK / "m" / name
    if out.exists():
        shutil.rmtree(out)
    t0 = time.time()
    sh(V, "train", sub, "--out", out, "-q", *[a.replace("BASE", str(BASE)) for a in args])
    secs = time.time() - t0
    variants = [(name, out)]
    meta = json.loads((out / "victor.json").read_text())
    if meta.get("gate"):
        # The same bundle with the adapted model on every page (the gate always full).
        full = WORK / "m" / f"{name}+full"
        if full.exists():
            shutil.rmtree(full)
        shutil.copytree(out, full, symlinks=True)
        meta["gate"]["full"] = -1e300
        meta["gate"]["none"] = -2e300
        (full / "victor.json").write_text(json.dumps(meta))
        variants.append((f"{name}+full", full))
    for vname, model in variants:
        row = summary(score(model, vname, [target, "wcxb"]))
        line = f"{vname:28s} {target:10s} n={n:<4d} " + " ".join(f"{k}={v:.4f}" for k, v in row.items()) + \
            f" secs={secs:.1f}  {' '.join(args)}"
        print(line)
        with open(WORK / "results.txt", "a") as f:
            f.write(line + "\n")


def table(names):
    d = WORK / "scores"
    for n in names or sorted(p.name for p in d.iterdir()):
        fs = {p.stem: json.loads(p.read_text()) for p in (d / n).glob("*.json")}
        print(f"{n:28s} " + " ".join(f"{k}={v:.4f}" for k, v in summary(fs).items()))


if __name__ == "__main__":
    a = sys.argv[1:]
    if a[:1] == ["prepare"]:
        prepare()
    elif a[:1] == ["adapt"] and len(a) >= 4:
        adapt(a[1], a[2], int(a[3]), a[4:])
    elif a[:1] == ["score"] and len(a) >= 2:
        m = Path(a[1].replace("BASE", str(BASE)))
        print(" ".join(f"{k}={v:.4f}" for k, v in summary(score(m, m.name, a[2:] or None)).items()))
    elif a[:1] == ["table"]:
        table(a[1:])
    else:
        sys.exit(__doc__)

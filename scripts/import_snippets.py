#!/usr/bin/env python3
"""Turn a snippet gold standard (data/trafilatura-eval) into annotated pages for `victor train`.

usage: scripts/import_snippets.py SET OUT --model BUNDLE [--split dev] [--sites-mod K:R]
       scripts/import_snippets.py SET OUT --partial [--model BUNDLE] [--split dev] [--sites-mod K:R]

The set's gold is partial: for each page, snippets that a good extraction must contain (`with`)
and snippets it must not (`without`). Every other block is unknown. The crfs trainer needs a label
on every block, so the unknown blocks take the labels a model gives them (`victor label --model
BUNDLE --format jsonl`, its default decoding), and only the snippet blocks are forced: a block
covered by a `with` snippet is `text` (or stays `header` when the model says so), one covered by
a `without` snippet is `other`. "Covered": at least half of the block's characters lie in the
snippet, or at least half of the snippet's characters lie in the block (a sentence inside a
long block); white space is ignored on both sides, since the snippets and victor's blocks join
inline elements differently.

With `--partial`, nothing is taken from a model: a block covered by a `with` snippet is `text`,
one covered by a `without` snippet is `other`, and every other block is left unknown (the page
record says `"unlabelled": "unknown"`); `victor train` sums over their labelings (partial
labels). The model (default: victor's built-in one) is then only used to list the blocks.

Only the chosen split's pages are written (never pass `--split test` for training).
`--sites-mod K:R` keeps the pages whose site (host of the url, or the name before the first `-`)
hashes (SHA-1 of "fold:" and the host) to R modulo K, for by-site folds. The report (stderr) counts the snippets found, forced
blocks and the labels the forcing changed. Writes OUT in the annotation format
(annotations/README.md); OUT is a scratch folder (git-ignored `work/`), never the repository."""
import argparse, hashlib, json, os, re, subprocess, sys, tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def site(it):
    u = it["url"]
    u = u.split("::", 1)[-1]
    m = re.match(r"https?://([^/]+)", u)
    h = m.group(1) if m else u.split("-", 1)[0]
    return h.lower().removeprefix("www.")


def spans(cat, snips):
    """(start, end) spans in the whitespace-free concatenation where each snippet occurs."""
    out, missing = [], 0
    for s in snips:
        k = re.sub(r"\s+", "", s)
        if not k:
            continue
        i = cat.find(k)
        if i < 0:
            missing += 1
            continue
        while i >= 0:
            out.append((i, i + len(k)))
            i = cat.find(k, i + 1)
    return out, missing


def cover(b0, b1, sp):
    best = 0.0
    n = b1 - b0
    for s0, s1 in sp:
        ov = min(b1, s1) - max(b0, s0)
        if ov <= 0:
            continue
        best = max(best, ov / n if n else 0, ov / (s1 - s0))
    return best


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("set", type=Path)
    ap.add_argument("out", type=Path)
    ap.add_argument("--model")
    ap.add_argument("--partial", action="store_true", help="leave blocks without a snippet unknown")
    ap.add_argument("--split", default="dev")
    ap.add_argument("--sites-mod")
    ap.add_argument("--victor", default=str(ROOT / "target" / "release" / "victor"))
    a = ap.parse_args()
    if not a.partial and not a.model:
        sys.exit("import_snippets.py: --model is required unless --partial")
    if a.split not in ("dev",):
        sys.exit("import_snippets.py: only dev pages may be imported for training")
    items = [json.loads(l) for l in open(a.set / "snippets.jsonl", encoding="utf-8")]
    items = [it for it in items if it["split"] == a.split]
    if a.sites_mod:
        k, r = map(int, a.sites_mod.split(":"))
        items = [it for it in items if int(hashlib.sha1(("fold:" + site(it)).encode()).hexdigest(), 16) % k == r]
    (a.out / "pages").mkdir(parents=True, exist_ok=True)
    (a.out / "labels").mkdir(parents=True, exist_ok=True)
    (a.out / "set.json").write_text(json.dumps({"format": 1, "name": "trafilatura-eval-snippets",
        "description": f"trafilatura-eval {a.split} pages: snippet blocks labelled, the rest unknown" if a.partial
        else f"trafilatura-eval {a.split} pages: snippet blocks forced, the rest labelled by {a.model}"}, indent=2) + "\n")
    with tempfile.NamedTemporaryFile("w", suffix=".list", delete=False) as f:
        for it in items:
            f.write(str(a.set / it["html"]) + "\n")
        lst = f.name
    cmd = [a.victor, "label"] + (["--model", a.model] if a.model else []) + ["--format", "jsonl", "--files-from", lst]
    res = subprocess.run(cmd, capture_output=True, text=True)
    os.unlink(lst)
    by_source = {}
    for line in res.stdout.splitlines():
        d = json.loads(line)
        by_source[Path(d["source"]).name] = d
    stats = dict(pages=0, with_found=0, with_missing=0, without_found=0, without_missing=0, forced_text=0,
                 forced_other=0, changed=0)
    for it in items:
        name = Path(it["html"]).name
        d = by_source.get(name)
        if d is None:
            print(f"skipped {it['id']}: victor gave no labels", file=sys.stderr)
            continue
        blocks = d["blocks"]
        pieces, pos = [], []
        n = 0
        for b in blocks:
            t = re.sub(r"\s+", "", b["text"])
            pos.append((n, n + len(t)))
            pieces.append(t)
            n += len(t)
        cat = "".join(pieces)
        wsp, wm = spans(cat, it["with"])
        osp, om = spans(cat, it["without"])
        stats["with_found"] += len(it["with"]) - wm
        stats["with_missing"] += wm
        stats["without_found"] += len(it["without"]) - om
        stats["without_missing"] += om
        labels = []
        for i, b in enumerate(blocks):
            lab = b["label"]
            cw = cover(*pos[i], wsp) if wsp else 0
            co = cover(*pos[i], osp) if osp else 0
            new = None if a.partial else lab
            if cw >= 0.5 and cw >= co:
                new = "text" if a.partial else ("header" if lab == "header" else "text")
                stats["forced_text"] += 1
            elif co >= 0.5:
                new = "other"
                stats["forced_other"] += 1
            stats["changed"] += new is not None and new != lab
            if new is not None and (a.partial or new != "other"):
                labels.append({"block": i, "start": b["start"], "end": b["end"], "label": new, "text": b["text"]})
        raw = (a.set / it["html"]).read_bytes()
        pid = it["id"]
        (a.out / "pages" / f"{pid}.html").write_bytes(raw)
        rec = {"format": 1, "id": pid, "split": a.split, "url": it["url"],
               "page": {"sha256": hashlib.sha256(raw).hexdigest(), "bytes": len(raw), "encoding": "", "blocks": len(blocks)},
               "source": {"set": "trafilatura-eval", "html": it["html"]},
               "annotated_by": {"tool": "scripts/import_snippets.py", "victor": "0.1.0", "segmenter": "victor-features 0.1.0", "options": {"model": a.model or "victor's default", "partial": str(a.partial).lower()}},
               "labels": labels}
        if a.partial:
            rec["unlabelled"] = "unknown"
        (a.out / "labels" / f"{pid}.json").write_text(json.dumps(rec, ensure_ascii=False) + "\n")
        stats["pages"] += 1
    print("import_snippets: " + ", ".join(f"{k} {v}" for k, v in stats.items()), file=sys.stderr)


if __name__ == "__main__":
    main()

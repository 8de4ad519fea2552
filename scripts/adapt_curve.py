#!/usr/bin/env python3
"""The learning curve of adaptation: a shipped bundle adapted to the first N dev pages of a set
whose guideline differs from its own, against a bundle trained from scratch on the same pages.

usage: scripts/adapt_curve.py [--sizes 5,10,20,50,100] [--base web] [--work work/adapt-curve]
                              [--victor target/release/victor] [--out eval/adapt]

For each target (CleanEval: all running text; dragnet-train: the article without comments; and
wcxb's product pages: adapted on its dev product pages), and each N: `victor train SUB --adapt
BASE` (the defaults) and `victor train SUB --like BASE --boost` (from scratch, the recipe the
issue measured), where SUB holds the first N dev pages by id (as ../shared/checks/adapt takes
them). Each bundle labels the target's test pages (text-level macro F1, ../shared/checks/score.py;
products: WCXB's measure on wcxb's test product pages) and wcxb's 302 test pages (WCXB's measure,
../shared/checks/score_wcxb.py). Writes OUT/curve.csv, OUT/curve.md and OUT/curve.svg (the
picture the README shows). Dev pages only are trained on; the test splits are read for this
report, never to choose a setting.
"""
import argparse
import csv
import json
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CHECKS = ROOT.parent / "shared" / "checks"
DATA = ROOT.parent / "shared" / "data"


def run(cmd, **kw):
    r = subprocess.run([str(c) for c in cmd], capture_output=True, text=True, **kw)
    if r.returncode:
        sys.exit(f"failed: {' '.join(map(str, cmd))}\n{r.stderr[-3000:]}")
    return r


def split_list(set_, split, types=None):
    out = []
    for line in open(DATA / set_ / "manifest.jsonl", encoding="utf-8"):
        m = json.loads(line)
        if m["split"] == split and (types is None or m.get("page_type") in types):
            out.append(str(DATA / set_ / m["html"]))
    return out


def subset(imported: Path, ids, dst: Path):
    if dst.exists():
        shutil.rmtree(dst)
    for sub, ext in (("pages", "html"), ("labels", "json")):
        (dst / sub).mkdir(parents=True)
        for i in ids:
            (dst / sub / f"{i}.{ext}").symlink_to((imported / sub / f"{i}.{ext}").resolve())
    (dst / "set.json").write_bytes((imported / "set.json").read_bytes())


def label(victor, model, files, out: Path, work: Path):
    if out.exists():
        shutil.rmtree(out)
    lst = work / "list.txt"
    lst.write_text("".join(f"{f}\n" for f in files))
    run([victor, "label", "-q", "--model", model, "--format", "text", "--out", out, "--files-from", lst])


def text_f1(set_, out: Path):
    r = run([sys.executable, CHECKS / "score.py", "--set", DATA / set_, "--out-dir", out, "--split", "test"])
    return float(re.search(r"macro_F1=([0-9.]+)", r.stdout).group(1))


def wcxb_f1(out: Path, page_type=None):
    r = run([sys.executable, CHECKS / "score_wcxb.py", "--set", DATA / "wcxb", "--out-dir", out, "--split", "test"])
    lines = r.stdout.splitlines()
    if page_type is None:
        return float(re.match(r"F1=([0-9.]+)", lines[0]).group(1))
    for ln in lines[1:]:
        if ln.split()[0] == page_type:
            return float(re.search(r"F1=([0-9.]+)", ln).group(1))
    return float("nan")


# A label's size in the SVG's 11 px sans-serif: width per character (an upper bound for digits and
# lower-case letters) and the height of a line above its baseline.
CHAR_WIDTH, LABEL_HEIGHT = 6.4, 11


def label_box(text, x, y, anchor):
    """The box (left, top, right, bottom) a label at (x, y) with that anchor covers."""
    w = CHAR_WIDTH * len(text)
    left = {"start": x, "middle": x - w / 2, "end": x - w}[anchor]
    return left, y - LABEL_HEIGHT + 2, left + w, y + 3


def crosses(box, line, pad=3.0):
    """Whether the polyline `line` (its points, in order) passes through `box` (widened by the
    stroke and a margin, `pad`)."""
    left, top, right, bottom = box[0] - pad, box[1] - pad, box[2] + pad, box[3] + pad
    for (ax, ay), (bx, by) in zip(line, line[1:]):
        steps = max(1, int(max(abs(bx - ax), abs(by - ay))))
        for k in range(steps + 1):
            x, y = ax + (bx - ax) * k / steps, ay + (by - ay) * k / steps
            if left <= x <= right and top <= y <= bottom:
                return True
    return False


def label_spot(text, y_line, frame, curves):
    """Where a value label goes beside its horizontal line at `y_line` inside `frame` (x0, x1,
    top, bottom): above or below the line, at its right end, left end or middle, the first spot
    that no curve crosses; None when every spot is crossed."""
    x0, x1, top, bottom = frame
    for y in (y_line - 3, y_line + LABEL_HEIGHT + 1):
        for x, anchor in ((x1 - 2, "end"), (x0 + 2, "start"), ((x0 + x1) / 2, "middle")):
            box = label_box(text, x, y, anchor)
            inside = top <= box[1] and box[3] <= bottom
            if inside and not any(crosses(box, c) for c in curves):
                return x, y, anchor
    # The frame's headroom, above every curve (svg keeps it free).
    y = top + LABEL_HEIGHT + 1
    if not any(crosses(label_box(text, x1 - 2, y, "end"), c) for c in curves):
        return x1 - 2, y, "end"
    return None


def svg(rows, targets, path: Path):
    """Two panels per target (its own test F1; wcxb test F1) against pages, log scale."""
    W, H, M = 300, 210, 46
    panels = [(t, k) for t in targets for k in ("target", "wcxb")]
    cols = 2
    width, height = cols * W, ((len(panels) + 1) // 2) * H + 30
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'font-family="sans-serif" font-size="11">',
           f'<rect width="{width}" height="{height}" fill="white"/>',
           f'<text x="{width/2}" y="16" text-anchor="middle" font-size="13">'
           f'adapting web (solid) against training from scratch (dashed), by pages annotated</text>']
    import math
    for k, (t, what) in enumerate(panels):
        ox, oy = (k % cols) * W, 24 + (k // cols) * H
        pts = [r for r in rows if r["target"] == t]
        if not pts:
            continue
        key = "target_f1" if what == "target" else "wcxb_f1"
        sizes = sorted({r["pages"] for r in pts})
        vals = [r[key] for r in pts] + [r[f"base_{key}"] for r in pts]
        lo, hi = min(vals), max(vals)
        top = hi
        lo, hi = math.floor(lo * 50) / 50, math.ceil(hi * 50) / 50
        if hi - lo < 0.02:
            hi = lo + 0.02
        # Headroom over the highest point, where a value label can always go (label_spot).
        while (hi - top) / (hi - lo) * (H - 56) < 2 * LABEL_HEIGHT:
            hi += 0.02
        x0, x1, y0, y1 = ox + M, ox + W - 12, oy + H - 34, oy + 22
        lx = lambda n: x0 + (math.log(n) - math.log(sizes[0])) / max(1e-9, math.log(sizes[-1]) - math.log(sizes[0])) * (x1 - x0)
        ly = lambda v: y0 - (v - lo) / (hi - lo) * (y0 - y1)
        title = {"target": f"{t} test", "wcxb": "wcxb test (every kind)"}[what]
        out.append(f'<text x="{(x0+x1)/2}" y="{oy+12}" text-anchor="middle" font-weight="bold">{title}</text>')
        out.append(f'<rect x="{x0}" y="{y1}" width="{x1-x0}" height="{y0-y1}" fill="none" stroke="#999"/>')
        steps = 4
        for i in range(steps + 1):
            v = lo + (hi - lo) * i / steps
            out.append(f'<text x="{x0-4}" y="{ly(v)+4}" text-anchor="end">{v:.3f}</text>')
            out.append(f'<line x1="{x0}" x2="{x1}" y1="{ly(v)}" y2="{ly(v)}" stroke="#eee"/>')
        for n in sizes:
            out.append(f'<text x="{lx(n)}" y="{y0+14}" text-anchor="middle">{n}</text>')
        out.append(f'<text x="{(x0+x1)/2}" y="{y0+27}" text-anchor="middle">pages</text>')
        base = pts[0][f"base_{key}"]
        out.append(f'<line x1="{x0}" x2="{x1}" y1="{ly(base)}" y2="{ly(base)}" stroke="#888" stroke-dasharray="2,3"/>')
        curves = []
        for method, colour, dash in (("adapt", "#1f77b4", ""), ("scratch", "#d62728", ' stroke-dasharray="6,4"')):
            ps = sorted((r["pages"], r[key]) for r in pts if r["method"] == method)
            if ps:
                line = [(lx(n), ly(v)) for n, v in ps]
                curves.append(line)
                d = " ".join(f"{x:.1f},{y:.1f}" for x, y in line)
                out.append(f'<polyline points="{d}" fill="none" stroke="{colour}" stroke-width="2"{dash}/>')
                for x, y in line:
                    out.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="2.5" fill="{colour}"/>')
        # The value label beside its dotted line where no curve passes (issue 67: it sat on the
        # solid line), else in the frame's headroom.
        text = f"web as shipped {base:.3f}"
        spot = label_spot(text, ly(base), (x0, x1, y1, y0), curves)
        if spot is None:
            sys.exit(f"{title}: no free spot for the label {text!r}")
        tx, ty, anchor = spot
        out.append(f'<text x="{tx:.1f}" y="{ty:.1f}" text-anchor="{anchor}" fill="#666">{text}</text>')
    out.append("</svg>")
    path.write_text("\n".join(out) + "\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sizes", default="5,10,20,50,100")
    ap.add_argument("--base", default="web")
    ap.add_argument("--work", type=Path, default=ROOT / "work" / "adapt-curve")
    ap.add_argument("--victor", type=Path, default=ROOT / "target" / "release" / "victor")
    ap.add_argument("--out", type=Path, default=ROOT / "eval" / "adapt")
    ap.add_argument("--targets", default="cleaneval,dragnet-train,wcxb-product")
    ap.add_argument("--plot-only", action="store_true", help="redraw OUT/curve.svg from OUT/curve.csv")
    a = ap.parse_args()
    if a.plot_only:
        with open(a.out / "curve.csv") as f:
            rows = [{k: (v if k in ("target", "method") else float(v)) for k, v in r.items()} for r in csv.DictReader(f)]
        for r in rows:
            r["pages"] = int(r["pages"])
        svg(rows, a.targets.split(","), a.out / "curve.svg")
        return
    sizes = [int(s) for s in a.sizes.split(",")]
    targets = a.targets.split(",")
    a.work.mkdir(parents=True, exist_ok=True)
    a.out.mkdir(parents=True, exist_ok=True)
    v = a.victor
    importer = {"cleaneval": ("cleaneval", "cleaneval"), "dragnet-train": ("dragnet-train", "text"),
                "wcxb-product": ("wcxb", "text")}
    wl = split_list("wcxb", "test")
    rows = []
    base_scores = {}
    for t in targets:
        set_, how = importer[t]
        imp = a.work / f"import-{set_}"
        if not (imp / "set.json").exists():
            extra = ["--min-coverage", "0.5"] if set_ == "wcxb" else []
            run([v, "import", "--from", how, DATA / set_, "--split", "dev", "--out", imp, *extra])
        ids = sorted(p.stem for p in (imp / "pages").glob("*.html"))
        if t == "wcxb-product":
            man = {json.loads(l)["id"]: json.loads(l) for l in open(DATA / "wcxb" / "manifest.jsonl")}
            ids = [i for i in ids if man[i]["page_type"] == "product"]
            tl = split_list("wcxb", "test", {"product"})
        else:
            tl = split_list(set_, "test")

        def score(model):
            label(v, model, tl, a.work / "o-target", a.work)
            tf = wcxb_f1(a.work / "o-target", "product") if t == "wcxb-product" else text_f1(set_, a.work / "o-target")
            label(v, model, wl, a.work / "o-wcxb", a.work)
            return tf, wcxb_f1(a.work / "o-wcxb")

        base_scores[t] = score(a.base)
        print(f"{t}: {a.base} as shipped: target {base_scores[t][0]:.4f} wcxb {base_scores[t][1]:.4f}", flush=True)
        for n in sizes:
            if n > len(ids):
                continue
            sub = a.work / f"{t}-{n}"
            subset(imp, ids[:n], sub)
            for method, args in (("adapt", ["--adapt", a.base]), ("scratch", ["--like", a.base, "--boost"])):
                model = a.work / f"m-{t}-{n}-{method}"
                t0 = time.time()
                run([v, "train", sub, *args, "--out", model, "--force", "-q"])
                secs = time.time() - t0
                tf, wf = score(model)
                row = {"target": t, "pages": n, "method": method, "target_f1": round(tf, 4),
                       "wcxb_f1": round(wf, 4), "train_seconds": round(secs, 1),
                       "base_target_f1": round(base_scores[t][0], 4), "base_wcxb_f1": round(base_scores[t][1], 4)}
                rows.append(row)
                print(row, flush=True)
    with open(a.out / "curve.csv", "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)
    with open(a.out / "curve.md", "w") as f:
        f.write("| target | pages | adapted: target F1 | adapted: wcxb F1 | from scratch: target F1 | from scratch: wcxb F1 | adapt s |\n")
        f.write("|---|---:|---:|---:|---:|---:|---:|\n")
        for t in targets:
            bt, bw = base_scores[t]
            f.write(f"| {t} | 0 ({a.base}) | {bt:.3f} | {bw:.3f} | | | |\n")
            for n in sizes:
                ad = next((r for r in rows if r["target"] == t and r["pages"] == n and r["method"] == "adapt"), None)
                sc = next((r for r in rows if r["target"] == t and r["pages"] == n and r["method"] == "scratch"), None)
                if ad and sc:
                    f.write(f"| {t} | {n} | {ad['target_f1']:.3f} | {ad['wcxb_f1']:.3f} | {sc['target_f1']:.3f} | {sc['wcxb_f1']:.3f} | {ad['train_seconds']:.0f} |\n")
    svg(rows, targets, a.out / "curve.svg")
    print(f"wrote {a.out}/curve.csv, curve.md, curve.svg")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""The scripts' one home of the shared checks' measures: every script that scores extracted text
imports them from here (`import victor_score`) instead of writing its own.

- Text level, the rules of ../shared/checks/score.py: tokens are NFKC-normalised, lowercased runs
  of letters/digits (each CJK/kana/Thai character alone), compared as multisets; P = overlap /
  extracted tokens, R = overlap / gold tokens; gold line markers (<p>, <h>, <l>, <s>) and a leading
  "URL:" line are stripped; empty gold scores R = 1, and P = F1 = 1 only if the output is empty too.
  `gold_text`, `tokens`, `prf` (score.py's own names and results), `score_page` (with the counts).
- Snippets, the rules of ../shared/checks/score_snippets.py: a `with` snippet found in the output
  (case-sensitive substring after collapsing whitespace runs) is a true positive, a `without`
  snippet found a false positive, a `with` snippet missed a false negative; `snippet_counts` per
  page, `snippet_prf` over summed counts.
- WCXB's word F1, the rules of ../shared/checks/score_wcxb.py: bag of lowercased `\\w+` words per
  page; `wcxb_words`, `wcxb_prf`, `wcxb_f1`.

Why a copy of the rules and not an import of ../shared/checks: the scripts also run where
../shared is not beside the project (sets named by path or $VICTOR_DATA; compare.py inside its own
virtualenv), score_snippets.py and score_wcxb.py parse their arguments when imported, and a
fallback to a second copy would give two code paths. Instead, `python3 scripts/victor_score.py
--check [CHECKS]` scores many gold/output pairs with both this module and the shared scorers (in
$VICTOR_CHECKS, else ../shared/checks) and exits 1 on any difference; it says `skipped` when the
checks or the data are absent. `python3 -m doctest scripts/victor_score.py` checks the rules.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter

# ---------------------------------------------------------------------------------------------
# Text level: shared/checks/score.py.

MARKER = re.compile(r"^\s*(?:<\s*/?\s*[a-z][a-z0-9]{0,9}\s*/?\s*>\s*)+", re.IGNORECASE)
SINGLE = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\u0e00-\u0e7f"
TOKEN = re.compile(rf"[{SINGLE}]|[^\W_{SINGLE}]+")


def gold_text(raw: str) -> str:
    r"""Gold file content without a leading URL: line and without line markers.

    >>> gold_text("URL: http://x\n<h>Title\n<p> <l>Item one\nplain <b>kept</b>")
    'Title\nItem one\nplain <b>kept</b>'
    """
    lines = raw.splitlines()
    if lines and lines[0].lstrip().startswith("URL:"):
        lines = lines[1:]
    return "\n".join(MARKER.sub("", ln) for ln in lines)


def tokens(text: str) -> Counter:
    r"""Multiset of NFKC-normalised, lowercased tokens.

    >>> sorted(tokens("Ｆｕｌｌ-width, e.g. 3.5 km_h 東京!").elements())
    ['3', '5', 'e', 'full', 'g', 'h', 'km', 'width', '京', '東']
    """
    return Counter(TOKEN.findall(unicodedata.normalize("NFKC", text).lower()))


def score_page(ext: Counter, gold: Counter) -> tuple[float, float, float, int, int, int]:
    r"""P, R, F1 (score.py's rules) plus extracted, gold and overlapping token counts.

    >>> score_page(tokens("a b b c"), tokens("b c d"))
    (0.5, 0.6666666666666666, 0.5714285714285715, 4, 3, 2)
    >>> score_page(tokens(""), tokens("")), score_page(tokens("x"), tokens(""))
    ((1.0, 1.0, 1.0, 0, 0, 0), (0.0, 1.0, 0.0, 1, 0, 0))
    >>> score_page(tokens(""), tokens("gold"))
    (0.0, 0.0, 0.0, 0, 1, 0)
    """
    ne, ng = sum(ext.values()), sum(gold.values())
    if ng == 0:
        p = 1.0 if ne == 0 else 0.0
        return p, 1.0, p, ne, ng, 0
    if ne == 0:
        return 0.0, 0.0, 0.0, ne, ng, 0
    ov = sum((ext & gold).values())
    p, r = ov / ne, ov / ng
    return p, r, (2 * p * r / (p + r) if p + r else 0.0), ne, ng, ov


def prf(ext: Counter, gold: Counter) -> tuple[float, float, float]:
    """P, R, F1 of extracted against gold tokens: score.py's `prf`.

    >>> prf(tokens("a b b c"), tokens("b c d"))
    (0.5, 0.6666666666666666, 0.5714285714285715)
    """
    return score_page(ext, gold)[:3]


# ---------------------------------------------------------------------------------------------
# Snippets: shared/checks/score_snippets.py.


def snippet_norm(text: str) -> str:
    r"""Whitespace runs collapsed to one space, ends stripped (score_snippets.py's `norm`).

    >>> snippet_norm(" a\n\tb\u00a0 c ")
    'a b c'
    """
    return re.sub(r"\s+", " ", text).strip()


def snippet_counts(output: str, with_: list[str], without: list[str]) -> tuple[int, int, int]:
    r"""(tp, fp, fn) of one page: a `with` snippet found in the whitespace-normalised output is a
    true positive, a `without` snippet found a false positive, a `with` snippet missed a false
    negative. Case-sensitive substring match, as score_snippets.py.

    >>> snippet_counts("Main  text\nhere. Footer", ["Main text here.", "lost"], ["Footer", "Nav"])
    (1, 1, 1)
    >>> snippet_counts("", ["a"], ["b"])
    (0, 0, 1)
    """
    out = snippet_norm(output)
    tp = sum(snippet_norm(w) in out for w in with_)
    fp = sum(snippet_norm(w) in out for w in without)
    return tp, fp, len(with_) - tp


def snippet_prf(tp: int, fp: int, fn: int) -> tuple[float, float, float]:
    """P = tp/(tp+fp), R = tp/(tp+fn), F1 = 2tp/(2tp+fp+fn); 0 when undefined (score_snippets.py).

    >>> snippet_prf(3, 1, 1), snippet_prf(0, 0, 0)
    ((0.75, 0.75, 0.75), (0.0, 0.0, 0.0))
    """
    p = tp / (tp + fp) if tp + fp else 0.0
    r = tp / (tp + fn) if tp + fn else 0.0
    f = 2 * tp / (2 * tp + fp + fn) if tp + fp + fn else 0.0
    return p, r, f


# ---------------------------------------------------------------------------------------------
# WCXB's word F1: shared/checks/score_wcxb.py.

WORD = re.compile(r"\w+")


def wcxb_words(text: str | None) -> list[str]:
    """The lowercased `\\w+` words of a text (none for None or "").

    >>> wcxb_words("Hello, WORLD_1 café"), wcxb_words(None)
    (['hello', 'world_1', 'café'], [])
    """
    return WORD.findall(text.lower()) if text else []


def wcxb_prf(pred: str | None, ref: str | None) -> tuple[float, float, float]:
    """P, R, F1 of the predicted text's words against the reference's, as bags (score_wcxb.py's
    `prf`): empty reference 1, 1, 1 when the prediction is empty too, else 0, 0, 0.

    >>> wcxb_prf("a b b c", "b c d"), wcxb_prf("", ""), wcxb_prf("x", "")
    ((0.5, 0.6666666666666666, 0.5714285714285715), (1.0, 1.0, 1.0), (0.0, 0.0, 0.0))
    """
    p, r = wcxb_words(pred), wcxb_words(ref)
    if not r:
        return (1.0, 1.0, 1.0) if not p else (0.0, 0.0, 0.0)
    if not p:
        return (0.0, 0.0, 0.0)
    o = sum((Counter(p) & Counter(r)).values())
    pp, rr = o / len(p), o / len(r)
    return pp, rr, (2 * pp * rr / (pp + rr) if pp + rr else 0.0)


def wcxb_f1(pred: str | None, ref: str | None) -> float:
    """WCXB's page F1 of the predicted text against the reference (`wcxb_prf`'s F1)."""
    return wcxb_prf(pred, ref)[2]


# ---------------------------------------------------------------------------------------------
# --check: this module against the shared scorers themselves.


def _check(argv: list[str]) -> int:
    """Score gold/output pairs with this module and with the shared scorers; 1 on a difference."""
    import csv
    import importlib.util
    import json
    import os
    import random
    import subprocess
    import sys
    import tempfile
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    checks = Path(argv[0] if argv else os.environ.get("VICTOR_CHECKS") or root.parent / "shared" / "checks")
    data = Path(os.environ.get("VICTOR_DATA") or checks.parent / "data")
    if not (checks / "score.py").is_file() or not data.is_dir():
        print(f"skipped: no shared scorers in {checks} or no data in {data}")
        return 0
    spec = importlib.util.spec_from_file_location("shared_score", checks / "score.py")
    sc = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(sc)
    rng = random.Random(69)

    def outputs(gold: str, other: str) -> list[str]:
        """Outputs to score against `gold`: itself, empty, pieces, shuffles, another page's gold."""
        lines = gold.splitlines()
        half = lines[: len(lines) // 2]
        mixed = lines + other.splitlines()[:5]
        rng.shuffle(mixed)
        return [gold, "", "\n".join(half), "\n".join(mixed), other, gold.upper(), gold[: len(gold) // 3]]

    bad = n = 0

    def differs(what: str) -> None:
        """Count a difference; name the first ten."""
        nonlocal bad
        bad += 1
        if bad <= 10:
            print(f"differs: {what}")
    # Text level: the functions of score.py on every manifest set's gold (first 150 pages a set).
    for s in sorted(p for p in data.iterdir() if (p / "manifest.jsonl").is_file()):
        golds = []
        for line in open(s / "manifest.jsonl", encoding="utf-8"):
            m = json.loads(line)
            if not m.get("gold"):
                continue  # a set of other gold (htmldate: dates)
            golds.append((s / m["gold"]).read_text(encoding="utf-8", errors="replace"))
            if len(golds) == 150:
                break
        if not golds:
            continue
        for k, raw in enumerate(golds):
            other = golds[(k + 1) % len(golds)]
            if gold_text(raw) != sc.gold_text(raw):
                differs(f"gold text of {s.name} page {k}")
            g, gs = tokens(gold_text(raw)), sc.tokens(sc.gold_text(raw))
            for out in outputs(raw, other):
                n += 1
                if tokens(out) != sc.tokens(out) or prf(tokens(out), g) != sc.prf(sc.tokens(out), gs):
                    differs(f"text level, {s.name} page {k}")
        print(f"text level: {n} pairs scored, {bad} differences so far")
    # WCXB and snippets: the shared scripts run on a folder of outputs, their per-page CSVs read.
    for name, script in (("wcxb", "score_wcxb.py"), ("trafilatura-eval", "score_snippets.py")):
        s = data / name
        if not (s / ("manifest.jsonl" if name == "wcxb" else "snippets.jsonl")).is_file():
            print(f"skipped: {name} (not in {data})")
            continue
        with tempfile.TemporaryDirectory() as t:
            outdir, pages_csv = Path(t, "o"), Path(t, "pages.csv")
            outdir.mkdir()
            items = [json.loads(line) for line in open(s / ("manifest.jsonl" if name == "wcxb" else "snippets.jsonl"))]
            texts = {}
            for k, it in enumerate(items):
                if name == "wcxb":
                    gold = (s / it["gold"]).read_text(encoding="utf-8")
                    other = (s / items[(k + 1) % len(items)]["gold"]).read_text(encoding="utf-8")
                    text = rng.choice(outputs(gold, other))
                else:
                    # some snippets, their spaces turned into other white space runs, or cut short
                    pieces = rng.sample(it["with"] + it["without"], rng.randint(0, len(it["with"]) + len(it["without"])))
                    spaced = [re.sub(" ", lambda _: rng.choice([" ", "  ", "\n", "\t ", "\u00a0"]), x) for x in pieces]
                    text = "\n".join(x if rng.random() < 0.9 else x[: len(x) // 2] for x in spaced)
                texts[it["id"]] = text
                (outdir / f"{it['id']}.txt").write_text(text, encoding="utf-8")
            if name == "wcxb":
                cmd = [sys.executable, str(checks / script), "--set", str(s), "--out-dir", str(outdir)]
            else:
                cmd = [sys.executable, str(checks / script), str(s), str(outdir)]
            subprocess.run([*cmd, "--pages-out", str(pages_csv)], check=True, capture_output=True)
            with open(pages_csv, encoding="utf-8", newline="") as f:
                theirs = {r["id"]: r for r in csv.DictReader(f)}
            for it in items:
                r, text = theirs[it["id"]], texts[it["id"]]
                n += 1
                if name == "wcxb":
                    gold = (s / it["gold"]).read_text(encoding="utf-8")
                    same = all(float(r[k]) == v for k, v in zip(("P", "R", "F1"), wcxb_prf(text, gold)))
                else:
                    tp, fp, _ = snippet_counts(text, it["with"], it["without"])
                    same = (int(r["with_found"]), int(r["without_found"])) == (tp, fp)
                if not same:
                    differs(f"{name} page {it['id']}")
        print(f"{name}: {len(items)} pages scored, {bad} differences so far")
    print(f"{n} gold/output pairs, {bad} differences from the shared scorers")
    return 1 if bad else 0


if __name__ == "__main__":
    import sys

    if sys.argv[1:2] == ["--check"]:
        sys.exit(_check(sys.argv[2:]))
    print(__doc__)
    sys.exit(0 if len(sys.argv) == 1 else 2)

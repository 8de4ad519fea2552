#!/usr/bin/env python3
"""rs-trafilatura's title, author and date on a wcxb split, judged as ../shared/checks/metadata
judges victor's (title and author: the \\w+ words, lowercased, equal the gold's; date: the first
10 characters equal), and its page-type classifier's accuracy against the manifest's page_type.
The figures beside victor's in eval/metadata.md.

Run it with an interpreter that has rs-trafilatura (`scripts/compare.py` builds one in
~/.cache/victor-compare-venv):

    ~/.cache/victor-compare-venv/bin/python scripts/peer_metadata.py --split test
"""
import argparse, gzip, json, re
from pathlib import Path

DATA = Path(__file__).resolve().parent.parent.parent / "shared" / "data" / "wcxb"


def words(s):
    return " ".join(re.findall(r"\w+", str(s or "").lower()))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--split", default="dev")
    ap.add_argument("--data", type=Path, default=DATA)
    args = ap.parse_args()
    import rs_trafilatura

    hit = {k: [0, 0] for k in ("title", "author", "date")}
    kinds = [0, 0]
    for line in open(args.data / "manifest.jsonl", encoding="utf-8"):
        m = json.loads(line)
        if m["split"] != args.split:
            continue
        path = next((args.data / "html").glob(m["id"] + ".*"))
        raw = path.read_bytes()
        if path.name.endswith(".gz"):
            raw = gzip.decompress(raw)
        try:
            r = rs_trafilatura.extract_bytes(raw, url=m.get("url"))
        except Exception:  # a page the peer cannot read counts as wrong on every field
            r = None
        for k in hit:
            if not m.get(k):
                continue
            hit[k][1] += 1
            v = getattr(r, k, None) if r else None
            if isinstance(v, list):
                v = ", ".join(map(str, v))
            if k == "date":
                ok = str(v or "")[:10] == str(m[k])[:10]
            else:
                ok = words(v) == words(m[k]) and words(v) != ""
            hit[k][0] += ok
        kinds[1] += 1
        kinds[0] += r is not None and r.page_type == m.get("page_type")
    for k, (ok, n) in hit.items():
        print(f"{k}: {ok}/{n} = {ok / n:.3f}" if n else f"{k}: no gold")
    print(f"page_type: {kinds[0]}/{kinds[1]} = {kinds[0] / max(kinds[1], 1):.3f}")


if __name__ == "__main__":
    main()

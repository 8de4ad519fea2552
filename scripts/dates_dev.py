#!/usr/bin/env python3
"""Publication dates on the htmldate set's dev split (issue 62): victor's share right, by
`date_source`, and its misses sorted into error classes. Develop on `dev`; the `test` figure
comes from ../shared/checks/run dates, once.

Usage: dates_dev.py [--victor target/release/victor] [--split dev] [--peer PYTHON] [--list]

A date is right when its first 10 characters equal the gold's YYYY-MM-DD. Each miss gets the
first class that fits, in this order:

  no date, gold on the page    victor gives none; the gold is written on the page or in its URL
  no date, gold not on page    victor gives none; the gold is in no form this script knows
  modification taken           victor's day is a declared modification date (dateModified,
                               article:modified_time, og:updated_time, last-modified) and the
                               gold is another
  URL date ignored             the page's URL or canonical URL holds the gold (/2024/03/05/,
                               2024-03-05, 20240305) and victor took another date
  local format misread         victor's date is the gold with day and month swapped, or the
                               gold's day and month in another year (a two-digit year)
  aside's or quote's date      victor's day is written on the page only inside an element
                               whose class or id names a comment, sidebar, widget, teaser,
                               ticker, related or recent list, a menu, or inside a
                               <blockquote>, <nav>, <aside> (another item's date)
  gold not on the page         victor took a date; the gold is in no form this script knows
  a later date taken           victor's date is later than the gold (an update, the day of
                               the crawl, a newer item)
  an earlier date taken        victor's date is earlier (a date cited in the text, an older
                               item)

--peer runs htmldate (find_date(html, extensive_search=True, original_date=True)) with that
Python on the same pages, for comparison (dev pages only). --list prints every miss.
"""
import argparse, gzip, json, re, subprocess, tempfile
from collections import Counter
from html.parser import HTMLParser
from pathlib import Path

DATA = Path(__file__).resolve().parent.parent.parent / "shared" / "data"

MONTHS = {
    "en": ["january", "february", "march", "april", "may", "june", "july", "august",
           "september", "october", "november", "december"],
    "de": ["januar", "februar", "märz", "april", "mai", "juni", "juli", "august", "september",
           "oktober", "november", "dezember"],
}

ASIDE = re.compile(r"comment|sidebar|widget|teaser|ticker|related|recent|menu|nav|footer|"
                   r"reply|popular|archive|calendar|breaking|trending", re.I)
ASIDE_TAGS = {"blockquote", "nav", "aside"}


def forms(iso):
    """The ways a page may write a day (lowercase)."""
    y, m, d = iso.split("-")
    mi, di = int(m), int(d)
    out = {f"{y}-{m}-{d}", f"{y}/{m}/{d}", f"{y}{m}{d}", f"{d}.{m}.{y}", f"{di}.{mi}.{y}",
           f"{d}.{m}.{y[2:]}", f"{d}/{m}/{y}", f"{m}/{d}/{y}", f"{mi}/{di}/{y}",
           f"{y}/{mi}/{di}/"}
    for names in MONTHS.values():
        n = names[mi - 1]
        out |= {f"{n} {di}, {y}", f"{di} {n} {y}", f"{di}. {n} {y}", f"{d}. {n} {y}",
                f"{n[:3]} {di}, {y}", f"{di} {n[:3]} {y}", f"{di}. {n[:3]}. {y}"}
    return out


def on_page(iso, low):
    return any(f in low for f in forms(iso))


def in_url(iso, url):
    y, m, d = iso.split("-")
    u = (url or "").lower()
    return any(f in u for f in (f"/{y}/{m}/{d}", f"{y}-{m}-{d}", f"{y}{m}{d}",
                                f"/{y}/{int(m)}/{int(d)}/"))


MOD = re.compile(r'(?:datemodified|modified_time|updated_time|last-modified|lastmodified)'
                 r'[^0-9]{0,40}(\d{4}-\d{2}-\d{2})', re.I)


class Where(HTMLParser):
    """Whether each written form of a day lies inside an aside (by the classes and tags of its
    open elements)."""

    def __init__(self, needles):
        super().__init__(convert_charrefs=True)
        self.needles, self.stack, self.hits = needles, [], []

    def handle_starttag(self, tag, attrs):
        if tag in ("br", "img", "meta", "link", "input", "hr", "source", "wbr"):
            return
        a = dict(attrs)
        name = f"{a.get('class') or ''} {a.get('id') or ''}"
        self.stack.append((tag, bool(ASIDE.search(name)) or tag in ASIDE_TAGS))
        dt = (a.get("datetime") or "").lower()
        if any(dt.startswith(n) for n in self.needles):
            self.hits.append(any(s[1] for s in self.stack))

    def handle_endtag(self, tag):
        for k in range(len(self.stack) - 1, -1, -1):
            if self.stack[k][0] == tag:
                del self.stack[k:]
                break

    def handle_data(self, data):
        low = " ".join(data.lower().split())
        if any(n in low for n in self.needles):
            self.hits.append(any(s[1] for s in self.stack))


def only_in_asides(iso, html):
    p = Where(forms(iso))
    try:
        p.feed(html)
    except Exception:
        return False
    return bool(p.hits) and all(p.hits)


def classify(got, gold, html, url, canonical):
    low = html.lower()
    found = on_page(gold, low) or in_url(gold, url)
    if not got:
        return "no date, gold on the page" if found else "no date, gold not on page"
    mods = {m.group(1) for m in MOD.finditer(html)}
    if got in mods and gold not in mods:
        return "modification taken"
    if in_url(gold, url) or in_url(gold, canonical):
        return "URL date ignored"
    gy, gm, gd = gold.split("-")
    y, m, d = got.split("-")
    if (y, m, d) == (gy, gd, gm) or ((m, d) == (gm, gd) and y != gy):
        return "local format misread"
    if only_in_asides(got, html):
        return "aside's or quote's date"
    if not found:
        return "gold not on the page"
    return "a later date taken" if got > gold else "an earlier date taken"


CLASSES = ["no date, gold on the page", "no date, gold not on page", "modification taken",
           "URL date ignored", "local format misread", "aside's or quote's date",
           "gold not on the page", "a later date taken", "an earlier date taken"]

PEER = """
import gzip, json, sys
from htmldate import find_date
out = {}
for line in open(sys.argv[1]):
    pid, path = line.rstrip("\\n").split("\\t")
    html = gzip.open(path).read().decode("utf-8", "replace")
    try:
        out[pid] = find_date(html, extensive_search=True, original_date=True)
    except Exception:
        out[pid] = None
print(json.dumps(out))
"""


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--victor", default="target/release/victor")
    ap.add_argument("--split", default="dev")
    ap.add_argument("--peer", help="a Python with htmldate installed")
    ap.add_argument("--list", action="store_true")
    a = ap.parse_args()
    d = DATA / "htmldate"
    man = {m["id"]: m for m in map(json.loads, open(d / "manifest.jsonl", encoding="utf-8"))
           if m["split"] == a.split}
    with tempfile.NamedTemporaryFile("w", suffix=".list") as lst:
        lst.write("\n".join(str(d / m["html"]) for m in man.values()) + "\n")
        lst.flush()
        out = subprocess.run([a.victor, "label", "-q", "--format", "jsonl-text", "--files-from",
                              lst.name], capture_output=True, text=True, check=True).stdout
    docs = {Path(o["source"]).name.split(".")[0]: o for o in map(json.loads, out.splitlines())}
    right, by_source, right_by_source, classes, misses = 0, Counter(), Counter(), Counter(), []
    for pid, m in man.items():
        o = docs.get(pid, {})
        got, gold = (o.get("date") or "")[:10], m["date"]
        src = o.get("date_source") or "none"
        by_source[src] += 1
        if got == gold:
            right += 1
            right_by_source[src] += 1
            continue
        html = gzip.open(d / m["html"]).read().decode("utf-8", "replace")
        c = classify(got, gold, html, m.get("url"), o.get("canonical"))
        classes[c] += 1
        misses.append((pid, gold, got or "-", src, c, m.get("url", "")))
    n = len(man)
    print(f"htmldate {a.split}: victor {right / n:.3f} ({right}/{n})")
    print("by date_source (right/pages): " + ", ".join(
        f"{s} {right_by_source[s]}/{k}" for s, k in by_source.most_common()))
    print(f"misses by class ({n - right}):")
    for c in CLASSES:
        print(f"  {classes[c]:4d}  {c}")
    if a.list:
        for row in misses:
            print("\t".join(row))
    if a.peer:
        with tempfile.NamedTemporaryFile("w", suffix=".tsv") as t:
            t.write("".join(f"{pid}\t{d / m['html']}\n" for pid, m in man.items()))
            t.flush()
            peer = json.loads(subprocess.run([a.peer, "-c", PEER, t.name], capture_output=True,
                                             text=True, check=True).stdout)
        pr = sum((peer.get(pid) or "")[:10] == m["date"] for pid, m in man.items())
        both = sum((peer.get(pid) or "")[:10] == m["date"] == (docs.get(pid, {}).get("date") or "")[:10]
                   for pid, m in man.items())
        print(f"htmldate (peer) {a.split}: {pr / n:.3f} ({pr}/{n}); both right {both}, "
              f"victor only {right - both}, htmldate only {pr - both}")


if __name__ == "__main__":
    main()

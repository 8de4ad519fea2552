#!/usr/bin/env python3
"""The speed of `victor label` over a WARC file against the same pages as files (issue 37's
goal: the WARC file at no less than 90 % of the files' pages/s).

Writes the shared pages (all five sets by default, 2,961 pages) as one WARC file, gzipped per
record (and optionally uncompressed, or with bodies sent chunked+gzip), then runs
`victor label -q -j 1 --format jsonl-text` (or --jobs N) over the files (`--files-from`) and over each WARC
file in turn, --runs times, alternating, output to /dev/null. Times are the child's CPU time
(user + system, from getrusage): on a machine shared with other work, wall-clock times of the
same run vary by a third, CPU times by a few per cent (the wall-clock medians are printed too).
Prints every run and the medians:

  python scripts/bench_warc.py [--runs 5] [--jobs 1] [--victor target/release/victor] [--plain] [--coded]
"""

import argparse
import resource
import pathlib
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "crates/python/tests"))
from warcs import shared_page_paths, write_warc  # noqa: E402


def cpu() -> float:
    """CPU time (user + system) of the finished children so far."""
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", default=str(ROOT.parent / "shared/data"))
    ap.add_argument("--sets", default="cleaneval,dragnet-train,l3s-gn1,readability-tests,trafilatura-eval")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--jobs", type=int, default=1, help="victor label -j (default 1)")
    ap.add_argument("--victor", action="append", help="binary (repeat to compare binaries); default target/release/victor")
    ap.add_argument("--plain", action="store_true", help="also an uncompressed WARC file")
    ap.add_argument("--coded", action="store_true", help="also a WARC file of bodies sent chunked+gzip")
    ap.add_argument("--dir", help="keep the WARC files here (default: a temporary folder)")
    a = ap.parse_args()
    bins = a.victor or [str(ROOT / "target/release/victor")]
    paths = shared_page_paths(a.data, a.sets.split(","))
    pages = [(f"http://example.org/{p.parent.parent.name}/{p.name}", p.read_bytes()) for p in paths]
    n = len(pages)
    with tempfile.TemporaryDirectory() as tmp:
        d = pathlib.Path(a.dir or tmp)
        d.mkdir(parents=True, exist_ok=True)
        lst = d / "pages.list"
        lst.write_text("".join(f"{p}\n" for p in paths))
        inputs = {"files": ["--files-from", str(lst)]}
        warcs = [("warc.gz", "pages.warc.gz", None)]
        if a.plain:
            warcs.append(("warc", "pages.warc", None))
        if a.coded:
            warcs.append(("warc.gz chunked+gzip", "coded.warc.gz", "chunked+gzip"))
        for name, file, coding in warcs:
            write_warc(d / file, pages, coding=coding)
            inputs[name] = [str(d / file)]
        print(f"{n} pages, {sum(len(b) for _, b in pages) / 1e6:.0f} MB; {a.runs} alternating runs of each, -j {a.jobs}")
        times = {(b, k): [] for b in bins for k in inputs}
        wall = {(b, k): [] for b in bins for k in inputs}
        for r in range(a.runs):
            for b in bins:
                for k, args in inputs.items():
                    t = time.perf_counter()
                    c = cpu()
                    subprocess.run([b, "label", "-q", "-j", str(a.jobs), "--format", "jsonl-text", *args],
                                   stdout=subprocess.DEVNULL, check=True)
                    times[(b, k)].append(cpu() - c)
                    wall[(b, k)].append(time.perf_counter() - t)
            row = "  ".join(f"{k} {times[(b, k)][-1]:.2f}s ({wall[(b, k)][-1]:.2f})" for b in bins for k in inputs)
            print(f"run {r + 1}: {row}", flush=True)
        for b in bins:
            files = statistics.median(times[(b, "files")])
            wfiles = statistics.median(wall[(b, "files")])
            print(f"{b}: files {n / files:.1f} pages/s of CPU time (median {files:.2f} s; wall {wfiles:.2f} s)")
            for k in inputs:
                if k == "files":
                    continue
                med = statistics.median(times[(b, k)])
                wmed = statistics.median(wall[(b, k)])
                ratios = [f / w for f, w in zip(times[(b, "files")], times[(b, k)])]
                print(f"  {k}: {n / med:.1f} pages/s (median {med:.2f} s), {files / med:.0%} of files; "
                      f"run by run {min(ratios):.0%} to {max(ratios):.0%}, median {statistics.median(ratios):.0%}; "
                      f"wall clock {wmed:.2f} s, {wfiles / wmed:.0%} of files")


if __name__ == "__main__":
    main()

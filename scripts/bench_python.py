#!/usr/bin/env python3
"""Speed of victor from Python against resiliparse and trafilatura, and of WARC input against
page files (issue 37's speed goals).

Pages are read into memory first; each tool cleans the same pages in this process, one thread:
  victor.clean(raw bytes)                         (decoding included)
  resiliparse extract_plain_text(main_content=True) on bytes_to_str(raw, detect_encoding(raw))
  trafilatura.extract(raw bytes)                  (on the first --trafilatura-pages pages: slow)
then victor with 2 Python threads sharing one Cleaner (the GIL is released while a page is
cleaned) and Cleaner.clean_many(threads=2); and `victor label -j 1 --format jsonl-text` over the
pages as files and as one gzipped WARC file made from them. Best of --repeat runs each.

  python scripts/bench_python.py [--set l3s-gn1] [--split test] [--victor target/release/victor]
"""

import argparse
import concurrent.futures
import gzip
import json
import pathlib
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]


def best(f, repeat):
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        f()
        times.append(time.perf_counter() - t)
    return min(times)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--set", default="l3s-gn1")
    ap.add_argument("--split", default="test")
    ap.add_argument("--data", default=str(ROOT.parent / "shared/data"))
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--trafilatura-pages", type=int, default=100)
    ap.add_argument("--victor", default=str(ROOT / "target/release/victor"))
    args = ap.parse_args()
    import victor

    d = pathlib.Path(args.data) / args.set
    paths = [d / m["html"] for m in map(json.loads, open(d / "manifest.jsonl")) if m.get("split") == args.split]
    raw = [p.read_bytes() for p in paths]
    n = len(raw)
    print(f"{n} pages of {args.set} {args.split}, {sum(map(len, raw)) / 1e6:.1f} MB")

    c = victor.Cleaner()
    c.clean(raw[0])
    t_victor = best(lambda: [c.clean(r) for r in raw], args.repeat)
    print(f"victor 1 thread:        {n / t_victor:8.1f} pages/s")

    def threads2():
        with concurrent.futures.ThreadPoolExecutor(2) as ex:
            list(ex.map(c.clean, raw))

    t_thr = best(threads2, args.repeat)
    t_many = best(lambda: c.clean_many(raw, threads=2), args.repeat)
    print(f"victor 2 Python threads:{n / t_thr:8.1f} pages/s  ({t_victor / t_thr:.2f}x one thread)")
    print(f"victor clean_many(2):   {n / t_many:8.1f} pages/s  ({t_victor / t_many:.2f}x one thread)")

    try:
        from resiliparse.extract.html2text import extract_plain_text
        from resiliparse.parse.encoding import bytes_to_str, detect_encoding

        def resi():
            for r in raw:
                extract_plain_text(bytes_to_str(r, detect_encoding(r)), main_content=True)

        t_resi = best(resi, args.repeat)
        print(f"resiliparse 1 thread:   {n / t_resi:8.1f} pages/s  (victor {t_resi / t_victor:.2f}x)")
    except ImportError:
        print("resiliparse: not installed (pip install resiliparse)")

    try:
        import trafilatura

        sub = raw[: args.trafilatura_pages]
        t_traf = best(lambda: [trafilatura.extract(r) for r in sub], 1)
        t_vsub = best(lambda: [c.clean(r) for r in sub], args.repeat)
        print(f"trafilatura 1 thread:   {len(sub) / t_traf:8.1f} pages/s  (victor {t_traf / t_vsub:.2f}x, first {len(sub)} pages)")
    except ImportError:
        print("trafilatura: not installed (pip install trafilatura)")

    # WARC against files, through the command line, one thread each.
    with tempfile.TemporaryDirectory() as tmp:
        warc = pathlib.Path(tmp) / "pages.warc.gz"
        sys.path.insert(0, str(ROOT / "crates/python/tests"))
        from warcs import write_warc

        write_warc(warc, [(f"http://example.org/{p.name}", r) for p, r in zip(paths, raw)])
        lst = pathlib.Path(tmp) / "list"
        lst.write_text("\n".join(map(str, paths)) + "\n")
        run = lambda *a: subprocess.run([args.victor, "label", "-q", "-j", "1", "--format", "jsonl-text", *a],
                                        stdout=subprocess.DEVNULL, check=False)
        t_files = best(lambda: run("--files-from", str(lst)), args.repeat)
        t_warc = best(lambda: run(str(warc)), args.repeat)
        print(f"CLI files, 1 thread:    {n / t_files:8.1f} pages/s")
        print(f"CLI WARC.gz, 1 thread:  {n / t_warc:8.1f} pages/s  ({t_files / t_warc:.0%} of files)")


if __name__ == "__main__":
    main()

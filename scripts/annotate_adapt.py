#!/usr/bin/env python3
"""The tables of eval/annotate-adapt.md from the logs of scripts/annotate_adapt.sh.

usage: scripts/annotate_adapt.py [LOG_DIR]   (default work/annotate-adapt)

One row per log (SET-MODEL-ORDER.tsv, crates/annotator/examples/adapt_loop.rs's output):
blocks per page annotated; corrections (marks) per page with the fixed model's pre-labels and
with the loop's, the change, and the paired difference over the pages pre-labelled by an adapted
model (mean and standard error); clicks + keys per page; on the held-out pages, marks per page
with the fixed model and with the model adapted on all the pages annotated.
"""
import glob
import re
import statistics as st
import sys

LINE = r"{}.*?([\d.]+) blocks wrong, ([\d.]+) marks, ([\d.]+) clicks\+keys"


def main():
    logs = sys.argv[1] if len(sys.argv) > 1 else "work/annotate-adapt"
    print("| set, model | order | blocks a page | marks a page: fixed | loop | change | "
          "paired, adapted pages | clicks+keys: fixed | loop | held out, marks: fixed | "
          "adapted on all |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for f in sorted(glob.glob(f"{logs}/*.tsv")):
        name = f.rsplit("/", 1)[-1][:-4]
        m = re.match(r"(.*?)-(given|uncertain|random-\d+)$", name)
        what, order = m.groups()
        txt = open(f, encoding="utf-8").read()

        def grab(pat):
            return tuple(map(float, re.search(LINE.format(pat), txt).groups()))

        fx, lp = grab(r"# per page, fixed model:"), grab(r"# per page, the loop:")
        hf = grab(r"# held out \(\d+ pages\), fixed:")
        ha = grab(r"# held out \(\d+ pages\), adapted on \d+:")
        steps = [l.split("\t") for l in txt.splitlines() if l[:1].isdigit()]
        blocks = st.mean(int(s[2]) for s in steps)
        d = [int(s[8]) - int(s[5]) for s in steps if int(s[3]) > 0]
        se = st.stdev(d) / len(d) ** 0.5
        print(f"| {what} | {order.replace('-', ' ')} | {blocks:.0f} | {fx[1]:.2f} | {lp[1]:.2f} | "
              f"{100 * (lp[1] - fx[1]) / fx[1]:+.1f}% | {st.mean(d):+.2f} ± {se:.2f} | "
              f"{fx[2]:.1f} | {lp[2]:.1f} | {hf[1]:.2f} | {ha[1]:.2f} |")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Size and surface of the workspace's code, for the architecture notes (issue "one home for each
idea"): lines per crate (code, outside tests), the largest files, the longest functions, and the
number of `pub` items per crate (items declared `pub` without a restriction, in src/, outside
`#[cfg(test)]` modules).

    scripts/code_stats.py [--top N] [ROOT]

Function lengths come from brace matching on the source text (strings and comments are skipped
well enough for rustfmt-formatted code), not from a Rust parser."""
import argparse
import re
import sys
from pathlib import Path

FN = re.compile(r"^\s*(?:pub(?:\([^)]*\))?\s+)?(?:const\s+|async\s+|unsafe\s+)*fn\s+(\w+)")
PUB = re.compile(r"^\s*pub\s+(?:fn|struct|enum|trait|type|const|static|mod|use|union)\b")


def strip_tests(lines):
    """The lines outside `#[cfg(test)]` modules (a module is skipped to its closing brace)."""
    out, skip, depth = [], False, 0
    pending = False
    for line in lines:
        if not skip and line.strip() == "#[cfg(test)]":
            pending = True
            continue
        if pending:
            pending = False
            if re.match(r"^\s*mod\s+\w+\s*\{", line):
                skip, depth = True, line.count("{") - line.count("}")
                continue
        if skip:
            depth += line.count("{") - line.count("}")
            if depth <= 0:
                skip = False
            continue
        out.append(line)
    return out


def functions(path, lines):
    """(length, name, path:line) of every function body in `lines`."""
    found = []
    i = 0
    while i < len(lines):
        m = FN.match(lines[i])
        if m:
            depth, started, j = 0, False, i
            while j < len(lines):
                code = re.sub(r'"(?:\\.|[^"\\])*"', '""', lines[j].split("//")[0])
                code = re.sub(r"b?'(?:\\.|[^'\\])'", "' '", code)
                depth += code.count("{") - code.count("}")
                if "{" in code:
                    started = True
                if started and depth <= 0:
                    break
                if not started and code.rstrip().endswith(";"):
                    break
                j += 1
            if started:
                found.append((j - i + 1, m.group(1), f"{path}:{i + 1}"))
        i += 1
    return found


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("root", nargs="?", default=Path(__file__).resolve().parent.parent, type=Path)
    ap.add_argument("--top", type=int, default=10)
    a = ap.parse_args()
    crates = sorted(p.parent for p in (a.root / "crates").glob("*/Cargo.toml"))
    files, funcs = [], []
    print("| crate | files | lines (src, no tests) | pub items |")
    print("|---|---:|---:|---:|")
    total = [0, 0, 0]
    for c in crates:
        n_files = n_lines = n_pub = 0
        for f in sorted((c / "src").rglob("*.rs")):
            lines = strip_tests(f.read_text(encoding="utf-8").split("\n"))
            rel = f.relative_to(a.root)
            n_files += 1
            n_lines += len(lines)
            n_pub += sum(1 for l in lines if PUB.match(l))
            files.append((len(lines), str(rel)))
            funcs += functions(rel, lines)
        total = [total[0] + n_files, total[1] + n_lines, total[2] + n_pub]
        print(f"| {c.name} | {n_files} | {n_lines:,} | {n_pub} |")
    print(f"| all | {total[0]} | {total[1]:,} | {total[2]} |")
    print(f"\nLargest files (lines, no tests):\n")
    for n, f in sorted(files, reverse=True)[: a.top]:
        print(f"- {f}: {n:,}")
    print(f"\nLongest functions (lines):\n")
    for n, name, where in sorted(funcs, reverse=True)[: a.top]:
        print(f"- `{name}` ({where}): {n}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

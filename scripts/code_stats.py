#!/usr/bin/env python3
"""Size and surface of the workspace's code, for the architecture notes (issue "one home for each
idea"): lines per crate (code, outside tests), the largest files, the longest functions, and the
number of `pub` items per crate (items declared `pub` without a restriction, in src/, outside
`#[cfg(test)]` modules), and the circles of files: files of one crate that reach each other
through `use` and `crate::`/`super::`/`self::` paths (a module and its own submodules count as one
unit, so `mod.rs` and its children do not make a circle).

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


USE_PATH = re.compile(r"\b((?:crate|super|self)(?:::\w+)+)")
USE = re.compile(r"^\s*(?:pub(?:\([^)]*\))?\s+)?use\s+([^;]*);", re.S | re.M)


def module_of(src, f):
    parts = list(f.relative_to(src).with_suffix("").parts)
    if parts[-1] in ("mod", "lib", "main"):
        parts = parts[:-1]
    return tuple(parts)


def expand(tree):
    """The paths of a use tree (`a::{b, c::{d, e}}` -> a::b, a::c::d, a::c::e)."""
    tree = re.sub(r"\s+", "", tree)
    i = tree.find("{")
    if i < 0:
        return [tree]
    prefix, depth, items, cur = tree[:i], 0, [], ""
    for ch in tree[i + 1 : tree.rfind("}")]:
        if ch == "," and depth == 0:
            items.append(cur)
            cur = ""
            continue
        depth += ch == "{"
        depth -= ch == "}"
        cur += ch
    items.append(cur)
    return [p for it in items if it for p in expand(prefix + it)]


def file_edges(src, files, strip):
    mods = {module_of(src, f): f for f in files}
    edges = {f: set() for f in files}
    for f in files:
        me = module_of(src, f)
        text = "\n".join(strip(f.read_text(encoding="utf-8").split("\n")))
        text = re.sub(r"//[^\n]*", "", text)
        paths = []
        for m in USE.finditer(text):
            paths += expand(m.group(1))
        paths += [m.group(1) for m in USE_PATH.finditer(text)]
        for p in paths:
            segs = [s.split(" as ")[0] for s in p.split("::")]
            base = list(me)
            if segs[0] == "crate":
                base, segs = [], segs[1:]
            elif segs[0] in ("super", "self"):
                while segs and segs[0] in ("super", "self"):
                    if segs[0] == "super" and base:
                        base.pop()
                    segs = segs[1:]
            elif tuple(me + (segs[0],)) in mods:
                pass
            else:
                continue
            full = tuple(base + segs)
            while full and full not in mods:
                full = full[:-1]
            if full not in mods:
                continue
            # A module and its own submodules are one unit: edges between them do not count.
            if full[: len(me)] == me or me[: len(full)] == full:
                continue
            edges[f].add(mods[full])
    return edges


def circles(src, files, strip):
    """Strongly connected components of more than one file."""
    edges = file_edges(src, files, strip)
    index, low, stack, on, out, n = {}, {}, [], set(), [], [0]

    def visit(v):
        index[v] = low[v] = n[0]
        n[0] += 1
        stack.append(v)
        on.add(v)
        for w in edges[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in files:
        if v not in index:
            visit(v)
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("root", nargs="?", default=Path(__file__).resolve().parent.parent, type=Path)
    ap.add_argument("--top", type=int, default=10)
    a = ap.parse_args()
    crates = sorted(p.parent for p in (a.root / "crates").glob("*/Cargo.toml"))
    files, funcs, loops = [], [], []
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
        src = c / "src"
        for comp in circles(src, sorted(src.rglob("*.rs")), strip_tests):
            loops.append(f"{c.name}: " + " <-> ".join(str(f.relative_to(src)) for f in comp))
        total = [total[0] + n_files, total[1] + n_lines, total[2] + n_pub]
        print(f"| {c.name} | {n_files} | {n_lines:,} | {n_pub} |")
    print(f"| all | {total[0]} | {total[1]:,} | {total[2]} |")
    print(f"\nLargest files (lines, no tests):\n")
    for n, f in sorted(files, reverse=True)[: a.top]:
        print(f"- {f}: {n:,}")
    print(f"\nLongest functions (lines):\n")
    for n, name, where in sorted(funcs, reverse=True)[: a.top]:
        print(f"- `{name}` ({where}): {n}")
    print(f"\nCircles of files: {len(loops) or 'none'}\n")
    for l in loops:
        print(f"- {l}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

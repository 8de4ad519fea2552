#!/usr/bin/env python3
"""Print the size measures of issue 69 item 4 and the dependency rule of item 2.

Run from the project root: `python3 scripts/sizes.py`. It reads files as text:
- source files over 1,000 lines (crates/*/src, any .rs);
- functions over 100 lines outside tests (`tests/` folders, `tests.rs`/`tests/*.rs` files and
  `#[cfg(test)]` modules left out): a `fn` line to the line that closes its brace at the same indent;
- the CLI's `src` lines and the README's lines;
- exact duplicate runs outside tests, from the workplace's `duplicates` command when it is on PATH;
- the inner `victor-*` crates `crates/cli` and `crates/python` depend on (the rule: none).
"""
import pathlib
import re
import shutil
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
FN = re.compile(r"^(\s*)(pub(\([^)]*\))?\s+)?(const\s+)?(async\s+)?(unsafe\s+)?(extern\s+\"[^\"]*\"\s+)?fn\s+(\w+)")


def is_test_path(p):
    parts = p.relative_to(ROOT).parts
    return "tests" in parts or p.name == "tests.rs" or "benches" in parts


def sources():
    return sorted(p for p in (ROOT / "crates").rglob("*.rs") if "target" not in p.parts)


def long_functions(path):
    lines = path.read_text(errors="replace").splitlines()
    out, skip_to = [], -1
    for i, line in enumerate(lines):
        if i <= skip_to:
            continue
        if line.strip().startswith("#[cfg(test)]"):
            # skip the item that follows (a test module), by its closing brace at its indent
            j = i + 1
            while j < len(lines) and not lines[j].strip():
                j += 1
            if j < len(lines):
                indent = len(lines[j]) - len(lines[j].lstrip())
                if lines[j].rstrip().endswith(";"):
                    skip_to = j
                    continue
                k = j + 1
                while k < len(lines) and not (lines[k].startswith(" " * indent + "}") and len(lines[k]) - len(lines[k].lstrip()) == indent):
                    k += 1
                skip_to = k
            continue
        m = FN.match(line)
        if not m:
            continue
        indent = m.group(1)
        # a declaration without a body (trait method) ends with `;` before any `{`
        j = i
        while j < len(lines) and "{" not in lines[j] and not lines[j].rstrip().endswith(";"):
            j += 1
        if j >= len(lines) or "{" not in lines[j]:
            continue
        if lines[j].rstrip().endswith("}") and lines[j].count("{") == lines[j].count("}"):
            continue
        k = j + 1
        while k < len(lines) and not (lines[k].startswith(indent + "}") and len(lines[k]) - len(lines[k].lstrip()) == len(indent)):
            k += 1
        n = k - i + 1
        if n > 100:
            out.append((n, f"{path.relative_to(ROOT)}:{i + 1} {m.group(8)}"))
    return out


def duplicate_runs():
    if not shutil.which("duplicates"):
        return None
    r = subprocess.run(["duplicates", "--repo", str(ROOT / "crates"), "--most", "200", "--seconds", "120"],
                       capture_output=True, text=True)
    rows = []
    for line in r.stdout.splitlines():
        m = re.match(r"D\d+ (\S+):\d+-\d+ ~ (\S+):\d+-\d+(.*)", line)
        if not m or "shape" in m.group(3):
            continue
        a, b = (ROOT / "crates" / m.group(1)), (ROOT / "crates" / m.group(2))
        if is_test_path(a) or is_test_path(b):
            continue
        rows.append(line)
    return rows


def inner_deps(crate):
    text = (ROOT / "crates" / crate / "Cargo.toml").read_text()
    deps = text.split("[dependencies]", 1)[1].split("\n[", 1)[0]
    return sorted(set(re.findall(r"^(victor-[\w-]+)", deps, re.M)))


def main():
    srcs = [p for p in sources() if not is_test_path(p)]
    big = [(len(p.read_text(errors="replace").splitlines()), p) for p in srcs]
    big = sorted([b for b in big if b[0] > 1000], reverse=True)
    print(f"source files over 1,000 lines: {len(big)}")
    for n, p in big:
        print(f"  {n:5} {p.relative_to(ROOT)}")
    fns = sorted((f for p in srcs for f in long_functions(p)), reverse=True)
    print(f"functions over 100 lines outside tests: {len(fns)} (rule: at most 10)")
    for n, where in fns:
        print(f"  {n:5} {where}")
    cli = sum(len(p.read_text().splitlines()) for p in (ROOT / "crates/cli/src").rglob("*.rs"))
    print(f"crates/cli/src lines: {cli} (rule: at most 5,000)")
    print(f"README.md lines: {len((ROOT / 'README.md').read_text().splitlines())} (rule: at most 350)")
    dups = duplicate_runs()
    if dups is None:
        print("exact duplicate runs outside tests: not measured (no `duplicates` on PATH)")
    else:
        print(f"exact duplicate runs outside tests: {len(dups)} (rule: at most 2)")
        for d in dups:
            print(f"  {d}")
    for crate in ("cli", "python"):
        d = inner_deps(crate)
        print(f"crates/{crate} inner victor-* dependencies: {', '.join(d) if d else 'none'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

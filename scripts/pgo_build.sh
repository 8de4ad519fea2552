#!/usr/bin/env bash
# A profile-guided (PGO) release build of the `victor` binary and of the Python wheel: the compiler
# lays out and inlines the code by how often each branch runs on real pages. On the shared pages it
# runs the whole pipeline about 3-7 % faster than `cargo build --release` (eval/SPEED.md, "Stop 46"),
# with the same outputs byte for byte: PGO changes how the code is compiled, not what it computes.
#
#   scripts/pgo_build.sh [--pages LIST] [--out DIR]
#
# LIST: a file with one HTML page path a line to profile on; pick pages like the ones you will clean
# (the default: the dev splits of every set in ../shared/data). DIR (default the repository's
# dist/pgo) receives
# `victor` and `victor-*.whl` (install with `pip install --force-reinstall DIR/victor-*.whl`).
#
# Steps: an instrumented build of both (rustc -Cprofile-generate), a run of both over the pages
# (`victor label`, and `victor.Cleaner.clean` / `.label` from Python), llvm-profdata merge, then
# an optimised build of both with the merged profile (-Cprofile-use). Four release builds: about
# 15 minutes on 2 cores. Needs rustup's llvm-tools component (added here if missing), python3 and
# PyPI for maturin. Build trees go to target/pgo/, apart from target/release.
set -euo pipefail
caller=$PWD
cd "$(dirname "$0")/.."
root=$PWD
pages=""
out=""
while [ $# -gt 0 ]; do
  case "$1" in
    --pages) pages=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    -h|--help) sed -n '2,18p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "pgo_build.sh: unknown argument $1 (see --help)" >&2; exit 2 ;;
  esac
done

work=$root/target/pgo
case "$out" in "") out=$root/dist/pgo ;; /*) ;; *) out=$caller/$out ;; esac
mkdir -p "$work" "$out"
list=$work/pages.txt
if [ -n "$pages" ]; then
  case "$pages" in /*) ;; *) pages=$caller/$pages ;; esac
  [ -s "$pages" ] || { echo "pgo_build.sh: no pages in $pages" >&2; exit 2; }
  # Paths in the list are relative to where the script was called from.
  while IFS= read -r p; do
    case "$p" in ''|/*) echo "$p" ;; *) echo "$caller/$p" ;; esac
  done < "$pages" | grep -v '^$' > "$list"
else
  data=${VICTOR_DATA:-../shared/data}
  [ -d "$data" ] || { echo "pgo_build.sh: no $data; name pages to profile on with --pages LIST" >&2; exit 2; }
  # The dev split of every set: its manifest.jsonl or snippets.jsonl says each page's split.
  python3 - "$data" > "$list" <<'PY'
import json, pathlib, sys
for d in sorted(pathlib.Path(sys.argv[1]).iterdir()):
    for name in ("manifest.jsonl", "snippets.jsonl"):
        if (d / name).is_file():
            for line in open(d / name, encoding="utf-8"):
                m = json.loads(line)
                if m.get("split") == "dev" and m.get("html"):
                    print(d / m["html"])
            break
PY
fi
echo "pgo_build.sh: profiling on $(wc -l < "$list") pages" >&2

host=$(rustc -vV | sed -n 's/^host: //p')
profdata=$(rustc --print sysroot)/lib/rustlib/$host/bin/llvm-profdata
if [ ! -x "$profdata" ]; then
  rustup component add llvm-tools
fi

venv=$work/venv
[ -x "$venv/bin/maturin" ] || { python3 -m venv "$venv" && "$venv/bin/pip" install -q maturin; }

# `--target` names the host explicitly so that RUSTFLAGS reach the target's code only: build
# scripts and proc macros are neither instrumented nor optimised with the profile.
build() { # build TARGET_DIR WHEEL_DIR RUSTFLAGS...
  local dir=$1 wheels=$2
  shift 2
  RUSTFLAGS="$*" cargo build --release --locked --bin victor --target "$host" --target-dir "$dir"
  rm -rf "$wheels"
  RUSTFLAGS="$*" "$venv/bin/maturin" build --release --locked -q -m crates/python/Cargo.toml \
    --target "$host" --target-dir "$dir" -o "$wheels"
}

raw=$work/raw
rm -rf "$raw"
build "$work/gen" "$work/wheel-gen" "-Cprofile-generate=$raw"
gen=$work/gen/$host/release/victor
"$gen" label -q --jobs 1 --format text --files-from "$list" > /dev/null
"$gen" label -q --jobs 1 --format jsonl --files-from "$list" > /dev/null
"$venv/bin/pip" install -q --force-reinstall "$work"/wheel-gen/victor-*.whl
"$venv/bin/python" - "$list" <<'PY'
import sys, victor
c = victor.Cleaner()
for path in open(sys.argv[1], encoding="utf-8").read().splitlines():
    html = open(path, "rb").read()
    c.clean(html)
    c.label(html)
PY
"$profdata" merge -o "$work/victor.profdata" "$raw"

build "$work/use" "$work/wheel" "-Cprofile-use=$work/victor.profdata"
cp "$work/use/$host/release/victor" "$out/victor"
rm -f "$out"/victor-*.whl
cp "$work"/wheel/victor-*.whl "$out/"
echo "pgo_build.sh: $out/victor and $(ls "$out"/victor-*.whl)" >&2

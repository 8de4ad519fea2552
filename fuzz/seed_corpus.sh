#!/usr/bin/env bash
# Seeds fuzz/corpus/segment/ with real pages for `cargo fuzz run segment`: the example pages and
# up to N pages (default 300) of each shared data set, each cut to 12 KB (libFuzzer's -max_len
# below keeps inputs that size; longer seeds only slow it down). Run from the repository root:
#   bash fuzz/seed_corpus.sh [N] [DATA]      # DATA defaults to ../shared/data
# The corpus stays out of git (.gitignore).
set -euo pipefail
n=${1:-300}
data=${2:-../shared/data}
out=fuzz/corpus/segment
mkdir -p "$out"
seed() { head -c 12288 "$1" > "$out/$(basename "$(dirname "$(dirname "$1")")")-$(basename "$1")"; }
for p in annotations/examples/pages/*.html; do head -c 12288 "$p" > "$out/examples-$(basename "$p")"; done
if [ -d "$data" ]; then
  for set in "$data"/*/; do
    [ -f "$set/manifest.jsonl" ] || continue
    python3 - "$set" "$n" <<'PY' | while read -r p; do seed "$p"; done
import json, pathlib, sys
d, n = pathlib.Path(sys.argv[1]), int(sys.argv[2])
for i, l in enumerate(open(d / "manifest.jsonl")):
    if i >= n: break
    p = d / json.loads(l)["html"]
    if p.is_file(): print(p)
PY
  done
else
  echo "seed_corpus: no $data: the corpus holds the example pages only" >&2
fi
echo "seed_corpus: $(ls "$out" | wc -l) inputs in $out"

#!/usr/bin/env bash
# Digests of victor's outputs on every shared page, one line per model bundle and format, so that a
# change meant to keep outputs the same (a refactor, a speed-up) can be checked byte for byte:
#
#   scripts/output_digest.sh > before.txt      # on the old commit
#   scripts/output_digest.sh > after.txt       # on the new one
#   diff before.txt after.txt                  # no output: nothing changed
#
# Outputs: `victor label --format jsonl` (blocks, labels and every marginal to the last digit) and
# `--format text`, for every bundle in models/ (or those named as arguments), over every HTML page
# of ../shared/data (or $VICTOR_DATA). VICTOR=path picks the binary (default: a release build).
set -euo pipefail
cd "$(dirname "$0")/.."
data=${VICTOR_DATA:-../shared/data}
[ -d "$data" ] || { echo "output_digest.sh: no data folder $data (set VICTOR_DATA)" >&2; exit 2; }
if [ -z "${VICTOR:-}" ]; then
  cargo build --release -q --bin victor
  VICTOR=target/release/victor
fi
list=$(mktemp); trap 'rm -f "$list"' EXIT
find -L "$data" -path '*/html/*' \( -name '*.html' -o -name '*.htm' -o -name '*.html.gz' \) | sort > "$list"
bundles=("$@")
if [ ${#bundles[@]} -eq 0 ]; then
  for b in models/*/victor.json; do bundles+=("$(basename "$(dirname "$b")")"); done
fi
echo "# $(wc -l < "$list") pages of $data"
for b in "${bundles[@]}"; do
  for f in jsonl text; do
    d=$("$VICTOR" label -q --model "models/$b" --format "$f" --jobs 2 --files-from "$list" | sha256sum | cut -c1-16)
    echo "$b $f $d"
  done
done

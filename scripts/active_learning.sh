#!/bin/sh
# Does annotating in uncertainty order pay? Learning curves of `victor cv` on CleanEval's dev
# pages (the pool; their gold plays the annotator) with the pages of each fold entering in
# uncertainty order (ranked by models/web, which never saw CleanEval) and in three random
# orders, over the same five folds; then scripts/active_learning.py makes the table.
# Needs `target/release/victor` and the imported dev pages:
#   target/release/victor import --from cleaneval ../shared/data/cleaneval --out work/dev-import/cleaneval --split dev
# About 3 minutes of CPU per curve (parallel trainer, no trees).
set -e
V=${VICTOR:-target/release/victor}
OUT=${OUT:-eval/active-learning}
SHARES=${SHARES:-0.05,0.1,0.2,0.4,0.7,1}
mkdir -p "$OUT"
cv() {
  nice -n 15 "$V" cv work/dev-import/cleaneval --folds 5 --seed 1 --c2 10 \
    --config templates/features-all-text.json --template templates/all-text.tpl \
    --learning-curve "$SHARES" -q "$@"
}
cv --curve-order uncertain --model models/web --csv "$OUT/uncertain.csv" > "$OUT/uncertain.txt"
for s in 1 2 3; do
  cv --curve-order random --curve-seed "$s" --csv "$OUT/random-$s.csv" > "$OUT/random-$s.txt"
done
python3 scripts/active_learning.py "$OUT"

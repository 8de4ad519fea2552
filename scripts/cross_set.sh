#!/usr/bin/env bash
# Cross-set figures for choosing the default bundle (models/README.md, "Which bundle is the
# default"), on dev pages only:
#   1. every shipped single-set bundle labels the dev pages of the other sets;
#   2. leave one set out: a bundle trained on the dev pages of two sets labels the third's
#      (Viterbi, T 0.7, T 0.8).
# Prints one line per (model, set, decoding): text-level macro P, R, F1.
#
#   scripts/cross_set.sh            # about 30 min on 2 cores (three trainings)
#
# Environment: DATA (default ../shared/data), WORK (imported dev sets and the pooled bundles,
# default work/dev-import, as scripts/train_models.sh makes them).
set -euo pipefail
cd "$(dirname "$0")/.."
DATA=${DATA:-../shared/data}
WORK=${WORK:-work/dev-import}
[ -d "$DATA/l3s-gn1" ] || { echo "no gold standards at $DATA (set DATA=...)" >&2; exit 1; }
cargo build --release --bin victor
V=target/release/victor
for s in l3s-gn1:l3s-gn1 cleaneval:cleaneval dragnet-train:text; do
  set=${s%%:*}
  [ -f "$WORK/$set/set.json" ] || "$V" import --from "${s##*:}" "$DATA/$set" --out "$WORK/$set" --split dev
done

score() { # model set [decoding options]
  local m=$1 set=$2
  shift 2
  printf '%-40s %-14s %-16s %s\n' "$m" "$set" "${*:-recommended}" \
    "$("$V" eval --model "$m" "$DATA/$set" --split dev -q "$@" 2>/dev/null \
       | awk -v s="$set" '$1 == s && $2 == "file" {print "P " $4 "  R " $5 "  F1 " $6}')"
}

echo "== single-set bundles on the other sets' dev pages"
for pair in news:cleaneval news:dragnet-train article:l3s-gn1 article:cleaneval \
            corpus:l3s-gn1 corpus:dragnet-train; do
  score "${pair%%:*}" "${pair##*:}"
done

echo "== leave one set out"
for trio in "l3s-gn1 cleaneval dragnet-train" "l3s-gn1 dragnet-train cleaneval" \
            "cleaneval dragnet-train l3s-gn1"; do
  set -- $trio
  out=$WORK/pooled-$1+$2
  [ -f "$out/victor.json" ] || /usr/bin/time -v "$V" train "$WORK/$1" "$WORK/$2" --out "$out" \
    --c2 10 --threshold-folds 0 -q 2> "$out.log"
  for t in "--viterbi" "--threshold 0.7" "--threshold 0.8"; do
    score "$out" "$3" $t
  done
done

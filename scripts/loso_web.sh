#!/usr/bin/env bash
# Leave one set out, the `web` recipe: for each of the five sets the default is trained on
# (dragnet-train, l3s-gn1, readability-tests, trafilatura-eval's snippet pages, wcxb), a bundle
# trained on the dev pages of the other four labels the held-out set's dev pages; and, to show
# what wcxb brings to sets it does not belong to, the same without wcxb. CleanEval, in no web
# training set, is scored by every bundle. Dev pages only (eval/wcxb.md, "Leave one set out").
#
#   scripts/loso_web.sh              # nine trainings, about 40 min on 2 cores
#
# Prints, per bundle, the lines of scripts/modern_eval.py --split dev (text-level macro F1 of
# ../shared/checks/score.py; trafilatura-eval: snippet F1) and WCXB's measure per page type on
# wcxb dev (scripts/compare.py's scorer through `victor eval --group-by page_type`, within .001).
# Decoding: expected-F1 with the recipe's calibration (the bundles have no cross-validation).
# Environment: DATA, WORK (as scripts/train_models.sh: the imported dev sets; the bundles go to
# $WORK/loso), VICTOR (a release binary; built if unset).
set -euo pipefail
cd "$(dirname "$0")/.."
DATA=${DATA:-../shared/data}
WORK=${WORK:-work/dev-import}
if [ -n "${VICTOR:-}" ]; then
  V=$VICTOR
else
  cargo build --release --bin victor
  V=target/release/victor
fi
SETS=(dragnet-train l3s-gn1 readability-tests trafilatura-eval-snippets wcxb)
for s in "${SETS[@]}"; do
  [ -f "$WORK/$s/set.json" ] || { echo "no $WORK/$s: run scripts/train_models.sh web first" >&2; exit 1; }
done
# The recipe's options, as scripts/train_models.sh gives them.
read -r -a OPTS <<< "$(sed -n 's/^WEB_OPTS=(\(.*\))$/\1/p' scripts/train_models.sh)"
mkdir -p "$WORK/loso"

train() { # out set...
  local out=$1
  shift
  [ -f "$out/victor.json" ] && return 0
  # The recipe's --set-weight options for sets left out of this training are dropped.
  local opts=() i=0
  while [ $i -lt ${#OPTS[@]} ]; do
    if [ "${OPTS[$i]}" = --set-weight ] && [[ " $* " != *"/${OPTS[$((i + 1))]%%=*} "* ]]; then
      i=$((i + 2)); continue
    fi
    opts+=("${OPTS[$i]}"); i=$((i + 1))
  done
  /usr/bin/time -f "%e s wall, %U s user, %M KB" "$V" train "$@" --out "$out" --threshold-folds 0 \
    -q "${opts[@]}" 2> "$out.log" > /dev/null
}

score() { # bundle held-out set
  local m=$1 held=$2
  echo "== $m (held out: $held)"
  python3 scripts/modern_eval.py --victor "$V" --split dev --model "$m" --label-args=--expected-f1 \
    | grep -v '^#'
  "$V" eval --model "$m" "$DATA/wcxb" --split dev --expected-f1 --group-by page_type -q \
    | awk '/^wcxb/ && $2 ~ /^[a-z]/ && $2 != "file" {print "wcxb " $2 " " $3 " pages F1 " $6 " F1<.5 " $NF}
           /^wcxb +file/ {print "wcxb all " $3 " pages F1 " $6 " F1<.5 " $NF}'
}

for held in "${SETS[@]}"; do
  rest=()
  for s in "${SETS[@]}"; do [ "$s" = "$held" ] || rest+=("$WORK/$s"); done
  train "$WORK/loso/without-$held" "${rest[@]}"
  score "$WORK/loso/without-$held" "$held"
  if [ "$held" != wcxb ]; then
    norest=()
    for r in "${rest[@]}"; do [ "$r" = "$WORK/wcxb" ] || norest+=("$r"); done
    train "$WORK/loso/without-$held-and-wcxb" "${norest[@]}"
    score "$WORK/loso/without-$held-and-wcxb" "$held"
  fi
done

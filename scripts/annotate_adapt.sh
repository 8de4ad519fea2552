#!/bin/sh
# Does `victor annotate --adapt` save effort? The annotation loop simulated with gold as the
# annotator (crates/annotator/examples/adapt_loop.rs) on dev pages only: the first PAGES pages
# of the pool in each order (given = by id, uncertain, three random seeds), a model adapted every
# EVERY saved pages; every 4th dev page by id is held out and scored at the end (the fixed model
# and the model adapted on the PAGES pages). One log per run in OUT, the table in
# eval/annotate-adapt.md is read from their last lines. Needs the imported dev pages:
#   target/release/victor import --from cleaneval ../shared/data/cleaneval --split dev --out work/dev-import/cleaneval
#   target/release/victor import --from text ../shared/data/dragnet-train --split dev --out work/dev-import/dragnet-train
# A few seconds to a minute per run on two cores.
set -e
CE=${CE:-work/dev-import/cleaneval}
DN=${DN:-work/dev-import/dragnet-train}
OUT=${OUT:-work/annotate-adapt}
PAGES=${PAGES:-50}
EVERY=${EVERY:-5}
cargo build --release -p victor-annotator --example adapt_loop
mkdir -p "$OUT"
run() { # NAME SET MODEL
  for order in given uncertain random:1 random:2 random:3; do
    nice -n 10 target/release/examples/adapt_loop "$2" "$3" --pages "$PAGES" --every "$EVERY" \
      --held-out 4 --order "$order" > "$OUT/$1-$(echo "$order" | tr : -).tsv"
  done
}
run cleaneval-web "$CE" models/web
run dragnet-corpus "$DN" models/corpus
run dragnet-web "$DN" models/web
python3 scripts/annotate_adapt.py "$OUT"

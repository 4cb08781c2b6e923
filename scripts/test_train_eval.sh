#!/usr/bin/env bash
# The test of scripts/train-eval.sh on a tiny corpus (4 freestyle and 4 renju games at 400 nodes
# a move, the first 12 games of each file of anchor-games): the same build gives the same
# corpora and the same model, byte for byte (the SHA-256 lines of eval.sha256), whether the
# games run two at a time in one call or one at a time over two calls, the second resuming the
# corpora of the first. This is how the committed model is checked too: the full run's
# eval.sha256 is crates/engine/weights/eval.sha256, compared by `train-eval.sh --check`.
# usage: scripts/test_train_eval.sh [GOMOKU_BINARY]   (default target/release/gomoku)
set -euo pipefail
cd "$(dirname "$0")/.."
bin=$(realpath "${1:-target/release/gomoku}")
[ -x "$bin" ] || { echo "test_train_eval.sh: no binary $bin (cargo build --release)" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/anchor"
for f in crates/engine/weights/anchor-games/*.txt; do
  head -n 12 "$f" > "$tmp/anchor/$(basename "$f")"
done
run() { # DIR GAMES CONCURRENCY
  GOMOKU_BIN=$bin scripts/train-eval.sh --games "$2" --renju-games "$2" --nodes 400 \
    --concurrency "$3" --dir "$tmp/$1" --anchor "$tmp/anchor" --out "$tmp/$1/eval.bin" \
    > "$tmp/$1.log" 2>&1 || { cat "$tmp/$1.log" >&2; exit 1; }
}
run together 4 2
run resumed 2 1
run resumed 4 1
for f in together resumed; do
  [ "$(grep -c . "$tmp/$f/freestyle-11.txt")" = 4 ] && [ "$(grep -c . "$tmp/$f/renju-12.txt")" = 4 ] \
    || { echo "test_train_eval.sh: $f: the corpora do not hold 4 games each" >&2; exit 1; }
done
if ! diff -u "$tmp/together/eval.sha256" "$tmp/resumed/eval.sha256"; then
  echo "test_train_eval.sh: FAIL: the two runs differ" >&2
  exit 1
fi
echo "test_train_eval.sh: ok: $(wc -l < "$tmp/together/eval.sha256") hashes agree" \
  "(model $(cut -c1-16 "$tmp/together/eval.sha256" | tail -n 1)...)"

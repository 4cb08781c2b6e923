#!/usr/bin/env bash
# Strength check of issue 3: the engine at 100 ms per move against a plain depth-2 alpha-beta
# over the same board and evaluation, 20 games: 10 varied freestyle openings, each played with
# both colours. Prints the match summary and fails unless the engine wins all 20.
# Usage: scripts/strength-check.sh [EXTRA gomoku match ARGS...]
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --locked -q
out=$(target/release/gomoku match --no-progress --json \
  --p1 pvs --p2 "search=alphabeta,eval=pattern,depth=2" \
  --time-ms 100 --games 20 \
  --openings crates/app/tests/data/openings-freestyle15.txt "$@")
summary=$(echo "$out" | tail -n 1)
field() { echo "$summary" | sed -E "s/.*\"$1\":([0-9]+).*/\1/"; }
wins=$(field wins); losses=$(field losses); draws=$(field draws); games=$(field games)
echo "engine (pvs, 100 ms/move) vs alpha-beta depth 2: $wins wins, $losses losses, $draws draws in $games games"
[ "$wins" = 20 ] && [ "$games" = 20 ]

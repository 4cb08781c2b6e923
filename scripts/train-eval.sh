#!/usr/bin/env bash
# Regenerates the learned evaluation, crates/engine/weights/eval.bin: self-play corpora for
# freestyle, standard and renju at a fixed node budget from random balanced openings,
# `gomoku train` on them, then every rule trained further with the results of the games played
# against Rapfi (crates/engine/weights/anchor-games). Every step is deterministic (seeds, game
# numbers, node budgets, one game per thread), so the same build of `gomoku` makes the same
# corpora and the same model, byte for byte, whatever the concurrency and however often the
# corpus was resumed. The run ends by writing the SHA-256 of its corpora, its anchor games and
# its model to DIR/eval.sha256; crates/engine/weights/eval.sha256 is that file for the
# committed model, and `--check` compares the run's hashes with it.
#
# usage: scripts/train-eval.sh [--games N] [--renju-games N] [--standard-games N] [--nodes N]
#                               [--concurrency N] [--dir DIR] [--anchor DIR] [--out FILE]
#                               [--check]
#   --games N           freestyle games (default 2347; about 40 positions each)
#   --renju-games N     renju games (default 7000)
#   --standard-games N  standard games (default 0: standard trains on the freestyle games,
#                       replayed under its own rule; the rules differ only in overlines)
#   --nodes N        nodes per move (default 20000)
#   --concurrency N  games at once (default 2: one per core)
#   --dir DIR        where the corpora go (default target/corpus); existing files are kept
#                    and only the missing games are played
#   --anchor DIR     the games against Rapfi (default crates/engine/weights/anchor-games)
#   --out FILE       the model (default crates/engine/weights/eval.bin)
#   --check          fail unless the hashes equal crates/engine/weights/eval.sha256
# GOMOKU_BIN=PATH uses that gomoku binary instead of building target/release/gomoku.
# Then rebuild (`cargo build --release`) and measure the new build against the old one and
# against Rapfi before committing the model (docs/engine.md, "Training the evaluation").
set -euo pipefail
cd "$(dirname "$0")/.."
games=2347 renju_games=7000 standard_games=0 nodes=20000 conc=2 dir=target/corpus
anchor=crates/engine/weights/anchor-games model=crates/engine/weights/eval.bin check=0
while [ $# -gt 0 ]; do
  case $1 in
    --games) games=$2; shift 2 ;;
    --renju-games) renju_games=$2; shift 2 ;;
    --standard-games) standard_games=$2; shift 2 ;;
    --nodes) nodes=$2; shift 2 ;;
    --concurrency) conc=$2; shift 2 ;;
    --dir) dir=$2; shift 2 ;;
    --anchor) anchor=$2; shift 2 ;;
    --out) model=$2; shift 2 ;;
    --check) check=1; shift ;;
    -h|--help) sed -n '2,/^set -euo/{/^#/p}' "$0"; exit 0 ;;
    *) echo "train-eval.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
if [ -n "${GOMOKU_BIN:-}" ]; then
  gomoku=$GOMOKU_BIN
else
  cargo build --release --locked
  gomoku=target/release/gomoku
fi
mkdir -p "$dir"
files=() renju_files=()
for rule in freestyle standard renju; do
  case $rule in
    freestyle) seed=11 want=$games ;;
    standard) seed=13 want=$standard_games ;;
    renju) seed=12 want=$renju_games ;;
  esac
  [ "$want" -gt 0 ] || continue
  file=$dir/$rule-$seed.txt
  if [ "$rule" = renju ]; then renju_files+=("$file"); else files+=("$file"); fi
  have=0
  [ -f "$file" ] && have=$(grep -c . "$file" || true)
  if [ "$have" -lt "$want" ]; then
    echo "selfplay: $rule, games $((have + 1))..$want into $file"
    "$gomoku" selfplay --rule "$rule" --seed "$seed" --nodes "$nodes" \
      --first-game $((have + 1)) --games $((want - have)) --concurrency "$conc" --formula \
      --out "$file"
  fi
done
# first the self-play games, from the hand-set formula; renju, whose tables are per colour and
# whose corpus is larger, takes more steps
selfplay_model=$dir/eval-selfplay.bin
"$gomoku" train "${files[@]}" --borrow standard=freestyle \
  --from-formula --iterations 400 --regularization 1e-8 --policy-iterations 200 \
  --out "$selfplay_model"
[ ${#renju_files[@]} -eq 0 ] || "$gomoku" train "${renju_files[@]}" \
  --from "$selfplay_model" --iterations 1000 --regularization 1e-8 --policy-iterations 200 \
  --out "$selfplay_model"
# then, from that model, every rule on its self-play games and on the games played against
# Rapfi (crates/engine/weights/anchor-games), those on their results alone: our search's
# values there come from the evaluation being trained and share its blind spots
"$gomoku" train "${files[@]}" --results-only "$anchor/freestyle.txt" \
  --results-only "$anchor/standard.txt" \
  --borrow standard=freestyle --borrow freestyle=standard \
  --from "$selfplay_model" --iterations 400 --regularization 1e-8 --policy-iterations 200 \
  --out "$model"
[ ${#renju_files[@]} -eq 0 ] || "$gomoku" train "${renju_files[@]}" --results-only "$anchor/renju.txt" \
  --from "$model" --iterations 1000 --regularization 1e-8 --policy-iterations 200 \
  --out "$model"

# the hashes of what went in and what came out, by file name
manifest=$dir/eval.sha256
{
  for f in "${files[@]}" "${renju_files[@]}"; do
    echo "$(sha256sum < "$f" | cut -d' ' -f1)  corpus/$(basename "$f")"
  done
  for f in "$anchor"/*.txt; do
    echo "$(sha256sum < "$f" | cut -d' ' -f1)  anchor-games/$(basename "$f")"
  done
  echo "$(sha256sum < "$model" | cut -d' ' -f1)  eval.bin"
} > "$manifest"
cat "$manifest"
if [ "$check" = 1 ]; then
  if diff -u crates/engine/weights/eval.sha256 "$manifest"; then
    echo "train-eval.sh: the model is the committed one, byte for byte"
  else
    echo "train-eval.sh: the hashes differ from crates/engine/weights/eval.sha256" >&2
    exit 1
  fi
fi

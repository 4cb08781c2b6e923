#!/usr/bin/env bash
# Makes the self-play corpus of the neural evaluation: binary corpora (GMKCORP1, see
# docs/engine.md, "The corpus") of freestyle 15x15 and 20x20, standard 15x15 and renju 15x15,
# played by `gomoku selfplay --format bin` at a fixed node budget from random balanced
# openings spread over the board (none of them a measuring opening of the matches), then
# joined into one file, corpus.bin, with `gomoku corpus cat`. Every game depends only on the
# build, the seed, its number and the settings, so the same command makes the same bytes, and
# a shard (--shard K/N) can be played on another machine: the N shards' corpus.K-of-N.bin
# joined in shard order (`gomoku corpus cat corpus.bin corpus.1-of-N.bin ...`) are the
# corpus, the same whichever machines played them. scripts/corpus_ray.py runs the shards of
# one part on a Ray cluster.
#
# usage: scripts/make-corpus.sh [--freestyle N] [--freestyle20 N] [--standard N] [--renju N]
#                               [--nodes N] [--seed S] [--shard K/N] [--concurrency N]
#                               [--set NAME=VALUE]... [--out DIR] [--gomoku PATH]
#   --freestyle N    freestyle 15x15 games (default 95000)
#   --freestyle20 N  freestyle 20x20 games (default 11000)
#   --standard N     standard 15x15 games (default 52000)
#   --renju N        renju 15x15 games (default 105000)
#   --nodes N        nodes per move (default 3000)
#   --seed S         seed of the openings (default 1); the parts play seeds 10S+1 to 10S+4
#   --shard K/N      play only shard K of N of every part (default: all games)
#   --concurrency N  games at once, one search thread each (default 2: one per core)
#   --set NAME=VALUE a search parameter of the players, as `gomoku think --set` (repeatable)
#   --out DIR        where the corpora go (default target/corpus-nnue); a part whose file is
#                    there is kept, so a stopped run goes on where it stopped
#   --gomoku PATH    the binary (default: target/release/gomoku, built here)
#
# The defaults make about 10.6 million positions (40 a game after the opening): freestyle 39%
# of them (a tenth of it on 20x20), standard 20%, renju 41%; about 47 MB (4.5 bytes a
# position). Measured on this project's 2-core machine, shared with other work (load 2 to 3):
# one game at 3000 nodes a move takes 0.07 s, so 14 games (560 positions) a second a core;
# 20x20 games are a little quicker. The 263,000 games take about 5.2 core-hours: some 2.6
# hours with --concurrency 2, or N times less over N machines with --shard.
set -euo pipefail
cd "$(dirname "$0")/.."
freestyle=95000 freestyle20=11000 standard=52000 renju=105000
nodes=3000 seed=1 shard=1/1 conc=2 dir=target/corpus-nnue gomoku=
sets=()
while [ $# -gt 0 ]; do
  case $1 in
    --freestyle) freestyle=$2; shift 2 ;;
    --freestyle20) freestyle20=$2; shift 2 ;;
    --standard) standard=$2; shift 2 ;;
    --renju) renju=$2; shift 2 ;;
    --nodes) nodes=$2; shift 2 ;;
    --seed) seed=$2; shift 2 ;;
    --shard) shard=$2; shift 2 ;;
    --concurrency) conc=$2; shift 2 ;;
    --set) sets+=(--set "$2"); shift 2 ;;
    --out) dir=$2; shift 2 ;;
    --gomoku) gomoku=$2; shift 2 ;;
    -h|--help) sed -n '2,/^set -euo/{/^#/p}' "$0"; exit 0 ;;
    *) echo "make-corpus.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
if [ -z "$gomoku" ]; then
  cargo build --release --locked -p gomoku
  gomoku=target/release/gomoku
fi
if [[ ! $shard =~ ^([0-9]+)/([0-9]+)$ ]] || [ "${BASH_REMATCH[1]}" -lt 1 ] ||
  [ "${BASH_REMATCH[1]}" -gt "${BASH_REMATCH[2]}" ]; then
  echo "make-corpus.sh: --shard $shard: expected K/N with 1 <= K <= N" >&2
  exit 2
fi
suffix=
[ "$shard" = 1/1 ] || suffix=.${shard/\//-of-}
mkdir -p "$dir"
parts=()
# rule, size, games, seed offset, radius of the first central stone (the board less its edge)
for part in "freestyle 15 $freestyle 1 2,6" "freestyle 20 $freestyle20 2 2,8" \
  "standard 15 $standard 3 2,6" "renju 15 $renju 4 2,6"; do
  read -r rule size games offset radius <<<"$part"
  [ "$games" -gt 0 ] || continue
  file=$dir/$rule-$size$suffix.bin
  parts+=("$file")
  if [ -f "$file" ]; then
    echo "make-corpus.sh: $file is there, kept" >&2
    continue
  fi
  echo "make-corpus.sh: $rule ${size}x$size, $games games (shard $shard) into $file" >&2
  rm -f "$file.tmp"
  "$gomoku" selfplay --format bin --rule "$rule" --size "$size" --games "$games" \
    --nodes "$nodes" --seed $((10 * seed + offset)) --shard "$shard" --concurrency "$conc" \
    --opening-radius "$radius" ${sets[@]+"${sets[@]}"} --out "$file.tmp"
  mv "$file.tmp" "$file"
done
[ ${#parts[@]} -gt 0 ] || { echo "make-corpus.sh: no games to play" >&2; exit 2; }
"$gomoku" corpus cat "$dir/corpus$suffix.bin" "${parts[@]}"
"$gomoku" corpus stats "$dir/corpus$suffix.bin"

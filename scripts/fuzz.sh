#!/usr/bin/env bash
# Runs one cargo fuzz target for a set time on one core (docs/fuzzing.md), starting from the
# seeds committed in fuzz/seeds/TARGET; what it learns goes to fuzz/corpus/TARGET (not
# committed), a crash to fuzz/artifacts/TARGET/. Needs the nightly toolchain and cargo-fuzz
# (`cargo install cargo-fuzz`).
# Usage: scripts/fuzz.sh TARGET [SECONDS] [LIBFUZZER ARGS...]
#   TARGET: pbrain_session, text_readers or web_bodies; SECONDS: 600 unless given.
#   scripts/fuzz.sh list   lists the targets.
set -euo pipefail
cd "$(dirname "$0")/../fuzz"

target=${1:?usage: scripts/fuzz.sh TARGET [SECONDS] [LIBFUZZER ARGS...] (or: list)}
if [ "$target" = list ]; then
  exec cargo +nightly fuzz list
fi
seconds=${2:-600}
shift $(( $# < 2 ? $# : 2 ))

mkdir -p "corpus/$target"
# One fuzzing process in the foreground (no -jobs or -fork): one core. -timeout: an input
# that takes this long counts as a hang. No leak detection (-detect_leaks=0 within the run,
# ASAN_OPTIONS at exit): the program's helper threads (the pbrain thinking thread, a web
# game's clock) are detached by design, and LeakSanitizer took what the last one held at exit
# for a leak; memory that keeps growing still ends a run at -rss_limit_mb (2 GB).
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
exec env CARGO_BUILD_JOBS="${CARGO_BUILD_JOBS:-1}" cargo +nightly fuzz run "$target" \
  "corpus/$target" "seeds/$target" -- \
  -max_total_time="$seconds" -timeout=10 -detect_leaks=0 -print_final_stats=1 "$@"

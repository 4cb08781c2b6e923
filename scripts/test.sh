#!/usr/bin/env bash
# Runs every check of the project: the formatting (cargo fmt), the lints (cargo clippy, warnings
# as errors), the length of every function (scripts/fn-lengths.py: at most 120 lines in the
# source, 150 in tests), the figures tables of the README and docs/benchmarks.md against their
# match records and the `Bench:` line (scripts/figures.sh --check, which builds the release
# binaries), the documentation (cargo doc, warnings as errors), the tests of the scaling plot's
# choice of match records (scripts/test_scaling_plot.py; the plot itself when matplotlib is
# there), the unit tests of the web page's modules (Node's test runner: node 18 or later, no npm packages), then the
# workspace's unit, data-driven and integration tests, including the browser test of the web
# board, which needs Debian's chromium and chromium-driver: they are installed here when missing
# (as root, or through sudo); then scripts/train-eval.sh on a tiny corpus, twice, which must
# give the same model byte for byte (scripts/test_train_eval.sh); then the Ray driver of the
# self-play corpus (scripts/test_corpus_ray.py, on a local Ray instance with the release binary, built here),
# which needs the ray of scripts/requirements-ray.txt: it is installed with pip when missing.
# Usage: scripts/test.sh   (from anywhere in the repository)
set -euo pipefail
cd "$(dirname "$0")/.."

if [ -z "${CHROMIUM:-}" ] && ! { command -v chromium && command -v chromedriver; } >/dev/null; then
  echo "scripts/test.sh: installing chromium and chromium-driver for the browser test" >&2
  if [ "$(id -u)" = 0 ]; then
    sudo=()
  elif command -v sudo >/dev/null; then
    sudo=(sudo)
  else
    echo "scripts/test.sh: chromium is missing and installing it needs root" \
      "(apt-get install -y chromium chromium-driver)" >&2
    exit 1
  fi
  "${sudo[@]}" apt-get update -q
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium chromium-driver
fi

# The property tests draw their cases from a fixed seed, so that a run is repeatable and a
# red CI run means a change broke something; PROPTEST_RNG_SEED=<number> draws other cases
# (e.g. PROPTEST_RNG_SEED=$RANDOM scripts/test.sh, to look for new failures).
export PROPTEST_RNG_SEED="${PROPTEST_RNG_SEED:-20261127}"

if ! command -v node >/dev/null; then
  echo "scripts/test.sh: node is missing: the web page's unit tests need Node 18 or later" \
    "(apt-get install -y nodejs)" >&2
  exit 1
fi

echo "scripts/test.sh: cargo fmt --check" >&2
cargo fmt --all --check
echo "scripts/test.sh: cargo clippy" >&2
cargo clippy --workspace --all-targets --locked -- -D warnings
echo "scripts/test.sh: function lengths" >&2
python3 scripts/fn-lengths.py
echo "scripts/test.sh: the figures tables (scripts/figures.sh --check)" >&2
scripts/figures.sh --check
echo "scripts/test.sh: cargo doc" >&2
RUSTDOCFLAGS="${RUSTDOCFLAGS:-} -D warnings" cargo doc --workspace --no-deps --locked
echo "scripts/test.sh: the scaling plot's records (scripts/test_scaling_plot.py)" >&2
python3 scripts/test_scaling_plot.py
echo "scripts/test.sh: node --test (the web page's modules)" >&2
node --test crates/app/web/tests/*.test.mjs
echo "scripts/test.sh: cargo test" >&2
cargo test --workspace --locked
echo "scripts/test.sh: train-eval.sh on a tiny corpus (scripts/test_train_eval.sh)" >&2
scripts/test_train_eval.sh target/release/gomoku

echo "scripts/test.sh: the Ray driver of the corpus (scripts/test_corpus_ray.py)" >&2
if ! python3 -c 'import ray' 2>/dev/null; then
  echo "scripts/test.sh: installing ray (scripts/requirements-ray.txt) for the corpus driver" >&2
  python3 -m pip install -q -r scripts/requirements-ray.txt
fi
cargo build --release --locked -p gomoku
GOMOKU_BIN=target/release/gomoku python3 scripts/test_corpus_ray.py

#!/usr/bin/env bash
# Runs every test of the project: the workspace's unit, data-driven and integration tests,
# including the browser test of the web board, which needs Debian's chromium and
# chromium-driver: they are installed here when missing (as root, or through sudo).
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

cargo test --workspace --locked

#!/usr/bin/env bash
# Runs every test of the project: the workspace's unit, data-driven and integration tests.
# Usage: scripts/test.sh   (from anywhere in the repository)
set -euo pipefail
cd "$(dirname "$0")/.."
cargo test --workspace --locked

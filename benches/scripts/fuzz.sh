#!/usr/bin/env bash
# Fuzzes the parsers of records, saves, statistics and names for a fixed
# time (default 60 seconds), like a benchmark: never part of `cargo test`.
#   benches/scripts/fuzz.sh [SECONDS] [SEED]
# Prints a finding per failing input (saved under fuzz/findings/) and a
# summary line with the executions; exits 1 if anything was found.
set -euo pipefail
cd "$(dirname "$0")/../.."
cargo run --release --quiet --example fuzz_parsers -- "${1:-60}" "${2:-1}"

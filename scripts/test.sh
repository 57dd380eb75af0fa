#!/usr/bin/env bash
# The README's test command (and CI's): installs what is missing, builds
# everything with the default preset, runs every test. ctest's summary line
# ("100% tests passed, 0 tests failed out of N") closes the output.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
cmake --preset default
cmake --build --preset default
ctest --preset default -j "$(nproc)"

#!/usr/bin/env bash
# The README's demo: installs what is missing, builds the demo, runs it.
# The demo exits 1 when it finds and replays the bug (the expected outcome).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
cmake --preset default >/dev/null
cmake --build --preset default --target bank_transfer_explore
set +e
./build/bin/bank_transfer_explore
status=$?
set -e
if [ "$status" -eq 1 ]; then
  echo "demo: the bug was found and replayed (exit status 1 is the expected outcome)"
  exit 0
fi
echo "demo: unexpected exit status $status" >&2
exit 1

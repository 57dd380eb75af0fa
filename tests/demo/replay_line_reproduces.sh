#!/usr/bin/env bash
# The demo prints a replay command; running exactly that command must fail
# the same way with the same trace hash.
set -euo pipefail
demo="$1"
workdir="$(mktemp -d)"
trap 'rm -rf "$workdir"' EXIT
cd "$(dirname "$demo")/../.."   # the repo's build/.. so a relative ./build/bin path resolves
status=0
"$demo" >"$workdir/first.txt" 2>&1 || status=$?
[ "$status" -eq 1 ] || { echo "demo exited $status, expected 1 (bug found and replayed)"; cat "$workdir/first.txt"; exit 1; }
replay=$(grep -m1 '^  replay: ' "$workdir/first.txt" | sed 's/^  replay: //')
hash=$(grep -m1 '^  trace hash: ' "$workdir/first.txt" | sed 's/^  trace hash: //')
message=$(sed -n '/^WARNING: simthread:/{n;p;q}' "$workdir/first.txt")
[ -n "$replay" ] && [ -n "$hash" ] && [ -n "$message" ] || { echo "no replay/hash/message in:"; cat "$workdir/first.txt"; exit 1; }
echo "running: $replay"
status=0
bash -c "$replay" >"$workdir/replay.txt" 2>&1 || status=$?
[ "$status" -eq 1 ] || { echo "replay exited $status"; cat "$workdir/replay.txt"; exit 1; }
grep -qF "  trace hash: $hash" "$workdir/replay.txt" || { echo "trace hash differs from $hash:"; cat "$workdir/replay.txt"; exit 1; }
grep -qF "$message" "$workdir/replay.txt" || { echo "message differs from '$message'"; exit 1; }
echo "replay reproduced: $message (trace hash $hash)"

#!/usr/bin/env bash
# Usage: html_in_chromium.sh BANK_TRANSFER_EXPLORE [SCREENSHOT_OUT]
# Writes the demo's failing run as an HTML timeline, checks it loads nothing
# from the network, screenshots it in headless Chromium and checks that the
# PNG shows the thread colours and the failure's red. Exit 77: chromium is
# not installed (apt-get install chromium), so the check was skipped.
set -euo pipefail
demo="$1"
here="$(cd "$(dirname "$0")" && pwd)"
workdir="$(mktemp -d)"
trap 'rm -rf "$workdir"' EXIT
html="$workdir/timeline.html"
png="${2:-$workdir/timeline.png}"

status=0
SIM_OPTIONS="timeline=$html" timeout 60 "$demo" >"$workdir/demo.txt" 2>&1 || status=$?
[ "$status" -eq 1 ] || { echo "demo exited $status, expected 1"; cat "$workdir/demo.txt"; exit 1; }
grep -q "simthread: timeline of seed .* written to $html" "$workdir/demo.txt" || {
  echo "no 'timeline written' line:"; cat "$workdir/demo.txt"; exit 1; }
[ -s "$html" ] || { echo "no HTML at $html"; exit 1; }
# Self-contained: the only URL is the SVG namespace; no src=, <link>, @import.
if sed 's#http://www.w3.org/2000/svg##g' "$html" | grep -nE 'https?:|[[:space:]]src=|<link|@import'; then
  echo "the HTML refers to something outside itself (above)"; exit 1
fi

chromium_bin="$(command -v chromium || command -v chromium-browser || true)"
if [ -z "$chromium_bin" ]; then
  echo "SKIP: chromium is not installed (apt-get install -y chromium); see docs/timeline.md for the manual check"
  exit 77
fi
if ! command -v python3 >/dev/null; then
  echo "SKIP: python3 is not installed; the screenshot check needs it"
  exit 77
fi
start=$(date +%s%N)
# Chromium prints harmless dbus/GPU warnings on stderr; keep them for a failure.
timeout 60 "$chromium_bin" --headless --no-sandbox --disable-gpu --disable-background-networking \
  --disable-component-update --disable-sync --no-first-run --user-data-dir="$workdir/profile" \
  --screenshot="$png" --window-size=1400,600 "file://$html" >"$workdir/chromium.txt" 2>&1 || {
  echo "chromium failed:"; cat "$workdir/chromium.txt"; exit 1; }
end=$(date +%s%N)
[ -s "$png" ] || { echo "no screenshot at $png"; cat "$workdir/chromium.txt"; exit 1; }
python3 "$here/check_screenshot.py" "$png" 1400 600
echo "chromium screenshot in $(( (end - start) / 1000000 )) ms"

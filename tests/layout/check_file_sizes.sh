#!/usr/bin/env bash
# Usage: check_file_sizes.sh [repository root]
#
# No tracked file outside docs/ over 600 lines: past that a file holds more
# than one concept, and a newcomer cannot see its shape. Prints each file
# over the limit and exits 1; exits 0 when none is.
set -euo pipefail
root=${1:-$(cd "$(dirname "$0")/../.." && pwd)}
cd "$root"
limit=600
status=0
while IFS= read -r -d '' file; do
  [[ -f $file ]] || continue
  lines=$(wc -l < "$file")
  if ((lines > limit)); then
    echo "$file: $lines lines (over $limit): split it, one concept per file"
    status=1
  fi
done < <(git ls-files -z -- . ':!docs/' 2>/dev/null || find . -path ./docs -prune -o -path ./build -prune -o -path ./.git -prune -o -type f -print0)
exit $status

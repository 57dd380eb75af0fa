#!/usr/bin/env bash
# Usage: check_layers.sh [repository root]
#
# Holds runtime/'s includes to its layers (each folder's README says why):
# a folder may include its own headers and those of the layers listed for
# it below, and nothing else. Strategies and interceptors in particular
# never reach up into explore/ or report/: they run inside an execution,
# and what drives or reports executions is built on them, not under them.
# Prints every include that breaks a rule and exits 1; exits 0 when none do.
set -euo pipefail
root=${1:-$(cd "$(dirname "$0")/../.." && pwd)}
cd "$root/runtime"

# folder: what else it may include (a folder, or one header of a folder).
# Every folder may include common/ (header-only, standard library only).
declare -A allowed=(
  [core]="race strategy/strategy.h interceptors/keys.h interceptors/real_function.h"
  [race]=""
  [strategy]="core"
  [interceptors]="core race"
  [abi]="core interceptors"
  [report]="core strategy"
  [explore]="core strategy interceptors report"
  [gtest]="core strategy interceptors abi explore report"
  [whole_program]="core strategy interceptors abi explore report"
)

status=0
for folder in "${!allowed[@]}"; do
  [[ -d $folder ]] || { echo "check_layers.sh: runtime/$folder is gone: update the table" >&2; exit 2; }
  while IFS=: read -r file line text; do
    header=$(sed -E 's/.*#include "([^"]+)".*/\1/' <<<"$text")
    layer=${header%%/*}
    [[ $header == */* ]] || continue          # a system or same-directory header
    [[ $layer == sim || $layer == gtest && $folder == gtest ]] && continue  # the public API; GoogleTest
    [[ $layer == "$folder" || $layer == common ]] && continue  # common/ is below every layer
    ok=0
    for rule in ${allowed[$folder]}; do
      [[ $rule == "$layer" || $rule == "$header" ]] && ok=1
    done
    if ((!ok)); then
      echo "runtime/$file:$line: $folder/ may not include \"$header\" (it may include: $folder ${allowed[$folder]})"
      status=1
    fi
  done < <(grep -rn '^#include "' "$folder" || true)
done
# Every folder of runtime/ is in the table, so a new one gets rules too.
for folder in */; do
  folder=${folder%/}
  [[ $folder == link ]] && continue  # build scripts, no includes
  [[ -n ${allowed[$folder]+set} ]] || { echo "runtime/$folder/ has no layering rule in $0"; status=1; }
done
exit $status

#!/usr/bin/env bash
# use_runtime_heap.sh ARCHIVE: makes a runtime archive allocate from the
# runtime's own heap (runtime/core/runtime_heap.h says why).
#
# After localize_archive.sh the archive holds its own copies of every
# template it instantiates (std::vector, std::string, std::function...), so
# all of its C++ allocation goes through its references to the global
# operator new and delete. This script renames those references to the
# runtime heap's entry points. A variant of operator new or delete this
# script does not know (aligned, nothrow) fails the build, so that no new
# runtime code allocates from the program's heap unnoticed.
set -euo pipefail
archive="$1"
ld="${LD:-ld}"
objcopy="${OBJCOPY:-objcopy}"
ar="${AR:-ar}"
nm="${NM:-nm}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
"$ld" -r --whole-archive "$archive" -o "$work/combined.o"
declare -A renamed=(
  [_Znwm]=__sim_runtime_new
  [_Znam]=__sim_runtime_new
  [_ZdlPv]=__sim_runtime_delete
  [_ZdaPv]=__sim_runtime_delete
  [_ZdlPvm]=__sim_runtime_delete_sized
  [_ZdaPvm]=__sim_runtime_delete_sized
)
: > "$work/renames.txt"
while read -r name; do
  if [[ -n "${renamed[$name]:-}" ]]; then
    echo "$name ${renamed[$name]}" >> "$work/renames.txt"
  elif [[ "$name" =~ ^_Z(nw|na|dl|da) ]]; then
    echo "use_runtime_heap.sh: $archive refers to $name ($(c++filt "$name")), an operator new or delete" \
      "the runtime's heap does not provide: add it to runtime/core/runtime_heap.cpp and here" >&2
    exit 1
  fi
done < <("$nm" --undefined-only "$work/combined.o" | awk '{print $2}' | sort -u)
[[ -s "$work/renames.txt" ]] && "$objcopy" --redefine-syms="$work/renames.txt" "$work/combined.o"
rm -f "$archive"
"$ar" rcs "$archive" "$work/combined.o"

#!/usr/bin/env bash
# export_list.sh ARCHIVE LIST: writes the linker dynamic list (--dynamic-list)
# of every global symbol a runtime archive defines.
#
# The runtime's interceptors must be exported from the executable, or calls
# from shared libraries (libstdc++ calling pthread_create, ...) would not
# reach them; so must the __sim_* hooks an instrumented shared library calls.
# -rdynamic would export them, but it exports every user global as well, and
# a shared library's call to libc then binds to a user global of the same
# name (libstdc++'s read(2) to a C program's `int read;`): without it, the
# linker exports a user's definition only where the program natively would.
# Names are quoted, so none is read as a pattern.
set -euo pipefail
archive="$1"
list="$2"
nm="${NM:-nm}"
{
  echo "{"
  "$nm" --defined-only --extern-only "$archive" | awk 'NF == 3 {print "  \"" $3 "\";"}' | sort -u
  echo "};"
} > "$list.tmp"
mv "$list.tmp" "$list"

#!/usr/bin/env bash
# localize_archive.sh ARCHIVE: gives a runtime archive private copies of every
# template and inline function it instantiates.
#
# Instrumented user code instantiates the same templates (std::string,
# std::vector, ...) with hooks in them, and the linker keeps one copy of each
# weak definition: the runtime's own bookkeeping could then run the user's
# instrumented copy and re-enter the scheduler from inside it. Linking the
# archive's members into one relocatable object, making its weak and unique
# symbols local, and dropping the COMDAT groups (which the linker would
# otherwise still merge by name) keeps the runtime's copies its own.
#
# Except the interceptors that are weak on purpose, so that a program's own
# definition wins (free, realloc and munmap: a statically linked allocator):
# they stay global.
set -euo pipefail
archive="$1"
ld="${LD:-ld}"
objcopy="${OBJCOPY:-objcopy}"
ar="${AR:-ar}"
nm="${NM:-nm}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
"$ld" -r --whole-archive "$archive" -o "$work/combined.o"
"$nm" --defined-only "$work/combined.o" | awk '$2 ~ /^[WVu]$/ && $3 !~ /^(free|realloc|munmap)$/ {print $3}' | sort -u > "$work/weak.txt"
"$objcopy" --localize-symbols="$work/weak.txt" --remove-section=.group "$work/combined.o"
rm -f "$archive"
"$ar" rcs "$archive" "$work/combined.o"

#!/usr/bin/env bash
# mark_code_range.sh ARCHIVE: links a runtime archive into one object whose
# code is one .text section between two hidden symbols,
# __sim_code_begin_<name> and __sim_code_end_<name> (<name> the archive's,
# without lib and .a), which the archive's own code reads
# (core/runtime_code.h); a program exports neither.
#
# A report names the frames of the user's code; the runtime's own frames
# (the race check at the top of a racing access's stack, the thread entry
# at its bottom) are only where the user's end. Telling them apart used to
# take the symbolizer's answer for each, and loading the runtime's debug
# information for it was a third of what a race's report cost the
# symbolizer. By address, they are told apart without it. The default
# linker script would spread the object's code over the output (cold code
# and static initialisers first, each former COMDAT section on its own);
# one section keeps it in one range.
set -euo pipefail
archive="$1"
ld="${LD:-ld}"
ar="${AR:-ar}"
name="$(basename "$archive" .a)"
name="${name#lib}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cat > "$work/code.ld" <<SCRIPT
SECTIONS {
  .text : {
    HIDDEN(__sim_code_begin_${name} = .);
    *(.text .text.*)
    HIDDEN(__sim_code_end_${name} = .);
  }
}
SCRIPT
"$ld" -r -T "$work/code.ld" --whole-archive "$archive" -o "$work/marked.o"
rm -f "$archive"
"$ar" rcs "$archive" "$work/marked.o"

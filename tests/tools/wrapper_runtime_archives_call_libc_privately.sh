# Every archive sim-clang links into a program refers to libc only through
# private names (runtime/link/privatize_libc_references.sh): no undefined C name
# is left that a user global could take, except the ones the script keeps on
# purpose (dlsym, dlvsym, the malloc family, stdin/stdout/stderr) and the
# interceptors libsimrt defines. Each archive also ships the dynamic list
# sim-clang exports it with, naming what it defines.
source "$(dirname "$0")/lib.sh"
kept=" dlsym dlvsym malloc free calloc realloc reallocarray posix_memalign aligned_alloc memalign valloc pvalloc malloc_usable_size stdin stdout stderr "
defined_by_runtime="$(nm --defined-only --extern-only "$SIM_LIB/libsimrt.a" | awk 'NF == 3 {print $3}')"
checked=0
for archive in libsimrt.a libsim_whole_program.a libsim_gtest.a libsim_gtest_main.a; do
  [[ -e "$SIM_LIB/$archive" ]] || continue
  checked=$((checked + 1))
  unexpected=""
  for name in $(nm --undefined-only "$SIM_LIB/$archive" | awk 'NF >= 2 {print $NF}' | grep -v '^_' | sort -u); do
    [[ "$kept" == *" $name "* ]] && continue
    grep -qxF -- "$name" <<< "$defined_by_runtime" && continue
    unexpected+=" $name"
  done
  expect_eq "$unexpected" "" "$archive: undefined C names a user global would take"
  [[ "$(nm --undefined-only "$SIM_LIB/$archive")" != *__sim_libc_* ]] ||
    fail "$archive: its trampolines are not its own (an undefined __sim_libc_ name)"
  exports="$SIM_LIB/${archive%.a}.exports"
  [[ -f "$exports" ]] || fail "$archive: no dynamic list at $exports"
  expect_eq "$(sed -n 's/^  "\(.*\)";$/\1/p' "$exports" | sort)" \
            "$(nm --defined-only --extern-only "$SIM_LIB/$archive" | awk 'NF == 3 {print $3}' | sort -u)" \
            "$archive: the dynamic list names what the archive defines"
done
[[ "$checked" -ge 2 ]] || fail "found only $checked runtime archives in $SIM_LIB"
expect_contains "$(nm --undefined-only "$SIM_LIB/libsim_whole_program.a")" " U nanosleep" \
  "whole-program mode still calls libsimrt's nanosleep interceptor"
echo PASS

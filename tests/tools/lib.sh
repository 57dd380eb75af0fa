# lib.sh: helpers shared by the tools tests (sourced). ctest sets SIM_BIN (the
# build's bin/), SIM_LIB, STANDIN (standin_program.sh) and TEST_TMP (a fresh
# directory per test).
source "$(dirname "${BASH_SOURCE[0]}")/../lib/assert.sh"
rm -rf "$TEST_TMP" && mkdir -p "$TEST_TMP"

# The tls_switch modes this machine runs (runtime/core/thread_local_switch.h):
# wrfsbase only where the kernel reports FSGSBASE (bit 1 of AT_HWCAP2).
tls_switch_modes() {
  local hwcap2
  hwcap2=$(LD_SHOW_AUXV=1 /bin/true | awk '/AT_HWCAP2/ {print $2}')
  echo lazy syscall
  if (( ${hwcap2:-0} & 2 )); then echo wrfsbase; fi
}

# build_variants SOURCE STEM VARIANT...: ./STEM_VARIANT for each VARIANT,
# SOURCE built with sim-clang++ -DVARIANT (a three-way test's programs).
build_variants() {
  local source="$1" stem="$2" variant
  shift 2
  for variant in "$@"; do
    run "$SIM_BIN/sim-clang++" -std=c++20 -O1 -g "-D$variant" "$source" -o "${stem}_$variant"
    expect_eq "$rc" 0 "sim-clang++ -D$variant $source: $err"
  done
}

# expect_race_replays REPORT WHAT: the race report's replay line, run,
# reports the same race (exit 66, the same SUMMARY); its output is left
# in replay.out.
expect_race_replays() {
  local replay_line
  replay_line="$(sed -n 's/^ *replay: //p' <<< "$1" | head -1)"
  eval "$replay_line" > replay.out 2>&1
  expect_eq "$?" 66 "$2: the replay line fails again: $replay_line: $(cat replay.out)"
  expect_eq "$(grep -m1 'SUMMARY' replay.out)" "$(grep -m1 'SUMMARY' <<< "$1")" "$2: the replay reports the same race"
}

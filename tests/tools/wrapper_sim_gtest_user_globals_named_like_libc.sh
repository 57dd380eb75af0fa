# A SIM_TEST binary (--sim-gtest) whose C code names globals after functions
# the runtime and the gtest glue call (readlink, sigaltstack, send, ...):
# the runtime still calls libc's, so a passing SIM_TEST passes and a racy one
# is reported (a data race, whose report runs the symbolizer and the flipped
# runs) with a replay line that reproduces it. Only names GoogleTest
# itself does not call are used: libgtest.a is linked statically, and would
# call the user's globals natively as well.
source "$(dirname "$0")/lib.sh"
[[ -e "$SIM_LIB/libsim_gtest_main.a" ]] || { echo "no SIM_TEST support in this build"; echo PASS; exit 0; }
cat > "$TEST_TMP/globals.c" <<'C'
_Bool send, recv;
int readlink = 1, sigaltstack = 2, mprotect = 3, kill = 4, signal = 5, access = 6, getuid = 7, getauxval = 8,
    personality = 9, prctl = 10, posix_spawn = 11, open = 12, strsignal = 13, sigabbrev_np = 14;
int GlobalsUntouched(void) {
  return readlink + sigaltstack + mprotect + kill + signal + access + getuid + getauxval + personality + prctl +
             posix_spawn + open + strsignal + sigabbrev_np == 14 * 15 / 2 && !send && !recv;
}
C
cat > "$TEST_TMP/counter_test.cpp" <<'CPP'
#include <mutex>
#include <thread>
#include "sim/gtest.h"
extern "C" int GlobalsUntouched(void);
SIM_TEST(Globals, LockedCounter) {
  std::mutex lock;
  int counter = 0;
  auto add = [&] { std::lock_guard<std::mutex> hold(lock); ++counter; };
  std::thread first(add), second(add);
  first.join();
  second.join();
  EXPECT_EQ(counter, 2);
  EXPECT_TRUE(GlobalsUntouched());
}
SIM_TEST(Globals, UnlockedCounter) {
  int counter = 0;
  std::thread first([&] { ++counter; }), second([&] { ++counter; });
  first.join();
  second.join();
  EXPECT_EQ(counter, 2) << "an increment was lost";
}
CPP
run "$SIM_BIN/sim-clang" -O1 -c "$TEST_TMP/globals.c" -o "$TEST_TMP/globals.o"
expect_eq "$rc$out$err" "0" "compiling the globals"
run "$SIM_BIN/sim-clang++" --sim-gtest -std=c++20 -O1 "$TEST_TMP/counter_test.cpp" "$TEST_TMP/globals.o" -o "$TEST_TMP/test"
expect_eq "$rc$err" "0" "building the test"

run "$TEST_TMP/test" --gtest_filter='Globals.LockedCounter/*'
expect_eq "$rc" 0 "the locked counter passes every seed: $out $err"
expect_contains "$out" "[  PASSED  ] 1 test" "one chunk passed"

run "$TEST_TMP/test" --gtest_filter='Globals.UnlockedCounter/*'
[[ "$rc" -ne 0 ]] || fail "the race was not found: $out"
expect_contains "$out" "WARNING: simthread: data race (seed=" "the report"
replay=$(sed -n 's/^  replay: //p' <<<"$out")
hash=$(sed -n 's/^  trace hash: //p' <<<"$out")
flipped=$(sed -n 's/^  that run.s replay: //p' <<<"$out")
[[ -n "$replay" && -n "$hash" && -n "$flipped" ]] || fail "no replay line, trace hash or flipped run's replay in: $out"
run bash -c "$replay"
[[ "$rc" -ne 0 ]] || fail "the replay passed: $out"
expect_contains "$out" "  trace hash: $hash" "the replay has the same trace hash"
run bash -c "$flipped"
[[ "$rc" -ne 0 ]] || fail "the flipped run's replay passed: $out"
expect_contains "$out" "an increment was lost" "the flipped run loses an increment: the EXPECT's message"
echo PASS

# A whole program's failure with a schedule longer than one environment
# variable holds (a random walk over 80,000 accesses: 40,000 preemptions)
# cannot be passed to a candidate process. Before, every candidate failed to
# start and the report said that shrinking had stopped at its bound of 1000
# candidates, none of which had run; now it says the failure was not shrunk
# and why, and its replay line still reproduces it.
source "$(dirname "$0")/lib.sh"
cat > "$TEST_TMP/long.cpp" <<'CPP'
#include <cstdio>
#include <thread>
volatile int counter;
int main() {
  auto work = [] {
    for (int i = 0; i < 20000; ++i) {
      int seen = counter;
      counter = seen + 1;
    }
  };
  std::thread a(work), b(work);
  a.join();
  b.join();
  if (counter != 40000) {
    std::fprintf(stderr, "lost updates: %d\n", counter);
    return 1;
  }
  return 0;
}
CPP
run "$SIM_BIN/sim-clang++" -std=c++20 -O1 "$TEST_TMP/long.cpp" -o "$TEST_TMP/long"
expect_eq "$rc" 0 "sim-clang++: $err"
# races=0: the unlocked counter races on purpose, and the detector would
# end the run at its first race, long before the schedule grows.
SIM_OPTIONS=strategy=random:races=0 run "$SIM_BIN/sim-run" --seeds 1 -- "$TEST_TMP/long"
expect_eq "$rc" 1 "sim-run finds the lost updates: $out $err"
report="$out
$err"
expect_contains "$report" "not shrunk: the schedule is longer than one environment variable holds (128 KiB)" \
  "the report says why the failure was not shrunk"
expect_not_contains "$report" "shrinking stopped at its bound" "no bound is blamed"
replay_line="$(sed -n 's/^ *replay: //p' <<< "$report" | head -1)"
(cd "$TEST_TMP" && eval "$replay_line") > "$TEST_TMP/replay.out" 2>&1
expect_eq "$?" 1 "the replay line fails again: $replay_line"
expect_contains "$(cat "$TEST_TMP/replay.out")" "not shrunk: the schedule is longer" "the replay says the same"
echo PASS

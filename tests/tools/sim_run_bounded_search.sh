# dfs:P over a whole program, one schedule per process: sim-run --strategy
# dfs:P and SIM_OPTIONS=strategy=dfs:P both drive the search from one
# process (runtime/whole_program/search_across_processes.h). A 2-reader
# cache stampede needs one preemption: dfs:0 runs every schedule without a
# failure, dfs:1 finds it and prints a replay line that reproduces it; the
# fixed cache passes dfs:2 with the schedule count; the half-fixed one (a
# second check, but the load counted before it) still fails. Before, every
# sim-run seed ran the search's first schedule and N of them "passed".
source "$(dirname "$0")/lib.sh"
cat > "$TEST_TMP/stampede.cpp" <<'CPP'
#include <cstdio>
#include <mutex>
#include <thread>
int loads = 0;
int* cache = nullptr;
std::mutex m;
void Get() {
#ifdef FIXED
  std::lock_guard whole(m);
  if (cache == nullptr) {
    ++loads;
    cache = new int(42);
  }
#else
  bool miss;
  {
    std::lock_guard check(m);
    miss = cache == nullptr;
  }
  if (!miss) return;
  std::lock_guard fill(m);
  ++loads;  // a load the reader paid for, whether it is kept or not
#ifdef HALF_FIXED
  if (cache == nullptr) cache = new int(42);
#else
  cache = new int(42);  // leaks the other reader's
#endif
#endif
}
int main() {
  std::thread a(Get), b(Get);
  a.join();
  b.join();
  if (loads != 1) {
    std::fprintf(stderr, "stampede: %d loads for one key\n", loads);
    return 1;
  }
  return 0;
}
CPP
for variant in buggy fixed half_fixed; do
  flag=""
  [[ $variant == fixed ]] && flag=-DFIXED
  [[ $variant == half_fixed ]] && flag=-DHALF_FIXED
  run "$SIM_BIN/sim-clang++" -std=c++20 -O1 -g $flag "$TEST_TMP/stampede.cpp" -o "$TEST_TMP/$variant"
  expect_eq "$rc" 0 "compile $variant: $err"
done

# No failure with 0 preemptions: the count of schedules is the search's own.
run "$SIM_BIN/sim-run" --strategy dfs:0 --report-json "$TEST_TMP/dfs0.json" -- "$TEST_TMP/buggy"
expect_eq "$rc" 0 "dfs:0 on the buggy cache: $out $err"
expect_matches "$out" "^sim-run: dfs:0: no failure in any schedule with <= 0 preemptions: [0-9]+ schedules$" "dfs:0 summary"
dfs0_count=$(sed -n 's/.*: \([0-9]*\) schedules$/\1/p' <<< "$out")
expect_contains "$(cat "$TEST_TMP/dfs0.json")" "\"strategy\": \"dfs:0\", \"schedules\": $dfs0_count, \"exhausted\": true" "dfs:0 JSON"
(( dfs0_count > 1 )) || fail "dfs:0 ran $dfs0_count schedules: the search did not move on"

# One preemption finds it, after more schedules than dfs:0 has.
run "$SIM_BIN/sim-run" --strategy dfs:1 --report-json "$TEST_TMP/dfs1.json" -- "$TEST_TMP/buggy"
expect_eq "$rc" 1 "dfs:1 on the buggy cache"
expect_matches "$(head -n 1 <<< "$out")" "^sim-run: dfs:1: failed in schedule [0-9]+ of the search: failure$" "dfs:1 summary"
expect_contains "$out" "preemptions: 1" "shrunk to the one preemption"
expect_contains "$out" "<- preempted" "the story"
replay=$(sed -n 's/^replay: //p' <<< "$out" | head -n 1)
expect_matches "$replay" "^SIM_OPTIONS=schedule=S1-" "the replay names the schedule"
expect_contains "$(cat "$TEST_TMP/dfs1.json")" "\"replay\": \"$replay\"" "JSON replay"
# The printed replay runs that schedule and fails the same way.
replay_options=${replay#SIM_OPTIONS=}
replay_options=${replay_options%% *}
SIM_OPTIONS="$replay_options" run "$TEST_TMP/buggy"
expect_eq "$rc" 1 "the replay line fails: $err"
expect_contains "$err" "stampede: 2 loads for one key" "the replay line's failure"
hash=$(sed -n 's/^ *trace hash: //p' <<< "$out")
expect_contains "$err" "trace hash: $hash" "the replay runs the reported execution"

# The same search without sim-run.
SIM_OPTIONS=strategy=dfs:1 run "$TEST_TMP/buggy"
expect_eq "$rc" 1 "SIM_OPTIONS=strategy=dfs:1"
expect_matches "$(head -n 1 <<< "$err")" "^simthread: dfs:1: schedule [0-9]+ of the search failed \([0-9]+ passed first\)$" "SIM_OPTIONS dfs:1 line"

# Fixed: every schedule with <= 2 preemptions passes, counted.
run "$SIM_BIN/sim-run" --strategy dfs:2 -- "$TEST_TMP/fixed"
expect_eq "$rc" 0 "dfs:2 on the fixed cache: $out"
expect_matches "$out" "^sim-run: dfs:2: no failure in any schedule with <= 2 preemptions: [0-9]+ schedules$" "fixed summary"
SIM_OPTIONS=strategy=dfs:2 run "$TEST_TMP/fixed"
expect_eq "$rc" 0 "SIM_OPTIONS dfs:2 on the fixed cache"
expect_matches "$err" "^simthread: dfs:2: no failure in any schedule with <= 2 preemptions: [0-9]+ schedules$" "SIM_OPTIONS fixed line"

# Half-fixed still fails.
run "$SIM_BIN/sim-run" --strategy dfs:2 -- "$TEST_TMP/half_fixed"
expect_eq "$rc" 1 "dfs:2 on the half-fixed cache: $out"
expect_contains "$out" "preemptions: 1" "half-fixed shrunk"

# --seeds caps the schedules, and says the search did not finish.
run "$SIM_BIN/sim-run" --strategy dfs:2 --seeds 3 -- "$TEST_TMP/fixed"
expect_eq "$rc" 0 "capped search"
expect_eq "$out" "sim-run: dfs:2: stopped after 3 schedules without a failure, before trying them all; raise --seeds to finish the search" "capped summary"
# dfs in the user's SIM_OPTIONS is the same search.
SIM_OPTIONS=strategy=dfs:0 run "$SIM_BIN/sim-run" -- "$TEST_TMP/buggy"
expect_eq "$out" "sim-run: dfs:0: no failure in any schedule with <= 0 preemptions: $dfs0_count schedules" "dfs from SIM_OPTIONS"
echo PASS

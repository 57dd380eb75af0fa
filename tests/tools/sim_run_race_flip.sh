# Does a race matter? (race_flips, explore/race_matters.h.) Each race's
# report says what running its two accesses the other way round did, and
# the flipped failure's replay line runs it. Three-way: a lost update
# (withdraw reads, then writes) fails when flipped; the half-fixed one
# (the write under a lock, the read not) still races and still fails when
# flipped; the fixed one (both under the lock) has no race. Then a race
# that does not matter (two threads store the same value), one that cannot
# be flipped (the reader waits for the writer's flag before it reads), the
# same report twice, race_flips=0, the JSON fields, sim-run, and SIM_TEST.
source "$(dirname "$0")/lib.sh"
cd "$TEST_TMP"
cat > withdraw.cpp <<'CPP'
#include <cassert>
#include <mutex>
#include <thread>
int balance = 100;
std::mutex lock;
void Withdraw() {
#if defined(FIXED)
  std::lock_guard guard(lock);
#endif
  int seen = balance;
#if defined(HALF_FIXED)
  std::lock_guard guard(lock);
#endif
  balance = seen - 10;
}
int main() {
  std::thread a(Withdraw), b(Withdraw);
  a.join();
  b.join();
  assert(balance == 80);
}
CPP
for variant in BUGGY HALF_FIXED FIXED; do
  run "$SIM_BIN/sim-clang++" -std=c++20 -O1 -g -D$variant withdraw.cpp -o "withdraw_$variant"
  expect_eq "$rc" 0 "sim-clang++ -D$variant: $err"
done

# The race found first: in BUGGY, between the two writes (a read that a
# write of its block follows is checked by that write, as TSan does): T1
# read and wrote before T2 wrote (no harm); T2 first loses an update. In
# HALF_FIXED (a lock between, so the read is checked), the race of T1's
# read with T2's write, shrunk to no preemption: T2 ran to its end, then
# T1 read what it wrote (no harm); T1 first reads before T2 writes.
declare -A matters=(
  [BUGGY]="flipping the order (T2's write before T1's write)"
  [HALF_FIXED]="flipping the order (T1's read before T2's write)"
)
for variant in BUGGY HALF_FIXED; do
  SIM_OPTIONS=races=1:report_json=$variant.json run "./withdraw_$variant"
  expect_eq "$rc" 66 "$variant races: $err"
  expect_contains "$err" "WARNING: simthread: data race" "$variant: the race"
  expect_contains "$err" "  ${matters[$variant]} makes the execution fail: crash: assertion failed in T0: balance == 80 (withdraw.cpp:" "$variant: the race matters"
  flipped_replay="$(sed -n 's/^ *that run.s replay: //p' <<< "$err")"
  expect_matches "$flipped_replay" "^SIM_OPTIONS=schedule=S1-[^ ]*:races=0 \./withdraw_$variant$" "$variant: the flipped replay line"
  eval "$flipped_replay" > flipped.out 2>&1
  expect_eq "$?" 134 "$variant: the flipped replay fails by its assert: $flipped_replay: $(cat flipped.out)"
  expect_contains "$(cat flipped.out)" "assertion failed in T0: balance == 80" "$variant: the flipped replay's failure"
  expect_eq "$(json_field "$variant.json" "j['race_flipped']")" "$(sed -n 's/^  \(.* makes the execution fail: .*\)$/\1/p' <<< "$err")" \
    "$variant: the JSON's race_flipped"
  expect_matches "$(json_field "$variant.json" "j['race_flipped_schedule']")" "^S1-" "$variant: the JSON's schedule"
  # The race's own replay prints the same report, flip included.
  replay_line="$(sed -n 's/^ *replay: //p' <<< "$err")"
  eval "$replay_line" > replay.out 2>&1
  expect_eq "$?" 66 "$variant: the replay line: $replay_line"
  expect_eq "$(cat replay.out)" "$err" "$variant: the replay prints the same report"
done
SIM_OPTIONS=races=1 run "$SIM_BIN/sim-run" --seeds 100 -- ./withdraw_FIXED
expect_eq "$rc" 0 "FIXED: no race in 100 seeds: $out $err"

# Two threads store the same value: a race that breaks nothing.
cat > same_value.cpp <<'CPP'
#include <cassert>
#include <thread>
bool ready = false;
void Announce() { ready = true; }
int main() {
  std::thread a(Announce), b(Announce);
  a.join();
  b.join();
  assert(ready);
}
CPP
run "$SIM_BIN/sim-clang++" -std=c++20 -O1 -g same_value.cpp -o same_value
SIM_OPTIONS=races=1 run ./same_value
expect_eq "$rc" 66 "same_value races: $err"
expect_contains "$err" "  no failure running on past the race as found, nor when flipped (T2's write before T1's write) in 20 schedules" "a race that does not matter"
expect_not_contains "$err" "flipped replay:" "nothing to replay"
SIM_OPTIONS=races=1:race_flips=3 run ./same_value
expect_contains "$err" "nor when flipped (T2's write before T1's write) in 3 schedules" "race_flips bounds them"
SIM_OPTIONS=races=1:race_flips=0 run ./same_value
expect_eq "$rc" 66 "race_flips=0 still reports the race: $err"
expect_not_contains "$err" "makes the execution fail" "race_flips=0: no flips"
expect_not_contains "$err" "no failure running on" "race_flips=0: no flips"

# The reader yields until the writer's flag is up (relaxed: no edge), then
# reads: it cannot read before the write, so there is nothing to flip.
cat > waits.cpp <<'CPP'
#include <atomic>
#include <thread>
int data = 0;
std::atomic<bool> published{false};
int main() {
  std::thread writer([] {
    data = 42;
    published.store(true, std::memory_order_relaxed);
  });
  std::thread reader([] {
    while (!published.load(std::memory_order_relaxed)) std::this_thread::yield();
    if (data != 42) __builtin_trap();
  });
  writer.join();
  reader.join();
}
CPP
run "$SIM_BIN/sim-clang++" -std=c++20 -O1 -g waits.cpp -o waits
SIM_OPTIONS=races=1 run ./waits
expect_eq "$rc" 66 "waits races: $err"
expect_contains "$err" "  no failure running on past the race as found; cannot flip the order: T2 does not reach its access before T1's: it waits there for another thread" \
  "a race whose order cannot be flipped"

# Through sim-run: the report of the lowest failing seed carries the flip.
SIM_OPTIONS=races=1 run "$SIM_BIN/sim-run" --seeds 20 -- ./withdraw_BUGGY
expect_eq "$rc" 1 "sim-run: $out $err"
expect_contains "$out$err" "makes the execution fail: crash: assertion failed in T0: balance == 80" "sim-run shows the flip"

# SIM_TEST: the flipped replay line is the test binary's own.
cat > withdraw_test.cpp <<'CPP'
#include <sim/gtest.h>
#include <thread>
SIM_TEST(Account, TwoWithdrawals) {
  int balance = 100;
  auto withdraw = [&] {
    int seen = balance;
    balance = seen - 10;
  };
  std::thread a(withdraw), b(withdraw);
  a.join();
  b.join();
  EXPECT_EQ(balance, 80);
}
CPP
run "$SIM_BIN/sim-clang++" --sim-gtest -std=c++20 -O1 -g withdraw_test.cpp -o withdraw_test
expect_eq "$rc" 0 "sim-clang++ --sim-gtest: $err"
run ./withdraw_test --sim_races=1
expect_eq "$rc" 1 "the SIM_TEST fails: $out"
expect_not_contains "$out" "Location is" "a local variable has no global to name"
expect_contains "$out" "makes the execution fail: failure: withdraw_test.cpp:12 (in T0): Expected equality of these values:" \
  "SIM_TEST: the flip fails its EXPECT"
flipped_replay="$(sed -n 's/^ *that run.s replay: //p' <<< "$out")"
expect_matches "$flipped_replay" "withdraw_test --gtest_filter=Account.TwoWithdrawals/seeds_0_99 --sim_races=0 --sim_schedule=S1-" \
  "SIM_TEST: the flipped replay line"
eval "$flipped_replay" > flipped.out 2>&1
expect_eq "$?" 1 "SIM_TEST: the flipped replay fails: $(cat flipped.out)"
expect_contains "$(cat flipped.out)" "simthread: replayed the schedule of Account.TwoWithdrawals/seeds_0_99: failure" \
  "SIM_TEST: the flipped replay replays a failure"
echo PASS

# The race detector (on by default) reports a data race as a failure: two
# threads doing `hits++` on a plain int, which pass every seed with races=0.
# Three ways for the mutex edge (none, the same mutex, a mutex each), and
# the edges of thread start, join and an atomic flag, which order what they
# publish and must not be reported.
source "$(dirname "$0")/lib.sh"
cat > "$TEST_TMP/hits.cpp" <<'CPP'
#include <atomic>
#include <mutex>
#include <thread>
int hits = 0;
std::mutex shared_mutex, other_mutex;
std::atomic<bool> published{false};
int main() {
#if VARIANT == 0  // no lock
  auto work = [](int) { for (int i = 0; i < 3; ++i) hits++; };
#elif VARIANT == 1  // one mutex
  auto work = [](int) { for (int i = 0; i < 3; ++i) { std::lock_guard guard(shared_mutex); hits++; } };
#elif VARIANT == 2  // a mutex each: half fixed
  auto work = [](int which) {
    std::mutex& mine = which == 0 ? shared_mutex : other_mutex;
    for (int i = 0; i < 3; ++i) { std::lock_guard guard(mine); hits++; }
  };
#else  // start, join and a release/acquire flag order every access
  hits = 1;  // before the threads start
  auto work = [](int which) {
    if (which == 0) {
      hits = 2;
      published.store(true, std::memory_order_release);
    } else {
      while (!published.load(std::memory_order_acquire)) std::this_thread::yield();
      hits = hits + 1;
    }
  };
#endif
  std::thread a(work, 0), b(work, 1);
  a.join();
  b.join();
  return hits >= 1 ? 0 : 1;  // every variant passes with races=0
}
CPP
for variant in 0 1 2 3; do
  run "$SIM_BIN/sim-clang++" -std=c++20 -O1 -g -DVARIANT=$variant "$TEST_TMP/hits.cpp" -o "$TEST_TMP/hits$variant"
  expect_eq "$rc" 0 "sim-clang++ (variant $variant): $err"
  SIM_OPTIONS=races=0 run "$SIM_BIN/sim-run" --seeds 200 -- "$TEST_TMP/hits$variant"
  expect_eq "$rc" 0 "variant $variant passes with races=0: $out $err"
done
run "$SIM_BIN/sim-run" --seeds 200 -- "$TEST_TMP/hits0"
expect_eq "$rc" 1 "no lock: the race is reported: $out $err"
expect_contains "$out$err" "WARNING: simthread: data race" "a data race"
expect_contains "$out$err" "hits.cpp:9" "at the increment"
replay_line="$(sed -n 's/^ *replay: //p' <<< "$out$err" | head -1)"
(cd "$TEST_TMP" && eval "$replay_line") > "$TEST_TMP/replay.out" 2>&1
expect_eq "$?" 66 "the replay line reports it again: $replay_line"
expect_contains "$(cat "$TEST_TMP/replay.out")" "WARNING: simthread: data race" "the replay's report"
run "$SIM_BIN/sim-run" --seeds 200 -- "$TEST_TMP/hits1"
expect_eq "$rc" 0 "one mutex: no race in 200 seeds: $out $err"
run "$SIM_BIN/sim-run" --seeds 200 -- "$TEST_TMP/hits2"
expect_eq "$rc" 1 "a mutex each: the race is reported: $out $err"
expect_contains "$out$err" "WARNING: simthread: data race" "a data race"
run "$SIM_BIN/sim-run" --seeds 200 -- "$TEST_TMP/hits3"
expect_eq "$rc" 0 "start, join and a release/acquire flag: no race in 200 seeds: $out $err"
echo PASS

# thread_local variables behave per simulated thread under every seed, in
# code built by sim-clang++ at -O0 and at -O2: a thread_local int and a
# thread_local std::string, and an object whose destructor runs when its
# thread exits. The pass does not instrument thread-local accesses (they are
# not shared) but moves their addresses to the running simulated thread's
# own copy, which tls_switch=lazy needs; each mode the machine has runs it.
source "$(dirname "$0")/lib.sh"
cat > "$TEST_TMP/tls.cpp" <<'CPP'
#include <atomic>
#include <cstdio>
#include <mutex>
#include <string>
#include <thread>
#include <vector>
std::atomic<int> destroyed{0};
struct Tracker { int id = -1; ~Tracker() { if (id >= 0) destroyed.fetch_add(1); } };
thread_local int counter = 0;
thread_local std::string name = "unset";
thread_local Tracker tracker;
std::mutex m;
int shared_total = 0;
int main() {
  std::vector<std::thread> threads;
  std::atomic<int> wrong{0};
  for (int t = 0; t < 3; ++t) {
    threads.emplace_back([t, &wrong] {
      tracker.id = t;
      name = "thread-" + std::to_string(t);
      for (int i = 0; i < 5; ++i) {
        ++counter;
        std::lock_guard g(m);  // a scheduling point between the increments
        ++shared_total;
      }
      if (counter != 5 || name != "thread-" + std::to_string(t)) wrong.fetch_add(1);
    });
  }
  for (auto& thread : threads) thread.join();
  if (wrong != 0 || counter != 0 || name != "unset" || destroyed != 3 || shared_total != 15) {
    std::fprintf(stderr, "wrong=%d counter=%d name=%s destroyed=%d total=%d\n", wrong.load(), counter, name.c_str(),
                 destroyed.load(), shared_total);
    return 1;
  }
  return 0;
}
CPP
for level in -O0 -O2; do
  run "$SIM_BIN/sim-clang++" -std=c++20 "$level" -g "$TEST_TMP/tls.cpp" -o "$TEST_TMP/tls$level"
  expect_eq "$rc" 0 "compile at $level: $err"
  for mode in $(tls_switch_modes); do
    SIM_OPTIONS=tls_switch=$mode run "$SIM_BIN/sim-run" --seeds 300 -- "$TEST_TMP/tls$level"
    expect_eq "$rc" 0 "300 seeds at $level, tls_switch=$mode: $out"
    expect_contains "$out" "sim-run: 300 seeds passed" "at $level, tls_switch=$mode"
  done
done
echo PASS

# What exit() runs after main returns races with a thread nothing joined
# (issue 30): natively a detached thread goes on while the atexit and
# on_exit handlers and the static destructors run, so T0 runs them in the
# world. Three-way: a detached thread counts while an atexit handler reads
# the count (BUGGY), or main waits for a flag the thread raises before it
# counts (HALF_FIXED): both reported, with the handler as one access, and
# replayed; FIXED raises the flag after counting, and passes. Then an
# on_exit handler and a static destructor, and a program whose thread is
# joined, whose handlers run as before.
source "$(dirname "$0")/lib.sh"
cd "$TEST_TMP"
cat > count.cpp <<'CPP'
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <thread>
int count = 0;
std::atomic<bool> counting{false};
void PrintCount() { std::printf("count %d\n", count); }
void Count() {
#if defined(HALF_FIXED)
  counting.store(true, std::memory_order_release);
#endif
  count = count + 1;
#if defined(FIXED)
  counting.store(true, std::memory_order_release);
#endif
}
int main() {
  std::atexit(PrintCount);
  std::thread(Count).detach();
#if defined(HALF_FIXED) || defined(FIXED)
  while (!counting.load(std::memory_order_acquire)) std::this_thread::yield();
#endif
  return 0;
}
CPP
build_variants count.cpp count BUGGY HALF_FIXED FIXED
for variant in BUGGY HALF_FIXED; do
  run "$SIM_BIN/sim-run" --seeds 100 -- "./count_$variant"
  expect_eq "$rc" 1 "$variant: the race fails a seed: $out $err"
  report="$out$err"
  expect_matches "$report" "by thread T0:
    #0 PrintCount\(\) .*count.cpp:7" "$variant: the atexit handler's read"
  expect_matches "$report" "by thread T1:
    #0 Count\(\) .*count.cpp:1[0-9]" "$variant: the thread's write"
  expect_matches "$report" "Location is global 'count' of size 4" "$variant: the count"
  expect_race_replays "$report" "$variant"
done
run "$SIM_BIN/sim-run" --seeds 1000 -- ./count_FIXED
expect_eq "$rc" 0 "FIXED: no race in 1000 seeds: $out $err"
SIM_OPTIONS=seed=3 run ./count_FIXED
expect_eq "$rc:$out" "0:count 1" "FIXED: the handler ran once, after the count"

# An on_exit handler and a static destructor of the executable.
cat > teardown.cpp <<'CPP'
#include <stdlib.h>
#include <string>
#include <thread>
#if defined(ON_EXIT)
int last_status = -1;
void Remember(int status, void*) { last_status = status; }
void Touch() { last_status = 7; }
#else
struct Registry {
  std::string name = "registry";
  ~Registry() { name.clear(); }
} registry;
void Touch() { registry.name[0] = 'R'; }
#endif
int main() {
#if defined(ON_EXIT)
  on_exit(Remember, nullptr);
#endif
  std::thread(Touch).detach();
  return 0;
}
CPP
for how in ON_EXIT STATIC_DESTRUCTOR; do
  run "$SIM_BIN/sim-clang++" -std=c++20 -O1 -g -D$how teardown.cpp -o "teardown_$how"
  expect_eq "$rc" 0 "sim-clang++ -D$how: $err"
  run "$SIM_BIN/sim-run" --seeds 100 -- "./teardown_$how"
  expect_eq "$rc" 1 "$how: the race fails a seed: $out $err"
  expect_contains "$out$err" ": data race" "$how: a data race"
  expect_matches "$out$err" "by thread T1:
    #0 Touch\(\) .*teardown.cpp:(7|13)" "$how: the thread's write"
done

# A joined thread: what it did happens before the handlers, which run
# outside the world as they always have.
cat > joined.cpp <<'CPP'
#include <cstdio>
#include <cstdlib>
#include <thread>
int count = 0;
void PrintCount() { std::printf("count %d\n", count); }
int main() {
  std::atexit(PrintCount);
  std::thread([] { count = 1; }).join();
}
CPP
run "$SIM_BIN/sim-clang++" -std=c++20 -O1 -g joined.cpp -o joined
run "$SIM_BIN/sim-run" --seeds 200 -- ./joined
expect_eq "$rc" 0 "joined: no race: $out $err"
echo PASS

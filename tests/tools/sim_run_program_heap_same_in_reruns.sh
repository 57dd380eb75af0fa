# The program's heap is the same in every process that runs a seed: the
# seed's own run, the rerun that checks it is deterministic, each shrinking
# candidate and the told rerun. Each keeps other records (decisions, the
# whole trace) and parses other SIM_OPTIONS; when those came from the
# program's heap, the program's blocks sat elsewhere in each, and a failure
# that depends on them (a use after free, glibc noticing a double free) came
# and went between the processes that were to shrink it. The runtime now
# allocates from a heap of its own (runtime/core/runtime_heap.h).
source "$(dirname "$0")/lib.sh"
cat > "$TEST_TMP/heap_probe.cpp" <<'CPP'
#include <malloc.h>
#include <cstdio>
#include <cstdlib>
#include <atomic>
#include <thread>
std::atomic<int> shared;  // atomic: a data race would end the run before main's failure
int main() {
  struct mallinfo2 before = mallinfo2();
  void* large = std::malloc(4096);
  void* small = std::malloc(24);
  std::thread writer([] { shared.store(1, std::memory_order_relaxed); });
  shared.store(2, std::memory_order_relaxed);
  writer.join();
  void* after = std::malloc(4096);
  if (FILE* log = std::fopen(std::getenv("HEAP_LOG"), "a")) {
    std::fprintf(log, "in_use_before_main=%zu large=%p small=%p after_threads=%p\n", before.uordblks, large, small,
                 after);
    std::fclose(log);
  }
  return 1;  // a failure, so that sim-run reruns the seed and shrinks it
}
CPP
run "$SIM_BIN/sim-clang++" -std=c++20 -O1 "$TEST_TMP/heap_probe.cpp" -o "$TEST_TMP/heap_probe"
expect_eq "$rc" 0 "sim-clang++: $err"
HEAP_LOG="$TEST_TMP/heap.log" SIM_OPTIONS=strategy=random run "$SIM_BIN/sim-run" --seeds 1 -- "$TEST_TMP/heap_probe"
expect_eq "$rc" 1 "sim-run reports main's failure: $out $err"
runs="$(wc -l < "$TEST_TMP/heap.log")"
(( runs >= 4 )) || fail "the seed, its rerun, candidates and the told run each logged: $(cat "$TEST_TMP/heap.log")"
expect_eq "$(sort -u "$TEST_TMP/heap.log" | wc -l)" 1 "one heap in all $runs processes: $(cat "$TEST_TMP/heap.log")"
echo PASS

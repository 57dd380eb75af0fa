# A program that links its own allocator statically replaces malloc and
# free; the runtime's free interceptor (which hands blocks of the runtime's
# own heap back to it) is then not the process's free, so the runtime heap
# stays off and the runtime allocates with the program's malloc, as it did
# before it had a heap of its own. The program runs, passes and fails as
# before; without the check, the program's free would get the runtime's
# blocks (a report the runtime built and a test destroys) and crash.
source "$(dirname "$0")/lib.sh"
# The allocator both programs link: glibc's, under the program's own names.
cat > "$TEST_TMP/own_allocator.h" <<'CPP'
#include <cstddef>
extern "C" {
void* __libc_malloc(std::size_t);
void* __libc_calloc(std::size_t, std::size_t);
void* __libc_realloc(void*, std::size_t);
void __libc_free(void*);
// An allocator linked in is not instrumented (a library built without
// sim-clang++): its accesses are not the program's.
#define NOT_INSTRUMENTED __attribute__((disable_sanitizer_instrumentation))
std::size_t calls;  // not atomic: every thread is a fiber on one OS thread
NOT_INSTRUMENTED void* malloc(std::size_t size) { ++calls; return __libc_malloc(size); }
NOT_INSTRUMENTED void* calloc(std::size_t count, std::size_t size) { ++calls; return __libc_calloc(count, size); }
NOT_INSTRUMENTED void* realloc(void* block, std::size_t size) { ++calls; return __libc_realloc(block, size); }
NOT_INSTRUMENTED void free(void* block) { __libc_free(block); }
}
CPP
cat > "$TEST_TMP/own_allocator.cpp" <<'CPP'
#include <cstdio>
#include <thread>
#include "own_allocator.h"
int counter;
int main() {
  const std::size_t before = calls;
  std::thread a([] { counter = counter + 1; }), b([] { counter = counter + 1; });
  a.join();
  b.join();
  std::printf("allocations during main: %zu\n", calls - before);
  return counter == 2 ? 0 : 1;
}
CPP
run "$SIM_BIN/sim-clang++" -std=c++20 -O1 "$TEST_TMP/own_allocator.cpp" -o "$TEST_TMP/own_allocator"
expect_eq "$rc" 0 "sim-clang++: $err"
# races=0 throughout: the two unlocked increments race on purpose, and this
# test is about the allocator under the lost update they make.
SIM_OPTIONS=seed=0:races=0 run "$TEST_TMP/own_allocator"
expect_eq "$rc" 0 "seed 0 passes: $out $err"
expect_contains "$out" "allocations during main:" "the program's allocator ran"
SIM_OPTIONS=races=0 run "$SIM_BIN/sim-run" --seeds 200 -- "$TEST_TMP/own_allocator"
expect_eq "$rc" 1 "sim-run finds the lost update with the program's allocator: $out $err"
expect_contains "$out$err" "main returned 1" "as the failure main reports"
expect_contains "$out$err" "preemptions: 1 (shrunk from" "shrunk as before"

# explore() hands the program a report the runtime built; the program's own
# free destroys it. From the runtime's heap, __libc_free would abort on it.
cat > "$TEST_TMP/own_allocator_explore.cpp" <<'CPP'
#include <cstdio>
#include <string>
#include <thread>
#include "own_allocator.h"
#include "sim/sim.h"
int main() {
  std::string rendered;
  {
    auto report = sim::explore([] {
      int counter = 0;
      std::thread a([&] { counter = counter + 1; }), b([&] { counter = counter + 1; });
      a.join();
      b.join();
      if (counter != 2) sim::fail("lost update");
    }, {.seeds = 200, .races = 0});
    if (!report) return 1;
    rendered = report->render() + report->schedule;
  }  // the report's strings, freed here by the program's free
  std::fputs(rendered.c_str(), stderr);
  return 0;
}
CPP
run "$SIM_BIN/sim-clang++" -fno-sim-whole-program -std=c++20 -O1 "$TEST_TMP/own_allocator_explore.cpp" \
  -o "$TEST_TMP/own_allocator_explore"
expect_eq "$rc" 0 "sim-clang++: $err"
run "$TEST_TMP/own_allocator_explore"
expect_eq "$rc" 0 "explore() finds the lost update, and the program frees its report: $out $err"
expect_contains "$err" "WARNING: simthread" "the report"
echo PASS

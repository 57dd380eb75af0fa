#!/usr/bin/env bash
# build_as_subproject.sh SOURCE_DIR: simthread built inside another project.
# examples/cmake-consumer pulls the checkout in with FetchContent and gets the
# same targets as from the installed package: its SIM_TEST chunks pass for
# the correct account and fail for the split-check mutant, and its whole
# program passes the sub-build's sim-run. A project that add_subdirectory()s
# the checkout explores an unlocked counter with simthread::whole_program
# (sim-run finds it) and simthread::runtime (sim::explore finds it). A parent
# project compiling with g++ is told to use clang 19.
set -euo pipefail
source_dir="$1"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
clang19=(-G Ninja -DCMAKE_CXX_COMPILER=clang++-19 -DCMAKE_C_COMPILER=clang-19)

# FetchContent.
fetch="$work/fetch"
cmake -S "$source_dir/examples/cmake-consumer" -B "$fetch" "${clang19[@]}" -DSIMTHREAD_SOURCE_DIR="$source_dir" \
  > "$work/fetch.log" 2>&1 || { cat "$work/fetch.log"; fail "configure with FetchContent"; }
cmake --build "$fetch" >> "$work/fetch.log" 2>&1 || { cat "$work/fetch.log"; fail "build with FetchContent"; }
listed="$(ctest --test-dir "$fetch" -N)"
[[ "$listed" == *"Account.TwoTellersNeverOverdraw/seeds_0_99"* &&
   "$listed" == *"Account.TwoTellersNeverOverdraw/seeds_100_199"* ]] || fail "expected two chunk tests: $listed"
[[ "$listed" != *"runtime"* && "$listed" != *"cookbook"* ]] || fail "simthread's own tests leaked into the parent: $listed"
ctest --test-dir "$fetch" --output-on-failure > "$work/fetch.ctest.log" 2>&1 ||
  { cat "$work/fetch.ctest.log"; fail "the correct account failed"; }
sim_run="$fetch/_deps/simthread-build/bin/sim-run"
"$sim_run" --seeds 200 -- "$fetch/bank" | grep -q "sim-run: 200 seeds passed" || fail "sim-run on the consumer's bank"
cmake "$fetch" -DACCOUNT_SPLIT_CHECK=ON > "$work/mutant.log" 2>&1 && cmake --build "$fetch" >> "$work/mutant.log" 2>&1 ||
  { cat "$work/mutant.log"; fail "rebuild as the split-check mutant"; }
if ctest --test-dir "$fetch" --output-on-failure > "$work/mutant.ctest.log" 2>&1; then
  fail "the split-check mutant passed its SIM_TEST"
fi
grep -q "WARNING: simthread: failure" "$work/mutant.ctest.log" || fail "no report for the mutant: $(cat "$work/mutant.ctest.log")"

# add_subdirectory.
mkdir -p "$work/sub/src"
cat > "$work/sub/src/CMakeLists.txt" <<CMAKE
cmake_minimum_required(VERSION 3.25)
project(counter_project LANGUAGES C CXX)
set(CMAKE_CXX_STANDARD 20)
add_subdirectory("$source_dir" simthread)
add_executable(counter counter.cpp)
target_link_libraries(counter PRIVATE simthread::whole_program)
add_executable(explore_counter explore_counter.cpp)
target_link_libraries(explore_counter PRIVATE simthread::runtime)
CMAKE
cat > "$work/sub/src/counter.cpp" <<'CPP'
#include <thread>
int counter = 0;
int main() {
  std::thread a([] { ++counter; });
  std::thread b([] { ++counter; });
  a.join();
  b.join();
  return counter == 2 ? 0 : 1;
}
CPP
# Without the pass only intercepted calls are scheduling points: the race
# window is a mutex released between the read and the write.
cat > "$work/sub/src/explore_counter.cpp" <<'CPP'
#include <cstdio>
#include <mutex>
#include <thread>
#include <sim/sim.h>
int main() {
  auto report = sim::explore([] {
    std::mutex mutex;
    int counter = 0;
    auto increment = [&] {
      mutex.lock();
      int seen = counter;
      mutex.unlock();
      mutex.lock();
      counter = seen + 1;
      mutex.unlock();
    };
    std::thread a(increment);
    std::thread b(increment);
    a.join();
    b.join();
    if (counter != 2) sim::fail("lost update");
  });
  if (!report) return 0;
  std::fputs(report->render().c_str(), stderr);
  return 1;
}
CPP
cmake -S "$work/sub/src" -B "$work/sub/build" "${clang19[@]}" > "$work/sub.log" 2>&1 ||
  { cat "$work/sub.log"; fail "configure with add_subdirectory"; }
cmake --build "$work/sub/build" --target counter explore_counter sim-run >> "$work/sub.log" 2>&1 ||
  { cat "$work/sub.log"; fail "build with add_subdirectory"; }
if "$work/sub/build/simthread/bin/sim-run" --seeds 1000 -- "$work/sub/build/counter" > "$work/sub.run" 2>&1; then
  fail "sim-run did not find the unlocked counter linked with simthread::whole_program"
fi
grep -q "sim-run: failed at seed" "$work/sub.run" || fail "$(cat "$work/sub.run")"
if "$work/sub/build/explore_counter" > "$work/explore.run" 2>&1; then
  fail "sim::explore did not find the lost update linked with simthread::runtime"
fi
grep -q "lost update" "$work/explore.run" || fail "$(cat "$work/explore.run")"

# A parent project on another compiler gets told what to do.
if cmake -S "$work/sub/src" -B "$work/gcc" -G Ninja -DCMAKE_CXX_COMPILER=g++ -DCMAKE_C_COMPILER=gcc \
     > "$work/gcc.log" 2>&1; then
  fail "a g++ parent project configured simthread"
fi
grep -q "CMAKE_CXX_COMPILER=clang++-19" "$work/gcc.log" || fail "no advice for the g++ parent: $(cat "$work/gcc.log")"
echo PASS

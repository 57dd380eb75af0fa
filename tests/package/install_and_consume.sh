#!/usr/bin/env bash
# install_and_consume.sh BUILD_DIR SOURCE_DIR: `cmake --install` into a
# temporary prefix; an outside project (examples/cmake-consumer) finds it
# with find_package(simthread CONFIG), builds instrumented targets, discovers
# SIM_TEST chunks with simthread_discover_tests and runs them (the correct
# account passes, the split-check mutant fails); its whole program passes
# sim-run from the prefix; and a project compiled with
# CMAKE_CXX_COMPILER=<prefix>/bin/sim-clang++ builds and finds a race.
set -euo pipefail
build="$1"
source_dir="$2"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

cmake --install "$build" --prefix "$work/prefix" > /dev/null
prefix="$work/prefix"
[[ -x "$prefix/bin/sim-clang++" && -f "$prefix/lib/libsimrt.a" && -f "$prefix/lib/libSimPass.so" &&
   -f "$prefix/include/sim/sim.h" && -f "$prefix/lib/cmake/simthread/simthreadConfig.cmake" ]] ||
  fail "the install is missing files: $(find "$prefix" -type f | sort)"

configure_consumer() {  # dir extra-args...
  local dir="$1"; shift
  cmake -S "$source_dir/examples/cmake-consumer" -B "$dir" -G Ninja -DCMAKE_CXX_COMPILER=clang++-19 \
    -DCMAKE_PREFIX_PATH="$prefix" "$@" > "$dir.configure.log" 2>&1 || { cat "$dir.configure.log"; fail "configure"; }
  cmake --build "$dir" > "$dir.build.log" 2>&1 || { cat "$dir.build.log"; fail "build"; }
}

configure_consumer "$work/correct"
listed="$(ctest --test-dir "$work/correct" -N)"
[[ "$listed" == *"Account.TwoTellersNeverOverdraw/seeds_0_99"* &&
   "$listed" == *"Account.TwoTellersNeverOverdraw/seeds_100_199"* ]] || fail "expected two chunk tests: $listed"
ctest --test-dir "$work/correct" --output-on-failure > "$work/correct.ctest.log" || { cat "$work/correct.ctest.log"; fail "the correct account failed"; }
"$prefix/bin/sim-run" --seeds 200 -- "$work/correct/bank" | grep -q "sim-run: 200 seeds passed" || fail "sim-run on the consumer's bank"

configure_consumer "$work/mutant" -DACCOUNT_SPLIT_CHECK=ON
if ctest --test-dir "$work/mutant" --output-on-failure > "$work/mutant.ctest.log" 2>&1; then
  fail "the split-check mutant passed its SIM_TEST"
fi
grep -q "WARNING: simthread: failure" "$work/mutant.ctest.log" || fail "no report for the mutant: $(cat "$work/mutant.ctest.log")"

# Whole-project use: the wrapper as the compiler of a plain CMake project.
mkdir -p "$work/whole/src"
cat > "$work/whole/src/CMakeLists.txt" <<'CMAKE'
cmake_minimum_required(VERSION 3.25)
project(whole LANGUAGES CXX)
set(CMAKE_CXX_STANDARD 20)
add_executable(counter counter.cpp)
CMAKE
cat > "$work/whole/src/counter.cpp" <<'CPP'
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
cmake -S "$work/whole/src" -B "$work/whole/build" -G Ninja -DCMAKE_CXX_COMPILER="$prefix/bin/sim-clang++" \
  > "$work/whole.log" 2>&1 || { cat "$work/whole.log"; fail "configure with sim-clang++ as the compiler"; }
cmake --build "$work/whole/build" >> "$work/whole.log" 2>&1 || { cat "$work/whole.log"; fail "build with sim-clang++"; }
if "$prefix/bin/sim-run" --seeds 1000 -- "$work/whole/build/counter" > "$work/whole.run" 2>&1; then
  fail "sim-run did not find the unlocked counter in a project compiled with sim-clang++"
fi
grep -q "sim-run: failed at seed" "$work/whole.run" || fail "$(cat "$work/whole.run")"
echo PASS

# tls_switch: which mode a program built by sim-clang++ runs under, and what
# it says. Lazy mode is exact only when every thread-local outside libc and
# libstdc++ was built with the pass, so a file compiled without sim-clang++
# or a prebuilt shared library with thread-locals makes auto choose an eager
# mode, and a forced lazy is refused, naming the thread-local in the way.
# When the choice pays a system call per switch, the program says so once.
source "$(dirname "$0")/lib.sh"
hwcap2=$(LD_SHOW_AUXV=1 /bin/true | awk '/AT_HWCAP2/ {print $2}')
if (( ${hwcap2:-0} & 2 )); then eager=wrfsbase; else eager=syscall; fi

cat > "$TEST_TMP/main.cpp" <<'CPP'
#include <mutex>
#include <thread>
thread_local int mine = 0;
int other_module_value();
std::mutex m;
int total = 0;
int main() {
  auto work = [] {
    for (int i = 0; i < 3; ++i) {
      ++mine;
      std::lock_guard g(m);
      total += other_module_value();
    }
  };
  std::thread a(work), b(work);
  a.join();
  b.join();
  return mine == 0 ? 0 : 1;
}
CPP
cat > "$TEST_TMP/explore.cpp" <<'CPP'
#include <sim/sim.h>
#include <mutex>
#include <thread>
thread_local int mine = 0;
std::mutex m;
int total = 0;
int main() {
  auto report = sim::explore(
      [] {
        auto work = [] {
          for (int i = 0; i < 3; ++i) {
            ++mine;
            std::lock_guard g(m);
            ++total;
          }
        };
        std::thread a(work), b(work);
        a.join();
        b.join();
        if (mine != 0) sim::fail("T0's thread_local changed");
      },
      {.seeds = 50});
  return report ? 1 : 0;
}
CPP
cat > "$TEST_TMP/plain.cpp" <<'CPP'
int other_module_value() { return 1; }
CPP
cat > "$TEST_TMP/plain_tls.cpp" <<'CPP'
thread_local int built_without_the_pass = 0;
int other_module_value() { return ++built_without_the_pass; }
CPP

run "$SIM_BIN/sim-clang++" -std=c++20 -O1 "$TEST_TMP/main.cpp" "$TEST_TMP/plain.cpp" -o "$TEST_TMP/all_instrumented"
expect_eq "$rc" 0 "build all_instrumented: $err"
run "$SIM_BIN/sim-clang++" -std=c++20 -O1 -fno-sim-whole-program "$TEST_TMP/explore.cpp" -o "$TEST_TMP/explore"
expect_eq "$rc" 0 "build explore: $err"
clang++-19 -std=c++20 -O1 -c "$TEST_TMP/plain_tls.cpp" -o "$TEST_TMP/plain_tls.o"
run "$SIM_BIN/sim-clang++" -std=c++20 -O1 "$TEST_TMP/main.cpp" "$TEST_TMP/plain_tls.o" -o "$TEST_TMP/mixed"
expect_eq "$rc" 0 "build mixed: $err"
clang++-19 -std=c++20 -O1 -shared -fPIC "$TEST_TMP/plain_tls.cpp" -o "$TEST_TMP/libprebuilt.so"
run "$SIM_BIN/sim-clang++" -std=c++20 -O1 "$TEST_TMP/main.cpp" -L"$TEST_TMP" -lprebuilt -Wl,-rpath,"$TEST_TMP" \
  -o "$TEST_TMP/with_library"
expect_eq "$rc" 0 "build with_library: $err"
# As Debian ships libraries: no .symtab, and .dynsym names only exported
# thread-locals, so the library's static ones cannot be told apart.
mkdir -p "$TEST_TMP/stripped"
sed 's/^thread_local int/static thread_local int/' "$TEST_TMP/plain_tls.cpp" > "$TEST_TMP/stripped/plain_tls.cpp"
clang++-19 -std=c++20 -O1 -shared -fPIC "$TEST_TMP/stripped/plain_tls.cpp" -o "$TEST_TMP/stripped/libprebuilt.so"
strip "$TEST_TMP/stripped/libprebuilt.so"
run "$SIM_BIN/sim-clang++" -std=c++20 -O1 "$TEST_TMP/main.cpp" -L"$TEST_TMP/stripped" -lprebuilt \
  -Wl,-rpath,"$TEST_TMP/stripped" -o "$TEST_TMP/with_stripped_library"
expect_eq "$rc" 0 "build with_stripped_library: $err"

# help=1 says what auto chooses here, and why.
SIM_OPTIONS=help=1 run "$TEST_TMP/all_instrumented"
if [[ $eager == wrfsbase ]]; then
  expect_contains "$err" "tls_switch=auto runs as wrfsbase here" "help, all instrumented"
else
  expect_contains "$err" "tls_switch=auto runs as lazy here" "help, all instrumented"
fi
SIM_OPTIONS=help=1 run "$TEST_TMP/mixed"
expect_contains "$err" "tls_switch=auto runs as $eager here" "help, mixed"
SIM_OPTIONS=help=1:tls_switch=lazy run "$TEST_TMP/mixed"
expect_contains "$err" "the executable has thread-locals not built with sim-clang++: built_without_the_pass" \
  "help names the uninstrumented thread-local"

# Every mode the machine has runs the instrumented program correctly, and
# the report JSON names the mode that ran.
for mode in $(tls_switch_modes); do
  SIM_OPTIONS=tls_switch=$mode:seed=1:report_json=$TEST_TMP/$mode.json run "$TEST_TMP/all_instrumented"
  expect_eq "$rc" 0 "tls_switch=$mode: $err"
  expect_eq "$(json_field "$TEST_TMP/$mode.json" 'j["tls_switch"]')" "$mode" "report_json under tls_switch=$mode"
  SIM_OPTIONS=tls_switch=$mode:report_json=$TEST_TMP/$mode.explore.json run "$TEST_TMP/explore"
  expect_eq "$rc" 0 "explore() under tls_switch=$mode: $err"
  expect_eq "$(json_field "$TEST_TMP/$mode.explore.json" 'j["tls_switch"]')" "$mode" "explore()'s report_json, $mode"
done
# The mode changes how fast a switch is, never which execution runs.
hashes=$(for mode in $(tls_switch_modes); do json_field "$TEST_TMP/$mode.json" 'j["trace_hash"]'; done | sort -u)
expect_eq "$(wc -l <<<"$hashes")" 1 "one trace hash for seed 1 under every mode: $hashes"
SIM_OPTIONS=seed=1:report_json=$TEST_TMP/mixed.json run "$TEST_TMP/mixed"
expect_eq "$(json_field "$TEST_TMP/mixed.json" 'j["tls_switch"]')" "$eager" "report_json of mixed under auto"

# A forced mode that cannot be exact here is refused, naming what is in the way.
SIM_OPTIONS=tls_switch=lazy run "$TEST_TMP/mixed"
expect_eq "$rc" 2 "lazy forced on mixed"
expect_contains "$err" "tls_switch=lazy: lazy mode cannot be exact: the executable has thread-locals not built with sim-clang++: built_without_the_pass" "lazy forced on mixed"
SIM_OPTIONS=tls_switch=lazy run "$TEST_TMP/with_library"
expect_eq "$rc" 2 "lazy forced with a prebuilt library"
expect_contains "$err" "libprebuilt.so has thread-locals not built with sim-clang++: built_without_the_pass" \
  "lazy forced with a prebuilt library"
SIM_OPTIONS=tls_switch=lazy run "$TEST_TMP/with_stripped_library"
expect_eq "$rc" 2 "lazy forced with a stripped prebuilt library"
expect_contains "$err" "stripped/libprebuilt.so has thread-locals, and no symbol table to tell whether sim-clang++ built them" \
  "lazy forced with a stripped prebuilt library"
SIM_OPTIONS=tls_switch=fastest run "$TEST_TMP/all_instrumented"
expect_eq "$rc" 2 "unknown mode"
expect_contains "$err" "option 'tls_switch' is auto, lazy, wrfsbase or syscall, got 'fastest'" "unknown mode"
if [[ $eager == syscall ]]; then
  SIM_OPTIONS=tls_switch=wrfsbase run "$TEST_TMP/all_instrumented"
  expect_eq "$rc" 2 "wrfsbase forced without FSGSBASE"
  expect_contains "$err" "no FSGSBASE in AT_HWCAP2" "wrfsbase forced without FSGSBASE"
fi

# A system call per switch is said once per process, with its cost and the way out.
SIM_OPTIONS=tls_switch=syscall run "$TEST_TMP/explore"
expect_eq "$rc" 0 "50 seeds under syscall: $err"
expect_eq "$(grep -c 'makes a system call here' <<<"$err")" 1 "the system-call notice, once in 50 executions"
expect_contains "$err" "tls_switch=syscall was asked for; tls_switch=auto avoids it where it can" "forced syscall notice"
# sim-run shows a child's stderr only for a failing seed, so it passes the
# notice on itself, once for the whole sweep.
SIM_OPTIONS=tls_switch=syscall run "$SIM_BIN/sim-run" --seeds 20 -- "$TEST_TMP/all_instrumented"
expect_eq "$rc" 0 "sim-run under syscall: $out $err"
expect_eq "$(grep -c 'makes a system call here' <<<"$out$err")" 1 "sim-run says the notice once in 20 processes"
# SIM_TEST runs its executions in worker processes (a new one per chunk
# here): the test's process says it, once, not each worker.
cat > "$TEST_TMP/chunks_test.cpp" <<'CPP'
#include <thread>
#include <sim/gtest.h>
thread_local int mine = 0;
SIM_TEST(Chunks, EachThreadCountsItsOwn) {
  std::thread a([] { ++mine; }), b([] { ++mine; });
  a.join();
  b.join();
  EXPECT_EQ(mine, 0);
}
CPP
run "$SIM_BIN/sim-clang++" --sim-gtest -std=c++20 -O1 "$TEST_TMP/chunks_test.cpp" -o "$TEST_TMP/chunks_test"
expect_eq "$rc" 0 "build chunks_test: $err"
SIM_OPTIONS=tls_switch=syscall run "$TEST_TMP/chunks_test" --sim_seeds=100 --sim_chunk=10
expect_eq "$rc" 0 "SIM_TEST under syscall: $out $err"
expect_contains "$out" "[  PASSED  ] 10 tests" "ten chunks, each a worker"
expect_eq "$(grep -c 'makes a system call here' <<<"$out$err")" 1 "the notice, once for ten workers"
if [[ $eager == syscall ]]; then
  SIM_OPTIONS=seed=5 run "$TEST_TMP/with_library"
  expect_eq "$rc" 0 "with_library under auto: $err"
  expect_contains "$err" "ns each, measured): this CPU or kernel does not allow wrfsbase" "auto's notice"
  expect_contains "$err" "libprebuilt.so has thread-locals not built with sim-clang++: built_without_the_pass" \
    "auto's notice names the library"
  SIM_OPTIONS=seed=5 run "$TEST_TMP/all_instrumented"
  expect_not_contains "$err" "system call" "no notice under lazy"
fi
echo PASS

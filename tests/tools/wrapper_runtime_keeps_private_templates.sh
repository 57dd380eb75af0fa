# The runtime's own std::string code must not run the user's instrumented
# copy of the same template: here the user's code instantiates
# basic_string::_M_mutate with hooks in it, and a deadlock makes the
# scheduler build its message with std::string. Before the runtime archive
# kept private template copies, this recursed into the scheduler and hung.
source "$(dirname "$0")/lib.sh"
cat > "$TEST_TMP/deadlock_with_strings.cpp" <<'CPP'
#include <mutex>
#include <string>
#include <thread>
#include "sim/sim.h"
std::string grow(std::string text) {
  for (int i = 0; i < 4; ++i) text += " and more text than fits in the small buffer";
  return text;
}
int main() {
  auto report = sim::explore([] {
    std::mutex a, b;
    std::string log = grow("start");
    std::thread one([&] { std::lock_guard x(a); std::lock_guard y(b); log = grow(log); });
    std::thread two([&] { std::lock_guard x(b); std::lock_guard y(a); log = grow(log); });
    one.join();
    two.join();
  }, {.seeds = 200});
  if (!report) return 1;
  std::fputs(report->render().c_str(), stderr);
  return 0;
}
CPP
run "$SIM_BIN/sim-clang++" -fno-sim-whole-program -std=c++20 -O0 -g "$TEST_TMP/deadlock_with_strings.cpp" -o "$TEST_TMP/prog"
expect_eq "$rc" 0 "compile: $err"
[[ "$(nm "$TEST_TMP/prog")" == *_M_mutate* ]] || fail "the test needs the program to instantiate basic_string::_M_mutate"
run timeout -s KILL 60 "$TEST_TMP/prog"
expect_eq "$rc" 0 "explore found the deadlock and returned (137 would be a hang killed by timeout)"
expect_contains "$err" "WARNING: simthread: deadlock" "report"
expect_contains "$err" "blocked: lock mutex" "report names the blocked threads"
echo PASS

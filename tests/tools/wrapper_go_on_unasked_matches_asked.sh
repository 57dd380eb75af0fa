# A whole program's own run lets a thread go on at an access without asking
# the strategy while its answer cannot change (Choice::same_for: pct's until
# its next change point, pos's while its drawn-ahead priorities lead and no
# access races with another thread's pending one); the rerun
# that check_determinism=1 makes records every decision and so asks at every
# point. The two must be the same execution, seed by seed: a promise that
# covered one choice point too many (skipping a change point, or a time
# slice's end, a race pos would have reset a priority for) shows up here as
# "nondeterministic".
source "$(dirname "$0")/lib.sh"
cat > "$TEST_TMP/long_stretches.cpp" <<'CPP'
#include <mutex>
#include <thread>
// Long stretches of plain accesses between synchronisations, so that change
// points fall inside them, and the shared word makes each order visible in
// the trace.
int shared_total = 0;
unsigned private_counts[2][64];
std::mutex m;
void Work(unsigned self) {
  for (unsigned i = 0; i < 4000; ++i) {
    ++private_counts[self][i % 64];
    if (i % 500 == 0) {
      std::lock_guard guard(m);
      ++shared_total;
    }
    if (i % 7 == 0) shared_total = shared_total + 1;  // racy on purpose: order shows
  }
}
int main() {
  std::thread a(Work, 0), b(Work, 1);
  a.join();
  b.join();
  return 0;
}
CPP
run "$SIM_BIN/sim-clang++" -std=c++20 -O1 -g "$TEST_TMP/long_stretches.cpp" -o "$TEST_TMP/prog"
expect_eq "$rc" 0 "compile: $err"

# The default portfolio runs pos on even seeds and pct:5 on odd ones; pct:2
# has one change point.
for strategy in "portfolio:pos,pct:5" pct:2 pct:3 pos; do
  for seed in 0 1 2 3 4 5 6 7 8 9 10 11 12 13; do
    run env SIM_OPTIONS="seed=$seed:strategy=$strategy:check_determinism=1" "$TEST_TMP/prog"
    expect_eq "$rc" 0 "seed $seed of $strategy: the run without asking and its rerun asking differ: $err"
  done
done
echo PASS

# A whole program's own run lets a thread go on at an access without asking
# the strategy while its answer cannot change (Choice::same_for: pct's until
# its next change point, pos's while its next priorities lead and no access
# races with another thread's pending one); the rerun
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
# races=0: shared_total races on purpose, and the detector would end each
# run at its first race, before the long stretches whose decisions this
# compares.
races=races=0

# The default portfolio runs pos on even seeds and pct:5 on odd ones; pct:2
# has one change point.
for strategy in "portfolio:pos,pct:5" pct:2 pct:3 pos; do
  for seed in 0 1 2 3 4 5 6 7 8 9 10 11 12 13; do
    run env SIM_OPTIONS="seed=$seed:strategy=$strategy:check_determinism=1:$races" "$TEST_TMP/prog"
    expect_eq "$rc" 0 "seed $seed of $strategy: the run without asking and its rerun asking differ: $err"
  done
done
# A departure of pos from its rerun needs a coincidence (a race's reset at
# the very point where its count of leading priorities runs out: drawing its
# priorities ahead, pos departed at seeds 24, 45, 215 and 227 of the first
# 300), so pos gets many more seeds; a run takes milliseconds.
for seed in $(seq 14 299); do
  run env SIM_OPTIONS="seed=$seed:strategy=pos:check_determinism=1:$races" "$TEST_TMP/prog"
  expect_eq "$rc" 0 "seed $seed of pos: the run without asking and its rerun asking differ: $err"
done

# A thread that is the only one that can run (the other blocked on the
# mutex, or finished; main waiting in join) takes the same path until
# something may wake another: the same condition as the trusted poll
# (World::ForgetEnabled), which SIM_CHECK_ENABLED_CACHE=1 checks at every
# point and so turns that path off. With and without it, each seed must
# run the same execution.
for seed in 0 1 2 3 4 5 6 7; do
  for check in 0 1; do
    if [[ $check == 1 ]]; then
      SIM_CHECK_ENABLED_CACHE=1 SIM_OPTIONS="seed=$seed:$races:report_json=$TEST_TMP/check$check.json" "$TEST_TMP/prog" 2>/dev/null
    else
      env -u SIM_CHECK_ENABLED_CACHE SIM_OPTIONS="seed=$seed:$races:report_json=$TEST_TMP/check$check.json" "$TEST_TMP/prog" 2>/dev/null
    fi
  done
  hash_of() { sed -n 's/.*"trace_hash": "\([0-9a-f]*\)".*/\1/p' "$1"; }
  expect_eq "$(hash_of "$TEST_TMP/check0.json")" "$(hash_of "$TEST_TMP/check1.json")" \
    "seed $seed: the same trace with the trusted-poll path on and off"
  [[ -n "$(hash_of "$TEST_TMP/check0.json")" ]] || fail "seed $seed wrote no trace hash"
done
echo PASS

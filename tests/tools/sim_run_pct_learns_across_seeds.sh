# pct draws its change points from the first K choice points, K learnt from
# earlier executions. sim-run runs each seed in a process of its own, so it
# carries K itself (tools/sim-run/pct_estimates.h): a seed is given the most
# choice points any seed of an earlier batch of 16 met, as
# pct_choice_points=K, and its replay line says so. A race that only a
# change point late in the run can expose is then found; with K held at its
# first value (64, here set by the user, which sim-run leaves alone) it is
# not, and with the race fixed nothing fails. The seed found, and its replay
# line, do not depend on --jobs. The race is found as its lost update, with
# the detector off: on, it reports the race at the first seed, whatever pct's
# change points.
source "$(dirname "$0")/lib.sh"
export SIM_OPTIONS="${SIM_OPTIONS:+$SIM_OPTIONS:}races=0"
cat > "$TEST_TMP/late_race.cpp" <<'CPP'
#include <mutex>
#include <thread>
// Some 300 choice points of private work, then 100 unlocked increments:
// pct's one change point (pct:2) must fall inside the increments.
unsigned prelude[2][64];
int total = 0;
std::mutex m;
void Work(unsigned self) {
  for (unsigned i = 0; i < 300; ++i) ++prelude[self][i % 64];
  for (unsigned i = 0; i < 100; ++i) {
#ifdef FIXED
    std::lock_guard guard(m);
#endif
    const int seen = total;
    total = seen + 1;
  }
}
int main() {
  std::thread a(Work, 0), b(Work, 1);
  a.join();
  b.join();
  return total == 200 ? 0 : 1;
}
CPP
# -O0: at -O1 the compiler folds each loop into one access.
for variant in race fixed; do
  flags=()
  [[ $variant == fixed ]] && flags=(-DFIXED)
  run "$SIM_BIN/sim-clang++" -std=c++20 -O0 "${flags[@]}" "$TEST_TMP/late_race.cpp" -o "$TEST_TMP/$variant"
  expect_eq "$rc" 0 "compile $variant: $err"
done

for jobs in 1 2; do
  run "$SIM_BIN/sim-run" --strategy pct:2 --seeds 400 --jobs "$jobs" --no-shrink -- "$TEST_TMP/race"
  expect_eq "$rc" 1 "--jobs $jobs: the late race is found"
  printf '%s\n' "$out" > "$TEST_TMP/jobs$jobs.out"
done
expect_eq "$(cat "$TEST_TMP/jobs1.out")" "$(cat "$TEST_TMP/jobs2.out")" "the same seed and replay line with 1 and 2 jobs"
head -2 "$TEST_TMP/jobs1.out"
seed="$(sed -n 's/^sim-run: failed at seed \([0-9]*\) .*/\1/p' "$TEST_TMP/jobs1.out")"
(( seed >= 16 )) || fail "found at seed $seed, in the first batch, which runs with pct's first estimate"
replay="$(sed -n 's/^replay: //p' "$TEST_TMP/jobs1.out")"
expect_contains "$replay" ":pct_choice_points=" "the replay line carries the estimate"
(cd "$TEST_TMP" && eval "$replay") >/dev/null 2>&1
expect_eq "$?" 1 "the replay line reproduces the failure"

run env SIM_OPTIONS=races=0:pct_choice_points=64 "$SIM_BIN/sim-run" --strategy pct:2 --seeds 400 -- "$TEST_TMP/race"
expect_eq "$rc" 0 "with the estimate held at 64 the change point never reaches the increments: $out"
run "$SIM_BIN/sim-run" --strategy pct:2 --seeds 400 -- "$TEST_TMP/fixed"
expect_eq "$rc" 0 "the fixed program passes: $out"
echo PASS

# A sweep over a racy program with --keep-going: each distinct race (a pair
# of sites) is told in full once, at the first seed that meets it, and
# listed once with the count of seeds that met it and its replay line; the
# other seeds' races are reported in a few lines, unshrunk and unflipped
# (runtime/whole_program/known_failures.h). Each replay line runs. The
# summary does not depend on --jobs or on race_shrink=all (every seed's
# race told in full).
source "$(dirname "$0")/lib.sh"
cd "$TEST_TMP"
# Two threads write x and y in opposite orders: whichever pair of writes
# meets first without an edge is the race, so some seeds race on x and
# others on y, and the fixed program (a lock around both) races at none.
cat > two_races.cpp <<'CPP'
#include <mutex>
#include <thread>
int x = 0;
int y = 0;
std::mutex lock;
void Forwards() {
#if defined(FIXED)
  std::lock_guard guard(lock);
#endif
  x = 1;
  y = 1;
}
void Backwards() {
#if defined(FIXED)
  std::lock_guard guard(lock);
#endif
  y = 2;
  x = 2;
}
int main() {
  std::thread a(Forwards), b(Backwards);
  a.join();
  b.join();
}
CPP
build_variants two_races.cpp two_races BUGGY FIXED

seeds=120
run "$SIM_BIN/sim-run" --seeds $seeds --jobs 2 --keep-going -- ./two_races_BUGGY
expect_eq "$rc" 1 "the sweep fails: $err"
expect_contains "$out" "sim-run: $seeds of $seeds seeds failed:" "every seed races"
expect_contains "$out" "sim-run: 2 distinct failures:" "two pairs of sites"
expect_contains "$out" "  data race: Forwards() two_races.cpp:" "the race Forwards found"
expect_contains "$out" "  data race: Backwards() two_races.cpp:" "the race Backwards found"
counts="$(sed -n 's/^  data race: .* (\([0-9]*\) seeds\{0,1\}, the first [0-9]*)$/\1/p' <<< "$out")"
expect_eq "$(( $(tr '\n' '+' <<< "$counts") 0 ))" "$seeds" "the counts add up to the seeds"
# The lowest seed's report, printed above the list, is told in full.
expect_contains "$out" "  Thread T1 created by T0" "the first report names where threads were created"
expect_matches "$out" "(makes the execution fail|no failure running on past the race)" "the first report says whether the race matters"
expect_not_contains "$out" "not shrunk or flipped" "the first report is not the short one"
# Each distinct race's replay line reports that race in full.
while read -r summary; do
  replay="$(grep -A1 -F "  $summary (" <<< "$out" | sed -n 's/^    replay: //p')"
  expect_matches "$replay" "^SIM_OPTIONS=seed=[0-9]+ \./two_races_BUGGY$" "the replay line of [$summary]"
  eval "$replay" > replay.out 2>&1
  expect_eq "$?" 66 "$replay: $(cat replay.out)"
  expect_eq "$(grep -m1 '^SUMMARY' replay.out)" "SUMMARY: simthread: $summary" "$replay: the same race"
  expect_not_contains "$(cat replay.out)" "not shrunk or flipped" "$replay: told in full"
done < <(sed -n 's/^  \(data race: .*\) ([0-9]* seeds\{0,1\}, the first [0-9]*)$/\1/p' <<< "$out")
# Found as it went: each distinct race on stderr, with a replay line.
expect_eq "$(grep -c '^sim-run: seed [0-9]* failed: data race: .* (new; replay: SIM_OPTIONS=seed=[0-9]* ./two_races_BUGGY)$' <<< "$err")" 2 \
  "each distinct race said once as found: $err"

# The same summary with one job, and with every seed told in full.
printf '%s\n' "$out" > jobs2.out
run "$SIM_BIN/sim-run" --seeds $seeds --jobs 1 --keep-going -- ./two_races_BUGGY
expect_eq "$out" "$(cat jobs2.out)" "the summary does not depend on --jobs"
few=30
run "$SIM_BIN/sim-run" --seeds $few --jobs 2 --keep-going -- ./two_races_BUGGY
printf '%s\n' "$out" > first.out
SIM_OPTIONS=race_shrink=all run "$SIM_BIN/sim-run" --seeds $few --jobs 2 --keep-going -- ./two_races_BUGGY
expect_eq "$(sed -e 's/race_shrink=all://' -e 's/:race_shrink=all//' <<< "$out")" "$(cat first.out)" "race_shrink=all: the same summary"

# A seed whose race another seed of the sweep claimed: the short report,
# which still names both sites and replays by its seed.
mkdir known
SIM_OPTIONS=seed=0:known_failures=$TEST_TMP/known run ./two_races_BUGGY
expect_eq "$rc" 66 "the first seed to meet the race: $err"
printf '%s\n' "$err" > full.err
SIM_OPTIONS=seed=0:known_failures=$TEST_TMP/known run ./two_races_BUGGY
expect_eq "$rc" 66 "a later seed meeting it: $err"
expect_contains "$err" "  not shrunk or flipped: an earlier seed of this sweep met the same pair of sites and tells it (race_shrink=all tells every seed's race)" "the short report says why"
expect_contains "$err" "  Previous write of size 4 at " "the short report names the earlier access"
expect_eq "$(grep '^SUMMARY' <<< "$err")" "$(grep '^SUMMARY' full.err)" "the same SUMMARY"
expect_eq "$(grep -c 'Thread T1 created' <<< "$err")" 0 "no frame named by the symbolizer"
SIM_OPTIONS=seed=0:known_failures=$TEST_TMP/known:race_shrink=all run ./two_races_BUGGY
expect_eq "$(sed 's/:race_shrink=all//' <<< "$err")" "$(cat full.err)" "race_shrink=all tells it in full"
SIM_OPTIONS=race_shrink=some run ./two_races_BUGGY
expect_eq "$rc" 2 "race_shrink takes first or all"
expect_contains "$err" "option 'race_shrink' is first or all, got 'some'" "the error names the option"

run "$SIM_BIN/sim-run" --seeds 200 --keep-going -- ./two_races_FIXED
expect_eq "$rc" 0 "the fixed program passes: $out $err"
echo PASS

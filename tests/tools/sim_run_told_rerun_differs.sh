# A failure that its own process and the determinism rerun both see, but
# that no later rerun sees (it depends on a file, not only on its
# schedule), cannot be shrunk or told again. Before, the report was the
# failure as found with nothing said, as if it had no fewer preemptions;
# now it says it was not shrunk, why, and how many candidates answered.
source "$(dirname "$0")/lib.sh"
cat > "$TEST_TMP/first_two_runs.cpp" <<'CPP'
#include <cstdio>
#include <cstdlib>
#include <atomic>
#include <thread>
std::atomic<int> shared;  // atomic: a data race would be its own failure, seen by every rerun
int main() {
  // The runs before this one, counted in a file: the seed's own run and
  // the rerun that checks it is deterministic fail; every later rerun passes.
  const char* path = std::getenv("RUNS_FILE");
  int runs = 0;
  if (FILE* file = std::fopen(path, "r")) {
    if (std::fscanf(file, "%d", &runs) != 1) runs = 0;
    std::fclose(file);
  }
  if (FILE* file = std::fopen(path, "w")) {
    std::fprintf(file, "%d\n", runs + 1);
    std::fclose(file);
  }
  std::thread writer([] { shared.store(1, std::memory_order_relaxed); });
  shared.store(2, std::memory_order_relaxed);
  writer.join();
  return runs < 2 ? 1 : 0;
}
CPP
run "$SIM_BIN/sim-clang++" -std=c++20 -O1 "$TEST_TMP/first_two_runs.cpp" -o "$TEST_TMP/first_two_runs"
expect_eq "$rc" 0 "sim-clang++: $err"
RUNS_FILE="$TEST_TMP/runs" SIM_OPTIONS=strategy=random run "$SIM_BIN/sim-run" --seeds 1 -- "$TEST_TMP/first_two_runs"
expect_eq "$rc" 1 "sim-run reports the failure: $out $err"
report="$out
$err"
expect_contains "$report" "main returned 1" "the failure as found"
expect_contains "$report" "not shrunk: rerunning this failure in another process passed" \
  "the report says the failure was not shrunk, and why"
answered="$(grep -o '[0-9]* of [0-9]* shrinking candidates answered' <<< "$report")"
[[ -n "$answered" ]] || fail "the note says how many candidates answered: $report"
expect_not_contains "$report" "shrunk from" "no shrunk result is claimed"
# Each run counts itself: the seed's, the determinism rerun, every
# candidate that answered (all of them passed) and the told rerun.
expect_eq "$(cat "$TEST_TMP/runs")" "$((3 + ${answered%% *}))" "runs of the program"
echo PASS

# Shrinking reaches the fewest preemptions, and says so only when it proved
# it: a data race's (the same pair of sites racing first), and a failure
# that needs two and three ordered preemptions; with its budget cut short,
# the report says how far the proof got.
# lazy_registry seed 2 races on next_id_ (the two writes of `next_id_++`):
# one preemption suffices (T1 preempted after its write, before it
# publishes the client, so T2 builds one too); the search that reduced
# orders by the races it saw never tried it, since every execution it ran
# ended first at the race on client_ (7 preemptions were reported).
source "$(dirname "$0")/lib.sh"
cd "$TEST_TMP"
program="$SIM_EXAMPLES/lazy_registry"

SIM_OPTIONS=seed=2:report_json=full.json run "$program"
expect_eq "$rc" 66 "seed 2 races: $err"
expect_eq "$(grep -m1 '^SUMMARY' <<< "$err")" \
  "SUMMARY: simthread: data race: ServiceRegistry::get_client() examples/programs/lazy_registry.cpp:20" "the race on next_id_"
expect_matches "$err" $'\n  preemptions: 1 \\(shrunk from [0-9]+\\)\n' "shrunk to the one preemption the race needs"
expect_eq "$(json_field full.json "j['preemptions'], j['minimum_at_least']")" "(1, None)" "the JSON: proven the fewest"
# The told schedule replays to the same race with that one preemption.
schedule="$(json_field full.json "j['schedule']")"
SIM_OPTIONS="schedule=$schedule" run "$program"
expect_eq "$rc" 66 "the shrunk schedule replays: $err"
expect_eq "$(grep -m1 '^SUMMARY' <<< "$err")" "$(grep -m1 '^SUMMARY' <<< "$(cat "$TEST_TMP/stderr")")" "the same race"

# A budget too small to prove it: the report says how far it got.
SIM_OPTIONS=seed=2:shrink_candidates=3:report_json=cut.json run "$program"
expect_eq "$rc" 66 "seed 2 with 3 candidates: $err"
expect_contains "$err" "  shrinking stopped at its bound of 3 candidates (shrink_candidates)" "the bound is named"
expect_matches "$err" $'\n  preemptions: [0-9]+ \\((shrunk from [0-9]+; )?(the minimum is [0-9]+ or more|not proven the fewest), budget spent\\)\n' \
  "not presented as the fewest"
expect_matches "$(json_field cut.json "j['minimum_at_least']")" "^[0-9]+$" "the JSON: how far the proof got"

# Without shrinking, no claim either way.
SIM_OPTIONS=seed=2:shrink=0 run "$program"
expect_matches "$err" $'\n  preemptions: [0-9]+\n' "shrink=0: the count alone"

# A failure that needs several ordered preemptions: two workers take turns
# on an atomic stage, and the program fails only when they alternate all
# the way (ROUNDS_A + ROUNDS_B - 2 preemptions). No schedule with one
# fewer fails (dfs), and the lowest failing seed's report is shrunk to
# exactly that many, proven.
cp "$(dirname "$0")/../../bench/programs/alternation.cpp" alternation.cpp
for rounds in "2 2" "3 2"; do
  read -r rounds_a rounds_b <<< "$rounds"
  needs=$((rounds_a + rounds_b - 2))
  binary="alternation_${rounds_a}_${rounds_b}"
  run "$SIM_BIN/sim-clang++" -std=c++20 -O1 -g -DROUNDS_A=$rounds_a -DROUNDS_B=$rounds_b alternation.cpp -o "$binary"
  expect_eq "$rc" 0 "sim-clang++: $err"
  run "$SIM_BIN/sim-run" --strategy "dfs:$((needs - 1))" -- "./$binary"
  expect_eq "$rc" 0 "$binary: no schedule with fewer than $needs preemptions fails: $out $err"
  run "$SIM_BIN/sim-run" --seeds 3000 --jobs 2 -- "./$binary"
  expect_eq "$rc" 1 "$binary: a seed fails: $out $err"
  expect_matches "$out" $'\n  preemptions: '"$needs"$' \\(shrunk from [0-9]+\\)\n' "$binary: shrunk to exactly $needs, proven"
  # The bounded phase runs a later schedule on a second core
  # (shrink_jobs, whole_program/candidates_ahead.h): the same report, the
  # same candidates counted, with one job and with two.
  replay="$(grep -m1 -o 'SIM_OPTIONS=seed=[^ ]*' <<< "$out")"
  expect_matches "$replay" "^SIM_OPTIONS=seed=[0-9]+" "$binary: sim-run's replay line"
  for jobs in 1 2; do
    env "$replay:shrink_jobs=$jobs:report_json=jobs_$jobs.json" "./$binary" > /dev/null 2> "jobs_$jobs.err"
  done
  expect_matches "$(cat jobs_1.err)" $'\n  preemptions: '"$needs"$' \\(shrunk from [0-9]+\\)\n' "$binary: shrink_jobs=1 proves it too"
  # (Its replay line carries the option as given.)
  diff <(sed 's/:shrink_jobs=1//' jobs_1.err) <(sed 's/:shrink_jobs=2//' jobs_2.err) > jobs.diff ||
    fail "$binary: the report differs by shrink_jobs: $(head jobs.diff)"
  expect_eq "$(json_field jobs_2.json "j['schedule'], j['shrink_candidates']")" \
    "$(json_field jobs_1.json "j['schedule'], j['shrink_candidates']")" "$binary: the told schedule and the candidates counted"
done

# dfs:P across processes runs ahead the same way: the same search.
for jobs in 1 2; do
  SIM_OPTIONS=shrink_jobs=$jobs run "$SIM_BIN/sim-run" --strategy dfs:2 --report-json "dfs_$jobs.json" -- ./alternation_3_2
  expect_eq "$rc" 0 "dfs:2 passes alternation_3_2 (it needs 3) with shrink_jobs=$jobs: $out $err"
done
expect_eq "$(json_field dfs_2.json "j['schedules'], j['exhausted']")" "$(json_field dfs_1.json "j['schedules'], j['exhausted']")" \
  "dfs:2's schedules by shrink_jobs"
echo PASS

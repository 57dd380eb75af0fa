# With fork servers, a seed that outlives --timeout is killed with its process
# group and reported as a hang, as a spawned one is; the lowest failing seed
# is reported whatever --jobs is, and no process is left behind.
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/fork_server_lib.sh"
for jobs in 1 3; do
  run env PROBE_HANG_AT=4 "$SIM_BIN/sim-run" --seeds 20 --jobs $jobs --timeout 0.5 --report-json "$TEST_TMP/r.json" -- "$probe"
  expect_eq "$rc" 1 "jobs $jobs: exit status"
  expect_eq "$(sed -n 1p <<< "$out")" "sim-run: failed at seed 4 (4 seeds passed first): hang (killed after 0.5 s)" "jobs $jobs: summary"
  expect_eq "$(json_field "$TEST_TMP/r.json" "j['failure']['kind']")" "hang" "jobs $jobs: kind"
  expect_eq "$err" "" "jobs $jobs: no note (the servers did not fail)"
  sleep 0.2
  pgrep -f "^$probe" > /dev/null && { pgrep -af "^$probe"; fail "jobs $jobs: processes of the program left running"; }
done
echo PASS

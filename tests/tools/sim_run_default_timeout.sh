# sim-run kills a run after 60 s by default (a whole program waiting on
# something outside the world would otherwise hang the sweep); --timeout
# sets another limit and --no-timeout removes it. The report JSON says which
# limit the sweep ran with; the kill itself is tested with a short
# --timeout (sim_run_timeout_kills_hang.sh).
source "$(dirname "$0")/lib.sh"
timeout_of() {
  run "$SIM_BIN/sim-run" --seeds 2 "$@" --report-json "$TEST_TMP/r.json" -- "$STANDIN"
  expect_eq "$rc" 0 "exit status with $*: $out"
  json_field "$TEST_TMP/r.json" "j['timeout_seconds']"
}
expect_eq "$(timeout_of)" "60" "the default limit"
expect_eq "$(timeout_of --timeout 2.5)" "2.5" "--timeout"
expect_eq "$(timeout_of --no-timeout)" "None" "--no-timeout"
run "$SIM_BIN/sim-run" --help
expect_contains "$out$err" "(default 60" "the usage names the default"
echo PASS

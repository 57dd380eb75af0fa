# SIGTERM (or Ctrl-C's SIGINT) to sim-run kills the children's process groups
# before sim-run dies of the same signal.
source "$(dirname "$0")/lib.sh"
STANDIN_FAIL_SEEDS="0 1" STANDIN_MODE=hang STANDIN_HANG_SECONDS=977 "$SIM_BIN/sim-run" --seeds 10 --jobs 2 -- "$STANDIN" > /dev/null 2>&1 &
sim_run=$!
for _ in $(seq 50); do
  [[ "$(pgrep -fc "sleep 977")" == 2 ]] && break
  sleep 0.1
done
expect_eq "$(pgrep -fc "sleep 977")" 2 "two hanging children before the signal"
kill -TERM "$sim_run"
wait "$sim_run"
expect_eq "$?" $((128 + 15)) "sim-run died of SIGTERM"
sleep 0.2
expect_eq "$(pgrep -fc "sleep 977")" 0 "children left running"
echo PASS

# SIGTERM to sim-run while a fork server's seed hangs kills the seed's process
# group and the servers before sim-run dies of the same signal.
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/fork_server_lib.sh"
PROBE_HANG_AT=0 "$SIM_BIN/sim-run" --seeds 10 --jobs 2 -- "$probe" > /dev/null 2>&1 &
sim_run=$!
# Two servers and the hanging seed (the other job's seeds come and go).
for _ in $(seq 100); do
  [[ "$(pgrep -fc "^$probe")" -ge 3 ]] && break
  sleep 0.1
done
[[ "$(pgrep -fc "^$probe")" -ge 3 ]] || fail "expected two servers and a hanging seed: $(pgrep -af "^$probe")"
kill -TERM "$sim_run"
wait "$sim_run"
expect_eq "$?" $((128 + 15)) "sim-run died of SIGTERM"
sleep 0.2
expect_eq "$(pgrep -fc "^$probe")" 0 "processes of the program left running: $(pgrep -af "^$probe")"
echo PASS

# A fork server that dies while it runs a seed (here the seed kills it) is
# reported on stderr; that seed runs again in a spawned process and the job
# spawns from then on, so no seed is lost.
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/fork_server_lib.sh"
run env PROBE_KILL_PARENT_AT=7 PROBE_LOG="$TEST_TMP/log" "$SIM_BIN/sim-run" --seeds 30 --jobs 2 -- "$probe"
expect_eq "$rc" 0 "exit status ($out $err)"
expect_eq "$out" "sim-run: 30 seeds passed" "summary"
expect_contains "$err" "sim-run: note: the fork server of $probe (pid " "a note names the server"
expect_contains "$err" ") was killed by SIGKILL while it ran seed 7; that seed runs again in a process of its own, and its job spawns a process per seed from now on" "the note says what happened and what sim-run does"
expect_eq "$(grep -c '' <<< "$err")" 1 "one note"
expect_eq "$(sed 's/ parent=.*//' "$TEST_TMP/log" | sort -t= -k2 -n | uniq)" "$(printf 'seed=%s\n' $(seq 0 29))" "every seed ran to the end"
expect_eq "$(grep -c '' "$TEST_TMP/log")" 30 "each once"
expect_eq "$(grep '^seed=7 ' "$TEST_TMP/log" | sed 's/ ppid=.*//')" "seed=7 parent=other args= stdin=0" "seed 7 ran again, spawned"
echo PASS

# A program whose static initialisation leaves a thread running cannot be
# forked faithfully (a child would lack the thread): its fork servers refuse,
# sim-run says so once and spawns every seed instead.
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/fork_server_lib.sh"
run env PROBE_STATIC_THREAD=1 PROBE_LOG="$TEST_TMP/log" "$SIM_BIN/sim-run" --seeds 12 --jobs 2 -- "$probe"
expect_eq "$rc" 0 "exit status ($out $err)"
expect_eq "$out" "sim-run: 12 seeds passed" "summary"
expect_eq "$err" "sim-run: note: $probe cannot serve: static initialisation left 2 threads running, and a forked child would have only the one that forks; spawning a process per seed instead" "one note"
expect_eq "$(grep -c 'parent=other' "$TEST_TMP/log")" 12 "every seed spawned"
echo PASS

# By default sim-run forks each seed from a fork server (the seed's parent is
# the program itself), one server per job; --no-fork-server spawns each seed
# from sim-run. Either way every seed runs once, with the program's arguments
# and stdin at EOF.
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/fork_server_lib.sh"
expected="$(for seed in $(seq 0 39); do echo "seed=$seed parent=PARENT args=a|b c stdin=0"; done)"
for mode in fork spawn; do
  flags=() parent=self parents=2
  [[ $mode == spawn ]] && flags=(--no-fork-server) parent=other parents=1
  log="$TEST_TMP/$mode.log"
  run env PROBE_LOG="$log" "$SIM_BIN/sim-run" --seeds 40 --jobs 2 "${flags[@]}" -- "$probe" a 'b c' < /dev/zero
  expect_eq "$rc" 0 "$mode: exit status ($out $err)"
  expect_eq "$out" "sim-run: 40 seeds passed" "$mode: summary"
  expect_eq "$err" "" "$mode: nothing on stderr"
  expect_eq "$(sed 's/ ppid=.*//' "$log" | sort -t= -k2 -n)" "${expected//PARENT/$parent}" \
    "$mode: each seed once, as its parent, args and stdin show"
  expect_eq "$(sed 's/.* ppid=//' "$log" | sort -u | wc -l)" "$parents" "$mode: distinct parents (--jobs 2)"
done
echo PASS

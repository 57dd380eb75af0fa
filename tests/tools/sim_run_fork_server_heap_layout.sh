# The fork server allocates nothing before it forks, so a forked seed's heap,
# large blocks (mmap) and thread stacks sit where a spawned seed's do:
# programs whose path follows addresses run alike either way. A fresh
# process (the replay line) has the same mappings; its small blocks sit a
# little apart because parsing a shorter SIM_OPTIONS (no report_json)
# allocates less, with or without a fork server.
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/fork_server_lib.sh"
run env PROBE_ADDRESSES=1 "$SIM_BIN/sim-run" --seeds 1 --no-shrink -- "$probe"
expect_eq "$rc" 1 "fork server: exit status"
forked="$(grep '^small=' <<< "$out")"
forked_out="$out"
[[ "$forked" =~ ^small=0x[0-9a-f]+\ large=0x[0-9a-f]+\ thread_stack=0x[0-9a-f]+$ ]] || fail "addresses '$forked' in $out"
run env PROBE_ADDRESSES=1 "$SIM_BIN/sim-run" --seeds 1 --no-shrink --no-fork-server -- "$probe"
expect_eq "$(grep '^small=' <<< "$out")" "$forked" "spawned seed's addresses"
forked_heap="$(grep '^heap=' <<< "$forked_out")"
[[ -n "$forked_heap" ]] || fail "no heap line in $forked_out"
expect_eq "$(grep '^heap=' <<< "$out")" "$forked_heap" "spawned seed's heap use and block addresses"
PROBE_ADDRESSES=1 SIM_OPTIONS=seed=0:shrink=0 "$probe" > /dev/null 2> "$TEST_TMP/fresh.stderr"
expect_eq "$(grep '^small=' "$TEST_TMP/fresh.stderr" | cut -d' ' -f2-)" "$(cut -d' ' -f2- <<< "$forked")" \
  "fresh process's large block and thread stack"
echo "$forked_heap"
echo "$forked"
echo PASS

# The printed replay line, pasted into a shell, runs the same seed with the
# same arguments (quoting included) and the user's SIM_OPTIONS.
source "$(dirname "$0")/lib.sh"
export STANDIN_LOG="$TEST_TMP/log" STANDIN_FAIL_SEEDS=9 STANDIN_MODE=exit
run env SIM_OPTIONS='max_steps=99 stack_size=65536' "$SIM_BIN/sim-run" --seeds 20 --strategy pct:2 -- "$STANDIN" "two words" "it's" '$HOME'
replay="$(sed -n 2p <<< "$out")"
expect_eq "$replay" "replay: SIM_OPTIONS='max_steps=99 stack_size=65536:seed=9:strategy=pct:2' $STANDIN 'two words' 'it'\\''s' '\$HOME'" "replay line"
rm -f "$STANDIN_LOG"
(cd "$TEST_TMP" && eval "${replay#replay: }") 2>/dev/null
expect_eq "$?" 1 "replayed exit status"
expect_eq "$(cat "$STANDIN_LOG")" "seed=9 options=max_steps=99 stack_size=65536:seed=9:strategy=pct:2 args=two words it's \$HOME" "replayed run"
echo PASS

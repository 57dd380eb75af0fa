# On a terminal sim-run keeps one status line on stderr (seeds done of total,
# per second, time left, failures, the strategy), redrawn in place and erased
# before the summary; when stderr is not a terminal it writes none of it.
source "$(dirname "$0")/lib.sh"
program="$SIM_EXAMPLES/correct_counter"

# script(1) gives sim-run a terminal; its output is what the terminal got.
TERM=xterm run script -qec "'$SIM_BIN/sim-run' --seeds 300 --strategy random -- '$program'" /dev/null
expect_eq "$rc" 0 "sim-run on a terminal: $out"
screen=$(tr '\r' '\n' <<<"$out")
expect_contains "$screen" "/300 seeds, " "a status line is drawn"
expect_contains "$screen" " left, 0 failed, strategy random" "the line says what is left, failures and the strategy"
# The last status line is erased (carriage return, erase to the end of the
# line) before the summary, which prints as it does anywhere else.
expect_contains "$out" $'\r\e[Ksim-run: 300 seeds passed' "the line is erased before the summary"

# Not a terminal: a CI log gets the summary alone.
run "$SIM_BIN/sim-run" --seeds 300 --strategy random -- "$program"
expect_eq "$rc" 0 "sim-run into files: $err"
expect_not_contains "$err" "seeds, " "no status line without a terminal"
expect_not_contains "$err$out" $'\r' "no carriage returns without a terminal"
expect_contains "$out$err" "sim-run: 300 seeds passed" "the summary"
echo PASS

# On a terminal sim-run keeps one status line on stderr (seeds done of total,
# per second, time left, failures, the strategy; for a bounded search the
# schedules so far), redrawn in place and erased before the summary; when
# stderr is not a terminal it writes none of it.
source "$(dirname "$0")/lib.sh"
program="$SIM_EXAMPLES/correct_counter"

# script(1) gives sim-run a terminal; its output is what the terminal got.
TERM=xterm run script -qec "'$SIM_BIN/sim-run' --seeds 300 --strategy random -- '$program'" /dev/null
expect_eq "$rc" 0 "sim-run on a terminal: $out"
screen=$(tr '\r' '\n' <<<"$out")
expect_contains "$screen" "/300 seeds, " "a status line is drawn"
# Time left is unknown until a rate is known, which a fast machine may not
# reach within 300 seeds.
expect_matches "$screen" " left( unknown)?, 0 failed, strategy random" \
  "the line says what is left, failures and the strategy"
# The last status line is erased (carriage return, erase to the end of the
# line) before the summary, which prints as it does anywhere else.
expect_contains "$out" $'\r\e[Ksim-run: 300 seeds passed' "the line is erased before the summary"

# A bounded search counts schedules (its process says how many it has run):
# the total is not known in advance.
TERM=xterm run script -qec "'$SIM_BIN/sim-run' --strategy dfs:1 --seeds 400 -- '$program'" /dev/null
expect_eq "$rc" 0 "dfs on a terminal: $out"
screen=$(tr '\r' '\n' <<<"$out")
expect_matches "$screen" "sim-run: [0-9]+ schedules, [0-9]+/s, [0-9]+s running, strategy dfs:1" "a search's status line"
expect_contains "$out" $'\r\e[Ksim-run: dfs:1: stopped after 400 schedules' "the line is erased before the search's summary"

# Not a terminal: a CI log gets the summary alone.
run "$SIM_BIN/sim-run" --seeds 300 --strategy random -- "$program"
expect_eq "$rc" 0 "sim-run into files: $err"
expect_not_contains "$err" "seeds, " "no status line without a terminal"
expect_not_contains "$err$out" $'\r' "no carriage returns without a terminal"
expect_contains "$out$err" "sim-run: 300 seeds passed" "the summary"
echo PASS

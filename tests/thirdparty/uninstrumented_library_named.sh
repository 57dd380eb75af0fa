# uninstrumented_library_named.sh INSTRUMENTED UNINSTRUMENTED: a bounded
# search over INSTRUMENTED (built only on header-only libraries, so
# sim-clang++ built all its code) keeps its partial-order reduction and says
# nothing of it; over UNINSTRUMENTED (linked with a shared library built
# without the pass) it runs every order of steps and names the library,
# unless por=0 asked for every order anyway.
source "$(dirname "$0")/../lib/assert.sh"
rm -rf "$TEST_TMP" && mkdir -p "$TEST_TMP"
instrumented="$1"
uninstrumented="$2"

run "$SIM_BIN/sim-run" --strategy dfs:1 --seeds 5 -- "$instrumented"
expect_eq "$rc" 0 "dfs:1 over $instrumented: $out $err"
expect_not_contains "$out" "without partial-order reduction" "no library keeps the reduction off"

run "$SIM_BIN/sim-run" --strategy dfs:1 --seeds 5 -- "$uninstrumented"
expect_eq "$rc" 0 "dfs:1 over $uninstrumented: $out $err"
expect_matches "$out" "every order of steps was run, without partial-order reduction: [^ ]*\.so[^ ]* was not built with sim-clang\+\+" \
  "the search names the library that keeps the reduction off"
SIM_OPTIONS=por=0 run "$SIM_BIN/sim-run" --strategy dfs:1 --seeds 5 -- "$uninstrumented"
expect_eq "$rc" 0 "dfs:1 por=0 over $uninstrumented: $out $err"
expect_not_contains "$out" "without partial-order reduction" "por=0 asked for every order: nothing to say"
echo PASS

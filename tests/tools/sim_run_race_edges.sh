# The race detector (on by default): every edge kind it takes, three ways
# (race_edges.cpp): ordered by the edge, no race in 100 seeds; ordered by
# nothing, a race; by a near miss of the edge (the wrong memory order, a
# read lock for a write, another object, a notify instead of the mutex, a
# plain read of an atomic write), a race. With races=0 every variant passes.
source "$(dirname "$0")/lib.sh"
run "$SIM_BIN/sim-clang++" -std=c++20 -O1 -g "$(dirname "$0")/race_edges.cpp" -o "$TEST_TMP/edges"
expect_eq "$rc" 0 "sim-clang++: $err"
for edge in atomic fence rwlock semaphore once static barrier annotation tsan_acquire spin condvar mixed; do
  for variant in synced none wrong; do
    [[ $edge == static && $variant == wrong ]] && continue
    SIM_OPTIONS=races=0 run "$SIM_BIN/sim-run" --seeds 20 -- "$TEST_TMP/edges" $edge $variant
    expect_eq "$rc" 0 "$edge $variant passes with races=0: $out $err"
    run "$SIM_BIN/sim-run" --seeds 100 -- "$TEST_TMP/edges" $edge $variant
    if [[ $variant == synced ]]; then
      expect_eq "$rc" 0 "$edge synced: no race in 100 seeds: $out $err"
    else
      expect_eq "$rc" 1 "$edge $variant: a race: $out $err"
      expect_contains "$out$err" "WARNING: simthread: data race" "$edge $variant: a data race"
    fi
  done
done
echo PASS

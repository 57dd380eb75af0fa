# A child killed by a signal is a crash named by the signal.
source "$(dirname "$0")/lib.sh"
for signal in SEGV ABRT; do
  run env STANDIN_FAIL_SEEDS=2 STANDIN_MODE=signal STANDIN_SIGNAL=$signal "$SIM_BIN/sim-run" --seeds 5 -- "$STANDIN"
  expect_eq "$rc" 1 "exit status ($signal)"
  expect_eq "$(sed -n 1p <<< "$out")" "sim-run: failed at seed 2 (2 seeds passed first): crash (SIG$signal)" "summary ($signal)"
done
echo PASS

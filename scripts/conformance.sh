#!/usr/bin/env bash
# conformance.sh [BUILD_DIR]: the third-party conformance suite at full size
# (tests/thirdparty/; ctest runs it with SIM_THIRDPARTY_SEEDS seeds): for
# each library, its correct program under sim-run over 2,000 seeds against
# 2,000 native runs of the same program, measured one after the other in
# this run; its SIM_TEST (when it has one) over 1,000 seeds; its buggy twin's
# first failing seed and shrunk preemptions, of its own check (races=0: two
# twins' bugs are data races the detector would report first). Prints the
# markdown table that docs/conformance.md holds. One job at a time, so the
# times compare.
# Takes 15-30 minutes on a 2-core machine.
set -euo pipefail
build="${1:-build}"
bin="$build/tests/thirdparty/bin"
sim_run="$build/bin/sim-run"
[[ -x "$sim_run" && -d "$bin" ]] || { echo "conformance.sh: build first: cmake --preset default && ninja -C $build test_thirdparty" >&2; exit 2; }
seeds=2000
test_seeds=1000

declare -A package=(
  [concurrentqueue]=libconcurrentqueue-dev [readerwriterqueue]=libreaderwriterqueue-dev [abseil]=libabsl-dev
  [tbb]=libtbb-dev [urcu]=liburcu-dev [libcds]=libcds-dev [xenium]=libxenium-dev [leveldb]=libleveldb-dev)

seconds() {  # COMMAND...: wall-clock seconds, or "fail"
  local start end
  start=$(date +%s%N)
  "$@" > /dev/null 2>&1 || { echo fail; return; }
  end=$(date +%s%N)
  awk -v ns="$((end - start))" 'BEGIN { printf "%.1f", ns / 1e9 }'
}

native_runs() {  # PROGRAM COUNT
  for _ in $(seq "$2"); do "$1" || return 1; done
}

echo "| library | version | sim-run, $seeds seeds | native, $seeds runs | ratio | SIM_TEST, $test_seeds seeds | buggy twin: found at seed, preemptions |"
echo "|---|---|---|---|---|---|---|"
for library in concurrentqueue readerwriterqueue abseil tbb urcu libcds xenium leveldb; do
  version=$(dpkg-query -W -f='${Version}' "${package[$library]}" 2>/dev/null || echo "?")
  simulated=$(seconds "$sim_run" --jobs 1 --seeds "$seeds" --timeout 300 -- "$bin/${library}_correct")
  native=$(seconds native_runs "$bin/${library}_correct_native" "$seeds")
  ratio="-"
  [[ "$simulated" != fail && "$native" != fail ]] && ratio=$(awk -v a="$simulated" -v b="$native" 'BEGIN { printf "%.2f", a / b }')
  sim_test="-"
  [[ -x "$bin/${library}_sim_test" ]] && sim_test="$(seconds "$bin/${library}_sim_test" --sim_seeds="$test_seeds") s"
  report=$(SIM_OPTIONS=races=0 "$sim_run" --jobs 1 --seeds 100 --timeout 300 -- "$bin/${library}_buggy" 2>&1 || true)
  found=$(sed -n 's/^sim-run: failed at seed \([0-9]*\) .*/\1/p' <<< "$report" | head -1)
  preemptions=$(sed -n 's/^  preemptions: \([0-9]*\).*/\1/p' <<< "$report" | head -1)
  echo "| $library | $version | $simulated s | $native s | $ratio | $sim_test | ${found:-not found}, ${preemptions:-?} |"
done

#!/usr/bin/env bash
# run_benchmarks.sh: builds and runs the benchmarks, then regenerates the
# measured sections of docs/performance.md and its SVGs.
#
# usage: bench/run_benchmarks.sh [--build-dir DIR] [--results-dir DIR]
#                                [--docs-dir DIR] [--repetitions N] [--no-build]
#                                [--only switch|instrumentation|resources]
#
# Groups (--only runs one; the others' generated sections are left as they were):
#   switch           switch_bench, executions_bench: each runs once with
#                    --benchmark_repetitions=N
#   instrumentation  bench/access_bench_{native,sim,tsan}: N rounds, each
#                    running the three binaries once in turn (so the ratios
#                    come from runs seconds apart); bench/seeds_bench with N
#                    repetitions, randomly interleaved
#   resources        memory_bench (each row a fresh child process) and
#                    bench/shrink_bench (--shrink next to --no-shrink), N
#                    repetitions, randomly interleaved
# bench/plot.py takes medians over repetitions (rounds) and computes ratios
# only between rows of the same run, so that load from other processes hits
# both sides of a ratio. The hand-written text of performance.md (outside
# the generated markers) is kept. --no-build runs the binaries already built,
# and stops if one is older than a source file under runtime/, include/,
# instrument/, bench/ or tools/.
set -euo pipefail

source_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build_dir=/tmp/build-bench
results_dir=
docs_dir="$source_dir/docs"
repetitions=5
build=1
only=all
while [[ $# -gt 0 ]]; do
  case "$1" in
    --build-dir) build_dir=$2; shift 2 ;;
    --results-dir) results_dir=$2; shift 2 ;;
    --docs-dir) docs_dir=$2; shift 2 ;;
    --repetitions) repetitions=$2; shift 2 ;;
    --no-build) build=0; shift ;;
    --only) only=$2; shift 2 ;;
    -h|--help) sed -n '2,25p' "$0"; exit 0 ;;
    *) echo "run_benchmarks.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done
results_dir=${results_dir:-$build_dir/bench-results}
case "$only" in
  all) groups=(switch instrumentation resources) ;;
  switch|instrumentation|resources) groups=("$only") ;;
  *) echo "run_benchmarks.sh: --only takes switch, instrumentation or resources, not '$only'" >&2; exit 2 ;;
esac
has_group() { [[ " ${groups[*]} " == *" $1 "* ]]; }
benchmarks=()
targets=()
if has_group switch; then benchmarks+=(switch_bench executions_bench); targets+=(switch_bench executions_bench); fi
access_variants=(native sim tsan)
if has_group instrumentation; then targets+=(access_bench seeds_bench); fi
if has_group resources; then targets+=(memory_bench shrink_bench); fi

if [[ $build -eq 1 ]]; then
  cmake -S "$source_dir" -B "$build_dir" -G Ninja -DCMAKE_C_COMPILER=clang-19 -DCMAKE_CXX_COMPILER=clang++-19 \
    -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
  cmake --build "$build_dir" --target "${targets[@]}"
else
  # --no-build measures the binaries as they are: refuse any older than a
  # source file, as after a partial build or a `git checkout` of sources,
  # which would otherwise be published under the current commit.
  binaries=()
  if has_group switch; then binaries+=(bin/switch_bench bin/executions_bench); fi
  if has_group instrumentation; then
    # seeds_bench only spawns the programs; these carry the runtime.
    binaries+=(bin/bench/access_bench_sim bin/bench/scenario_program bin/examples/correct_counter)
  fi
  if has_group resources; then binaries+=(bin/memory_bench bin/bench/shrink_bench bin/examples/unlocked_counter); fi
  for binary in "${binaries[@]}"; do
    if [[ ! -x $build_dir/$binary ]]; then
      echo "run_benchmarks.sh: --no-build, but $build_dir/$binary does not exist;" \
        "run without --no-build, or: cmake --build $build_dir --target ${targets[*]}" >&2
      exit 2
    fi
    newer=$(find "$source_dir"/{runtime,include,instrument,bench,tools} -type f -newer "$build_dir/$binary" \
      \( -name '*.cpp' -o -name '*.h' -o -name '*.S' -o -name CMakeLists.txt \) -print -quit)
    if [[ -n $newer ]]; then
      echo "run_benchmarks.sh: --no-build, but $build_dir/$binary is older than ${newer#"$source_dir"/};" \
        "run without --no-build, or: cmake --build $build_dir" >&2
      exit 2
    fi
  done
fi
mkdir -p "$results_dir"

# Other compilers running now make the numbers noisier; the doc says so.
# (procps warns that the pattern is longer than a process name; it matches.)
count_compilers() { { pgrep -c -x 'clang(\+\+)?(-19)?|cc1plus|ld|ld.lld|ninja' 2>/dev/null || true; } | head -1; }

{
  echo "nproc=$(nproc)"
  echo "cpu=$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')"
  # What the runtime asks (AT_HWCAP2 bit 1): the kernel allows wrfsbase, not
  # only the CPU (/proc/cpuinfo's flag says the CPU has it).
  hwcap2=$(LD_SHOW_AUXV=1 /bin/true | awk '/AT_HWCAP2/ {print $2}')
  if (( ${hwcap2:-0} & 2 )); then echo "fsgsbase=yes"; else echo "fsgsbase=no"; fi
  echo "kernel=$(uname -sr)"
  echo "compiler=$(clang++-19 --version | head -1)"
  # A snapshot outside git (git archive HEAD | tar -x) names its commit in SIM_BENCH_COMMIT.
  echo "commit=${SIM_BENCH_COMMIT:-$(git -C "$source_dir" rev-parse --short HEAD 2>/dev/null || echo unknown)}"
  echo "date=$(date -u +%Y-%m-%dT%H:%MZ)"
  echo "load_before=$(cut -d' ' -f1-3 /proc/loadavg)"
  echo "compilers_before=$(count_compilers)"
} >"$results_dir/machine.txt"

# Sample other builds once a second while the benchmarks run.
( while :; do count_compilers; sleep 1; done >"$results_dir/compiler-samples.txt" ) &
sampler=$!
trap 'kill "$sampler" 2>/dev/null || true' EXIT

for name in "${benchmarks[@]}"; do
  "$build_dir/bin/$name" --benchmark_repetitions="$repetitions" --benchmark_display_aggregates_only=true \
    --benchmark_format=json --benchmark_out="$results_dir/$name.json" --benchmark_out_format=json >/dev/null
  echo "run_benchmarks.sh: $name done" >&2
done

if has_group instrumentation; then
  rm -f "$results_dir"/access_bench_*.round*.json
  for round in $(seq 1 "$repetitions"); do
    # Rotate the order so no variant always runs first (or right after the
    # memory-hungry TSan binary).
    for i in 0 1 2; do
      variant=${access_variants[$(( (i + round) % 3 ))]}
      "$build_dir/bin/bench/access_bench_$variant" --benchmark_format=json \
        --benchmark_out="$results_dir/access_bench_$variant.round$round.json" --benchmark_out_format=json >/dev/null
    done
    echo "run_benchmarks.sh: access_bench round $round of $repetitions done" >&2
  done
  "$build_dir/bin/bench/seeds_bench" --benchmark_repetitions="$repetitions" --benchmark_enable_random_interleaving=true \
    --benchmark_display_aggregates_only=true --benchmark_format=json \
    --benchmark_out="$results_dir/seeds_bench.json" --benchmark_out_format=json >/dev/null
  echo "run_benchmarks.sh: seeds_bench done" >&2
fi

if has_group resources; then
  "$build_dir/bin/memory_bench" --benchmark_repetitions="$repetitions" --benchmark_enable_random_interleaving=true \
    --benchmark_format=json --benchmark_out="$results_dir/memory_bench.json" --benchmark_out_format=json >/dev/null
  echo "run_benchmarks.sh: memory_bench done" >&2
  "$build_dir/bin/bench/shrink_bench" --benchmark_repetitions="$repetitions" --benchmark_enable_random_interleaving=true \
    --benchmark_format=json --benchmark_out="$results_dir/shrink_bench.json" --benchmark_out_format=json >/dev/null
  echo "run_benchmarks.sh: shrink_bench done" >&2
fi

kill "$sampler" 2>/dev/null || true
{
  echo "load_after=$(cut -d' ' -f1-3 /proc/loadavg)"
  echo "compilers_after=$(count_compilers)"
  echo "compiler_samples=$(awk '$1 > 0 {busy++} $1 > max {max = $1} END {printf "%d of %d one-second samples saw compiler/linker processes (at most %d at once)", busy, NR, max}' "$results_dir/compiler-samples.txt")"
} >>"$results_dir/machine.txt"

only_flag=
[[ $only != all ]] && only_flag=" --only $only"
sections=$(IFS=,; echo "${groups[*]}")
python3 "$source_dir/bench/plot.py" --results "$results_dir" --doc "$docs_dir/performance.md" \
  --svg "$docs_dir/performance-switch.svg" --access-svg "$docs_dir/performance-access.svg" \
  --memory-svg "$docs_dir/performance-memory.svg" --shrink-svg "$docs_dir/performance-shrink.svg" --sections "$sections" \
  --command "bench/run_benchmarks.sh --build-dir $build_dir --repetitions $repetitions$only_flag"

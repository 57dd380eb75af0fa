#!/usr/bin/env python3
"""whole_program_access.py: an access's cost and a run's peak memory in whole-program mode.

Runs bench/whole_program_loop (built three ways: sim-clang++, plain clang++, clang++
-fsanitize=thread) with main alone, one worker while main waits in join, and 2 threads, at ITERATIONS and at 10x ITERATIONS per thread,
in interleaved rounds, and reads each process's CPU time (user + sys) and peak RSS from
GNU time, that is from outside the process (a world's clock is virtual). The simthread
build runs as users run theirs, SIM_OPTIONS=seed=K (max_steps raised: the loop is long),
with the default portfolio's two members: seed 1 runs pct:5, seed 0 pos.

  ns per access = (CPU(10x) - CPU(1x)) / (9 x ITERATIONS x 3 accesses x threads)

so that start-up (exec, the ASLR re-exec, static initialisation) cancels out; the
medians over rounds are printed, with simthread / TSan, and the peak RSS at 1x and 10x.

  python3 bench/whole_program_access.py [--build-dir build] [--iterations 2000000] [--rounds 5]
"""

import argparse
import os
import statistics
import subprocess
import sys
import tempfile

VARIANTS = ["native", "sim (seed 1: pct:5)", "sim (seed 0: pos)", "tsan"]
ACCESSES_PER_ITERATION = 3


# The shapes measured: main alone, one worker while main waits in join, two workers.
SHAPES = [("1 (main)", 1, []), ("1 (worker)", 1, ["worker"]), ("2", 2, [])]


def run_once(binary, variant, threads, iterations, extra=()):
    """CPU seconds (user + sys) and peak RSS (KiB) of one run, as GNU time reports them.

    Through /usr/bin/time rather than wait4 from here: a child forked from this Python
    process starts with its pages, and the peak RSS the kernel reports counts them."""
    env = dict(os.environ)
    env.pop("SIM_OPTIONS", None)
    if variant.startswith("sim"):
        seed = 0 if "seed 0" in variant else 1
        env["SIM_OPTIONS"] = f"races=0:seed={seed}:max_steps=1000000000000"  # the detector: docs/performance.md
    with tempfile.NamedTemporaryFile(mode="r") as usage:
        process = subprocess.run(["/usr/bin/time", "-f", "%U %S %M", "-o", usage.name, binary, str(threads),
                                  str(iterations), *extra], env=env, stdout=subprocess.DEVNULL,
                                 stderr=subprocess.PIPE)
        if process.returncode != 0:
            sys.exit(f"{binary} {threads} {iterations} exited {process.returncode}: "
                     f"{process.stderr.decode(errors='replace')}")
        user, system, peak_kib = usage.read().split()[-3:]
    return float(user) + float(system), int(peak_kib)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--build-dir", default="build")
    parser.add_argument("--iterations", type=int, default=2000000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--sim", help="another simthread build of whole_program_loop to compare (e.g. an older one), "
                        "run with both seeds")
    args = parser.parse_args()
    bench = os.path.join(args.build_dir, "bin", "bench")
    binaries = {
        "native": os.path.join(bench, "whole_program_loop_native"),
        "sim (seed 1: pct:5)": os.path.join(bench, "whole_program_loop"),
        "sim (seed 0: pos)": os.path.join(bench, "whole_program_loop"),
        "tsan": os.path.join(bench, "whole_program_loop_tsan"),
    }
    for binary in binaries.values():
        if not os.access(binary, os.X_OK):
            sys.exit(f"{binary} missing: ninja -C {args.build_dir} whole_program_loop")
    scales = [1, 10]
    variants = list(VARIANTS)
    if args.sim:
        # Under both members, as this build is: a change to one strategy shows beside its own before.
        for member in ("seed 1: pct:5", "seed 0: pos"):
            binaries[f"sim --sim ({member})"] = args.sim
            variants.append(f"sim --sim ({member})")
    samples = {}  # (variant, shape, scale) -> [(cpu, rss)]
    for round_index in range(args.rounds):
        order = variants[round_index % len(variants):] + variants[:round_index % len(variants)]
        for shape, threads, extra in SHAPES:
            for scale in scales:
                for variant in order:
                    key = (variant, shape, scale)
                    samples.setdefault(key, []).append(
                        run_once(binaries[variant], variant, threads, args.iterations * scale, extra))

    print(f"iterations per thread: {args.iterations} and {10 * args.iterations}; {args.rounds} rounds; "
          f"CPU time and peak RSS from GNU time")
    print("| threads | variant | ns per access | x TSan | peak RSS 1x (KiB) | peak RSS 10x (KiB) | 10x / 1x |")
    print("|---|---|---:|---:|---:|---:|---:|")
    for shape, threads, _ in SHAPES:
        per_access = {}
        for variant in variants:
            # Per round: the difference between the long and the short run.
            differences = [long[0] - short[0] for short, long in
                           zip(samples[(variant, shape, 1)], samples[(variant, shape, 10)])]
            accesses = 9 * args.iterations * ACCESSES_PER_ITERATION * threads
            per_access[variant] = statistics.median(differences) / accesses * 1e9
        for variant in variants:
            rss_short = statistics.median(s[1] for s in samples[(variant, shape, 1)])
            rss_long = statistics.median(s[1] for s in samples[(variant, shape, 10)])
            ratio = per_access[variant] / per_access["tsan"] if per_access["tsan"] > 0 else float("nan")
            print(f"| {shape} | {variant} | {per_access[variant]:.2f} | {ratio:.2f} | {rss_short:.0f} | "
                  f"{rss_long:.0f} | {rss_long / rss_short:.2f} |")


if __name__ == "__main__":
    main()

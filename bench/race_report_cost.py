#!/usr/bin/env python3
"""race_report_cost.py: what a data race's report costs a whole program, beside the same run without the detector.

For each racy example (examples/programs/) and each bench/bugs program whose buggy variant races
(<variant>_whole), two rows, each a ratio of two commands timed side by side (interleaved, ROUNDS
times, medians):
  - one report: `SIM_OPTIONS=seed=S ./prog` (races=1: the race reported, shrunk, flipped, told)
    against `SIM_OPTIONS=seed=S:races=0 ./prog` (the same seed without the detector, which reports,
    shrinks and tells the program's own failure when it has one), S the first seed that races;
  - a sweep: `sim-run --seeds N --keep-going --jobs J -- ./prog` with races=1 against races=0; the
    races=1 sweep's distinct failures (each told once, at its first seed) and failing seeds.
Absolute times depend on the machine; only the ratios, measured in one run, are published.

  python3 bench/race_report_cost.py [--build-dir build] [--rounds 3] [--seeds 1000] [--jobs 2]
                                    [--programs a,b,...]
"""

import argparse
import os
import re
import statistics
import subprocess
import sys
import time

EXAMPLES = ["unlocked_counter", "lazy_registry", "refcount_double_delete"]
DISTINCT = re.compile(r"^sim-run: (\d+) distinct failures?:", re.M)
FAILED = re.compile(r"^sim-run: (\d+) of (\d+) seeds failed", re.M)


def timed(command, options):
    env = dict(os.environ, SIM_OPTIONS=options)
    started = time.perf_counter()
    done = subprocess.run(command, env=env, capture_output=True, text=True, errors="replace", timeout=3600)
    return time.perf_counter() - started, done.returncode, done.stdout + done.stderr


def programs(build, chosen):
    found = [(name, os.path.join(build, "bin", "examples", name)) for name in EXAMPLES]
    bugs = os.path.join(build, "bin", "bugs")
    for entry in sorted(os.listdir(bugs)):
        if entry.endswith("_whole") and "fixed" not in entry:
            found.append((entry[:-len("_whole")], os.path.join(bugs, entry)))
    return [(name, path) for name, path in found if not chosen or name in chosen]


def first_racing_seed(program, limit=50):
    for seed in range(limit):
        _, status, _ = timed([program], f"seed={seed}")
        if status == 66:
            return seed
    return None


def side_by_side(command_a, options_a, command_b, options_b, rounds):
    a, b = [], []
    for _ in range(rounds):
        a.append(timed(command_a, options_a)[0])
        b.append(timed(command_b, options_b)[0])
    return statistics.median(a), statistics.median(b)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build-dir", default="build")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seeds", type=int, default=1000)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--programs", default="")
    args = parser.parse_args()
    sim_run = os.path.join(args.build_dir, "bin", "sim-run")
    chosen = set(filter(None, args.programs.split(",")))
    print(f"| program | seed | one report, races=1 / races=0 | sweep of {args.seeds:,} seeds, races=1 / races=0 "
          "| failing seeds, distinct failures (races=1) |")
    print("|---|---:|---:|---:|---|")
    for name, program in programs(args.build_dir, chosen):
        seed = first_racing_seed(program)
        if seed is None:
            continue
        report, report_without = side_by_side([program], f"seed={seed}", [program], f"seed={seed}:races=0",
                                              args.rounds)
        sweep = [sim_run, "--seeds", str(args.seeds), "--keep-going", "--jobs", str(args.jobs), "--", program]
        sweep_with, sweep_without = side_by_side(sweep, "", sweep, "races=0", 1)
        _, _, text = timed(sweep, "")
        distinct = DISTINCT.search(text)
        failed = FAILED.search(text)
        print(f"| {name} | {seed} | {report / report_without:.2f}x | {sweep_with / sweep_without:.2f}x | "
              f"{failed.group(1) if failed else 0}, {distinct.group(1) if distinct else 0} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

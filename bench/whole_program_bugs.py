#!/usr/bin/env python3
"""whole_program_bugs.py: the bug programs run as whole programs, as users run theirs.

For every variant of bench/bugs/ (the <variant>_whole builds: the program's own main, with
SIM_OPTIONS or sim-run) and the failing examples of examples/programs/, it measures:
  - the minimum: sim-run --strategy dfs:0, dfs:1, ... up to dfs:3, the first bound that
    fails (the preemptions the bug needs, exactly), with the schedules each bound ran;
  - shrinking with default options: sim-run --seeds 10000 --jobs 1 finds the first failing
    seed; that seed is then run ROUNDS times with and without shrink=0, and the median
    difference of their wall-clock times is what shrinking took; the preemptions it
    reports, against the minimum;
  - for the fixed variants: sim-run --strategy dfs:2 --seeds CAP, the schedules that
    exhaust bound 2 (or that the cap stopped it);
  - the cost of a dfs schedule against a seed: sim-run --seeds N --jobs 1 (random seeds)
    and sim-run --strategy dfs:2 --seeds N on the same fixed program, side by side.

  python3 bench/whole_program_bugs.py [--build-dir build] [--rounds 3] [--cap 20000]
                                      [--programs a,b,...]
"""

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

EXAMPLES = ["lazy_registry", "unlocked_counter", "abba_deadlock", "refcount_double_delete"]


def run(command, env=None, timeout=3600):
    started = time.perf_counter()
    process = subprocess.run(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=timeout)
    return process.returncode, process.stdout.decode(errors="replace"), process.stderr.decode(errors="replace"), \
        time.perf_counter() - started


def sim_run(build, args, program):
    with tempfile.NamedTemporaryFile(suffix=".json") as report:
        code, out, err, seconds = run([os.path.join(build, "bin", "sim-run")] + args +
                                      ["--report-json", report.name, "--", program])
        try:
            with open(report.name) as file:
                result = json.load(file)
        except (OSError, ValueError):
            result = {}
    return code, out, err, seconds, result


def minimum(build, program, max_bound, cap):
    """The first bound dfs fails at, and the schedules per bound: [(bound, schedules, failed)]."""
    bounds = []
    for bound in range(max_bound + 1):
        code, out, err, _, result = sim_run(build, ["--strategy", f"dfs:{bound}", "--seeds", str(cap)], program)
        failed = code == 1
        bounds.append((bound, result.get("schedules"), failed, result.get("exhausted")))
        if failed or not result.get("exhausted"):
            break
    return bounds


def shrink_time(program, seed, rounds):
    env_on = dict(os.environ, SIM_OPTIONS=f"seed={seed}")
    env_off = dict(os.environ, SIM_OPTIONS=f"seed={seed}:shrink=0")
    differences = []
    preemptions = None
    for _ in range(rounds):
        _, _, err_on, on = run([program], env=env_on)
        _, _, _, off = run([program], env=env_off)
        differences.append(on - off)
        found = re.search(r"preemptions: (\d+)(?: \(shrunk from (\d+)\))?", err_on)
        if found:
            preemptions = (int(found.group(1)), int(found.group(2) or found.group(1)))
    return statistics.median(differences), preemptions


def variants(build, only):
    bugs = os.path.join(build, "bin", "bugs")
    rows = []
    with open(os.path.join(bugs, "programs.txt")) as manifest:
        for line in manifest:
            if line.startswith("#") or not line.strip():
                continue
            program, variant = line.split()[:2]
            if only and program not in only:
                continue
            suffix = {"bug": "", "fixed": "_fixed", "half_fixed": "_half_fixed"}[variant]
            rows.append((program, variant, os.path.join(bugs, f"{program}{suffix}_whole")))
    for example in EXAMPLES:
        if not only or example in only:
            rows.append((example, "example", os.path.join(build, "bin", "examples", example)))
    return rows


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--build-dir", default="build")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--cap", type=int, default=20000, help="schedules per dfs bound at most")
    parser.add_argument("--programs", default="", help="only these programs (comma-separated)")
    args = parser.parse_args()
    only = set(filter(None, args.programs.split(",")))
    build = args.build_dir

    print("| program | variant | needs (dfs) | schedules per bound | found at seed | preemptions found → shrunk "
          "| shrink time (s) |")
    print("|---|---|---|---|---|---|---:|")
    shrink_times = []
    ratio_rows = []
    for program, variant, binary in variants(build, only):
        if variant == "fixed":
            bounds = minimum(build, binary, 2, args.cap)
            counts = ", ".join(f"dfs:{b} {n}{'' if done else '+'}" for b, n, _, done in bounds)
            clean = all(not failed for _, _, failed, _ in bounds) and bounds[-1][3]
            print(f"| `{program}` | fixed | {'clean within 2' if clean else 'NOT proven'} | {counts} | | | |")
            continue
        bounds = minimum(build, binary, 3, args.cap)
        needs = next((b for b, _, failed, _ in bounds if failed), None)
        counts = ", ".join(f"dfs:{b} {n}{'' if done or failed else '+'}" for b, n, failed, done in bounds)
        code, _, _, _, result = sim_run(build, ["--seeds", "10000", "--jobs", "1", "--no-shrink"], binary)
        failure = result.get("failure") or {}
        if code != 1 or "seed" not in failure:
            print(f"| `{program}` | {variant} | {needs} | {counts} | none in 10000 | | |")
            continue
        seed = failure["seed"]
        seconds, preemptions = shrink_time(binary, seed, args.rounds)
        shrink_times.append(seconds)
        found, shrunk = (preemptions[1], preemptions[0]) if preemptions else ("?", "?")
        mark = "" if needs is None or shrunk == needs else " (not minimal)"
        print(f"| `{program}` | {variant} | {needs} | {counts} | {seed} | {found} → {shrunk}{mark} | {seconds:.2f} |")
    if shrink_times:
        print(f"\nshrink time over {len(shrink_times)} failures: median {statistics.median(shrink_times):.2f} s, "
              f"max {max(shrink_times):.2f} s")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""partial_order_reduction.py: schedules dfs:P runs with partial-order reduction and without.

For every bench/bugs/ variant (its <variant>_sim build, explored in process), runs
dfs:0, dfs:1, ... up to dfs:MAX with por=0 (every order of steps) and por=1 (one order of
commuting steps: strategy/race_reversal.h), interleaved, and prints one table row per
variant: for a program with a bug, the bound and schedule at which each search fails (both
must fail at the same bound, the bug's minimum); for a fixed one, the schedules that exhaust
bound MAX (or that the cap stopped the search). A whole program under
sim-run --strategy dfs:P runs the same schedules (one process per schedule).

  python3 bench/partial_order_reduction.py [--build-dir build] [--max-bound 2] [--cap 20000]
                                           [--programs a,b,...]
"""

import argparse
import os
import re
import subprocess
import sys


def search(build, variant, bound, cap, por):
    """(found, schedules, exhausted) of one dfs:bound search."""
    env = dict(os.environ, SIM_OPTIONS=f"por={por}")
    program = os.path.join(build, "bin", "bugs", f"{variant}_sim")
    output = subprocess.run([program, "--strategy", f"dfs:{bound}", "--seeds", str(cap)], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, check=True).stdout.decode()
    fields = dict(re.findall(r"(\w+)=(\S+)", output.splitlines()[0]))
    return fields["found"] == "1", int(fields["tried"]), fields.get("exhausted") == "1"


def describe(found, schedules, exhausted, cap):
    if found:
        return f"fails at schedule {schedules:,}"
    return f"{schedules:,}" if exhausted else f"> {cap:,} (cap)"


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--build-dir", default="build")
    parser.add_argument("--max-bound", type=int, default=2)
    parser.add_argument("--cap", type=int, default=20000)
    parser.add_argument("--programs", default="")
    args = parser.parse_args()
    bugs = os.path.join(args.build_dir, "bin", "bugs")
    variants = sorted(name[:-len("_sim")] for name in os.listdir(bugs) if name.endswith("_sim"))
    if args.programs:
        variants = [v for v in variants if v in args.programs.split(",")]
    print("| variant | bound | without reduction | with reduction | ratio |")
    print("|---|---:|---:|---:|---:|")
    for variant in variants:
        for bound in range(args.max_bound + 1):
            full = search(args.build_dir, variant, bound, args.cap, 0)
            reduced = search(args.build_dir, variant, bound, args.cap, 1)
            if full[0] != reduced[0]:
                print(f"{variant}: dfs:{bound} fails {'without' if full[0] else 'with'} reduction only",
                      file=sys.stderr)
                sys.exit(1)
            if full[0] or bound == args.max_bound:
                ratio = f"{full[1] / reduced[1]:.2f}" if full[2] or full[0] else "-"
                print(f"| `{variant}` | {bound} | {describe(*full, args.cap)} | {describe(*reduced, args.cap)} |"
                      f" {ratio} |")
                break


if __name__ == "__main__":
    main()

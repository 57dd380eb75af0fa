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
  - the cost of a dfs schedule against a seed: sim-run --seeds 1000 --jobs 1 (random seeds)
    and sim-run --strategy dfs:2 --seeds 1000 on the first fixed program, interleaved.
With --compare DIR, the same failing seeds of another build's programs (an older commit's
sim-clang++) shrink beside this build's, interleaved. --alternations A+B,... adds
bench/programs/alternation.cpp built with sim-clang++ -DROUNDS_A=A -DROUNDS_B=B: a failure that
needs exactly A+B-2 ordered preemptions (dfs up to bound A+B-2 for its minimum).
--conformance adds the conformance suite's buggy twins (tests/thirdparty: <library>_buggy).
Every run is given SIM_OPTIONS=races=0, so what is found and shrunk is each bug's own failure
(many are data races the detector would report first: bench/race_finding.py).

  python3 bench/whole_program_bugs.py [--build-dir build] [--rounds 3] [--cap 20000]
                                      [--programs a,b,...] [--alternations 2+2,3+2,3+3]
                                      [--conformance]
"""

import argparse
import json
import os
import re
import shlex
import statistics
import subprocess
import sys
import tempfile
import time

EXAMPLES = ["lazy_registry", "unlocked_counter", "abba_deadlock", "refcount_double_delete"]
NO_RACES = "races=0"  # the bugs' own failures (see above)


def run(command, env=None, timeout=3600):
    started = time.perf_counter()
    process = subprocess.run(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=timeout)
    return process.returncode, process.stdout.decode(errors="replace"), process.stderr.decode(errors="replace"), \
        time.perf_counter() - started


def sim_run(build, args, program):
    with tempfile.NamedTemporaryFile(suffix=".json") as report:
        code, out, err, seconds = run([os.path.join(build, "bin", "sim-run")] + args +
                                      ["--report-json", report.name, "--", program],
                                      env=dict(os.environ, SIM_OPTIONS=NO_RACES))
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


def seed_options(failure):
    """The SIM_OPTIONS of a failing seed's replay line, without its shrink setting: the seed,
    and what sim-run gave it besides (pct_choice_points, learnt from the seeds before)."""
    words = shlex.split(failure.get("replay", ""))
    given = words[0][len("SIM_OPTIONS="):] if words and words[0].startswith("SIM_OPTIONS=") else ""
    kept = [option for option in given.split(":") if option and not option.startswith("shrink=")]
    return ":".join(kept) or f"seed={failure['seed']}"


def shrink_times(programs, options, rounds):
    """Per program (run side by side, interleaved): the median over rounds of the wall-clock
    time with shrinking minus without, and the preemptions (shrunk, found) it reports."""
    env_on = dict(os.environ, SIM_OPTIONS=options)
    env_off = dict(os.environ, SIM_OPTIONS=f"{options}:shrink=0")
    differences = {program: [] for program in programs}
    preemptions = {program: None for program in programs}
    for _ in range(rounds):
        for program in programs:
            _, _, err_on, on = run([program], env=env_on)
            _, _, _, off = run([program], env=env_off)
            differences[program].append(on - off)
            found = re.search(r"preemptions: (\d+)(?: \(shrunk from (\d+)[;)])?", err_on)
            if found:
                preemptions[program] = (int(found.group(1)), int(found.group(2) or found.group(1)))
    return [(statistics.median(differences[program]), preemptions[program]) for program in programs]


def shrunk_text(preemptions, needs):
    if not preemptions:
        return "?"
    shrunk, found = preemptions
    return f"{found} → {shrunk}" + ("" if needs is None or shrunk == needs else " (not minimal)")


def schedule_rate(build, program, rounds, count=1000):
    """Seeds per second (random seeds, one process each) against dfs schedules per second
    (one process each, forked by the search's driver), on the same program, interleaved."""
    seeds, schedules = [], []
    for _ in range(rounds):
        _, _, _, seconds, _ = sim_run(build, ["--seeds", str(count), "--jobs", "1"], program)
        seeds.append(count / seconds)
        _, _, _, seconds, result = sim_run(build, ["--strategy", "dfs:2", "--seeds", str(count)], program)
        schedules.append(result.get("schedules", 0) / seconds)
    seed_rate, schedule_rate = statistics.median(seeds), statistics.median(schedules)
    print(f"\n{os.path.basename(program)}: {seed_rate:.0f} seeds/s (sim-run --seeds {count} --jobs 1), "
          f"{schedule_rate:.0f} schedules/s (sim-run --strategy dfs:2 --seeds {count}); "
          f"seeds/s over schedules/s {seed_rate / schedule_rate:.2f}, medians of {rounds}")


def alternations(build, pairs, directory):
    """bench/programs/alternation.cpp built once per A+B in `pairs`: [(name, needs, binary)]."""
    source = os.path.join(os.path.dirname(os.path.abspath(__file__)), "programs", "alternation.cpp")
    built = []
    for pair in filter(None, pairs.split(",")):
        rounds_a, rounds_b = (int(word) for word in pair.split("+"))
        binary = os.path.join(directory, f"alternation_{rounds_a}_{rounds_b}")
        code, _, err, _ = run([os.path.join(build, "bin", "sim-clang++"), "-std=c++20", "-O1", "-g",
                               f"-DROUNDS_A={rounds_a}", f"-DROUNDS_B={rounds_b}", source, "-o", binary])
        if code != 0:
            sys.exit(f"sim-clang++ {source}: {err}")
        built.append((f"alternation {rounds_a}+{rounds_b}", rounds_a + rounds_b - 2, binary))
    return built


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
    parser.add_argument("--conformance", action="store_true",
                        help="add the conformance suite's buggy twins (build/tests/thirdparty/bin/*_buggy)")
    parser.add_argument("--alternations", default="",
                        help="alternation programs to add, A+B each (comma-separated): A+B-2 preemptions needed")
    parser.add_argument("--compare", default="",
                        help="a directory of another build's programs (<program>[_half_fixed]_whole and the "
                             "examples, built by an older sim-clang++) whose shrinking runs beside this build's")
    args = parser.parse_args()
    only = set(filter(None, args.programs.split(",")))
    build = args.build_dir

    compare = args.compare
    print("| program | variant | needs (dfs) | schedules per bound | found at seed | preemptions found → shrunk "
          "| shrink time (s) |" + (" --compare: found → shrunk | --compare: shrink time (s) |" if compare else ""))
    print("|---|---|---|---|---|---|---:|" + ("---|---:|" if compare else ""))
    times = []
    compared_times = []
    ratio_rows = []
    scratch = tempfile.TemporaryDirectory()
    # (program, variant, binary, the highest dfs bound tried for its minimum)
    rows = [(program, variant, binary, 3) for program, variant, binary in variants(build, only)]
    rows += [(name, "alternation", binary, max(3, needs))
             for name, needs, binary in alternations(build, args.alternations, scratch.name)]
    if args.conformance:
        twins = os.path.join(build, "tests", "thirdparty", "bin")
        rows += [(name[:-len("_buggy")], "conformance", os.path.join(twins, name), 3)
                 for name in sorted(os.listdir(twins)) if name.endswith("_buggy")]
    for program, variant, binary, max_bound in rows:
        if variant == "fixed":
            bounds = minimum(build, binary, 2, args.cap)
            counts = ", ".join(f"dfs:{b} {n}{'' if done else '+'}" for b, n, _, done in bounds)
            clean = all(not failed for _, _, failed, _ in bounds) and bounds[-1][3]
            print(f"| `{program}` | fixed | {'clean within 2' if clean else 'NOT proven'} | {counts} | | | |" +
                  (" | |" if compare else ""), flush=True)
            continue
        bounds = minimum(build, binary, max_bound, args.cap)
        needs = next((b for b, _, failed, _ in bounds if failed), None)
        counts = ", ".join(f"dfs:{b} {n}{'' if done or failed else '+'}" for b, n, failed, done in bounds)
        code, _, _, _, result = sim_run(build, ["--seeds", "10000", "--jobs", "1", "--no-shrink"], binary)
        failure = result.get("failure") or {}
        if code != 1 or "seed" not in failure:
            print(f"| `{program}` | {variant} | {needs} | {counts} | none in 10000 | | |" + (" | |" if compare else ""),
                  flush=True)
            continue
        seed = failure["seed"]
        programs = [binary]
        other = os.path.join(compare, os.path.basename(binary)) if compare else ""
        if other and os.access(other, os.X_OK):
            programs.append(other)
        measured = shrink_times(programs, seed_options(failure), args.rounds)
        seconds, preemptions = measured[0]
        times.append(seconds)
        row = f"| `{program}` | {variant} | {needs} | {counts} | {seed} | {shrunk_text(preemptions, needs)} | {seconds:.2f} |"
        if compare:
            if len(measured) > 1:
                compared_times.append(measured[1][0])
                row += f" {shrunk_text(measured[1][1], needs)} | {measured[1][0]:.2f} |"
            else:
                row += " | |"
        print(row, flush=True)
    rate_program = next((binary for program, variant, binary in variants(build, only) if variant == "fixed"), None)
    if rate_program:
        schedule_rate(build, rate_program, args.rounds)
    for name, values in (("this build", times), ("--compare", compared_times)):
        if values:
            print(f"\nshrink time, {name}, over {len(values)} failures: median {statistics.median(values):.2f} s, "
                  f"max {max(values):.2f} s")


if __name__ == "__main__":
    main()

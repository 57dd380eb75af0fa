#!/usr/bin/env python3
"""bug_finding.py: measures the bug-finding suite and rewrites docs/bug-finding.md.

For every program in bench/bugs/programs/ (the list is build/bin/bugs/programs.txt,
written by bench/bugs/CMakeLists.txt) it measures:
  - each strategy in STRATEGIES: over STARTS different starting seeds, the seeds
    explored up to and including the first failure (at most SEEDS per start),
    and the preemptions of the first failure after shrinking;
  - dfs:0, dfs:1, ... up to DFS_MAX_BOUND: whether each bound exhausts without a
    failure, and the schedules run up to the first failure (deterministic), which
    gives the preemptions a bug needs exactly;
  - the correct (-DFIXED) counterpart: failures over SEEDS seeds per strategy;
  - native runs with real threads: failures (non-zero exit, a signal, or a hang
    killed after NATIVE_TIMEOUT_S) in NATIVE_RUNS processes;
  - -fsanitize=thread: whether any of TSAN_RUNS runs printed a ThreadSanitizer
    warning, and which kind.
The exploration runs in process (explore_driver.cpp), two jobs at a time.

  python3 bench/bug_finding.py [--build-dir build] [--jobs 2] [--no-build]
                               [--strategies random,pct:2,...] [--dry-run]

--dry-run prints the generated section instead of writing the doc.
"""

import argparse
import concurrent.futures
import datetime
import os
import re
import statistics
import subprocess
import sys
import time

# Strategies measured with STARTS starting seeds each. Append new ones here
# (pos, portfolio): a strategy the runtime does not know is skipped with a note.
STRATEGIES = ["random", "pct:2", "pct:3", "pct:4", "pct:5", "pos", "portfolio", "portfolio:random,pct:5",
              "portfolio:pos,pct:5", "portfolio:random,pos,pct:5"]
SEEDS = 10000          # seeds per start: "found within 10,000 seeds"
STARTS = 20            # starting seeds per program and strategy
STRIDE = 1000000       # start r explores [r * STRIDE, r * STRIDE + SEEDS)
DFS_MAX_BOUND = 3      # dfs:0 .. dfs:3, stopping at the first bound that finds the bug
DFS_BUDGET = 2000000   # schedules per bound before giving up on exhausting it (bug programs)
DFS_FIXED_BUDGET = 100000  # the same for correct programs, whose dfs:3 can run to millions
NATIVE_RUNS = 1000
NATIVE_TIMEOUT_S = 2.0
# Portfolios estimated from the per-strategy runs (not run themselves): one
# that alternates k strategies gives each every k-th seed, so at start r it
# fails first at min over its strategies s (index i) of k*(T_s(r)-1) + i + 1,
# where T_s(r) is what s alone needed at start r.
PORTFOLIO_ESTIMATES = [["random", "pct:3"], ["random", "pct:4"], ["random", "pct:5"], ["random", "pct:3", "pct:5"],
                       ["random", "pct:2", "pct:3", "pct:4", "pct:5"]]
TSAN_RUNS = 5
TSAN_TIMEOUT_S = 10.0

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DOC = os.path.join(REPO, "docs", "bug-finding.md")
BEGIN = "<!-- GENERATED BEGIN: bench/bug_finding.py rewrites this part; edit the script, not the table -->"
END = "<!-- GENERATED END -->"


def run(command, timeout=None, env=None):
    """(returncode or 'hang', stdout, stderr) of a command."""
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=timeout, env=env)
        return done.returncode, done.stdout, done.stderr
    except subprocess.TimeoutExpired as expired:
        def text(data):
            return data.decode(errors="replace") if isinstance(data, bytes) else (data or "")
        return "hang", text(expired.stdout), text(expired.stderr)


def parse_driver(stdout):
    """The driver's lines as dicts of their key=value fields."""
    results = []
    for line in stdout.splitlines():
        if line.startswith("start="):
            results.append(dict(field.split("=", 1) for field in line.split()))
    return results


class Suite:
    def __init__(self, build_dir):
        self.dir = os.path.join(build_dir, "bin", "bugs")
        self.variants = []   # (program, variant)
        self.sources = {}    # program -> source name
        self.extra = {}      # program -> extra compiler flag
        with open(os.path.join(self.dir, "programs.txt")) as manifest:
            for line in manifest:
                if line.startswith("#") or not line.strip():
                    continue
                fields = line.split()
                program, variant, source = fields[:3]
                self.variants.append((program, variant))
                self.sources[program] = source
                self.extra[program] = fields[3] if len(fields) > 3 else ""

    def binary(self, program, variant, build):
        suffix = {"bug": "", "fixed": "_fixed", "half_fixed": "_half_fixed"}[variant]
        return os.path.join(self.dir, f"{program}{suffix}_{build}")

    def programs(self):
        return [program for program, variant in self.variants if variant == "bug"]


def strategies_known(suite, wanted):
    """The strategies the runtime accepts, and a note for each skipped one."""
    probe = suite.binary(suite.programs()[0], "fixed", "sim")
    known, notes = [], []
    for strategy in wanted:
        code, _, err = run([probe, "--strategy", strategy, "--seeds", "1"], timeout=60)
        if code == 0:
            known.append(strategy)
        elif "unknown strategy" in err:
            notes.append(f"`{strategy}` (the runtime does not know it yet)")
        else:
            notes.append(f"`{strategy}` (exit {code}: {err.strip()[-300:]})")
    return known, notes


def explore_starts(binary, strategy, seeds, starts):
    code, out, err = run([binary, "--strategy", strategy, "--seeds", str(seeds), "--starts", str(starts),
                          "--stride", str(STRIDE), "--shrink", "1"])
    if code != 0:
        raise RuntimeError(f"{binary} --strategy {strategy}: exit {code}: {err[-2000:]}")
    return parse_driver(out)


def dfs_search(binary, budget):
    """[(bound, result line)] from dfs:0 up to the first bound that finds a failure
    or does not exhaust within `budget` schedules."""
    searched = []
    for bound in range(DFS_MAX_BOUND + 1):
        code, out, err = run([binary, "--strategy", f"dfs:{bound}", "--seeds", str(budget), "--shrink", "0"])
        if code != 0:
            raise RuntimeError(f"{binary} dfs:{bound}: exit {code}: {err[-2000:]}")
        result = parse_driver(out)[0]
        searched.append((bound, result))
        if result["found"] == "1" or result["exhausted"] == "0":
            break
    return searched


def native_failures(binary):
    failures, hangs = 0, 0
    for _ in range(NATIVE_RUNS):
        code, _, _ = run([binary], timeout=NATIVE_TIMEOUT_S)
        if code == "hang":
            hangs += 1
        if code != 0:
            failures += 1
    return failures, hangs


def tsan_reports(binary):
    """Kinds of ThreadSanitizer warnings over TSAN_RUNS runs (empty: none)."""
    kinds = set()
    env = dict(os.environ, TSAN_OPTIONS="halt_on_error=0")
    for _ in range(TSAN_RUNS):
        _, _, err = run([binary], timeout=TSAN_TIMEOUT_S, env=env)
        for match in re.finditer(r"WARNING: ThreadSanitizer: ([a-z-]+(?: [a-z-]+)*)", err):
            kinds.add(match.group(1).split(" (")[0])
    return sorted(kinds)


def percentile(values, fraction):
    """Nearest-rank percentile; None stands for "not found within SEEDS" and sorts last."""
    ordered = sorted(values, key=lambda v: float("inf") if v is None else v)
    rank = max(1, -(-len(ordered) * fraction // 1))
    return ordered[int(rank) - 1]


def describe(source_path):
    """(one-line description, shape) from a program's header comment."""
    description, shape = "", ""
    with open(source_path) as source:
        lines = [line.rstrip("\n") for line in source]
    header = []
    for line in lines:
        if not line.startswith("//"):
            break
        header.append(line[2:].strip())
    text = ""
    for line in header:  # a line that ends in a hyphen continues the word on the next one
        text += line if text.endswith("-") or not text else " " + line
    match = re.match(r"[a-z_0-9]+: (.*?\.)(?: |$)", text)
    if match:
        description = match.group(1)
    match = re.search(r"Shape: (.*?\.)(?: |$)", text)
    if match:
        shape = match.group(1)
    return description, shape


def cell_seeds(value):
    return f">{SEEDS}" if value is None else str(value)


def machine():
    cpu = "unknown"
    try:
        with open("/proc/cpuinfo") as cpuinfo:
            for line in cpuinfo:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    commit = run(["git", "-C", REPO, "rev-parse", "--short", "HEAD"])[1].strip()
    dirty = run(["git", "-C", REPO, "status", "--porcelain", "--untracked-files=no"])[1].strip()
    return cpu, commit + (" (with uncommitted changes)" if dirty else "")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--build-dir", default=os.path.join(REPO, "build"))
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--no-build", action="store_true")
    parser.add_argument("--strategies", default=" ".join(STRATEGIES),
                        help="strategy specs separated by spaces (a portfolio's members are separated by commas)")
    parser.add_argument("--dry-run", action="store_true")
    args = parser.parse_args()
    started = time.time()
    load_before = os.getloadavg()[0]

    if not args.no_build:
        subprocess.run(["cmake", "--build", args.build_dir, "-j", str(args.jobs), "--target", "bug_programs"],
                       check=True)
    suite = Suite(args.build_dir)
    strategies, notes = strategies_known(suite, args.strategies.split())
    print(f"strategies: {', '.join(strategies)}" + ("; " + "; ".join(notes) if notes else ""), file=sys.stderr)

    failing = [(p, v) for p, v in suite.variants if v != "fixed"]
    fixed = [(p, v) for p, v in suite.variants if v == "fixed"]
    jobs = {}
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        for program, variant in failing:
            sim = suite.binary(program, variant, "sim")
            for strategy in strategies:
                jobs[("explore", program, variant, strategy)] = pool.submit(explore_starts, sim, strategy, SEEDS, STARTS)
            jobs[("dfs", program, variant)] = pool.submit(dfs_search, sim, DFS_BUDGET)
        for program, variant in fixed:
            sim = suite.binary(program, variant, "sim")
            for strategy in strategies:
                jobs[("explore", program, variant, strategy)] = pool.submit(explore_starts, sim, strategy, SEEDS, 1)
            jobs[("dfs", program, variant)] = pool.submit(dfs_search, sim, DFS_FIXED_BUDGET)
        for program, variant in suite.variants:
            jobs[("native", program, variant)] = pool.submit(native_failures, suite.binary(program, variant, "native"))
            jobs[("tsan", program, variant)] = pool.submit(tsan_reports, suite.binary(program, variant, "tsan"))
        results = {key: job.result() for key, job in jobs.items()}
    elapsed = time.time() - started
    load = (load_before, os.getloadavg()[0])

    section = render(suite, strategies, notes, failing, fixed, results, elapsed, load, args)
    if args.dry_run:
        print(section)
        return
    with open(DOC) as doc:
        text = doc.read()
    if BEGIN not in text or END not in text:
        sys.exit(f"bug_finding.py: {DOC} lacks the markers {BEGIN!r} ... {END!r}")
    head, rest = text.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    with open(DOC, "w") as doc:
        doc.write(head + BEGIN + "\n" + section + END + tail)
    print(f"bug_finding.py: wrote {DOC} in {elapsed:.0f} s", file=sys.stderr)


def needs(searched):
    """'exactly k' preemptions from the dfs search, or what it established."""
    bound, last = searched[-1]
    if last["found"] == "1":
        return str(bound) if bound == 0 or searched[-2][1]["exhausted"] == "1" else f"<= {bound}"
    if last["exhausted"] == "1":
        return f"> {bound}"
    return f"> {bound - 1}" if bound > 0 else "?"


def seeds_to_failure(lines):
    """Per start: executions up to the first failure, or None (not within SEEDS)."""
    return [int(line["tried"]) if line["found"] == "1" else None for line in lines]


def portfolio_estimate(per_strategy):
    """Per start, for a portfolio alternating the strategies in order (see PORTFOLIO_ESTIMATES)."""
    k = len(per_strategy)
    estimate = []
    for values in zip(*per_strategy):
        candidates = [k * (value - 1) + index + 1 for index, value in enumerate(values) if value is not None]
        best = min(candidates) if candidates else None
        estimate.append(best if best is not None and best <= SEEDS else None)
    return estimate


def render(suite, strategies, notes, failing, fixed, results, elapsed, load, args):
    cpu, commit = machine()
    out = []
    command = "python3 bench/bug_finding.py" + (f" --strategies '{args.strategies}'" if args.strategies != " ".join(STRATEGIES) else "")
    out.append(f"Produced by `{command}` on {datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC, "
               f"commit {commit}, {os.cpu_count()} cores ({cpu}), {args.jobs} jobs at a time, in {elapsed:.0f} s; "
               f"load average {load[0]:.1f} before and {load[1]:.1f} after (other work on the machine makes "
               f"native failures more likely and the run slower; it does not change any simulated number).")
    out.append("")
    if notes:
        out.append("Strategies not measured: " + "; ".join(notes) + ".")
        out.append("")

    # Bugs.
    header = ["program", "needs", "dfs"] + strategies + ["native /1000", "TSan"]
    out.append("| " + " | ".join(header) + " |")
    out.append("|" + "---|" * len(header))
    for program, variant in failing:
        name = program if variant == "bug" else f"{program} (half-fixed)"
        searched = results[("dfs", program, variant)]
        bound, last = searched[-1]
        dfs_cell = f"{last['tried']} (dfs:{bound})" if last["found"] == "1" else "not found"
        row = [f"`{name}`", needs(searched), dfs_cell]
        for strategy in strategies:
            lines = results[("explore", program, variant, strategy)]
            tried = seeds_to_failure(lines)
            found = sum(value is not None for value in tried)
            shrunk = next((line["preemptions"] for line in lines if line["found"] == "1"), None)
            median, p90 = percentile(tried, 0.5), percentile(tried, 0.9)
            cell = f"{cell_seeds(median)} / {cell_seeds(p90)}"
            if found < len(lines):
                cell += f" ({found}/{len(lines)})"
            if shrunk is not None:
                cell += f" → {shrunk}p"
            row.append(cell)
        failures, hangs = results[("native", program, variant)]
        row.append(f"{failures}" + (f" ({hangs} hangs)" if hangs else ""))
        kinds = results[("tsan", program, variant)]
        row.append(", ".join(kinds) if kinds else "no")
        out.append("| " + " | ".join(row) + " |")
    out.append("")

    bugs = [program for program, variant in failing if variant == "bug"]
    rows = [(strategy, {program: seeds_to_failure(results[("explore", program, "bug", strategy)]) for program in bugs})
            for strategy in strategies]
    for portfolio in PORTFOLIO_ESTIMATES:
        if all(strategy in strategies for strategy in portfolio):
            per_program = {}
            for program in bugs:
                per_strategy = [seeds_to_failure(results[("explore", program, "bug", strategy)]) for strategy in portfolio]
                per_program[program] = portfolio_estimate(per_strategy)
            rows.append(("estimate: " + " + ".join(portfolio), per_program))
    out.append(f"Over the {len(bugs)} bug programs (half-fixed variants left out); the estimate rows are portfolios "
               "alternating strategies seed by seed, computed from the rows above, not run:")
    out.append("")
    out.append(f"| strategy | found in all {STARTS} starts | found in some start | geometric mean of medians "
               f"(a miss counts {SEEDS * 10}) | worst median | worst p90 |")
    out.append("|---|---|---|---|---|---|")
    for name, per_program in rows:
        medians = [percentile(values, 0.5) for values in per_program.values()]
        p90s = [percentile(values, 0.9) for values in per_program.values()]
        found_all = sum(all(value is not None for value in values) for values in per_program.values())
        found_any = sum(any(value is not None for value in values) for values in per_program.values())
        geomean = statistics.geometric_mean([SEEDS * 10 if value is None else value for value in medians])
        out.append(f"| {name} | {found_all}/{len(bugs)} | {found_any}/{len(bugs)} | {geomean:.1f} | "
                   f"{cell_seeds(percentile(medians, 1.0))} | {cell_seeds(percentile(p90s, 1.0))} |")
    out.append("")

    # Correct counterparts.
    header = ["correct program"] + [f"{strategy} failures" for strategy in strategies] + \
             ["dfs (schedules, all ran?)", "native /1000", "TSan"]
    out.append("| " + " | ".join(header) + " |")
    out.append("|" + "---|" * len(header))
    for program, variant in fixed:
        row = [f"`{program}_fixed`"]
        for strategy in strategies:
            line = results[("explore", program, variant, strategy)][0]
            row.append(f"{'1 (seed ' + line['seed'] + ')' if line['found'] == '1' else '0'} / {SEEDS}")
        searched = results[("dfs", program, variant)]
        bound, last = searched[-1]
        if last["found"] == "1":
            row.append(f"FAILED at dfs:{bound} schedule {last['tried']}")
        else:
            row.append(f"dfs:{bound}: {last['tried']}, {'all' if last['exhausted'] == '1' else 'budget spent'}")
        failures, hangs = results[("native", program, variant)]
        row.append(f"{failures}" + (f" ({hangs} hangs)" if hangs else ""))
        kinds = results[("tsan", program, variant)]
        row.append(", ".join(kinds) if kinds else "no")
        out.append("| " + " | ".join(row) + " |")
    out.append("")

    out.append("The programs (shape, then what it is; the source's header says how the bug shows and what fixes it):")
    out.append("")
    for program in suite.programs():
        source = os.path.join(REPO, "bench", "bugs", "programs", suite.sources[program] + ".cpp")
        description, shape = describe(source)
        extra = f" (built with {suite.extra[program]})" if suite.extra[program] else ""
        half = " Has a half-fixed variant." if (program, "half_fixed") in suite.variants else ""
        out.append(f"- `{program}`{extra}: *{shape}* {description}{half}")
    out.append("")
    return "\n".join(out) + "\n"


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""race_finding.py: the data races ThreadSanitizer reports on bench/bugs/, against races=1.

For every program of bench/bugs/ and its variants (build/bin/bugs/programs.txt):
  - ThreadSanitizer: TSAN_RUNS runs of <name>_tsan (real threads, so each run may
    differ); every race it reports, as the pair of its two accesses' innermost
    frames (basename:line);
  - simthread: SIM_OPTIONS=races=1:halt_on_race=0:seed=S <name>_whole for S = 0, 1, ...
    up to SEEDS, stopping once every race TSan reported is found; the same pairs, and
    the first seed that found each;
  - the replay: SIM_OPTIONS=races=1:seed=<that seed> <name>_whole must end with exit 66
    and a data race report, whose does-it-matter line (race_flips, the default 20) is
    summed up: whether running on past that race, or flipping its two accesses, makes
    the program fail, and how.
It rewrites the part of docs/bug-finding.md between RACES_BEGIN and RACES_END.

  python3 bench/race_finding.py [--build-dir build] [--seeds 1000] [--tsan-runs 10] [--dry-run]
"""

import argparse
import datetime
import os
import re
import subprocess
import sys

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DOC = os.path.join(REPO, "docs", "bug-finding.md")
BEGIN = "<!-- RACES BEGIN: bench/race_finding.py rewrites this part; edit the script, not the table -->"
END = "<!-- RACES END -->"
TIMEOUT_S = 20.0
ACCESS = re.compile(r"^\s*(Previous )?(atomic )?(read|write|Read|Write|Atomic read|Atomic write)\b.* of size")
FRAME = re.compile(r"^\s*#0 (.*)$")
FAILS = re.compile(r"^\s*(running on past the race as found|flipping the order) \(.*?\)"
                   r"(?: in flipped schedule \d+)? makes the execution fail: ([a-z ]+):")
NO_FAILURE = re.compile(r"no failure running on past the race as found, nor when flipped \(.*?\) in (\d+) schedules")
CANNOT_FLIP = re.compile(r"no failure running on past the race as found; cannot flip the order: .*?: (.*)$")


def site_of(frame):
    """basename:line of a #0 frame, TSan's ('f() /a/b.cpp:22:5 (bin+0x..)') or simthread's ('f() b.cpp:22')."""
    match = re.search(r"([^\s/]+\.(?:cpp|cc|h|hpp|c)):(\d+)", frame)
    return f"{match.group(1)}:{match.group(2)}" if match else frame.strip()


def races_in(text, header):
    """The set of races in a run's stderr: each a sorted pair of the two accesses' sites."""
    races = set()
    for block in text.split(header)[1:]:
        sites = []
        expect_frame = False
        for line in block.splitlines():
            if line.startswith("SUMMARY"):
                break
            if ACCESS.match(line):
                expect_frame = True
            elif expect_frame and FRAME.match(line):
                sites.append(site_of(FRAME.match(line).group(1)))
                expect_frame = False
        if len(sites) >= 2:
            races.add(tuple(sorted(sites[:2])))
    return races


def matters(text):
    """The replayed race's does-it-matter line, summed up."""
    for line in text.splitlines():
        if match := FAILS.match(line):
            how = "as found" if match.group(1).startswith("running") else "flipped"
            return f"fails {how} ({match.group(2)})"
        if match := NO_FAILURE.search(line):
            return f"no failure ({match.group(1)} flips)"
        if match := CANNOT_FLIP.search(line):
            return f"cannot flip: {match.group(1)}"
    return "?"


def run(command, env_extra=None):
    env = dict(os.environ)
    env.pop("SIM_OPTIONS", None)
    env.update(env_extra or {})
    try:
        done = subprocess.run(command, env=env, capture_output=True, text=True, errors="replace", timeout=TIMEOUT_S)
        return done.returncode, done.stdout + done.stderr
    except subprocess.TimeoutExpired as expired:
        return None, (expired.stdout or b"").decode(errors="replace") + (expired.stderr or b"").decode(errors="replace")


def measure(bugs, name, seeds, tsan_runs):
    tsan = set()
    tsan_reporting = 0
    for _ in range(tsan_runs):
        _, text = run([os.path.join(bugs, name + "_tsan")])
        found = races_in(text, "WARNING: ThreadSanitizer: data race")
        tsan |= found
        tsan_reporting += bool(found)
    first_seed = {}
    seeds_run = 0
    for seed in range(seeds):
        _, text = run([os.path.join(bugs, name + "_whole")], {"SIM_OPTIONS": f"races=1:halt_on_race=0:seed={seed}"})
        seeds_run += 1
        for race in races_in(text, "WARNING: simthread: data race"):
            first_seed.setdefault(race, seed)
        if tsan and tsan <= set(first_seed):
            break
    replays = {}
    for race, seed in first_seed.items():
        status, text = run([os.path.join(bugs, name + "_whole")], {"SIM_OPTIONS": f"races=1:seed={seed}"})
        replays[race] = (status == 66 and "WARNING: simthread: data race" in text, matters(text))
    return {"tsan": tsan, "tsan_reporting": tsan_reporting, "first_seed": first_seed, "seeds_run": seeds_run,
            "replays": replays}


def pair_text(race):
    return " / ".join(race) if race[0] != race[1] else race[0] + " (both)"


def section(rows, seeds, tsan_runs):
    lines = [BEGIN, "", f"Measured {datetime.date.today().isoformat()} by `python3 bench/race_finding.py "
             f"--seeds {seeds} --tsan-runs {tsan_runs}`. A race is the pair of its two accesses' innermost "
             "frames. TSan: the races its runs reported (how many of its runs reported any). simthread: "
             "each of TSan's races, and the first seed of `SIM_OPTIONS=races=1:halt_on_race=0:seed=S` "
             "that reported it (seeds are run until all of TSan's are found, at most "
             f"{seeds:,}); its other races; whether `SIM_OPTIONS=races=1:seed=S` replays a race (exit 66); "
             "and what that replay's report says of whether its race matters (`race_flips`: run on past the "
             "race as found, then flipped in up to 20 schedules, without the detector).",
             "", "| program | TSan | TSan's races in simthread (first seed) | simthread's other races | replayed "
             "| does it matter |",
             "|---|---|---|---|---|---|"]
    for name, result in rows:
        tsan = result["tsan"]
        found = [f"{pair_text(r)} ({result['first_seed'][r]})" if r in result["first_seed"] else
                 f"**{pair_text(r)}: not within {result['seeds_run']:,} seeds**" for r in sorted(tsan)]
        others = [f"{pair_text(r)} ({s})" for r, s in sorted(result["first_seed"].items()) if r not in tsan]
        replayed = sum(ok for ok, _ in result["replays"].values())
        said = "; ".join(sorted({summary for _, summary in result["replays"].values()}))
        lines.append(f"| {name} | {len(tsan)} race(s), {result['tsan_reporting']}/{tsan_runs} runs | "
                     f"{'; '.join(found) or '-'} | {'; '.join(others) or '-'} | "
                     f"{replayed}/{len(result['replays'])} | {said} |" if result["replays"] else
                     f"| {name} | {len(tsan)} race(s), {result['tsan_reporting']}/{tsan_runs} runs | "
                     f"{'; '.join(found) or '-'} | - | - | - |")
    lines += ["", END]
    return "\n".join(lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build-dir", default=os.path.join(REPO, "build"))
    parser.add_argument("--seeds", type=int, default=1000)
    parser.add_argument("--tsan-runs", type=int, default=10)
    parser.add_argument("--dry-run", action="store_true")
    args = parser.parse_args()
    bugs = os.path.join(args.build_dir, "bin", "bugs")
    names = []
    with open(os.path.join(bugs, "programs.txt")) as listing:
        for line in listing:
            if line.startswith("#") or not line.strip():
                continue
            program, variant = line.split()[:2]
            name = program if variant == "bug" else f"{program}_{variant}"
            if os.path.exists(os.path.join(bugs, name + "_tsan")) and os.path.exists(os.path.join(bugs, name + "_whole")):
                names.append(name)
    rows = []
    for name in names:
        result = measure(bugs, name, args.seeds, args.tsan_runs)
        print(f"{name}: TSan {sorted(result['tsan'])}, simthread {result['first_seed']}", file=sys.stderr)
        rows.append((name, result))
    text = section(rows, args.seeds, args.tsan_runs)
    if args.dry_run:
        print(text)
        return
    with open(DOC) as doc:
        content = doc.read()
    if BEGIN in content:
        content = content[:content.index(BEGIN)] + text + content[content.index(END) + len(END):]
    else:
        content = content.rstrip("\n") + "\n\n## Data races: ThreadSanitizer and races=1\n\n" + text + "\n"
    with open(DOC, "w") as doc:
        doc.write(content)


if __name__ == "__main__":
    main()

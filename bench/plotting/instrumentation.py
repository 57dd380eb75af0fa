"""The instrumentation group: the "instrumentation and whole-program runs"
section (cost of one memory access, from the access_bench rounds; sim-run
seeds per second, from seeds_bench.json)."""
from .formatting import fmt_access_ns, machine_lines
from .results import median_of, stats

ACCESS_TARGET_NO_WORLD = 1.3  # (b) / (a)
ACCESS_TARGET_VS_TSAN = 1.0  # (c) / (d)
ACCESS_TARGET_RACES_VS_TSAN = 1.5  # (c″) / (d): issue 19's, for an access with the race detector on
SEEDS_TARGET = 1000  # sim-run seeds/s with --jobs 2 (issue 6; it was 300 before the fork server)

ACCESS_KERNELS = [
    ("axpy", "axpy, z[i] = a·x[i] + y[i], 3 × 16 MiB doubles (vectorised)"),
    ("histogram", "histogram, ++h[bytes[i]], 16 MiB bytes"),
    ("pointer_chase", "pointer chase, random cycle of 1 Mi nodes (16 MiB)"),
]
# (binary suffix, variant in the benchmark name, column label)
ACCESS_VARIANTS = [
    ("native", "native", "(a) uninstrumented"),
    ("sim", "instrumented_no_world", "(b) sim-clang++, no world"),
    ("sim", "instrumented_in_world", "(c) sim-clang++, in a world, no switch"),
    ("sim", "instrumented_in_world_beside_blocked_thread", "(c′) the same beside a blocked second thread"),
    ("sim", "instrumented_in_world_beside_blocked_thread_races", "(c″) (c′) with races=1"),
    ("tsan", "tsan", "(d) -fsanitize=thread"),
]
# (run_name, label, what this row adds to the previous one)
SEEDS_ROWS = [
    ("BM_Spawn/native/jobs:1/iterations:1/real_time", "correct_counter built by clang++-19, no simthread",
     "exec + ld.so + the program on real threads"),
    ("BM_Spawn/sim_no_world/jobs:1/iterations:1/real_time", "sim-clang++ build, SIM_OPTIONS unset",
     "the runtime's shared libraries, its static initialisation, interceptors"),
    ("BM_Spawn/sim_world_aslr_off/jobs:1/iterations:1/real_time",
     "sim-clang++ build, SIM_OPTIONS=seed=K, ASLR already off", "the world: main as T0, 3 simulated threads"),
    ("BM_Spawn/sim_world/jobs:1/iterations:1/real_time", "sim-clang++ build, SIM_OPTIONS=seed=K",
     "the re-exec with ADDR_NO_RANDOMIZE (a second exec + ld.so + static init)"),
    ("BM_SimRunSpawn/jobs:1/iterations:1/real_time", "sim-run --no-fork-server --seeds 1000 --jobs 1",
     "sim-run: report JSON and stderr files, process groups, classification"),
    ("BM_SimRun/jobs:1/iterations:1/real_time", "sim-run --seeds 1000 --jobs 1 (fork server, the default)",
     "a fork server per job: exec, ld.so and static initialisation once per job, not per seed"),
]
SEEDS_PARALLEL_ROWS = [
    ("BM_Spawn/native/jobs:2/iterations:1/real_time", "correct_counter built by clang++-19, 2 at a time"),
    ("BM_Spawn/sim_world/jobs:2/iterations:1/real_time", "sim-clang++ build, SIM_OPTIONS=seed=K, 2 at a time"),
    ("BM_SimRunSpawn/jobs:2/iterations:1/real_time", "sim-run --no-fork-server --seeds 1000 --jobs 2"),
    ("BM_SimRun/jobs:2/iterations:1/real_time", "sim-run --seeds 1000 --jobs 2 (fork server, the default)"),
]
SEEDS_TARGET_ROW = "BM_SimRun/jobs:2/iterations:1/real_time"
# executions_bench's scenarios as whole programs (bench/scenario_program):
# (scenario argument, label)
SCENARIO_PROGRAMS = [
    ("registry", "2-thread registry, 8 synchronisation operations"),
    ("lock_loop_4x200", "4 threads, 200 synchronisation operations"),
]


def access_part(rounds):
    out = ["### Cost of one memory access",
           "",
           "ns per source-level element access (axpy and histogram: 3 per element, pointer chase: 2 per step), "
           "wall clock, median over rounds (min–max); ratios are the median of the per-round ratios.",
           "",
           "| kernel | " + " | ".join(label for _, _, label in ACCESS_VARIANTS) +
           " | (b)/(a) | (c)/(d) | (c)/(a) | (d)/(a) | (c′)/(d) | (c″)/(d) | (c″)−(c′), ns |",
           "|---|" + "---:|" * (len(ACCESS_VARIANTS) + 7)]
    verdicts = {"b": [], "c": [], "races": []}
    min_on_cpu = 1.0
    for kernel, label in ACCESS_KERNELS:
        cells, ns = [], {}
        for _, variant, _ in ACCESS_VARIANTS:
            values = [r[(kernel, variant)]["ns"] for r in rounds if (kernel, variant) in r]
            min_on_cpu = min([min_on_cpu] + [r[(kernel, variant)]["on_cpu"] for r in rounds if (kernel, variant) in r])
            st = stats(values)
            ns[variant] = st
            cells.append(f"{fmt_access_ns(st[0])} ({fmt_access_ns(st[1])}–{fmt_access_ns(st[2])})" if st else "not run")

        def ratio(top, bottom):
            values = [r[(kernel, top)]["ns"] / r[(kernel, bottom)]["ns"] for r in rounds
                      if (kernel, top) in r and (kernel, bottom) in r]
            return stats(values)

        b_a = ratio("instrumented_no_world", "native")
        c_d = ratio("instrumented_in_world", "tsan")
        c_a = ratio("instrumented_in_world", "native")
        d_a = ratio("tsan", "native")
        c2_d = ratio("instrumented_in_world_beside_blocked_thread", "tsan")
        c3_d = ratio("instrumented_in_world_beside_blocked_thread_races", "tsan")
        # What the detector adds, per round, in ns: its own cost beside TSan's whole one.
        added = stats([r[(kernel, "instrumented_in_world_beside_blocked_thread_races")]["ns"] -
                       r[(kernel, "instrumented_in_world_beside_blocked_thread")]["ns"] for r in rounds
                       if (kernel, "instrumented_in_world_beside_blocked_thread_races") in r and
                       (kernel, "instrumented_in_world_beside_blocked_thread") in r])
        if b_a:
            verdicts["b"].append((label.split(",")[0], b_a))
        if c_d:
            verdicts["c"].append((label.split(",")[0], c_d))
        if c3_d:
            verdicts["races"].append((label.split(",")[0], c3_d))
        ratio_cells = [(f"**{r[0]:.2f}×**" if i in (0, 1, 5) else f"{r[0]:.1f}×") if r else ""
                       for i, r in enumerate((b_a, c_d, c_a, d_a, c2_d, c3_d))]
        ratio_cells.append(fmt_access_ns(added[0]) if added else "")
        out.append(f"| {label} | " + " | ".join(cells) + " | " + " | ".join(ratio_cells) + " |")
    out.append("")
    out.append(f"Lowest on-CPU share of any row in any round: {min_on_cpu:.0%} (CPU time / wall time; below 100% "
               "the process was descheduled, which inflates that row).")
    out.append("")

    def verdict_line(key, target, what):
        results = verdicts[key]
        if not results:
            return f"**Target {what}: not measured.**"
        missed = [k for k, r in results if r[0] > target]
        detail = ", ".join(f"{k} {r[0]:.2f}× ({r[1]:.2f}–{r[2]:.2f})" for k, r in results)
        word = "met" if not missed else ("missed" if len(missed) == len(results) else
                                         f"missed on {', '.join(missed)}, met on the rest")
        return f"**Target {what}: {word}** — {detail}."

    out.append(verdict_line("b", ACCESS_TARGET_NO_WORLD, f"(b) ≤ {ACCESS_TARGET_NO_WORLD}× (a)"))
    out.append("")
    out.append(verdict_line("c", ACCESS_TARGET_VS_TSAN, "(c) ≤ (d)"))
    out.append("")
    out.append(verdict_line("races", ACCESS_TARGET_RACES_VS_TSAN, f"(c″) ≤ {ACCESS_TARGET_RACES_VS_TSAN}× (d)"))
    out.append("")
    out.append("(c) is T0 alone, where an access decides nothing and is not hashed; (c′) keeps a second thread "
               "alive, blocked, so every access is a full scheduling point that still never switches: what an "
               "access costs while threads run, and not covered by the target.")
    out.append("")
    out.append("![ns per access, log scale](performance-access.svg)")
    out.append("")
    return out


def seeds_part(seeds):
    out = ["### sim-run seeds per second (examples/programs/correct_counter, 1,000 processes per row)",
           "",
           "Seeds/s is wall clock (what a user waits for). The split into layers uses CPU ms per process "
           "(user + system time of the children, and of sim-run's children, from `getrusage(RUSAGE_CHILDREN)`), "
           "which other load disturbs far less than wall time.",
           "",
           "| how | seeds/s, wall (median) | min–max | CPU ms per process (median) | added by this layer (CPU) |",
           "|---|---:|---:|---:|---|"]
    previous = None
    rates = {}
    for name, label, adds in SEEDS_ROWS:
        entry = seeds.get(name)
        if entry is None or entry["error"] or not entry["reps"]:
            out.append(f"| {label} | {'skipped: ' + entry['error'] if entry and entry['error'] else 'not run'} | | | |")
            continue
        m = median_of(entry, "items_per_second")
        cpu = median_of(entry, "child_cpu_ms")
        rates[name] = m[0]
        added = adds
        if previous is not None and cpu:
            delta = round(cpu[0] - previous, 2) + 0.0  # no "-0.00"
            added = f"{delta:+.2f} ms: {adds}"
        previous = cpu[0] if cpu else None
        cpu_text = f"{cpu[0]:.2f}" if cpu else ""
        out.append(f"| {label} | {m[0]:,.0f} | {m[1]:,.0f}–{m[2]:,.0f} | {cpu_text} | {added} |")
    for name, label in SEEDS_PARALLEL_ROWS:
        entry = seeds.get(name)
        if entry is None or entry["error"] or not entry["reps"]:
            out.append(f"| {label} | {'skipped: ' + entry['error'] if entry and entry['error'] else 'not run'} | | | |")
            continue
        m = median_of(entry, "items_per_second")
        cpu = median_of(entry, "child_cpu_ms")
        rates[name] = m[0]
        serial = rates.get(name.replace("jobs:2", "jobs:1"))
        scaling = f"wall: {m[0] / serial:.2f}× the seeds/s of jobs 1" if serial else ""
        cpu_text = f"{cpu[0]:.2f}" if cpu else ""
        out.append(f"| {label} | {m[0]:,.0f} | {m[1]:,.0f}–{m[2]:,.0f} | {cpu_text} | {scaling} |")
    out.append("")
    simrun2 = rates.get(SEEDS_TARGET_ROW)
    if simrun2:
        verdict = "met" if simrun2 >= SEEDS_TARGET else "missed"
        out.append(f"**Target ≥ {SEEDS_TARGET} seeds/s with --jobs 2: {verdict}** — {simrun2:,.0f} seeds/s "
                   f"({simrun2 / SEEDS_TARGET:.2f}× the target).")
    out.append("")
    out += scenario_seeds_part(seeds)
    return out


def scenario_seeds_part(seeds):
    out = ["### sim-run on the executions scenarios (bench/scenario_program, 1,000 processes per row)",
           "",
           "The scenarios of the executions section, each built as a whole program that runs its body once in "
           "`main`: the native build spawned once per run (real threads, create + join, as a user's stress loop "
           "of processes would), and `sim-run --seeds 1000 --jobs J` on the sim-clang++ build (fork servers, "
           "the default). jobs 1 is the per-core figure.",
           "",
           "| scenario | native, a process per run (seeds/s) | sim-run --jobs 1 (seeds/s) | sim-run --jobs 2 (seeds/s) "
           "| CPU ms per seed, sim-run --jobs 1 | sim-run --jobs 1 / native |",
           "|---|---:|---:|---:|---:|---:|"]
    for scenario, label in SCENARIO_PROGRAMS:
        cells = []
        rates = []
        for name in (f"BM_SpawnScenario/{scenario}/native/jobs:1/iterations:1/real_time",
                     f"BM_SimRunScenario/{scenario}/jobs:1/iterations:1/real_time",
                     f"BM_SimRunScenario/{scenario}/jobs:2/iterations:1/real_time"):
            entry = seeds.get(name)
            if entry is None or entry["error"] or not entry["reps"]:
                cells.append("skipped: " + entry["error"] if entry and entry["error"] else "not run")
                rates.append(None)
                continue
            m = median_of(entry, "items_per_second")
            rates.append(m[0])
            cells.append(f"{m[0]:,.0f} ({m[1]:,.0f}–{m[2]:,.0f})")
        entry = seeds.get(f"BM_SimRunScenario/{scenario}/jobs:1/iterations:1/real_time")
        cpu = median_of(entry, "child_cpu_ms") if entry and not entry["error"] and entry["reps"] else None
        cpu_text = f"{cpu[0]:.2f}" if cpu else ""
        ratio = f"{rates[1] / rates[0]:.2f}×" if rates[0] and rates[1] else ""
        out.append(f"| {label} | {' | '.join(cells)} | {cpu_text} | {ratio} |")
    out.append("")
    return out


def instrumentation_section(rounds, seeds, machine, command):
    repetitions = max((len(e["reps"]) for e in seeds.values()), default=0)
    out = machine_lines(machine, command,
                        f"access rows: {len(rounds)} rounds, each running the three access_bench binaries once "
                        f"in turn; seeds rows: median of {repetitions} repetitions")
    if rounds:
        out += access_part(rounds)
    if seeds:
        out += seeds_part(seeds)
    while out and out[-1] == "":
        out.pop()
    return "\n".join(out)

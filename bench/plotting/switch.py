"""The switch group: the "Results" section (cost of one switch, executions per
second) from switch_bench.json and executions_bench.json."""
import statistics

from .formatting import fmt_ns, fmt_rate
from .results import median_of

SWITCH_TARGET_RATIO = 2.0
EXECUTIONS_TARGET = 200_000

# (benchmark run_name, label in the doc and plot)
SWITCH_ROWS = [
    ("BM_RawFcontextSwitch/real_time", "raw jump_fcontext"),
    ("BM_RawFcontextSwitchWrfsbase/real_time", "(a) raw jump_fcontext + wrfsbase"),
    ("BM_RawSimSwitchStacks/real_time", "raw sim_switch_stacks (the runtime's own) + wrfsbase, same caller"),
    ("BM_RawFcontextSwitchNested/real_time", "raw jump_fcontext + wrfsbase, 4 calls deep, same caller"),
    ("BM_RawSimSwitchStacksNested/real_time", "raw sim_switch_stacks + wrfsbase, 4 calls deep, same caller"),
    ("BM_RawSimSwitchStacksSameLoop/real_time",
     "(f) floor: raw sim_switch_stacks + wrfsbase, as deep as the runtime calls it, both sides in one loop, "
     "as simulated threads are"),
    ("BM_SimSwitchAlternating/20000/real_time", "(b) simulated threads, every point switches"),
    ("BM_SimSwitchAlternating/2000/real_time", "(b′) the same, 2,000 points per thread per execution"),
    ("BM_SimSwitchAlternatingIn/tls_lazy/20000/real_time", "(b) under tls_switch=lazy (no system call)"),
    ("BM_SimSwitchAlternatingIn/tls_wrfsbase/20000/real_time", "(b) under tls_switch=wrfsbase"),
    ("BM_SimSwitchAlternatingIn/tls_syscall/20000/real_time", "(b) under tls_switch=syscall (arch_prctl)"),
    ("BM_SimSwitchRandom/20000/real_time", "simulated threads, strategy=random"),
    ("BM_SimSwitchSchedYield/20000/real_time", "simulated threads via sched_yield()"),
    ("BM_OsThreadHandoff/real_time", "(c) OS threads, mutex + condition_variable"),
]
EXECUTION_ROWS_REGISTRY = [
    ("BM_ExploreExecutionsRegistry/random/real_time", "sim::explore, strategy=random"),
    ("BM_ExploreExecutionsRegistry/pct3/real_time", "sim::explore, strategy=pct:3"),
    ("BM_ExploreExecutionsRegistry/random/tls_lazy/real_time", "sim::explore, strategy=random, tls_switch=lazy"),
    ("BM_ExploreExecutionsRegistry/random/tls_wrfsbase/real_time", "sim::explore, strategy=random, tls_switch=wrfsbase"),
    ("BM_ExploreExecutionsRegistry/random/tls_syscall/real_time", "sim::explore, strategy=random, tls_switch=syscall"),
    ("BM_RealThreadsExecutionsRegistry/real_time", "real std::threads (create + join each run)"),
]
EXECUTION_ROWS = [
    ("BM_ExploreExecutions/random/real_time", "sim::explore, strategy=random"),
    ("BM_ExploreExecutions/pct3/real_time", "sim::explore, strategy=pct:3"),
    ("BM_ExploreExecutions/random/tls_lazy/real_time", "sim::explore, strategy=random, tls_switch=lazy"),
    ("BM_ExploreExecutions/random/tls_wrfsbase/real_time", "sim::explore, strategy=random, tls_switch=wrfsbase"),
    ("BM_ExploreExecutions/random/tls_syscall/real_time", "sim::explore, strategy=random, tls_switch=syscall"),
    ("BM_RealThreadsExecutions/real_time", "real std::threads (create + join each run)"),
]
EXECUTION_ROWS_4 = [
    ("BM_ExploreExecutions4x200/random/real_time", "sim::explore, strategy=random"),
    ("BM_ExploreExecutions4x200/pct3/real_time", "sim::explore, strategy=pct:3"),
    ("BM_RealThreadsExecutions4x200/real_time", "real std::threads (create + join each run)"),
]


def switch_row(label_prefix):
    return next(name for name, label in SWITCH_ROWS if label.startswith(label_prefix))


def switch_section(switch, executions, machine, command, repetitions_seen):
    out = switch_machine_lines(machine, command, repetitions_seen)
    out += switch_table(switch)
    out += switch_target_lines(switch)
    out.append("")
    out.append("![ns per switch, log scale](performance-switch.svg)")
    out.append("")

    out += executions_part("### Executions per second (the 2-thread registry scenario, 8 synchronisation operations)",
                           executions, EXECUTION_ROWS_REGISTRY, with_target=True)
    out.append("")
    out += executions_part("### Executions per second (2 threads, 52 synchronisation operations)", executions,
                           EXECUTION_ROWS, with_target=False)
    out.append("")
    out += executions_part("### Executions per second (4 threads, 200 synchronisation operations)", executions,
                           EXECUTION_ROWS_4, with_target=False)
    return "\n".join(out)


def switch_machine_lines(machine, command, repetitions_seen):
    """The provenance list of this section, which also names FSGSBASE and the
    build type (the other sections use formatting.machine_lines)."""
    out = []
    out.append(f"Produced by `{command}` (commit {machine.get('commit', '?')}, {machine.get('date', '?')}).")
    out.append("")
    out.append(f"- machine: {machine.get('nproc', '?')} CPUs (`nproc`), {machine.get('cpu', '?')}, "
               f"FSGSBASE: {machine.get('fsgsbase', '?')}")
    out.append(f"- kernel: {machine.get('kernel', '?')}; compiler: {machine.get('compiler', '?')}, RelWithDebInfo")
    out.append(f"- other load: load average before / after {machine.get('load_before', '?')} / "
               f"{machine.get('load_after', '?')}; during the run "
               f"{machine.get('compiler_samples', 'compiler processes were not sampled')} "
               f"(other engineers' builds share the 2 cores)")
    out.append(f"- every figure is the median of {repetitions_seen} repetitions (min–max in brackets)")
    out.append("")
    return out


def switch_table(switch):
    out = []
    out.append("### Cost of one switch")
    out.append("")
    out.append("| what switches | ns per switch, wall (median) | min–max | vs (a) | ns per switch, on-CPU | vs (a) "
               "| on-CPU share |")
    out.append("|---|---:|---:|---:|---:|---:|---:|")
    base = median_of(switch.get(switch_row("(a)"), {"reps": []}), "ns_per_switch")
    base_cpu = median_of(switch.get(switch_row("(a)"), {"reps": []}), "ns_per_switch", cpu=True)
    for name, label in SWITCH_ROWS:
        entry = switch.get(name)
        if entry is None:
            out.append(f"| {label} | not run | | | | | |")
            continue
        if entry["error"]:
            out.append(f"| {label} | skipped: {entry['error'].split(';')[0]} | | | | | |")
            continue
        m = median_of(entry, "ns_per_switch")
        ratio = f"{m[0] / base[0]:.2f}×" if base else ""
        extra = ""
        point = median_of(entry, "ns_per_point")
        share = median_of(entry, "switches_per_point")
        if point and share and share[0] < 0.99:
            extra = f" ({point[0]:.1f} ns per scheduling point; {share[0]:.2f} of points switch)"
        on_cpu = statistics.median(r["cpu_time"] / r["real_time"] for r in entry["reps"])
        if "OS threads" in label:  # the benchmark thread sleeps while the partner runs
            cpu_text, on_cpu_text = "n/a | n/a", "n/a (sleeps)"
        else:
            c = median_of(entry, "ns_per_switch", cpu=True)
            cpu_text = f"{c[0]:.1f} | {c[0] / base_cpu[0]:.2f}×" if base_cpu else f"{c[0]:.1f} |"
            on_cpu_text = f"{on_cpu:.0%}"
        out.append(f"| {label}{extra} | {m[0]:.1f} | {m[1]:.1f}–{m[2]:.1f} | {ratio} | {cpu_text} | {on_cpu_text} |")
    out.append("")
    out.append("On-CPU share: CPU time / wall time of the benchmark thread; below 100% the process was "
               "descheduled for other work, which inflates that row's wall time. The on-CPU columns scale each "
               "repetition by that share (what a switch costs while it runs; cache and memory-bandwidth "
               "interference from other processes remains in both).")
    out.append("")
    return out


def switch_target_lines(switch):
    """The verdict on (b)/(a), then what the floor (f), (b′) and (c) cost next to it."""
    out = []
    base = median_of(switch.get(switch_row("(a)"), {"reps": []}), "ns_per_switch")
    base_cpu = median_of(switch.get(switch_row("(a)"), {"reps": []}), "ns_per_switch", cpu=True)
    sim = median_of(switch.get(switch_row("(b)"), {"reps": []}), "ns_per_switch")
    sim_cpu = median_of(switch.get(switch_row("(b)"), {"reps": []}), "ns_per_switch", cpu=True)
    if base and sim:
        ratio = sim[0] / base[0]
        ratio_cpu = sim_cpu[0] / base_cpu[0]
        verdict = "met" if max(ratio, ratio_cpu) <= SWITCH_TARGET_RATIO else "missed"
        out.append(f"**Target (b)/(a) ≤ {SWITCH_TARGET_RATIO:.0f}×: {verdict}** — (b)/(a) = "
                   f"{sim[0]:.1f} / {base[0]:.1f} = **{ratio:.2f}×** wall, "
                   f"{sim_cpu[0]:.1f} / {base_cpu[0]:.1f} = **{ratio_cpu:.2f}×** on-CPU "
                   f"(the target allows {SWITCH_TARGET_RATIO * base_cpu[0]:.1f} ns per switch on this machine).")
        floor = switch.get(switch_row("(f)"))
        if floor and not floor["error"] and floor["reps"]:
            floor_cpu = median_of(floor, "ns_per_switch", cpu=True)
            out.append(f"The floor (f), the runtime's switch routine with no scheduling around it, called as "
                       f"simulated threads call it, is {floor_cpu[0]:.1f} ns on-CPU: the target leaves "
                       f"{SWITCH_TARGET_RATIO * base_cpu[0] - floor_cpu[0]:.1f} ns for a scheduling point's "
                       f"bookkeeping, which takes {sim_cpu[0] - floor_cpu[0]:.1f} ns in (b).")
        short = switch.get(switch_row("(b′)"))
        if short and not short["error"] and short["reps"]:
            short_cpu = median_of(short, "ns_per_switch", cpu=True)
            out.append(f"With 2,000 instead of 20,000 points per thread per execution (b′), so that an execution's "
                       f"decision records stay in cache: {short_cpu[0]:.1f} ns on-CPU, "
                       f"**{short_cpu[0] / base_cpu[0]:.2f}×** (a).")
        os_row = median_of(switch.get(switch_row("(c)"), {"reps": []}), "ns_per_switch")
        if os_row:
            out.append(f"An OS-thread handoff (c) costs {fmt_ns(os_row[0])}, "
                       f"{os_row[0] / sim[0]:.0f}× a simulated switch.")
    return out


def executions_part(title, executions, rows, with_target):
    out = [title, "",
           "| how | executions/s, wall (median) | min–max | executions per CPU-second (median) |",
           "|---|---:|---:|---:|"]
    rates, wall_rates = {}, {}
    for name, label in rows:
        entry = executions.get(name)
        if entry is None or entry["error"] or not entry["reps"]:
            out.append(f"| {label} | {'skipped: ' + entry['error'] if entry and entry['error'] else 'not run'} | | |")
            continue
        m = median_of(entry, "items_per_second")
        wall_rates[name] = m[0]
        on_cpu = statistics.median(r["items_per_second"] * r["real_time"] / r["cpu_time"] for r in entry["reps"])
        if "real std::threads" in label:  # the worker threads' CPU time is not the benchmark thread's
            rates[name], on_cpu_text = m[0], "n/a"
        else:
            rates[name], on_cpu_text = on_cpu, fmt_rate(on_cpu)
        out.append(f"| {label} | {fmt_rate(m[0])} | {fmt_rate(m[1])}–{fmt_rate(m[2])} | {on_cpu_text} |")
    out.append("")
    random_rate = rates.get(rows[0][0])
    real_rate = wall_rates.get(next(name for name, label in rows if "real std::threads" in label))
    if random_rate:
        if with_target:
            verdict = "met" if random_rate >= EXECUTIONS_TARGET else "missed"
            line = (f"**Target ≥ {EXECUTIONS_TARGET // 1000}k executions/s on one core (strategy=random): {verdict}** "
                    f"— {fmt_rate(random_rate)} per CPU-second ({random_rate / EXECUTIONS_TARGET:.2f}× the target)")
        else:
            line = f"strategy=random: {fmt_rate(random_rate)} per CPU-second"
        if real_rate:
            line += (f"; wall clock against wall clock, explore runs {wall_rates[rows[0][0]] / real_rate:.0f}× "
                     f"as many executions per second as real threads")
        out.append(line + ".")
    return out

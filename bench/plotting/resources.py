"""The resources group: the "memory and shrinking" section, from
memory_bench.json and shrink_bench.json."""
import statistics

from .formatting import machine_lines
from .results import counter_stats, find_run, stats

SHRINK_TARGET_MS = 1000
RSS_FLAT_KIB = 1024  # growth from 1k to 100k seeds that still counts as flat
SHRINK_EXAMPLES = ["lazy_registry", "unlocked_counter", "refcount_double_delete", "abba_deadlock"]
SHRINK_BODIES = [("check_then_act", "check-then-act across two critical sections (2 threads)"),
                 ("lost_update_3x20", "lost update, 3 threads × 20 locked read-then-write steps"),
                 ("abba", "lock-order inversion (deadlock)")]


def memory_part(memory):
    out = ["### Memory: 1,000 threads at once, and RSS over 100,000 seeds", "",
           "Peak RSS (`ru_maxrss` from `wait4`) of a fresh process that does one thing and exits; "
           "'per thread' is (peak − the idle process's peak, measured in the same repetition) / 1,000.", "",
           "| process | peak RSS, MiB (median) | min–max | KiB per thread above idle |",
           "|---|---:|---:|---:|"]
    labels = [("BM_PeakRss/idle", "idle: the bench binary with the runtime linked in, doing nothing"),
              ("BM_PeakRss/real_threads", "1,000 real std::threads alive at once (a std::latch)"),
              ("BM_PeakRss/world", "sim::explore, 1 seed: the same body as 1,000 simulated threads")]
    per_thread = {}
    for prefix, label in labels:
        entry = find_run(memory, prefix)
        peak = counter_stats(entry, "peak_rss_kib")
        if entry is None or entry["error"] or not peak:
            out.append(f"| {label} | {'skipped: ' + entry['error'] if entry and entry['error'] else 'not run'} | | |")
            continue
        each = counter_stats(entry, "kib_per_thread")
        per_thread[prefix] = each[0] if each else None
        each_text = f"{each[0]:.1f}" if each and "idle" not in prefix else ""
        out.append(f"| {label} | {peak[0] / 1024:.1f} | {peak[1] / 1024:.1f}–{peak[2] / 1024:.1f} | {each_text} |")
    out.append("")
    world, real = per_thread.get("BM_PeakRss/world"), per_thread.get("BM_PeakRss/real_threads")
    if world is not None and real:
        out.append(f"A simulated thread costs {world:.1f} KiB of resident memory, {world / real:.2f}× a real "
                   f"thread's {real:.1f} KiB (each simulated thread also parks one donor pthread for its TCB).")
        out.append("")
    entry = find_run(memory, "BM_RssOverSeeds")
    if entry is None or entry["error"] or not entry["reps"]:
        out.append(f"RSS over seeds: {'skipped: ' + entry['error'] if entry and entry['error'] else 'not run'}.")
        out.append("")
        return out
    out += ["VmRSS of one process exploring a small body (3 threads, 4 locked increments each) over "
            "consecutive seeds, sampled after 1,000, 10,000 and 100,000 seeds:", "",
            "| seeds explored | VmRSS, KiB (median) | min–max |", "|---:|---:|---:|"]
    for key, label in (("rss_kib_at_1k", "1,000"), ("rss_kib_at_10k", "10,000"), ("rss_kib_at_100k", "100,000")):
        st = counter_stats(entry, key)
        out.append(f"| {label} | {st[0]:,.0f} | {st[1]:,.0f}–{st[2]:,.0f} |" if st else f"| {label} | not run | |")
    out.append("")
    growth = counter_stats(entry, "growth_kib")
    if growth:
        verdict = "met" if growth[2] <= RSS_FLAT_KIB else "missed"
        out.append(f"**Target: RSS flat across seeds (growth from 1k to 100k seeds ≤ {RSS_FLAT_KIB} KiB): {verdict}** "
                   f"— {growth[0]:+,.0f} KiB (median; {growth[1]:+,.0f} to {growth[2]:+,.0f} over repetitions).")
        out.append("")
    return out


def shrink_rows(shrink):
    """[(label, shrink ms stats, no-shrink ms stats, difference stats, extra)] per example and body."""
    rows = []
    targets = [(f"BM_SimRunShrink/{e}", f"`sim-run` examples/programs/{e}") for e in SHRINK_EXAMPLES]
    targets += [(f"BM_ExploreShrink/{b}", f"`sim::explore`: {label}") for b, label in SHRINK_BODIES]
    for prefix, label in targets:
        on, off = find_run(shrink, prefix + "/shrink"), find_run(shrink, prefix + "/no_shrink")
        if not on or not off or on["error"] or off["error"] or not on["reps"] or not off["reps"]:
            error = (on or {}).get("error") or (off or {}).get("error") or "not run"
            rows.append((label, None, None, None, error))
            continue
        on_ms = [r["ms_per_run"] for r in on["reps"]]
        off_ms = [r["ms_per_run"] for r in off["reps"]]
        extra = ""
        if "preemptions_found" in on["reps"][0]:
            extra = (f"{statistics.median(r['preemptions_found'] for r in on['reps']):.0f} → "
                     f"{statistics.median(r['preemptions_reported'] for r in on['reps']):.0f} preemptions")
        rows.append((label, stats(on_ms), stats(off_ms), stats([a - b for a, b in zip(on_ms, off_ms)]), extra))
    return rows


def shrink_part(shrink):
    out = ["### Shrinking time", "",
           "Each row finds the first failing seed (of up to 1,000) twice, with shrinking on and off, in "
           "randomly interleaved repetitions; the time shrinking took is the difference within a repetition "
           "(median, min–max).", "",
           "| failure | with shrinking, ms | without, ms | shrinking took, ms | min–max | |",
           "|---|---:|---:|---:|---:|---|"]
    rows = shrink_rows(shrink)
    for label, on, off, diff, extra in rows:
        if diff is None:
            out.append(f"| {label} | skipped: {extra} | | | | |")
            continue
        out.append(f"| {label} | {on[0]:,.1f} | {off[0]:,.1f} | **{diff[0]:,.1f}** | {diff[1]:,.1f}–{diff[2]:,.1f} "
                   f"| {extra} |")
    out.append("")
    measured = [(label, diff) for label, _, _, diff, _ in rows if diff]
    if measured:
        slow = [label for label, diff in measured if diff[0] >= SHRINK_TARGET_MS]
        verdict = "met" if not slow else "missed on " + ", ".join(slow)
        worst = max(measured, key=lambda m: m[1][0])
        out.append(f"**Target: shrinking < {SHRINK_TARGET_MS / 1000:.0f} s for each: {verdict}** — the slowest is "
                   f"{worst[0]} at {worst[1][0]:,.0f} ms (median).")
        out.append("")
    out.append("![shrinking time per failure](performance-shrink.svg)")
    out.append("")
    return out


def resources_section(memory, shrink, machine, command):
    repetitions = max((len(e["reps"]) for e in list(memory.values()) + list(shrink.values())), default=0)
    out = machine_lines(machine, command, f"every figure is the median of {repetitions} repetitions (min–max)")
    if memory:
        out += memory_part(memory)
    if shrink:
        out += shrink_part(shrink)
    while out and out[-1] == "":
        out.pop()
    return "\n".join(out)

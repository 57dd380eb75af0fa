"""The hand-written SVG plots: ns per switch and ns per access (log scale),
and the linear bar charts of memory and shrinking time."""
import html
import math

from .formatting import fmt_access_ns, fmt_ns
from .instrumentation import ACCESS_KERNELS, ACCESS_VARIANTS
from .resources import SHRINK_TARGET_MS, shrink_rows
from .results import counter_stats, find_run, median_of, stats
from .switch import SWITCH_ROWS, SWITCH_TARGET_RATIO


def write_switch_svg(switch, path):
    rows = []
    for name, label in SWITCH_ROWS:
        entry = switch.get(name)
        if entry and not entry["error"] and entry["reps"]:
            rows.append((label, median_of(entry, "ns_per_switch")))
    if not rows:
        return
    width, left, right, top, bar, gap = 860, 330, 30, 40, 22, 12
    height = top + len(rows) * (bar + gap) + 50
    lo = 10 ** math.floor(math.log10(min(r[1][1] for r in rows)))
    hi = 10 ** math.ceil(math.log10(max(r[1][2] for r in rows)))
    span = math.log10(hi) - math.log10(lo)

    def x(value):
        return left + (width - left - right) * (math.log10(value) - math.log10(lo)) / span

    svg = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'font-family="sans-serif" font-size="12">',
           f'<rect width="{width}" height="{height}" fill="white"/>',
           f'<text x="{left}" y="20" font-size="14" font-weight="bold">ns per switch (median, log scale; '
           f'whiskers: min–max of repetitions)</text>']
    decade = lo
    while decade <= hi:
        svg.append(f'<line x1="{x(decade):.1f}" y1="{top - 6}" x2="{x(decade):.1f}" y2="{height - 40}" '
                   f'stroke="#ddd"/>')
        svg.append(f'<text x="{x(decade):.1f}" y="{height - 24}" text-anchor="middle">{fmt_ns(decade)}</text>')
        decade *= 10
    base = next((r[1][0] for r in rows if r[0].startswith("(a)")), None)
    if base:
        tx = x(SWITCH_TARGET_RATIO * base)
        svg.append(f'<line x1="{tx:.1f}" y1="{top - 6}" x2="{tx:.1f}" y2="{height - 40}" stroke="#c00" '
                   f'stroke-dasharray="4 3"/>')
        svg.append(f'<text x="{tx + 4:.1f}" y="{height - 8}" fill="#c00">target: 2 × (a)</text>')
    for i, (label, (med, mn, mx)) in enumerate(rows):
        y = top + i * (bar + gap)
        colour = "#4a7ebb" if "simulated" in label else "#999"
        svg.append(f'<text x="{left - 8}" y="{y + bar * 0.7:.1f}" text-anchor="end">{html.escape(label)}</text>')
        svg.append(f'<rect x="{left}" y="{y}" width="{x(med) - left:.1f}" height="{bar}" fill="{colour}"/>')
        svg.append(f'<line x1="{x(mn):.1f}" y1="{y + bar / 2}" x2="{x(mx):.1f}" y2="{y + bar / 2}" '
                   f'stroke="black"/>')
        svg.append(f'<text x="{x(mx) + 6:.1f}" y="{y + bar * 0.7:.1f}">{fmt_ns(med)}</text>')
    svg.append("</svg>")
    with open(path, "w") as f:
        f.write("\n".join(svg) + "\n")


def write_access_svg(rounds, path):
    bars = []  # (kernel label, variant label, median, min, max)
    for kernel, klabel in ACCESS_KERNELS:
        for _, variant, vlabel in ACCESS_VARIANTS:
            st = stats([r[(kernel, variant)]["ns"] for r in rounds if (kernel, variant) in r])
            if st:
                bars.append((klabel.split(",")[0], vlabel, *st))
    if not bars:
        return
    width, left, right, top, bar, gap, group_gap = 860, 330, 70, 40, 16, 4, 14
    groups = len({b[0] for b in bars})
    height = top + len(bars) * (bar + gap) + groups * group_gap + 50
    lo = 10 ** math.floor(math.log10(min(b[3] for b in bars)))
    hi = 10 ** math.ceil(math.log10(max(b[4] for b in bars)))
    span = math.log10(hi) - math.log10(lo)

    def x(value):
        return left + (width - left - right) * (math.log10(value) - math.log10(lo)) / span

    colours = {"(a)": "#999", "(b)": "#7fa7d6", "(c)": "#4a7ebb", "(c′": "#2c4f80", "(c″": "#8b2c6e", "(d)": "#d98c3f"}
    svg = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'font-family="sans-serif" font-size="12">',
           f'<rect width="{width}" height="{height}" fill="white"/>',
           f'<text x="{left}" y="20" font-size="14" font-weight="bold">ns per access (median of rounds, log scale; '
           f'whiskers: min–max)</text>']
    decade = lo
    while decade <= hi:
        svg.append(f'<line x1="{x(decade):.1f}" y1="{top - 6}" x2="{x(decade):.1f}" y2="{height - 40}" '
                   f'stroke="#ddd"/>')
        svg.append(f'<text x="{x(decade):.1f}" y="{height - 24}" text-anchor="middle">{decade:g} ns</text>')
        decade *= 10
    y, group = top, None
    for kernel, vlabel, med, mn, mx in bars:
        if kernel != group:
            if group is not None:
                y += group_gap
            group = kernel
        svg.append(f'<text x="{left - 8}" y="{y + bar * 0.8:.1f}" text-anchor="end">'
                   f'{html.escape(kernel + ": " + vlabel)}</text>')
        svg.append(f'<rect x="{left}" y="{y}" width="{max(x(med) - left, 1):.1f}" height="{bar}" '
                   f'fill="{colours[vlabel[:3]]}"/>')
        svg.append(f'<line x1="{x(mn):.1f}" y1="{y + bar / 2}" x2="{x(mx):.1f}" y2="{y + bar / 2}" stroke="black"/>')
        svg.append(f'<text x="{x(mx) + 6:.1f}" y="{y + bar * 0.8:.1f}">{fmt_access_ns(med)} ns</text>')
        y += bar + gap
    svg.append("</svg>")
    with open(path, "w") as f:
        f.write("\n".join(svg) + "\n")


def write_bar_svg(path, title, rows, unit, target=None, target_label=""):
    """Horizontal bars on a linear scale: rows are (label, (median, min, max))."""
    rows = [r for r in rows if r[1]]
    if not rows:
        return
    width, left, right, top, bar, gap = 860, 380, 80, 40, 20, 10
    height = top + len(rows) * (bar + gap) + 50
    hi = max([r[1][2] for r in rows] + ([target * 1.1] if target else []))
    hi = hi * 1.05 if hi > 0 else 1

    def x(value):
        return left + (width - left - right) * max(value, 0) / hi

    svg = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'font-family="sans-serif" font-size="12">',
           f'<rect width="{width}" height="{height}" fill="white"/>',
           f'<text x="{left}" y="20" font-size="14" font-weight="bold">{html.escape(title)}</text>']
    step = 10 ** math.floor(math.log10(hi))
    if hi / step < 3:
        step /= 2
    tick = 0.0
    while tick <= hi:
        svg.append(f'<line x1="{x(tick):.1f}" y1="{top - 6}" x2="{x(tick):.1f}" y2="{height - 40}" stroke="#ddd"/>')
        svg.append(f'<text x="{x(tick):.1f}" y="{height - 24}" text-anchor="middle">{tick:g}</text>')
        tick += step
    if target:
        svg.append(f'<line x1="{x(target):.1f}" y1="{top - 6}" x2="{x(target):.1f}" y2="{height - 40}" '
                   f'stroke="#c00" stroke-dasharray="4 3"/>')
        svg.append(f'<text x="{x(target) + 4:.1f}" y="{height - 8}" fill="#c00">{html.escape(target_label)}</text>')
    for i, (label, (med, mn, mx)) in enumerate(rows):
        y = top + i * (bar + gap)
        svg.append(f'<text x="{left - 8}" y="{y + bar * 0.7:.1f}" text-anchor="end">{html.escape(label)}</text>')
        svg.append(f'<rect x="{left}" y="{y}" width="{max(x(med) - left, 1):.1f}" height="{bar}" fill="#4a7ebb"/>')
        svg.append(f'<line x1="{x(mn):.1f}" y1="{y + bar / 2}" x2="{x(mx):.1f}" y2="{y + bar / 2}" stroke="black"/>')
        svg.append(f'<text x="{x(mx) + 6:.1f}" y="{y + bar * 0.7:.1f}">{med:,.1f} {unit}</text>')
    svg.append(f'<text x="{left}" y="{height - 8}">{html.escape(unit)}</text>')
    svg.append("</svg>")
    with open(path, "w") as f:
        f.write("\n".join(svg) + "\n")


def write_resources_svgs(memory, shrink, memory_svg, shrink_svg):
    rows = []
    for prefix, label in (("BM_PeakRss/idle", "peak RSS: idle process"),
                          ("BM_PeakRss/real_threads", "peak RSS: 1,000 real threads"),
                          ("BM_PeakRss/world", "peak RSS: 1,000 simulated threads")):
        st = counter_stats(find_run(memory, prefix), "peak_rss_kib")
        rows.append((label, tuple(v / 1024 for v in st) if st else None))
    seeds = find_run(memory, "BM_RssOverSeeds")
    for key, label in (("rss_kib_at_1k", "VmRSS after 1,000 seeds"), ("rss_kib_at_10k", "VmRSS after 10,000 seeds"),
                       ("rss_kib_at_100k", "VmRSS after 100,000 seeds")):
        st = counter_stats(seeds, key)
        rows.append((label, tuple(v / 1024 for v in st) if st else None))
    write_bar_svg(memory_svg, "resident memory, MiB (median; whiskers: min–max)", rows, "MiB")
    write_bar_svg(shrink_svg, "time shrinking took, ms (median; whiskers: min–max)",
                  [(label.replace("`", ""), diff) for label, _, _, diff, _ in shrink_rows(shrink)], "ms",
                  target=SHRINK_TARGET_MS, target_label="target: 1 s")

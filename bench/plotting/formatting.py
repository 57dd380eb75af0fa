"""How numbers, and the machine notes each section starts with, read in the
doc."""


def fmt_ns(value):
    if value >= 1000:
        return f"{value / 1000:.1f} µs"
    return f"{value:.1f} ns"


def fmt_rate(value):
    return f"{value / 1000:.0f}k/s" if value >= 10_000 else f"{value:,.0f}/s"


def fmt_access_ns(value):
    return f"{value:.2f}" if value < 10 else f"{value:.1f}"


def machine_lines(machine, command, measured):
    """The provenance bullet list every generated section starts with."""
    return [
        f"Produced by `{command}` (commit {machine.get('commit', '?')}, {machine.get('date', '?')}).",
        "",
        f"- machine: {machine.get('nproc', '?')} CPUs (`nproc`), {machine.get('cpu', '?')}, "
        f"FSGSBASE: {machine.get('fsgsbase', '?')}",
        f"- kernel: {machine.get('kernel', '?')}; compiler: {machine.get('compiler', '?')}",
        f"- other load: load average before / after {machine.get('load_before', '?')} / "
        f"{machine.get('load_after', '?')}; during the run "
        f"{machine.get('compiler_samples', 'compiler processes were not sampled')} "
        f"(other engineers' builds share the 2 cores)",
        f"- {measured}",
        "",
    ]

"""Reading the results directory (Google Benchmark JSON, the access_bench
rounds, machine.txt) and the medians, with min and max, taken over
repetitions."""
import json
import os
import statistics


def load_runs(path):
    """run_name -> {"reps": [iteration rows], "error": message or None}."""
    if not os.path.exists(path):
        return {}
    with open(path) as f:
        data = json.load(f)
    runs = {}
    for row in data.get("benchmarks", []):
        entry = runs.setdefault(row["run_name"], {"reps": [], "error": None})
        if row.get("error_occurred"):
            entry["error"] = row.get("error_message", "error")
        elif row.get("run_type") == "iteration":
            entry["reps"].append(row)
    return runs


def read_machine(path):
    machine = {}
    if os.path.exists(path):
        with open(path) as f:
            for line in f:
                key, _, value = line.rstrip("\n").partition("=")
                machine[key] = value
    return machine


def load_access_rounds(results):
    """[{(kernel, variant): {"ns": ns per access, "on_cpu": cpu/real}}] per round."""
    rounds = []
    for n in range(1, 1000):
        paths = {suffix: os.path.join(results, f"access_bench_{suffix}.round{n}.json")
                 for suffix in ("native", "sim", "tsan")}
        if not any(os.path.exists(p) for p in paths.values()):
            break
        rows = {}
        for path in paths.values():
            for name, entry in load_runs(path).items():
                parts = name.split("/")  # BM_Access/<kernel>/<variant>/min_time:…/real_time
                if len(parts) < 3 or not entry["reps"]:
                    continue
                row = entry["reps"][0]
                rows[(parts[1], parts[2])] = {"ns": 1e9 / row["items_per_second"],
                                              "on_cpu": row["cpu_time"] / row["real_time"]}
        rounds.append(rows)
    return rounds


def median_of(entry, key, cpu=False):
    """(median, min, max) of a counter over the repetitions. cpu=True scales
    each value by cpu_time / real_time: the cost while the benchmark thread
    was on a CPU, which time stolen by other processes does not inflate."""
    values = [row[key] * (row["cpu_time"] / row["real_time"] if cpu else 1.0) for row in entry["reps"] if key in row]
    return (statistics.median(values), min(values), max(values)) if values else None


def stats(values):
    return (statistics.median(values), min(values), max(values)) if values else None


def counter_stats(entry, key):
    values = [r[key] for r in entry["reps"] if key in r] if entry else []
    return stats(values)


def find_run(runs, prefix):
    """The entry whose run_name starts with `prefix` + "/" (the suffixes
    iterations:N and real_time vary with how a row was registered)."""
    for name, entry in runs.items():
        if name == prefix or name.startswith(prefix + "/"):
            return entry
    return None

#!/usr/bin/env python3
"""plot.py: turns the benchmark JSON into docs/performance.md and its SVGs.

The doc has one generated section per group of benchmarks, each between its
own markers; only the groups named by --sections are rewritten, so a run of
one group leaves the others' numbers (and their machine notes) alone. The
hand-written analysis around the markers is always kept.

  switch           <results>/switch_bench.json, executions_bench.json
                   -> the "Results" markers, performance-switch.svg
  instrumentation  <results>/access_bench_{native,sim,tsan}.round<N>.json,
                   <results>/seeds_bench.json
                   -> the "instrumentation and whole-program runs" markers,
                   performance-access.svg
  resources        <results>/memory_bench.json, shrink_bench.json
                   -> the "memory and shrinking" markers,
                   performance-memory.svg, performance-shrink.svg

Every group also reads <results>/machine.txt (written by run_benchmarks.sh).
Medians are over repetitions (or rounds); ratios are taken between rows of
one repetition or round. The plots are hand-written SVG (python3 standard
library only).

The code is in bench/plotting/, one module per concept: results (reading the
JSON, medians), formatting, switch, instrumentation and resources (one
generated section each), svg (the plots) and document (the markers, the
skeleton of a new doc, main).
"""
import os
import sys

# `python3 bench/plot.py` puts bench/ first on sys.path already; this also
# finds bench/plotting/ under `python3 -P` or PYTHONSAFEPATH, from any cwd.
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from plotting.document import main  # noqa: E402 (needs the path above)

if __name__ == "__main__":
    main(description=__doc__.splitlines()[0])

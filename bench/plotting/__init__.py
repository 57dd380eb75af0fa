"""bench/plot.py's modules: it turns the benchmark JSON into the generated
sections of docs/performance.md and its SVGs (see plot.py for the groups and
the files each reads).

  results          reading the results directory; medians over repetitions
  formatting       how numbers and the machine notes read
  switch           the switch group's section
  instrumentation  the instrumentation group's section
  resources        the resources group's section
  svg              the plots
  document         the markers, the skeleton of a new doc, main
"""

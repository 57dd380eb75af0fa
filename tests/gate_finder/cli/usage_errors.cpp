// Usage errors exit 2 and say what to do.
// RUN: %not %gate-finder --format=xml %s -- -std=c++20 2>&1 | %FileCheck %s --check-prefix=FORMAT
// RUN: %not %gate-finder '--header-filter=(' %s -- -std=c++20 2>&1 | %FileCheck %s --check-prefix=FILTER
// RUN: %gate-finder --format=xml %s -- -std=c++20 || test $? -eq 2
// RUN: %not %gate-finder %s.missing.cpp -- -std=c++20 2>&1 | %FileCheck %s --check-prefix=PARSE

// FORMAT: sim-gate-finder: --format=xml is not a format: use text or json
// FILTER: sim-gate-finder: --header-filter=( is not a regular expression
// PARSE: sim-gate-finder: some files could not be parsed

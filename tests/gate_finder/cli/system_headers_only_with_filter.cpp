// Windows in system headers are not analysed unless --header-filter names
// them (the third-party runs of docs/gate-finder.md use it).
// RUN: rm -rf %t && mkdir -p %t/system
// RUN: cp %S/Inputs/shared_cache.h %t/system/
// RUN: printf '#include <shared_cache.h>\nvoid a(SharedCache& c) { c.put_once(1, 1); }\n' > %t/unit.cpp
// RUN: %gate-finder %t/unit.cpp -- -std=c++20 -isystem %t/system | %FileCheck %s --check-prefix=DEFAULT
// RUN: %gate-finder --header-filter='/system/' %t/unit.cpp -- -std=c++20 -isystem %t/system | %FileCheck %s --check-prefix=FILTER

// DEFAULT-NOT: warning:
// DEFAULT: sim-gate-finder: 0 windows
// FILTER: system/shared_cache.h:9:9: warning: check-then-act window on SharedCache::entries_
// FILTER: sim-gate-finder: 1 window

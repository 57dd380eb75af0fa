// A header's window is seen by every file that includes it, and reported once,
// whatever -j is.
// RUN: printf '#include "shared_cache.h"\nvoid a(SharedCache& c) { c.put_once(1, 1); }\n' > %t.a.cpp
// RUN: printf '#include "shared_cache.h"\nvoid b(SharedCache& c) { c.put_once(2, 2); }\n' > %t.b.cpp
// RUN: %gate-finder -j 2 %t.a.cpp %t.b.cpp -- -std=c++20 -I%S/Inputs | %FileCheck %s
// RUN: %gate-finder -j1 %t.a.cpp %t.b.cpp -- -std=c++20 -I%S/Inputs | %FileCheck %s

// CHECK: shared_cache.h:9:9: warning: check-then-act window on SharedCache::entries_ (check-then-act on a container)
// CHECK-NOT: warning:
// CHECK: sim-gate-finder: 1 window

// -p reads compile_commands.json (the flags there define WINDOW); with no
// file named, every file it lists is analysed.
// RUN: rm -rf %t && mkdir -p %t
// RUN: cp %s %t/unit.cpp
// RUN: printf '[{"directory": "%t", "file": "%t/unit.cpp", "command": "clang++-19 -std=c++20 -DWINDOW -c unit.cpp"}]' > %t/compile_commands.json
// RUN: %gate-finder -p %t %t/unit.cpp | %FileCheck %s
// RUN: %gate-finder -p %t | %FileCheck %s
// RUN: %not %gate-finder %t/missing.cpp 2>&1 | %FileCheck %s --check-prefix=NO-DATABASE
#include <thread>

int* shared_value = nullptr;

void init() {
#ifdef WINDOW
  if (shared_value == nullptr) shared_value = new int(1);
#endif
}

// CHECK: unit.cpp:15:7: warning: check-then-act window on shared_value (lazy initialisation)
// CHECK: sim-gate-finder: 1 window
// NO-DATABASE: sim-gate-finder:

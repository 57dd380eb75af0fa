// access() of a path, then open() of the same path: the file can change between.
// RUN: %gate-finder %s -- -std=c++20 | %FileCheck %s
#include <fcntl.h>
#include <string>
#include <unistd.h>

int open_config(const std::string& path) {
  if (access(path.c_str(), R_OK) != 0) return -1;
  return open(path.c_str(), O_RDONLY);
}

int open_other(const char* checked, const char* used) {
  if (access(checked, R_OK) != 0) return -1;
  return open(used, O_RDONLY);
}

// CHECK: file_access_then_open.cpp:8:7: warning: check-then-act window on path (time of check to time of use on a file) [sim-gate-finder:file-toctou]
// CHECK-NEXT: check: {{.*}}:8:7 `access(path.c_str(), R_OK)`; locks held: none
// CHECK-NEXT: act: {{.*}}:9:10 `open(path.c_str(), O_RDONLY)`; locks held: none
// CHECK: fix: act on what you opened
// CHECK: insert at {{.*}}:9:3: SIM_GATE("file_access_then_open.path");
// CHECK-NOT: file_access_then_open.cpp:13
// CHECK: sim-gate-finder: 1 window

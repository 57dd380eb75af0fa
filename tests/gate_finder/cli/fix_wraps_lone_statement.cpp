// A window whose act is the if's lone statement gets braces around the gate
// and the statement.
// RUN: cp %s %t.cpp
// RUN: %gate-finder --fix %t.cpp -- -std=c++20
// RUN: %FileCheck %s < %t.cpp
// RUN: clang++-19 -std=c++20 -fsyntax-only -I%S/../../../include %t.cpp
#include <mutex>

struct Settings {};

class Holder {
 public:
  Settings* get() {
    if (settings_ == nullptr) Build();
    return settings_;
  }

 private:
  void Build() { settings_ = new Settings; }
  std::mutex mutex_;
  Settings* settings_ = nullptr;
};

// CHECK: {{^    if \(settings_ == nullptr\) \{ SIM_GATE\("holder.settings"\); Build\(\); \}$}}

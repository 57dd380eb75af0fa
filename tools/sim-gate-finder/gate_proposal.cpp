// gate_proposal.cpp: gate names, SIM_GATE lines, SIM_TEST skeletons
// (gate_proposal.h).
#include "gate_proposal.h"

#include <cctype>

#include "source_text.h"

namespace gate_finder {

const char kInvariantPlaceholder[] =
    "GTEST_FAIL() << \"sim-gate-finder: replace this line with the invariant the window breaks\";";

std::string FileStem(const std::string& path) {
  std::string stem = path.substr(path.find_last_of('/') + 1);
  return stem.substr(0, stem.find('.'));
}

std::string GateName(const std::string& owner, const std::string& object) {
  const std::string head = SnakeCase(owner);
  const std::string tail = BareMemberName(object);
  if (head.empty()) return tail;
  return tail.empty() ? head : head + "." + tail;
}

std::string GateLine(const std::string& gate) { return "SIM_GATE(\"" + gate + "\");"; }

namespace {

std::string CamelCase(const std::string& dotted) {
  std::string camel;
  bool upper = true;
  for (char c : dotted) {
    if (!std::isalnum(static_cast<unsigned char>(c))) {
      upper = true;
      continue;
    }
    camel += upper ? static_cast<char>(std::toupper(static_cast<unsigned char>(c))) : c;
    upper = false;
  }
  return camel;
}

}  // namespace

std::string TestSkeleton(const Finding& finding) {
  const bool method = !finding.class_name.empty();
  const std::string call = (method ? "object." : "") + finding.function_name + "(" + finding.call_arguments + ")";
  std::string test;
  test += "SIM_TEST(GateFinder, " + CamelCase(finding.gate) + ") {\n";
  if (method) test += "  " + finding.class_name + " object;  // build it as the code under test does\n";
  test += "  sim::Gate gate = sim::Gate::hold(\"" + finding.gate + "\");\n";
  test += "  std::thread first([&] { " + call + "; });\n";
  test += "  gate.await_arrivals(1);  // first passed the check at " + FileStem(finding.check.at.file) + ":" +
          std::to_string(finding.check.at.line) + " and waits in the window\n";
  test += "  std::thread second([&] { " + call + "; });\n";
  test += "  // In a world, virtual time moves only when no other thread can run: this\n";
  test += "  // returns once second is parked at the gate too, or blocked behind first.\n";
  test += "  std::this_thread::sleep_for(std::chrono::milliseconds(1));\n";
  test += "  gate.release();\n";
  test += "  first.join();\n";
  test += "  second.join();\n";
  test += std::string("  ") + kInvariantPlaceholder + "\n";
  test += "}\n";
  return test;
}

}  // namespace gate_finder

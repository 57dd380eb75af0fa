// report_output.h: the two output formats. Text is for a terminal (one
// clang-style warning line per window, then its details, indented); JSON is
// one array of objects for editors and CI, with the same fields.
#ifndef SIM_GATE_FINDER_REPORT_OUTPUT_H_
#define SIM_GATE_FINDER_REPORT_OUTPUT_H_

#include <string>
#include <vector>

#include "finding.h"

namespace gate_finder {

std::string RenderText(const std::vector<Finding>& findings);
std::string RenderJson(const std::vector<Finding>& findings);

}  // namespace gate_finder

#endif  // SIM_GATE_FINDER_REPORT_OUTPUT_H_

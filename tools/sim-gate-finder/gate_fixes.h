// gate_fixes.h: --fix, the SIM_GATE lines written into the sources as clang
// Replacements (insertions only: nothing the program does changes, and
// outside a world SIM_GATE is one predictable branch).
//
// A file that gets a gate also gets `#include <sim/sim.h>` after its last
// #include, unless it includes sim/sim.h already. A window that already has
// a SIM_GATE gets none (the finder reports it as gated), so --fix can be run
// twice.
#ifndef SIM_GATE_FINDER_GATE_FIXES_H_
#define SIM_GATE_FINDER_GATE_FIXES_H_

#include <string>
#include <vector>

#include "finding.h"

namespace gate_finder {

// Writes the gates of `findings` (those with an insertion point) into their
// files. Returns how many gates were inserted; errors go to `errors`, one
// line each, naming the file.
int ApplyGates(const std::vector<Finding>& findings, std::vector<std::string>& errors);

}  // namespace gate_finder

#endif  // SIM_GATE_FINDER_GATE_FIXES_H_

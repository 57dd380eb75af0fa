// gate_proposal.h: what the finder proposes for a window: the gate's name,
// the SIM_GATE line and a SIM_TEST skeleton that holds it.
//
// Names follow the repository's gates (`registry.build`): lower-case,
// dotted, `<class>.<member>` (the file's stem for an object outside a
// class), trailing underscores and m_/s_/g_ prefixes dropped.
#ifndef SIM_GATE_FINDER_GATE_PROPOSAL_H_
#define SIM_GATE_FINDER_GATE_PROPOSAL_H_

#include <string>

#include "finding.h"

namespace gate_finder {

std::string GateName(const std::string& owner, const std::string& object);
std::string FileStem(const std::string& path);
// SIM_GATE("registry.build");
std::string GateLine(const std::string& gate);

// The SIM_TEST that holds the window open: the first caller parks at the
// gate, a second caller runs while it waits, then the gate is released. Its
// last line fails on purpose until the user writes the invariant the window
// breaks there (a skeleton that passes unedited would prove nothing).
std::string TestSkeleton(const Finding& finding);

// The line of the skeleton that the user replaces with the invariant.
extern const char kInvariantPlaceholder[];

}  // namespace gate_finder

#endif  // SIM_GATE_FINDER_GATE_PROPOSAL_H_

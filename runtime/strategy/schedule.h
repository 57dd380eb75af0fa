// schedule.h: the text form of a schedule (the decision list of an execution).
//
// Format version 1:  S1-<count>-<runs>-<check>
//   count  decimal number of decisions
//   runs   '.'-separated runs "<thread>" or "<thread>x<repeat>", e.g. 0x5.1.0x3
//   check  4 hex digits of FNV-1a over count and runs, so a truncated or
//          mistyped schedule is an error instead of a different run
// Whitespace anywhere is ignored, so wrapped copies paste back intact.
#ifndef SIM_RUNTIME_SCHEDULE_H_
#define SIM_RUNTIME_SCHEDULE_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "strategy/strategy.h"

namespace sim::internal {

std::string EncodeSchedule(const std::vector<std::uint32_t>& decisions);

// Throws std::invalid_argument saying what is wrong: another version, a
// truncated string, a bad check, or malformed runs.
std::vector<std::uint32_t> DecodeSchedule(std::string_view text);

// Anchored decisions (shrinking's working form), as text that fits in
// SIM_OPTIONS: "A1-" then "<current>.<points>.<chosen>[p|d]" joined by '_'
// (p: a preemption, d: deferred). Internal: for whole-program shrinking,
// which reruns the program in new processes. Throws std::invalid_argument.
std::string EncodeAnchored(const std::vector<AnchoredDecision>& decisions);
std::vector<AnchoredDecision> DecodeAnchored(std::string_view text);

}  // namespace sim::internal

#endif  // SIM_RUNTIME_SCHEDULE_H_

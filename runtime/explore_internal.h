// explore_internal.h: what explore() and whole-program mode share.
#ifndef SIM_RUNTIME_EXPLORE_INTERNAL_H_
#define SIM_RUNTIME_EXPLORE_INTERNAL_H_

#include <cstdint>

#include "sim/sim.h"
#include "world.h"

namespace sim::internal {

// The public report of a finished execution: schedule text, replay command.
Report MakeReport(Outcome outcome, std::uint64_t seed, std::uint64_t seeds_passed, const Options& options);

}  // namespace sim::internal

#endif  // SIM_RUNTIME_EXPLORE_INTERNAL_H_

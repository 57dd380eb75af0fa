// schedule_diff.h: where a failing execution first departs from a passing one.
//
// Reruns the seed that passed first and walks both traces to the first event
// that differs; the two threads' next sites there are usually the race.
#ifndef SIM_RUNTIME_SCHEDULE_DIFF_H_
#define SIM_RUNTIME_SCHEDULE_DIFF_H_

#include <cstdint>
#include <functional>
#include <string>

#include "core/world.h"

namespace sim::internal {

// `failing` must carry its whole trace (Outcome::events). Returns "" when the
// passing seed cannot be rerun to a pass (its strategy learnt since).
std::string DiffAgainstPassingSeed(const std::function<void()>& body, const Options& options,
                                   std::uint64_t passing_seed, const Outcome& failing);

}  // namespace sim::internal

#endif  // SIM_RUNTIME_SCHEDULE_DIFF_H_

// determinism_check.h: proves an execution repeatable, or names where it is not.
//
// The execution is run again by replaying its own decisions exactly. A
// program that depends on something outside the world (the real clock read
// around the interceptors, std::random_device, the addresses that an
// address-ordered container iterates in, uninitialised memory) then takes
// a different path: the replay either finds a decision that no longer fits
// or produces a different trace. The first step where the two traces part
// is reported, with both sides.
#ifndef SIM_RUNTIME_DETERMINISM_CHECK_H_
#define SIM_RUNTIME_DETERMINISM_CHECK_H_

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "core/world.h"

namespace sim::internal {

// Runs `body` at `seed` with `strategy`, then replays it. Returns the first
// execution's outcome, or a kNondeterministic outcome describing the
// divergence. `before_first_run` runs once the strategy has begun the seed
// (what the crash guard's replay command needs from it).
Outcome RunTwiceAndCompare(const std::function<void()>& body, const Options& options, Strategy& strategy,
                           std::uint64_t seed, const std::function<void()>& before_first_run);

}  // namespace sim::internal

#endif  // SIM_RUNTIME_DETERMINISM_CHECK_H_

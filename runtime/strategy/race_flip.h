// race_flip.h: the schedules that run a data race's two accesses the other
// way round, for the report's answer to "does this race matter?".
//
// A race is two accesses to a common byte, neither happening before the
// other: the earlier thread's ran first, the later thread's found it. The
// execution that found it is replayed (its anchored decisions) up to the
// last choice point before the earlier access ran; from there the later
// thread runs, chosen at every choice point, until the access it has
// announced is at the site of its racing one (PendingOperation::site) and
// it has taken that step, so that its access comes first (an access that
// is no scheduling point of its own, a free, is the step from the point it
// had reached, RaceToFlip::later_points); then
// the execution goes on, as the decisions say (continuation 0) or as pos
// seeded by the continuation number draws it (1, 2, ...), so that the
// neighbours of the two accesses move too. An execution that then fails
// shows the race matters, with a schedule that replays it.
//
// Where the later thread cannot run there (it is blocked, not started yet,
// or waits for the earlier one by yielding), the order cannot be flipped:
// the strategy returns a mismatch starting with kCannotFlip rather than
// claim a flip that did not happen.
#ifndef SIM_RUNTIME_STRATEGY_RACE_FLIP_H_
#define SIM_RUNTIME_STRATEGY_RACE_FLIP_H_

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/outcome.h"
#include "strategy/flip_continuations.h"
#include "strategy/strategy.h"

namespace sim::internal {

// RaceToFlip (core/outcome.h) as text, for a candidate process's options:
// "<choice point>.<earlier>.<later>.<later site in hex>.<later
// points>.<earlier writes>.<later writes>" (the last two 0 or 1). Decode
// throws std::invalid_argument.
std::string EncodeRaceToFlip(const RaceToFlip& race);
RaceToFlip DecodeRaceToFlip(std::string_view text);

inline constexpr std::string_view kCannotFlip = "cannot flip: ";

// Precondition: race.known(). `decisions` are those of the execution that
// found the race. With `record`, each execution keeps there what its
// continuation was shown after the flip (flip_continuations.h).
std::unique_ptr<Strategy> MakeRaceFlipStrategy(std::vector<AnchoredDecision> decisions, const RaceToFlip& race,
                                               std::uint64_t continuation, ContinuationRecord* record = nullptr);

// The strategy continuation `continuation` (>= 1) draws the rest with,
// begun as the flipped execution begins it: what FlipContinuations::Repeated
// runs over the executions already run.
std::unique_ptr<Strategy> MakeFlipContinuationStrategy(std::uint64_t continuation);

}  // namespace sim::internal

#endif  // SIM_RUNTIME_STRATEGY_RACE_FLIP_H_

// race_matters.h: the report's answer to the question a user triaging a
// data race asks: does it break anything?
//
// The execution that found the race is run again without the race
// detector (which would only find the race again): first as it was, on
// past the race (the race's own order may break something later), then
// with the race's two accesses the other way round (strategy/race_flip.h),
// going on as it did, then with what follows drawn anew, up to
// Options::race_flips schedules. The first that fails is told, with a
// command that replays it; else how many passed; else why the order cannot
// be flipped. Each
// flip is an execution like any other, run where the caller runs them: in
// this process (explore(), SIM_TEST) or as a process of its own (a whole
// program: whole_program/rerun.h).
#ifndef SIM_RUNTIME_EXPLORE_RACE_MATTERS_H_
#define SIM_RUNTIME_EXPLORE_RACE_MATTERS_H_

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "core/outcome.h"
#include "sim/sim.h"

namespace sim::internal {

// Runs the flip with continuation k (0: as the decisions go on), or with
// nullopt the race's execution as found, on past the race: nullopt when it
// gave no answer (a candidate process that did not end in time).
using RunFlip = std::function<std::optional<Outcome>(std::optional<std::uint64_t> flip_continuation)>;
// The command that replays a flipped execution that failed, by its schedule.
using ReplayOfFlip = std::function<std::string(const std::string& schedule)>;

struct RaceFlipped {
  std::string line;      // Report::race_flipped
  std::string schedule;  // Report::race_flipped_schedule
  std::string replay;    // Report::race_flipped_replay
};

// Precondition: `race` is the race_to_flip of a data race's outcome.
RaceFlipped TellWhetherRaceMatters(const RaceToFlip& race, std::uint64_t schedules, const RunFlip& run,
                                   const ReplayOfFlip& replay_of);

// The options a flip runs under: `options` without the race detector,
// shrinking, the determinism check or output files of its own.
Options FlipOptions(const Options& options);

// The command that replays a flipped execution by its schedule: `options`
// with that schedule and without the race detector (which would stop it at
// the race), named even where the program sets races=1 in code.
std::string FlippedReplayCommand(const Options& options, const std::string& schedule, std::uint64_t seed);

// All three as one word of SIM_OPTIONS (for a whole program's told run,
// which renders the report), and back; Decode returns false when malformed.
std::string EncodeRaceFlipped(const RaceFlipped& flipped);
bool DecodeRaceFlipped(const std::string& text, RaceFlipped& flipped);

}  // namespace sim::internal

#endif  // SIM_RUNTIME_EXPLORE_RACE_MATTERS_H_

// replay_command.h: the copy-pasteable command that replays a failing seed.
#ifndef SIM_RUNTIME_REPLAY_COMMAND_H_
#define SIM_RUNTIME_REPLAY_COMMAND_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>

#include "common/shell_quote.h"
#include "sim/sim.h"

namespace sim::internal {

// "SIM_OPTIONS=seed=N[:key=value...] <this process's command line>"
// ("schedule=S1-..." in place of the seed and strategy when the strategy
// replays a schedule): the
// options that differ from their defaults (so the same strategy and limits
// apply), minus those that only say where output goes (report_json), plus
// the seed. The environment outranks options given in code, so this
// replays the seed whatever the program passes to explore().
// `forced`: options to name even at their defaults (":races=0"), so that
// options the program sets in code cannot outrank them; each is named once.
std::string ReplayCommand(const Options& effective, std::uint64_t seed, std::string_view forced = {});

// ReplayCommand split around the seed: before + std::to_string(seed) +
// after is the command (for code that must not allocate when it prints it).
// A replayed schedule is named here by its seed and strategy=replay:...,
// since the short crash report (crash_guard.cpp) always prints a seed.
std::pair<std::string, std::string> ReplayCommandAroundSeed(const Options& effective);

using common::ShellQuote;  // common/shell_quote.h, shared with sim-run

}  // namespace sim::internal

#endif  // SIM_RUNTIME_REPLAY_COMMAND_H_

// flags.h: SIM_OPTIONS plus the --sim_* flags of a SIM_TEST binary.
//
// The flags are the options of sim/options.inc spelled --sim_<key>=value,
// plus --sim_replay=SEED, --sim_schedule=STRING and --sim_help. They never
// use gtest's --gtest_ prefix: gtest takes an unknown --gtest_ flag for a
// request for help and exits 0, which would pass silently.
#ifndef SIM_RUNTIME_GTEST_FLAGS_H_
#define SIM_RUNTIME_GTEST_FLAGS_H_

#include <cstdint>
#include <optional>
#include <string>

#include "sim/sim.h"

namespace sim::internal {

struct TestSettings {
  Options options;                           // SIM_OPTIONS, then the flags, in order
  std::optional<std::uint64_t> replay_seed;  // --sim_replay
  std::string schedule;                      // --sim_schedule; empty: none
  bool help = false;                         // --sim_help or SIM_OPTIONS=help=1
};

// Applies SIM_OPTIONS, then removes every argument starting with "--sim"
// from argv (compacting it and *argc) and applies it. Throws
// std::invalid_argument naming the bad flag or option and the valid flags.
TestSettings ParseTestSettings(int* argc, char** argv);

// The flags, one per line, then every option (for --sim_help).
std::string FlagsHelp();

// " --sim_key=value" for every option that differs from its default, except
// where output goes (report_json): what a replay command must repeat so the
// same chunk tests exist and the same strategy runs.
std::string OptionsAsFlags(const Options& options);

}  // namespace sim::internal

#endif  // SIM_RUNTIME_GTEST_FLAGS_H_

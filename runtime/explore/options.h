// options.h: SIM_OPTIONS parsing, in the sanitizers' grammar.
//
// "key=value" pairs separated by ':', ',' or whitespace. A piece without
// '=' continues the previous value, so "strategy=pct:3" and
// "strategy=replay:S1-..." survive the ':' separator.
#ifndef SIM_RUNTIME_OPTIONS_H_
#define SIM_RUNTIME_OPTIONS_H_

#include <string>
#include <string_view>

#include "sim/sim.h"

namespace sim::internal {

// Applies `text` on top of `options`. Throws std::invalid_argument naming
// the key and its valid values. `help=1` sets *help_requested.
void ApplyOptionString(std::string_view text, Options& options, bool* help_requested);

// Applies the SIM_OPTIONS environment variable, if set. When it asks for
// help, prints the option list to stderr and exits 0.
void ApplyEnvironmentOptions(Options& options);

// Every option with its type, default and help, one per line.
std::string OptionsHelp();

}  // namespace sim::internal

#endif  // SIM_RUNTIME_OPTIONS_H_

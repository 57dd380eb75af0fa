// options.h: SIM_OPTIONS parsing, in the sanitizers' grammar.
//
// "key=value" pairs separated by ':', ',' or whitespace. A piece without
// '=' continues the previous value, so "strategy=pct:3" and
// "strategy=replay:S1-..." survive the ':' separator.
//
// The keys are the public options (sim/options.inc, into sim::Options) and
// the internal ones (explore/internal_options.inc, into InternalOptions),
// which simthread sets for itself; help=1 and the list of valid keys in
// errors name only the public ones.
#ifndef SIM_RUNTIME_OPTIONS_H_
#define SIM_RUNTIME_OPTIONS_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "sim/sim.h"

namespace sim::internal {

// The options simthread sets for itself (explore/internal_options.inc): a
// field per row. Only whole-program mode reads them.
struct InternalOptions {
#define SIM_OPTION_TYPE_uint64 std::uint64_t
#define SIM_OPTION_TYPE_string std::string
#define SIM_OPTION(type, name, default_value, help) SIM_OPTION_TYPE_##type name = default_value;
#include "explore/internal_options.inc"
#undef SIM_OPTION
#undef SIM_OPTION_TYPE_uint64
#undef SIM_OPTION_TYPE_string
};

// Applies `text` on top of `options` and, for internal keys, `*internal`
// (when null, internal keys are still checked, then dropped). Throws
// std::invalid_argument naming the key and its valid values. `help=1` sets
// *help_requested.
void ApplyOptionString(std::string_view text, Options& options, bool* help_requested,
                       InternalOptions* internal = nullptr);

// Applies the SIM_OPTIONS environment variable, if set, as ApplyOptionString
// does. When it asks for help, prints the option list to stderr and exits 0.
void ApplyEnvironmentOptions(Options& options, InternalOptions* internal = nullptr);

// Every public option with its type, default and help, one per line.
std::string OptionsHelp();

}  // namespace sim::internal

#endif  // SIM_RUNTIME_OPTIONS_H_

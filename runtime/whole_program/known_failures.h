// known_failures.h: a data race told once per sweep.
//
// A racy program meets the same race at nearly every seed of a sweep, and
// telling a race (shrinking it, flipping it, naming its frames) costs many
// times the seed's own run. Under `sim-run --keep-going` every seed's
// process is given one directory (known_failures=) in which the first
// process to meet a pair of racing sites claims it, by creating a file
// named by the race's failure signature; a later seed that finds it
// claimed reports its race in a few lines, from the pass's sites alone,
// and sim-run counts it with the first. Which seed claims first depends on
// timing when seeds run side by side; sim-run reruns the lowest failing
// seed in full when its report was not told (tools/sim-run/main.cpp).
// race_shrink=all tells every seed's race.
#ifndef SIM_RUNTIME_WHOLE_PROGRAM_KNOWN_FAILURES_H_
#define SIM_RUNTIME_WHOLE_PROGRAM_KNOWN_FAILURES_H_

#include <string>

#include "core/outcome.h"
#include "explore/options.h"

namespace sim::internal {

// Whether this process tells `failing`: true unless it is a data race whose
// pair of sites another seed of the sweep (`directory`, empty outside one)
// claimed first, with race_shrink=first. A directory that cannot be written
// loses nothing: the race is told.
bool ClaimsFailure(const std::string& directory, const Options& options, const Outcome& failing);

// The few lines, on stderr, and the report_json file, of a race told by
// another seed; then this process exits as a race's report does.
[[noreturn]] void ReportToldElsewhere(const Options& options, const Outcome& failing);

}  // namespace sim::internal

#endif  // SIM_RUNTIME_WHOLE_PROGRAM_KNOWN_FAILURES_H_

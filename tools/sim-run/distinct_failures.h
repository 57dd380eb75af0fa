// distinct_failures.h: which failing seeds of a sweep failed the same way.
//
// A racy program fails at nearly every seed, and all at one race: a sweep
// that goes on past failures (--keep-going) lists each distinct failure
// once, with the count of seeds that met it and the lowest of them, as
// ThreadSanitizer reports each race once. Two seeds fail the same way when
// their processes wrote the same failure signature (the runtime's: the
// verdict and where, a data race's pair of sites; in the report JSON), or,
// for a program that wrote none, the same kind and message.
#ifndef SIM_TOOLS_SIM_RUN_DISTINCT_FAILURES_H_
#define SIM_TOOLS_SIM_RUN_DISTINCT_FAILURES_H_

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "child.h"

namespace simrun {

// What makes two failures the same.
std::string FailureKey(const Outcome& outcome);

// The failure in one line: the report's SUMMARY ("data race: f() file.cpp:12"),
// or, from a process that printed none, the verdict ("exit status 3").
std::string FailureHeadline(const Outcome& outcome);

struct DistinctFailure {
  std::string headline;
  std::uint64_t first_seed = 0;  // the lowest seed that failed so
  std::uint64_t seeds = 0;       // how many did
};

// The distinct failures among `failures` (by seed), ordered by first seed.
std::vector<DistinctFailure> DistinctFailures(const std::map<std::uint64_t, Outcome>& failures);

}  // namespace simrun

#endif  // SIM_TOOLS_SIM_RUN_DISTINCT_FAILURES_H_

// summary.h: what a run of sim-run found, told: the lines on stdout (a pass,
// or the lowest failing seed with its replay command and report) and the
// --report-json file. The wording is the contract tools/README.md documents
// and tests/tools/ checks.
#ifndef SIM_TOOLS_SIM_RUN_SUMMARY_H_
#define SIM_TOOLS_SIM_RUN_SUMMARY_H_

#include <cstdint>
#include <map>

#include "child.h"
#include "command_line.h"

namespace simrun {

// Prints the summary on stdout; with --keep-going, a line lists every
// failing seed, then each distinct failure (distinct_failures.h) with its
// count of seeds and the replay line of the first. `failures` are the failing seeds' outcomes, lowest first;
// `search` is a bounded search's one process (else nullptr), whose summary
// counts schedules instead of seeds.
void PrintSummary(const Config& config, const LaunchSpec& spec, const std::map<std::uint64_t, Outcome>& failures,
                  const Outcome* search);

// Writes --report-json (config.report_json_path); a note on stderr when it
// cannot.
void WriteReportJson(const Config& config, const LaunchSpec& spec, std::uint64_t seeds_run,
                     const std::map<std::uint64_t, Outcome>& failures, const Outcome* search);

}  // namespace simrun

#endif  // SIM_TOOLS_SIM_RUN_SUMMARY_H_

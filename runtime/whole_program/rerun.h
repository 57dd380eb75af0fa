// rerun.h: whole-program shrinking, by running this program again.
//
// In whole-program mode main runs once per process, so a failing run cannot
// replay itself in place. It reruns its own executable instead
// (/proc/self/exe, the same arguments and environment) once per candidate,
// with SIM_OPTIONS naming the anchored decisions to follow and a file to
// write the outcome to; the candidate's own output is discarded. A final
// rerun of the shrunk decisions renders the report that is printed.
#ifndef SIM_RUNTIME_WHOLE_PROGRAM_RERUN_H_
#define SIM_RUNTIME_WHOLE_PROGRAM_RERUN_H_

#include <string>

#include "core/world.h"
#include "explore/shrink.h"
#include "strategy/bounded_search.h"

namespace sim::internal {

// In a candidate process: writes `outcome`, the choice points it met (kept
// by a RecordingStrategy, for the bounded search of the failing process; and
// with outcome_report, the report text) to `path` (the outcome_file option).
void WriteOutcomeFile(const std::string& path, const Outcome& outcome, const std::vector<ChoiceRecord>& choices,
                      int exit_status, const std::string& report);

struct ShrunkByRerunning {
  std::string report;  // of the shrunk execution, or "" when shrinking found nothing better (or could not rerun)
  std::uint64_t candidates = 0;
  ShrinkStop stop = ShrinkStop::kDone;
};

// In the failing process: shrinks `failing` by rerunning the program, one
// candidate per process, within ShrinkBudget(options, kShrinkReruns).
ShrunkByRerunning ShrinkByRerunning(char** argv, const Options& options, const Outcome& failing);

// outcome_shrink's text, "<candidates>:done|bound|time", both ways.
std::string EncodeShrinkProgress(std::uint64_t candidates, ShrinkStop stop);
// Returns false for a malformed text.
bool DecodeShrinkProgress(const std::string& text, std::uint64_t& candidates, ShrinkStop& stop);

// In a process that ran with check_determinism: reruns the program on the
// same schedule and compares. Returns why it is not deterministic, or "".
std::string RecheckByRerunning(char** argv, const Options& options, const Outcome& first);

}  // namespace sim::internal

#endif  // SIM_RUNTIME_WHOLE_PROGRAM_RERUN_H_

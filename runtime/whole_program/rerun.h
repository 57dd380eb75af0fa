// rerun.h: whole-program shrinking, by running this program again.
//
// In whole-program mode main runs once per process, so a failing run cannot
// replay itself in place. It runs its own program again instead, once per
// candidate (candidate_server.h: a fork of a copy that has done static
// initialisation), with SIM_OPTIONS naming the anchored decisions to follow
// and a file to write the outcome to; the candidate's own output is
// discarded. A final rerun of the decisions to report, shrunk or not,
// keeps the whole trace and renders the report that is printed: the
// failing run itself keeps only its last events, so that its memory does
// not grow with its length.
#ifndef SIM_RUNTIME_WHOLE_PROGRAM_RERUN_H_
#define SIM_RUNTIME_WHOLE_PROGRAM_RERUN_H_

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "core/world.h"
#include "explore/shrink.h"
#include "strategy/bounded_search.h"
#include "strategy/recording.h"
#include "whole_program/candidate_server.h"

namespace sim::internal {

// What a candidate process wrote to its outcome file: its outcome (with
// every decision anchored) and the choice points it met (for a bounded
// search).
struct CandidateResult {
  Outcome outcome;
  int exit_status = 0;  // what main returned
  std::vector<ChoiceRecord> choices;
  bool reduced = false;  // the choices carry their race reversals (race_reversals=1)
  ContinuationRecord flip_continuation;  // a race's flipped execution: what its continuation was shown
};

// What a candidate whose report nobody reads is given besides its own
// options: no report file or timeline of its own, nothing to shrink or
// check again.
inline constexpr const char* kQuietCandidate = ":shrink=0:check_determinism=0:report_json=:timeline=";

// Runs candidates of this program (candidate_server.h), each with extra
// options appended to this process's SIM_OPTIONS, and reads back what each
// wrote to its outcome file (a memory file of this process, which nothing
// outlives).
class CandidateRunner {
 public:
  explicit CandidateRunner(char** argv);
  ~CandidateRunner();
  CandidateRunner(const CandidateRunner&) = delete;
  CandidateRunner& operator=(const CandidateRunner&) = delete;

  // nullopt when the candidate did not end by `deadline` (it is killed a
  // second later) or wrote no outcome, or could not start because its
  // options do not fit in one environment variable (OptionsTooLong). With
  // `report`, the report text the candidate wrote (with outcome_report).
  std::optional<CandidateResult> Run(const std::string& extra_options, std::chrono::steady_clock::time_point deadline,
                                     std::string* report = nullptr);
  // Run in two halves (CandidateServer::Start), for candidates of two
  // runners at once: false when the candidate could not start, and then
  // Await gives nullopt.
  bool Start(const std::string& extra_options);
  std::optional<CandidateResult> Await(std::chrono::steady_clock::time_point deadline,
                                       std::string* report = nullptr);
  // The last Run's SIM_OPTIONS, this many bytes, were longer than the
  // kernel takes in one environment string (MAX_ARG_STRLEN, 128 KiB); 0
  // when they fit.
  std::size_t OptionsTooLong() const { return options_too_long_; }
  // This program's arguments, as main got them (for another runner).
  char** argv() const { return argv_; }
  // Whether a candidate given `extra_options` can start at all.
  bool Fits(const std::string& extra_options) const;
  // The extra option that makes a candidate (the told run) ask this
  // process's symbolizer rather than start its own; "" when it cannot.
  std::string UseLentSymbolizer() const;

 private:
  // Where a candidate writes its outcome, and the SIM_OPTIONS it is given.
  std::string OutcomePath() const;
  std::string CandidateOptions(const std::string& extra_options) const;

  char** argv_;
  CandidateServer server_;
  int outcome_fd_;  // a memory file the candidates write through /proc; -1 when there is none
  std::size_t options_too_long_ = 0;
  bool started_ = false;  // a candidate is under way
};

// In a candidate process: writes `outcome`, the choice points it met (kept
// by a RecordingStrategy, for a bounded search in the process that ran it,
// with their race reversals when it found them; and with outcome_report,
// the report text) to `path` (the outcome_file option).
void WriteOutcomeFile(const std::string& path, const Outcome& outcome, const StrategyRecording& recording,
                      int exit_status, const std::string& report);

// The options that make a candidate find its race reversals, when `options`
// reduce a bounded search (Options::por); "" otherwise.
std::string RaceReversalOption(const Options& options);

struct ToldByRerunning {
  std::string report;  // of the told execution, or "" when it could not be rerun or failed otherwise
  std::uint64_t candidates = 0;
  ShrinkStop stop = ShrinkStop::kDone;
  std::optional<std::uint64_t> minimum_at_least;  // Report::minimum_at_least
  // With no report: why the told rerun did not fail as the failure did, as
  // the report's line (a failure that shrinking cannot replay must say so,
  // not pass for one that has no fewer preemptions).
  std::string not_told;
};

// What the told report's replay line names: the seed, which reruns the
// failure as found, or the told schedule itself (a bounded search's
// failure, which no seed reproduces).
enum class ReplayBy { kSeed, kSchedule };

// In the failing process: with options.shrink, shrinks `failing` (every
// decision anchored) by running candidates, within ShrinkBudget(options,
// kShrinkReruns); then tells the result (or `failing` itself) by one more.
ToldByRerunning ShrinkAndTellByRerunning(CandidateRunner& candidates, const Options& options, const Outcome& failing,
                                         ReplayBy replay_by);

// outcome_shrink's text, "<candidates>:done|bound|time", both ways.
std::string EncodeShrinkProgress(std::uint64_t candidates, ShrinkStop stop);
// Returns false for a malformed text.
bool DecodeShrinkProgress(const std::string& text, std::uint64_t& candidates, ShrinkStop& stop);

// Runs this process's seed again, as a candidate that records every
// decision: the failing run keeps none (World::ForgetDecisions), and the
// determinism check compares the two. nullopt when it did not end in time
// or wrote no outcome.
std::optional<Outcome> RerunSeed(CandidateRunner& candidates, const Options& options);

// Why `second`, the same seed run again, shows the program is not
// deterministic, or "" when it matches `first`.
std::string DescribeNondeterminism(const Outcome& first, const std::optional<Outcome>& second);

}  // namespace sim::internal

#endif  // SIM_RUNTIME_WHOLE_PROGRAM_RERUN_H_

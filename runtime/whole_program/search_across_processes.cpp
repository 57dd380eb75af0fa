// search_across_processes.cpp: see search_across_processes.h.
#include "whole_program/search_across_processes.h"

#include <chrono>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

#include "common/exit_status.h"
#include "common/json_string.h"
#include "core/thread_local_switch.h"
#include "explore/explore_internal.h"
#include "explore/options.h"
#include "report/report_json.h"
#include "strategy/bounded_search.h"
#include "strategy/schedule.h"
#include "whole_program/candidates_ahead.h"
#include "whole_program/rerun.h"

namespace sim::internal {
namespace {

// `json` (one object) with the search's own fields put first, so that
// sim-run can say how far the search went, and which library kept its
// partial-order reduction off.
std::string WithSearchFields(const sim::Options& options, const std::string& json, std::uint64_t schedules,
                             const std::string& more = "") {
  if (json.empty() || json.front() != '{') return json;
  std::string unreduced;
  if (const std::string library = LibraryKeepingReductionOff(options); !library.empty()) {
    unreduced = "\"unreduced_by\": " + sim::common::JsonString(library) + ", ";
  }
  return "{\"schedules\": " + std::to_string(schedules) + ", " + unreduced + more + json.substr(1);
}

// The report file the told run wrote (in its own process), with the fields.
void AddSearchFields(const sim::Options& options, const std::string& path, std::uint64_t schedules) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  WriteJsonFile(path, WithSearchFields(options, text.str(), schedules));
}

// The count of schedules so far, for sim-run's status line, at most a few
// times a second.
class ProgressFile {
 public:
  explicit ProgressFile(std::string path) : path_(std::move(path)) {}
  void Update(std::uint64_t schedules) {
    const auto now = std::chrono::steady_clock::now();
    if (path_.empty() || now - written_ < kEvery) return;
    written_ = now;
    if (std::FILE* file = std::fopen(path_.c_str(), "w")) {
      std::fprintf(file, "%llu\n", static_cast<unsigned long long>(schedules));
      std::fclose(file);
    }
  }

 private:
  static constexpr std::chrono::milliseconds kEvery{200};
  std::string path_;
  std::chrono::steady_clock::time_point written_{};
};

// A schedule that could not be run to its end, or that left the prefix it
// was given: said on stderr and in the report file.
int EndSearch(const sim::Options& options, std::uint64_t schedules, const char* verdict, const std::string& message) {
  std::fprintf(stderr, "simthread: %s: %s\n", options.strategy.c_str(), message.c_str());
  if (!options.report_json.empty()) {
    WriteJsonFile(options.report_json,
                  WithSearchFields(options,
                                   std::string("{\"verdict\": \"") + verdict +
                                       "\", \"message\": " + sim::common::JsonString(message) + "}\n",
                                   schedules));
  }
  return sim::exit_status::kVerdict;
}

}  // namespace

int SearchSchedulesAcrossProcesses(char** argv, const sim::Options& options, const InternalOptions& internal) {
  const std::uint64_t max_schedules = options.seeds;
  const auto bound = static_cast<std::uint32_t>(std::stoul(options.strategy.substr(4)));
  CandidateRunner candidates(argv);
  BoundedSearch search(bound);
  CandidatesAhead candidates_ahead(candidates, ShrinkJobs(options));
  std::uint64_t schedules = 0;
  std::optional<CandidateResult> failing;
  ProgressFile progress(internal.progress_file);
  while (!search.Exhausted() && schedules < max_schedules) {
    progress.Update(schedules);
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(internal.schedule_timeout_ms);
    std::optional<CandidateResult> result =
        candidates_ahead.Run(kQuietCandidate + RaceReversalOption(options), search, deadline);
    ++schedules;
    if (!result && candidates.OptionsTooLong() != 0) {
      return EndSearch(options, schedules, "unsupported",
                       "schedule " + std::to_string(schedules) + " of the search makes " +
                           std::to_string(search.Prefix().size()) + " choices other than the default, " +
                           std::to_string(candidates.OptionsTooLong()) +
                           " bytes of SIM_OPTIONS, more than one environment variable holds (128 KiB): the search "
                           "cannot pass it to the program. Lower the bound, or shorten the program's run");
    }
    if (!result) {
      return EndSearch(options, schedules, "hang",
                       "schedule " + std::to_string(schedules) + " of the search did not end within " +
                           std::to_string(internal.schedule_timeout_ms / 1000) +
                           " s of wall-clock time (sim-run --timeout) and was killed; it waits for something outside "
                           "the world (README, known limits)");
    }
    if (result->outcome.verdict != Verdict::kPass) {
      failing = std::move(result);
      break;
    }
    if (!search.Record(result->choices, result->reduced)) {
      return EndSearch(options, schedules, "nondeterministic",
                       "schedule " + std::to_string(schedules) +
                           " of the search met other choice points than the schedule before it, on the same "
                           "decisions: something outside the world decides the path (the real clock, "
                           "std::random_device, addresses, uninitialised memory), so no search can cover it");
    }
  }
  if (!failing) {
    SayBoundedSearchPassed(options, schedules, search.Exhausted(), "seeds (sim-run --seeds)");
    if (!options.report_json.empty()) {
      WriteJsonFile(
          options.report_json,
          WithSearchFields(options, PassJson(options.first_seed, 1, ChosenTlsSwitchName(options.tls_switch)), schedules,
                           std::string("\"exhausted\": ") + (search.Exhausted() ? "true" : "false") + ", "));
    }
    return 0;
  }

  std::fprintf(stderr, "simthread: %s: schedule %llu of the search failed (%llu passed first)\n",
               options.strategy.c_str(), static_cast<unsigned long long>(schedules),
               static_cast<unsigned long long>(schedules - 1));
  const ToldByRerunning told = ShrinkAndTellByRerunning(candidates, options, failing->outcome, ReplayBy::kSchedule);
  const Verdict verdict = failing->outcome.verdict;
  if (told.report.empty()) {
    // Not told again (it did not fail the same way twice): what the search saw.
    sim::Report report = MakeReport(std::move(failing->outcome), options.first_seed, 0, options);
    report.shrink_stopped = told.not_told;
    if (!options.report_json.empty()) {
      WriteJsonFile(options.report_json,
                    WithSearchFields(options, ReportJson(report, ChosenTlsSwitchName(options.tls_switch)), schedules));
    }
    std::fputs(report.render().c_str(), stderr);
  } else {
    std::fputs(told.report.c_str(), stderr);
    if (!options.report_json.empty()) AddSearchFields(options, options.report_json, schedules);
  }
  const bool program_failed =
      verdict == Verdict::kFailure && static_cast<std::uint64_t>(failing->exit_status) != options.pass_exit_status;
  return program_failed ? failing->exit_status : sim::exit_status::kVerdict;
}

}  // namespace sim::internal

// summary.cpp: the summary lines and the --report-json file (see summary.h).
#include "summary.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <string>

#include "distinct_failures.h"
#include "json.h"

namespace simrun {

namespace {

// The failure's replay command: a bounded search's names the failing
// schedule (its process said which); a seed's is built here.
std::string FailureReplay(const LaunchSpec& spec, std::uint64_t seed, const Outcome& outcome) {
  if (!spec.bounded_search.empty() && !outcome.replay.empty()) return outcome.replay;
  return ReplayCommand(spec, seed, outcome.pct_choice_points);
}

// How far a bounded search went, for the summary: "no failure in any
// schedule with <= P preemptions: N schedules", or where it stopped.
void PrintSearchSummary(const LaunchSpec& spec, const Outcome& search) {
  const std::string& strategy = spec.bounded_search;
  if (search.schedules.empty()) {
    std::printf("sim-run: %s: the program ran no bounded search (built with an older sim-clang++?)\n",
                strategy.c_str());
  } else if (search.exhausted) {
    std::printf("sim-run: %s: no failure in any schedule with <= %s preemptions: %s schedules\n", strategy.c_str(),
                strategy.substr(4).c_str(), search.schedules.c_str());
  } else {
    std::printf(
        "sim-run: %s: stopped after %s schedules without a failure, before trying them all; raise --seeds to "
        "finish the search\n",
        strategy.c_str(), search.schedules.c_str());
  }
  if (!search.unreduced_by.empty()) {
    std::printf(
        "sim-run: %s: every order of steps was run, without partial-order reduction: %s was not built with "
        "sim-clang++\n",
        strategy.c_str(), search.unreduced_by.c_str());
  }
}

}  // namespace

void WriteReportJson(const Config& config, const LaunchSpec& spec, std::uint64_t seeds_run,
                     const std::map<std::uint64_t, Outcome>& failures, const Outcome* search) {
  std::string json = "{\"verdict\": ";
  // One vocabulary with the runtime's report JSON: "pass", or the lowest
  // failing seed's verdict (its kind, below).
  json += failures.empty() ? std::string("\"pass\"") : JsonString(failures.begin()->second.kind);
  json += ", \"seeds_run\": " + std::to_string(seeds_run);
  json += ", \"first_seed\": " + std::to_string(config.start);
  if (search != nullptr) {
    json += ", \"strategy\": " + JsonString(spec.bounded_search);
    json += ", \"schedules\": " + (search->schedules.empty() ? std::string("null") : search->schedules);
    json += std::string(", \"exhausted\": ") + (search->exhausted ? "true" : "false");
  }
  char timeout[32] = "null";
  if (config.timeout_seconds) std::snprintf(timeout, sizeof timeout, "%g", *config.timeout_seconds);
  json += ", \"timeout_seconds\": " + std::string(timeout);
  json += ", \"failure\": ";
  if (failures.empty()) {
    json += "null";
  } else {
    const auto& [seed, outcome] = *failures.begin();
    json += "{\"seed\": " + std::to_string(seed);
    json += ", \"kind\": " + JsonString(outcome.kind);
    json += ", \"message\": " + JsonString(outcome.message);
    json += ", \"replay\": " + JsonString(FailureReplay(spec, seed, outcome));
    json += ", \"schedule\": " + JsonString(outcome.schedule);
    json += ", \"trace_hash\": " + JsonString(outcome.trace_hash);
    json += ", \"preemptions\": " + (outcome.preemptions.empty() ? std::string("null") : outcome.preemptions);
    json += ", \"preemptions_before_shrink\": " +
            (outcome.preemptions_before_shrink.empty() ? std::string("null") : outcome.preemptions_before_shrink);
    json += "}";
  }
  json += "}\n";
  std::ofstream out(config.report_json_path, std::ios::binary | std::ios::trunc);
  out << json;
  out.close();
  if (!out) {
    std::fprintf(stderr, "sim-run: cannot write --report-json %s: %s\n", config.report_json_path.c_str(),
                 std::strerror(errno));
  }
}

void PrintSummary(const Config& config, const LaunchSpec& spec, const std::map<std::uint64_t, Outcome>& failures,
                  const Outcome* search) {
  if (failures.empty()) {
    if (search != nullptr) {
      PrintSearchSummary(spec, *search);
    } else {
      std::printf("sim-run: %llu seeds passed\n", static_cast<unsigned long long>(config.seeds));
    }
    return;
  }
  const auto& [seed, outcome] = *failures.begin();
  if (search != nullptr) {
    std::printf("sim-run: %s: failed in schedule %s of the search: %s\n", spec.bounded_search.c_str(),
                outcome.schedules.empty() ? "?" : outcome.schedules.c_str(), outcome.verdict.c_str());
  } else {
    std::printf("sim-run: failed at seed %llu (%llu seeds passed first): %s\n", static_cast<unsigned long long>(seed),
                static_cast<unsigned long long>(seed - config.start), outcome.verdict.c_str());
  }
  std::printf("replay: %s\n", FailureReplay(spec, seed, outcome).c_str());
  std::fputs(outcome.report.c_str(), stdout);
  if (!outcome.report.empty() && outcome.report.back() != '\n') std::fputc('\n', stdout);
  if (config.keep_going) {
    std::string list;
    std::size_t shown = 0;
    for (const auto& [failed_seed, failed] : failures) {
      if (++shown > 20) {
        list += ", ...";
        break;
      }
      list += (list.empty() ? "" : ", ") + std::to_string(failed_seed) + " (" + failed.verdict + ")";
    }
    std::printf("sim-run: %zu of %llu seeds failed: %s\n", failures.size(),
                static_cast<unsigned long long>(config.seeds), list.c_str());
    const std::vector<DistinctFailure> distinct = DistinctFailures(failures);
    std::printf("sim-run: %zu distinct failure%s:\n", distinct.size(), distinct.size() == 1 ? "" : "s");
    for (const DistinctFailure& failure : distinct) {
      std::printf("  %s (%llu seed%s, the first %llu)\n    replay: %s\n", failure.headline.c_str(),
                  static_cast<unsigned long long>(failure.seeds), failure.seeds == 1 ? "" : "s",
                  static_cast<unsigned long long>(failure.first_seed),
                  FailureReplay(spec, failure.first_seed, failures.at(failure.first_seed)).c_str());
    }
  }
}

}  // namespace simrun

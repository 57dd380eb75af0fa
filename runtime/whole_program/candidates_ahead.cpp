// candidates_ahead.cpp: see candidates_ahead.h.
#include "whole_program/candidates_ahead.h"

#include <sched.h>

#include <algorithm>

#include "strategy/schedule.h"

namespace sim::internal {
namespace {

// How far down the search's list of later schedules to look for one not
// run yet.
constexpr std::size_t kSchedulesAheadLookedAt = 8;

}  // namespace

std::uint64_t ShrinkJobs(const Options& options) {
  if (options.shrink_jobs != 0) return std::min<std::uint64_t>(options.shrink_jobs, 2);
  cpu_set_t cpus;
  if (sched_getaffinity(0, sizeof cpus, &cpus) != 0) return 1;
  return CPU_COUNT(&cpus) >= 2 ? 2 : 1;
}

std::optional<CandidateResult> CandidatesAhead::Run(const std::string& options, const std::string& later,
                                                    std::chrono::steady_clock::time_point deadline) {
  if (auto found = ran_ahead_.find(options); found != ran_ahead_.end()) {
    std::optional<CandidateResult> result = std::move(found->second);
    ran_ahead_.erase(found);
    return result;
  }
  if (!runner_.Start(options)) return std::nullopt;
  const bool run_later = jobs_ >= 2 && !later.empty() && !ran_ahead_.contains(later);
  if (run_later && !ahead_) ahead_.emplace(runner_.argv());
  const bool later_started = run_later && ahead_->Start(later);
  std::optional<CandidateResult> result = runner_.Await(deadline);
  if (later_started) ran_ahead_[later] = ahead_->Await(deadline);
  return result;
}

std::optional<CandidateResult> CandidatesAhead::Run(const std::string& options, const BoundedSearch& search,
                                                    std::chrono::steady_clock::time_point deadline) {
  std::string later;
  if (jobs_ >= 2) {
    for (const std::vector<AnchoredDecision>& prefix : search.PrefixesAhead(kSchedulesAheadLookedAt)) {
      std::string candidate = options + ":anchored=" + EncodeAnchored(prefix);
      if (!RanAhead(candidate)) {
        later = std::move(candidate);
        break;
      }
    }
  }
  return Run(options + ":anchored=" + EncodeAnchored(search.Prefix()), later, deadline);
}

}  // namespace sim::internal

// distinct_failures.cpp: see distinct_failures.h.
#include "distinct_failures.h"

namespace simrun {

std::string FailureKey(const Outcome& outcome) {
  if (!outcome.failure_signature.empty()) return outcome.failure_signature;
  return outcome.kind + "\n" + outcome.message.substr(0, outcome.message.find('\n'));
}

std::string FailureHeadline(const Outcome& outcome) {
  constexpr std::string_view kSummary = "SUMMARY: simthread: ";
  if (const std::size_t at = outcome.report.rfind(kSummary); at != std::string::npos) {
    const std::size_t begin = at + kSummary.size();
    return outcome.report.substr(begin, outcome.report.find('\n', begin) - begin);
  }
  return outcome.verdict;
}

std::vector<DistinctFailure> DistinctFailures(const std::map<std::uint64_t, Outcome>& failures) {
  std::vector<DistinctFailure> distinct;
  std::map<std::string, std::size_t> index_of_key;
  for (const auto& [seed, outcome] : failures) {  // lowest seed first
    const auto [it, first] = index_of_key.emplace(FailureKey(outcome), distinct.size());
    if (first) distinct.push_back({FailureHeadline(outcome), seed, 0});
    ++distinct[it->second].seeds;
  }
  return distinct;
}

}  // namespace simrun

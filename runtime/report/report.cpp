// report.cpp: the TSan-shaped report block (docs/report-format.md).
#include <cinttypes>
#include <cstdio>

#include "core/race_checks.h"
#include "sim/sim.h"

namespace sim {

std::string_view to_string(Verdict verdict) {
  switch (verdict) {
    case Verdict::kPass: return "pass";
    case Verdict::kFailure: return "failure";
    case Verdict::kUncaughtException: return "uncaught exception";
    case Verdict::kDeadlock: return "deadlock";
    case Verdict::kStepLimit: return "step limit";
    case Verdict::kLivelock: return "livelock";
    case Verdict::kCrash: return "crash";
    case Verdict::kUnsupported: return "unsupported operation";
    case Verdict::kNondeterministic: return "nondeterministic";
    case Verdict::kDataRace: return "data race";
  }
  return "?";
}

std::string Report::render() const {
  std::string text = "==================\n";
  char header[160];
  std::snprintf(header, sizeof header, "WARNING: simthread: %s (seed=%" PRIu64 ", step=%" PRIu64 ")\n",
                std::string(to_string(verdict)).c_str(), seed, step);
  text += header;
  auto indented = [&text](std::string_view block, std::string_view indent) {
    while (!block.empty()) {
      const std::size_t newline = block.find('\n');
      text += indent;
      text += block.substr(0, newline);
      text += '\n';
      block = newline == std::string_view::npos ? std::string_view() : block.substr(newline + 1);
    }
  };
  indented(message, "  ");
  if (!race_flipped.empty()) indented(race_flipped, "  ");
  if (!race_flipped_replay.empty()) indented("that run's replay: " + race_flipped_replay, "  ");
  if (!threads.empty()) {
    text += "  threads at failure:\n";
    for (const std::string& thread : threads) indented(thread, "    ");
  }
  if (!last_events.empty()) {
    text += "  last " + std::to_string(last_events.size()) + " events";
    if (events_left_out > 0) text += " (" + std::to_string(events_left_out) + " in library code left out)";
    text += ":\n";
    for (const std::string& event : last_events) indented(event, "    ");
  }
  if (!diff.empty()) indented("diff: " + diff, "  ");
  text += "  preemptions: " + std::to_string(preemptions);
  std::string shrunk;
  if (preemptions_before_shrink != preemptions) shrunk = "shrunk from " + std::to_string(preemptions_before_shrink);
  if (minimum_at_least) {
    shrunk += shrunk.empty() ? "" : "; ";
    shrunk += *minimum_at_least > 0 ? "the minimum is " + std::to_string(*minimum_at_least) + " or more"
                                    : "not proven the fewest";
    if (!shrink_stopped.empty()) shrunk += ", budget spent";
  }
  if (!shrunk.empty()) text += " (" + shrunk + ")";
  text += "\n";
  for (const std::string& line : story) indented(line, "    ");
  if (!shrink_stopped.empty()) indented(shrink_stopped, "  ");
  // Wrapped at 76 columns: the decoder ignores white space, so a wrapped
  // copy pastes back intact.
  constexpr std::size_t kScheduleColumns = 76;
  const std::string schedule_prefix = "  schedule: ";
  std::string line = schedule_prefix;
  for (std::size_t i = 0; i < schedule.size();) {
    const std::size_t room = kScheduleColumns - line.size();
    line += schedule.substr(i, room);
    i += room;
    text += line + "\n";
    line = std::string(schedule_prefix.size(), ' ');
  }
  if (schedule.empty()) text += schedule_prefix + "\n";
  char hash[32];
  std::snprintf(hash, sizeof hash, "%016" PRIx64, trace_hash);
  text += std::string("  trace hash: ") + hash + "\n";
  if (!replay.empty()) text += "  replay: " + replay + "\n";
  // The first sentence: a SUMMARY line stays one line. A race's is, as in
  // TSan, the racing access's frame.
  std::string summary = message.substr(0, message.find('\n'));
  if (const std::size_t end = summary.find(". "); end != std::string::npos) summary.resize(end);
  if (const std::string frame = internal::RacingFrame(message); verdict == Verdict::kDataRace && !frame.empty()) {
    summary = frame;
  }
  text += "SUMMARY: simthread: " + std::string(to_string(verdict)) + ": " + summary + "\n";
  text += "==================\n";
  return text;
}

}  // namespace sim

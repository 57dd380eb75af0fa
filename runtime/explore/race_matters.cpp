// race_matters.cpp: see race_matters.h.
#include "explore/race_matters.h"

#include "common/hex_text.h"
#include "explore/replay_command.h"
#include "strategy/race_flip.h"
#include "strategy/schedule.h"

namespace sim::internal {
namespace {

std::string FirstLine(const std::string& text) { return text.substr(0, text.find('\n')); }

// "T2's read before T1's write": the order as found, or flipped.
std::string Order(const RaceToFlip& race, bool flipped) {
  auto access = [&race](ThreadId thread) {
    const bool writes = thread == race.later ? race.later_writes : race.earlier_writes;
    return "T" + std::to_string(thread) + "'s " + (writes ? "write" : "read");
  };
  return flipped ? access(race.later) + " before " + access(race.earlier)
                 : access(race.earlier) + " before " + access(race.later);
}

bool Failed(const Outcome& outcome) { return outcome.verdict != Verdict::kPass && outcome.schedule_mismatch.empty(); }

}  // namespace

RaceFlipped TellWhetherRaceMatters(const RaceToFlip& race, std::uint64_t schedules, const RunFlip& run,
                                   const ReplayOfFlip& replay_of) {
  auto failure = [&replay_of](const Outcome& failed, const std::string& how) -> RaceFlipped {
    std::string schedule = EncodeSchedule(failed.decisions());
    std::string replay = replay_of(schedule);
    return {
        how + " makes the execution fail: " + std::string(to_string(failed.verdict)) + ": " + FirstLine(failed.message),
        std::move(schedule), std::move(replay)};
  };
  // The race's own order first: the execution it ended, run on.
  const std::optional<Outcome> as_found = run(std::nullopt);
  if (as_found && Failed(*as_found)) {
    return failure(*as_found, "running on past the race as found (" + Order(race, /*flipped=*/false) + ")");
  }
  const std::string on_as_found = as_found ? "no failure running on past the race as found"
                                           : "running on past the race as found gave no answer in time";
  if (!race.known()) {
    // The earlier access ran before any choice point: no schedule runs
    // the other one first.
    return {on_as_found + "; cannot flip the order: T" + std::to_string(race.earlier) +
                "'s access ran before any choice of thread was made",
            "", ""};
  }
  std::uint64_t unanswered = 0;
  for (std::uint64_t continuation = 0; continuation < schedules; ++continuation) {
    std::optional<Outcome> flipped = run(continuation);
    if (!flipped) {
      ++unanswered;
      continue;
    }
    // Every continuation replays the same decisions up to the flip, so a
    // flip that cannot be made cannot be made in any of them.
    if (flipped->schedule_mismatch.starts_with(kCannotFlip)) {
      std::string why = flipped->schedule_mismatch.substr(kCannotFlip.size());
      // How it ended instead, when that was not the mismatch itself.
      if (flipped->verdict != Verdict::kPass && flipped->verdict != Verdict::kUnsupported)
        why += " (" + std::string(to_string(flipped->verdict)) + ")";
      return {on_as_found + "; cannot flip the order: " + why, "", ""};
    }
    if (Failed(*flipped)) {
      std::string how = "flipping the order (" + Order(race, /*flipped=*/true) + ")";
      if (continuation > 0) how += " in flipped schedule " + std::to_string(continuation + 1);
      return failure(*flipped, how);
    }
  }
  const std::uint64_t answered = schedules - unanswered;
  std::string line = on_as_found + ", nor when flipped (" + Order(race, /*flipped=*/true) + ") in " +
                     std::to_string(answered) + " schedule" + (answered == 1 ? "" : "s");
  if (unanswered != 0) line += "; " + std::to_string(unanswered) + " more gave no answer in time";
  return {line, "", ""};
}

Options FlipOptions(const Options& options) {
  Options flip = options;
  flip.races = 0;
  flip.shrink = 0;
  flip.check_determinism = 0;
  flip.diff = 0;
  flip.report_json.clear();
  flip.timeline.clear();
  return flip;
}

std::string FlippedReplayCommand(const Options& options, const std::string& schedule, std::uint64_t seed) {
  Options replayed = options;
  replayed.races = 0;
  replayed.strategy = "replay:" + schedule;
  return ReplayCommand(replayed, seed, ":races=0");
}

std::string EncodeRaceFlipped(const RaceFlipped& flipped) {
  return ::common::HexText(flipped.line) + "." + ::common::HexText(flipped.schedule) + "." +
         ::common::HexText(flipped.replay);
}

bool DecodeRaceFlipped(const std::string& text, RaceFlipped& flipped) {
  const std::size_t first = text.find('.');
  const std::size_t second = first == std::string::npos ? first : text.find('.', first + 1);
  if (second == std::string::npos) return false;
  const std::string_view words(text);
  std::optional<std::string> line = ::common::TextOfHex(words.substr(0, first));
  std::optional<std::string> schedule = ::common::TextOfHex(words.substr(first + 1, second - first - 1));
  std::optional<std::string> replay = ::common::TextOfHex(words.substr(second + 1));
  if (!line || !schedule || !replay) return false;
  flipped = {std::move(*line), std::move(*schedule), std::move(*replay)};
  return true;
}

}  // namespace sim::internal

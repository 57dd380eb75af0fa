// race_flip.cpp: see race_flip.h.
#include "strategy/race_flip.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <stdexcept>

namespace sim::internal {
namespace {

class RaceFlipStrategy final : public Strategy {
 public:
  RaceFlipStrategy(std::vector<AnchoredDecision> decisions, const RaceToFlip& race, std::uint64_t continuation,
                   ContinuationRecord* record)
      : replay_(MakeAnchoredReplayStrategy(std::move(decisions))),
        continuation_(continuation != 0 ? MakeFlipContinuationStrategy(continuation) : nullptr),
        continuation_seed_(continuation),
        race_(race),
        record_(record) {}

  void BeginExecution(std::uint64_t seed) override {
    replay_->BeginExecution(seed);
    if (continuation_ != nullptr) continuation_->BeginExecution(continuation_seed_);
    phase_ = Phase::kReplaying;
    created_since_point_.clear();
    if (record_ != nullptr) *record_ = ContinuationRecord{};
  }
  bool WantsPendingOperations() const override { return true; }
  void OnThreadCreated(ThreadId thread) override {
    replay_->OnThreadCreated(thread);
    if (continuation_ != nullptr) continuation_->OnThreadCreated(thread);
    created_since_point_.push_back(thread);
  }

  Choice Choose(std::span<const ThreadId> enabled, const ChoicePoint& at) override {
    // Asked at every point, so that its record of deferred decisions
    // stays where the execution is.
    const Choice replayed = replay_->Choose(enabled, at);
    if (phase_ == Phase::kReplaying && at.number >= race_.choice_point) phase_ = Phase::kLaterFirst;
    if (phase_ == Phase::kFlipped) {
      // Never going on unasked (Choice::same_for): the same execution,
      // with every point shown to the record.
      const Choice chosen = continuation_ != nullptr ? continuation_->Choose(enabled, at) : Choice{replayed.thread, {}};
      if (record_ != nullptr) Record(enabled, at, chosen.thread);
      created_since_point_.clear();
      return {chosen.thread, chosen.mismatch};
    }
    if (phase_ == Phase::kReplaying) return {replayed.thread, {}};
    // The later thread runs, uninterrupted, up to its access: any pause and the earlier access might slip in first
    // unseen (at a point with no choice), so a pause is no flip.
    const auto later = std::find(enabled.begin(), enabled.end(), race_.later);
    if (later == enabled.end()) return CannotFlip("it cannot run there (it is blocked or has not started)");
    if (at.current == race_.later && at.current_yielding) return CannotFlip("it waits there for another thread");
    // Its racing access is what it announced last (or, for one that is no
    // scheduling point, lies between the point it waits at and its next):
    // chosen now, it takes it.
    const PendingOperation& next = at.pending[static_cast<std::size_t>(later - enabled.begin())];
    if (race_.later_site != 0 ? reinterpret_cast<std::uintptr_t>(next.site) == race_.later_site
                              : next.thread_points >= race_.later_points) {
      phase_ = Phase::kFlipped;
      if (record_ != nullptr) record_->flipped = true;
    }
    return {race_.later, {}};
  }

  // An execution that ended before the later access ran was not flipped,
  // whatever its verdict.
  std::string EndExecution(std::uint64_t) override {
    if (phase_ == Phase::kFlipped) return {};
    return std::string(CannotFlip(phase_ == Phase::kReplaying ? "the execution ended before the point to flip at"
                                                              : "the execution ended first")
                           .mismatch);
  }

 private:
  enum class Phase { kReplaying, kLaterFirst, kFlipped };

  void Record(std::span<const ThreadId> enabled, const ChoicePoint& at, ThreadId chosen) {
    ContinuationPoint point{.created = created_since_point_,
                            .enabled = {enabled.begin(), enabled.end()},
                            .pending = {at.pending.begin(), at.pending.end()},
                            .at = at,
                            .chosen = chosen};
    point.at.pending = {};
    record_->points.push_back(std::move(point));
  }

  Choice CannotFlip(const char* why) {
    mismatch_ = std::string(kCannotFlip) + "T" + std::to_string(race_.later) + " does not reach its access before T" +
                std::to_string(race_.earlier) + "'s: " + why;
    return {race_.later, mismatch_};
  }

  std::unique_ptr<Strategy> replay_;
  std::unique_ptr<Strategy> continuation_;  // null: the replayed decisions go on
  std::uint64_t continuation_seed_;
  RaceToFlip race_;
  ContinuationRecord* record_;  // null: not kept
  Phase phase_ = Phase::kReplaying;
  std::vector<ThreadId> created_since_point_;  // since the last point shown to the record
  std::string mismatch_;
};

}  // namespace

std::string EncodeRaceToFlip(const RaceToFlip& race) {
  char text[128];
  std::snprintf(text, sizeof text, "%" PRIu64 ".%u.%u.%" PRIxPTR ".%" PRIu64 ".%d.%d", race.choice_point, race.earlier,
                race.later, race.later_site, race.later_points, race.earlier_writes ? 1 : 0,
                race.later_writes ? 1 : 0);
  return text;
}

RaceToFlip DecodeRaceToFlip(std::string_view text) {
  RaceToFlip race;
  const std::string copy(text);
  int consumed = 0;
  int earlier_writes = 0;
  int later_writes = 0;
  if (std::sscanf(copy.c_str(), "%" SCNu64 ".%u.%u.%" SCNxPTR ".%" SCNu64 ".%d.%d%n", &race.choice_point,
                  &race.earlier, &race.later, &race.later_site, &race.later_points, &earlier_writes, &later_writes,
                  &consumed) != 7 ||
      static_cast<std::size_t>(consumed) != copy.size() || !race.known()) {
    throw std::invalid_argument(
        "a race to flip is <choice point>.<thread>.<thread>.<site in hex>.<points>.<0|1>.<0|1>, got '" + copy + "'");
  }
  race.earlier_writes = earlier_writes != 0;
  race.later_writes = later_writes != 0;
  return race;
}

std::unique_ptr<Strategy> MakeFlipContinuationStrategy(std::uint64_t continuation) {
  std::unique_ptr<Strategy> strategy = MakePosStrategy();
  strategy->BeginExecution(continuation);
  return strategy;
}

std::unique_ptr<Strategy> MakeRaceFlipStrategy(std::vector<AnchoredDecision> decisions, const RaceToFlip& race,
                                               std::uint64_t continuation, ContinuationRecord* record) {
  return std::make_unique<RaceFlipStrategy>(std::move(decisions), race, continuation, record);
}

}  // namespace sim::internal

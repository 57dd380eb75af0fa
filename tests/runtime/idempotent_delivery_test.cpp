// Duplicate deliveries of one message to an idempotent handler (the
// idempotent-handlers seed): however deliveries interleave, the side effect
// happens at most once (INV-1) and every delivery gets a byte-identical
// response (INV-2). The mutant registers with a non-atomic exists-then-set.
//   buggy:      exists() and set() are separate critical sections
//   half-fixed: set() refuses a duplicate, but the effect already ran
//   fixed:      claim-or-get in one critical section, effect by the claimant
#include <gtest/gtest.h>

#include <condition_variable>
#include <map>
#include <mutex>
#include <string>
#include <thread>

#include "sim/sim.h"

namespace {

enum class Variant { kBuggy, kHalfFixed, kFixed };

class Handler {
 public:
  explicit Handler(Variant variant) : variant_(variant) {}

  std::string Deliver(const std::string& key) {
    switch (variant_) {
      case Variant::kBuggy:
        if (Exists(key)) return ResponseFor(key);
        Charge();
        Set(key, "charged:" + std::to_string(effects()));
        return ResponseFor(key);
      case Variant::kHalfFixed:
        if (Exists(key)) return ResponseFor(key);
        Charge();
        SetIfAbsent(key, "charged:" + std::to_string(effects()));
        return ResponseFor(key);
      case Variant::kFixed: {
        std::unique_lock lock(mutex_);
        if (auto it = responses_.find(key); it != responses_.end()) {
          done_.wait(lock, [&] { return !it->second.empty(); });
          return it->second;
        }
        responses_[key] = "";  // claimed: later deliveries wait for the response
        lock.unlock();
        Charge();
        lock.lock();
        responses_[key] = "charged:" + std::to_string(effects_);
        done_.notify_all();
        return responses_[key];
      }
    }
    return {};
  }

  int effects() {
    std::lock_guard guard(mutex_);
    return effects_;
  }

 private:
  bool Exists(const std::string& key) {
    std::lock_guard guard(mutex_);
    return responses_.count(key) != 0;
  }
  void Set(const std::string& key, std::string response) {
    std::lock_guard guard(mutex_);
    responses_[key] = std::move(response);
  }
  void SetIfAbsent(const std::string& key, std::string response) {
    std::lock_guard guard(mutex_);
    responses_.emplace(key, std::move(response));
  }
  std::string ResponseFor(const std::string& key) {
    std::unique_lock lock(mutex_);
    done_.wait(lock, [&] { return responses_.count(key) != 0; });
    return responses_[key];
  }
  void Charge() {
    std::lock_guard guard(mutex_);
    ++effects_;
  }

  Variant variant_;
  std::mutex mutex_;
  std::condition_variable done_;
  std::map<std::string, std::string> responses_;
  int effects_ = 0;
};

std::optional<sim::Report> ExploreThreeDeliveries(Variant variant) {
  return sim::explore(
      [variant] {
        Handler handler(variant);
        std::string responses[3];
        std::thread deliveries[3];
        for (int i = 0; i < 3; ++i) deliveries[i] = std::thread([&, i] { responses[i] = handler.Deliver("msg-7"); });
        for (auto& delivery : deliveries) delivery.join();
        if (handler.effects() > 1) sim::fail("INV-1: " + std::to_string(handler.effects()) + " effects for one message");
        for (const std::string& response : responses) {
          if (response != responses[0]) sim::fail("INV-2: responses differ: '" + responses[0] + "' vs '" + response + "'");
        }
      },
      {.seeds = 1000});
}

TEST(IdempotentDelivery, ExistsThenSetChargesTwice) {
  auto report = ExploreThreeDeliveries(Variant::kBuggy);
  ASSERT_TRUE(report.has_value());
  EXPECT_EQ(report->verdict, sim::Verdict::kFailure);
  EXPECT_NE(report->message.find("INV-"), std::string::npos) << report->message;
}

TEST(IdempotentDelivery, RefusingTheDuplicateSetIsTooLate) {
  auto report = ExploreThreeDeliveries(Variant::kHalfFixed);
  ASSERT_TRUE(report.has_value());
  EXPECT_NE(report->message.find("INV-1"), std::string::npos) << report->message;
}

TEST(IdempotentDelivery, ClaimInOneCriticalSectionPassesEverySeed) {
  auto report = ExploreThreeDeliveries(Variant::kFixed);
  EXPECT_FALSE(report.has_value()) << report->render();
}

}  // namespace

// The three-way check on a check-then-act window (the lazily built registry
// client of the seam seed):
//   buggy:      the check is locked, the build and store are not
//   half-fixed: the build and store are locked, but the check is not repeated
//   fixed:      the check is repeated under the lock before building
#include <gtest/gtest.h>

#include <memory>
#include <mutex>
#include <thread>

#include "sim/sim.h"

namespace {

struct Client {};

enum class Variant { kBuggy, kHalfFixed, kFixed };

class Registry {
 public:
  explicit Registry(Variant variant) : variant_(variant) {}

  Client* GetClient() {
    {
      std::lock_guard guard(mutex_);
      if (client_ != nullptr) return client_.get();
    }
    if (variant_ == Variant::kBuggy) {
      client_ = Build();
      return client_.get();
    }
    std::lock_guard guard(mutex_);
    if (variant_ == Variant::kFixed && client_ != nullptr) return client_.get();
    client_ = Build();
    return client_.get();
  }

  int builds() {
    std::lock_guard guard(mutex_);
    return builds_;
  }

 private:
  std::unique_ptr<Client> Build() {
    ++builds_;
    return std::make_unique<Client>();
  }

  Variant variant_;
  std::mutex mutex_;
  std::unique_ptr<Client> client_;
  int builds_ = 0;
};

std::optional<sim::Report> ExploreTwoCallers(Variant variant) {
  return sim::explore(
      [variant] {
        Registry registry(variant);
        Client* first = nullptr;
        Client* second = nullptr;
        std::thread a([&] { first = registry.GetClient(); });
        std::thread b([&] { second = registry.GetClient(); });
        a.join();
        b.join();
        if (registry.builds() != 1) sim::fail("built " + std::to_string(registry.builds()) + " clients, expected 1");
        if (first != second) sim::fail("the two callers got different clients");
      },
      {.seeds = 1000});
}

TEST(CheckThenAct, BuggyRegistryBuildsTwice) {
  auto report = ExploreTwoCallers(Variant::kBuggy);
  ASSERT_TRUE(report.has_value());
  EXPECT_EQ(report->verdict, sim::Verdict::kFailure);
  EXPECT_NE(report->message.find("built 2 clients, expected 1"), std::string::npos) << report->message;
}

TEST(CheckThenAct, LockWithoutRecheckStillBuildsTwice) {
  auto report = ExploreTwoCallers(Variant::kHalfFixed);
  ASSERT_TRUE(report.has_value());
  EXPECT_EQ(report->verdict, sim::Verdict::kFailure);
}

TEST(CheckThenAct, RecheckUnderTheLockPassesEverySeed) {
  auto report = ExploreTwoCallers(Variant::kFixed);
  EXPECT_FALSE(report.has_value()) << report->render();
}

}  // namespace

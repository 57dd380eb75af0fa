// sim::Gate in a world: holding the check-then-act window of a lazily built
// registry open makes the race deterministic by construction: every seed
// exercises it. The three-way check: no lock fails, a lock without the
// re-check fails, the double-checked version passes.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <memory>
#include <mutex>
#include <thread>

#include "sim/sim.h"

namespace {

using ::testing::HasSubstr;

struct Client {};

enum class Variant { kNoLock, kLockWithoutRecheck, kDoubleChecked };

class Registry {
 public:
  explicit Registry(Variant variant) : variant_(variant) {}

  Client* GetClient() {
    if (variant_ == Variant::kNoLock) {
      if (client_ == nullptr) {
        SIM_GATE("registry.build");
        client_ = Build();
      }
      return client_.get();
    }
    if (client_ == nullptr) {  // unlocked fast path (only reads)
      SIM_GATE("registry.build");
      std::lock_guard guard(mutex_);
      if (variant_ == Variant::kLockWithoutRecheck || client_ == nullptr) client_ = Build();
    }
    return client_.get();
  }

  int builds() const { return builds_; }

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

std::optional<sim::Report> SecondCallerArrivesInsideTheWindow(Variant variant) {
  return sim::explore(
      [variant] {
        Registry registry(variant);
        sim::Gate build = sim::Gate::hold("registry.build");
        std::thread first([&] { registry.GetClient(); });
        build.await_arrivals(1);  // first is provably inside the window
        std::thread second([&] { registry.GetClient(); });
        build.await_arrivals(2);
        build.release();
        first.join();
        second.join();
        if (registry.builds() != 1) sim::fail("built " + std::to_string(registry.builds()) + " clients");
      },
      {.seeds = 200});
}

TEST(GateHold, NoLockBuildsTwiceOnTheFirstSeed) {
  auto report = SecondCallerArrivesInsideTheWindow(Variant::kNoLock);
  ASSERT_TRUE(report.has_value());
  EXPECT_EQ(report->seed, 0u);  // held open, the window is hit by every seed
  EXPECT_THAT(report->message, HasSubstr("built 2 clients"));
  EXPECT_THAT(report->render(), HasSubstr("gate gate_hold_test.cpp:"));
}

TEST(GateHold, LockWithoutRecheckBuildsTwiceOnTheFirstSeed) {
  auto report = SecondCallerArrivesInsideTheWindow(Variant::kLockWithoutRecheck);
  ASSERT_TRUE(report.has_value());
  EXPECT_EQ(report->seed, 0u);
}

TEST(GateHold, DoubleCheckedPassesEverySeed) {
  auto report = SecondCallerArrivesInsideTheWindow(Variant::kDoubleChecked);
  EXPECT_FALSE(report.has_value()) << report->render();
}

TEST(GateHold, AnArrivalThatCannotHappenIsADeadlockNamingTheGate) {
  auto report = sim::explore([] {
    sim::Gate gate = sim::Gate::hold("never.reached");
    std::thread worker([] {});
    gate.await_arrivals(1);
    worker.join();
  });
  ASSERT_TRUE(report.has_value());
  EXPECT_EQ(report->verdict, sim::Verdict::kDeadlock);
  EXPECT_THAT(report->render(), HasSubstr("T0 'main' blocked: await arrivals at gate"));
  EXPECT_THAT(report->render(), HasSubstr("(0 of 1 arrived at gate 'never.reached')"));
}

TEST(GateHold, ArrivalsCountAndReleaseLetsLaterArrivalsThrough) {
  auto report = sim::explore(
      [] {
        sim::Gate gate = sim::Gate::hold("count");
        std::thread a([] { sim::gate("count"); });
        std::thread b([] { sim::gate("count"); });
        gate.await_arrivals(2);
        if (gate.arrivals() != 2) sim::fail("arrivals " + std::to_string(gate.arrivals()));
        gate.release();
        sim::gate("count");  // after release: passes straight through
        a.join();
        b.join();
      },
      {.seeds = 100});
  EXPECT_FALSE(report.has_value()) << report->render();
}

TEST(GateHold, HeldGateThatIsNeverReleasedIsADeadlock) {
  auto report = sim::explore([] {
    sim::Gate gate = sim::Gate::hold("forgotten");
    std::thread a([] { sim::gate("forgotten"); });
    a.join();
  });
  ASSERT_TRUE(report.has_value());
  EXPECT_EQ(report->verdict, sim::Verdict::kDeadlock);
  EXPECT_THAT(report->render(), HasSubstr("T1 blocked: arrive at gate"));
  EXPECT_THAT(report->render(), HasSubstr("(gate 'forgotten' is held)"));
}

}  // namespace

// check_determinism=1 runs each seed twice (the second time replaying the
// first) and reports a program whose path depends on something outside the
// world as nondeterministic, naming where the runs part; a deterministic
// program passes with the check on.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <x86intrin.h>

#include <array>
#include <memory>
#include <mutex>
#include <random>
#include <thread>

#include "sim/sim.h"

namespace {

using ::testing::HasSubstr;

// The path depends on `decide()`: a lock in one thread or the other.
template <typename Decide>
void PathDependsOn(Decide decide) {
  std::mutex m;
  int counter = 0;
  std::thread a([&] {
    if (decide()) {
      std::lock_guard g(m);
      ++counter;
    }
  });
  std::thread b([&] {
    std::lock_guard g(m);
    ++counter;
  });
  a.join();
  b.join();
}

std::optional<sim::Report> CheckDeterminism(std::function<void()> body) {
  return sim::explore(std::move(body), {.seeds = 50, .check_determinism = 1});
}

TEST(DeterminismCheck, StdRandomDeviceIsNondeterministic) {
  auto report = CheckDeterminism([] {
    PathDependsOn([] {
      std::random_device device;
      return device() % 2 == 0;
    });
  });
  ASSERT_TRUE(report.has_value());
  EXPECT_EQ(report->verdict, sim::Verdict::kNondeterministic);
  EXPECT_THAT(report->message, HasSubstr("the same schedule gave a different execution: at event "));
  EXPECT_THAT(report->message, HasSubstr("std::random_device"));
  EXPECT_THAT(report->render(), HasSubstr("WARNING: simthread: nondeterministic"));
}

TEST(DeterminismCheck, ReadingTheCpuClockDirectlyIsNondeterministic) {
  // rdtsc bypasses the world's virtual clock entirely.
  auto report = CheckDeterminism([] { PathDependsOn([] { return (__rdtsc() >> 4) % 2 == 0; }); });
  ASSERT_TRUE(report.has_value());
  EXPECT_EQ(report->verdict, sim::Verdict::kNondeterministic);
}

TEST(DeterminismCheck, AddressesOfFreshAllocationsDecidingThePathIsNondeterministic) {
  // What iterating a pointer-keyed container amounts to: the path follows
  // the order of two heap addresses, which differ between the two runs when
  // the allocator's state does. Here the first run's leftovers change it:
  // it keeps `first` and frees `second` (another size class), so the rerun
  // gets a fresh block above for `first` and the freed one below for
  // `second`. (The runtime allocates from a heap of its own,
  // core/runtime_heap.h, so only the program's own blocks decide this.)
  static std::vector<std::unique_ptr<int>> kept;
  auto report = CheckDeterminism([] {
    auto first = std::make_unique<int>(1);
    auto second = std::make_unique<std::array<char, 200>>();
    PathDependsOn([&] { return static_cast<void*>(first.get()) < static_cast<void*>(second.get()); });
    kept.push_back(std::move(first));
  });
  kept.clear();
  ASSERT_TRUE(report.has_value()) << "the allocator returned the same address order in both runs of every seed";
  EXPECT_EQ(report->verdict, sim::Verdict::kNondeterministic);
}

TEST(DeterminismCheck, DeterministicProgramPassesWithTheCheckOn) {
  auto report = CheckDeterminism([] { PathDependsOn([] { return true; }); });
  EXPECT_FALSE(report.has_value()) << report->render();
}

TEST(DeterminismCheck, RealFailuresAreStillReportedAsThemselves) {
  auto report = CheckDeterminism([] {
    PathDependsOn([] { return true; });
    sim::fail("a real bug");
  });
  ASSERT_TRUE(report.has_value());
  EXPECT_EQ(report->verdict, sim::Verdict::kFailure);
}

}  // namespace

// pin=<gate>: every arrival at that gate waits until no other thread can
// run, so plain exploration (no Gate::hold in the test) exercises the window
// on every seed.
#include <gtest/gtest.h>

#include <cstdlib>
#include <memory>
#include <mutex>
#include <thread>

#include "sim/sim.h"

namespace {

struct Cache {
  std::mutex mutex;
  std::unique_ptr<int> value;
  int builds = 0;

  int* Get() {
    {
      std::lock_guard guard(mutex);
      if (value) return value.get();
    }
    SIM_GATE("cache.fill");
    std::lock_guard guard(mutex);
    ++builds;
    value = std::make_unique<int>(42);
    return value.get();
  }
};

void TwoReaders() {
  Cache cache;
  std::thread a([&] { cache.Get(); });
  std::thread b([&] { cache.Get(); });
  a.join();
  b.join();
  if (cache.builds != 1) sim::fail("filled " + std::to_string(cache.builds) + " times");
}

TEST(GatePin, PinningTheWindowFailsEverySeed) {
  for (std::uint64_t seed = 0; seed < 50; ++seed) {
    auto report = sim::explore(TwoReaders, {.first_seed = seed, .seeds = 1, .pin = "cache.fill"});
    ASSERT_TRUE(report.has_value()) << "seed " << seed;
    EXPECT_NE(report->message.find("filled 2 times"), std::string::npos);
  }
}

TEST(GatePin, PinnedRunsReplayFromTheirSchedule) {
  auto report = sim::explore(TwoReaders, {.first_seed = 3, .seeds = 1, .pin = "cache.fill"});
  ASSERT_TRUE(report.has_value());
  auto replayed = sim::explore(TwoReaders, {.seeds = 1, .strategy = "replay:" + report->schedule, .pin = "cache.fill"});
  ASSERT_TRUE(replayed.has_value());
  EXPECT_EQ(replayed->trace_hash, report->trace_hash);
}

TEST(GatePin, PinFromSimOptions) {
  setenv("SIM_OPTIONS", "pin=cache.fill:seeds=10", 1);
  auto report = sim::explore(TwoReaders);
  unsetenv("SIM_OPTIONS");
  ASSERT_TRUE(report.has_value());
  EXPECT_EQ(report->seed, 0u);
}

}  // namespace

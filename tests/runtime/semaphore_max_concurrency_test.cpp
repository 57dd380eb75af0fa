// A semaphore of 2 admits at most two of four threads to a section at once
// (and two do get in together in some interleaving); one of 3 admits three,
// breaking a limit of two.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <semaphore.h>

#include <algorithm>
#include <mutex>
#include <string>
#include <thread>

#include "sim/sim.h"

namespace {

void Pause() {
  static std::mutex unrelated;
  std::lock_guard guard(unrelated);
}

// Returns the most threads seen inside the section at once.
int MaxInside(unsigned permits) {
  sem_t semaphore;
  sem_init(&semaphore, 0, permits);
  int inside = 0;
  int max_inside = 0;
  auto worker = [&] {
    sem_wait(&semaphore);
    max_inside = std::max(max_inside, ++inside);
    Pause();
    --inside;
    sem_post(&semaphore);
  };
  std::thread a(worker);
  std::thread b(worker);
  std::thread c(worker);
  std::thread d(worker);
  a.join();
  b.join();
  c.join();
  d.join();
  int value = -1;
  sem_getvalue(&semaphore, &value);
  if (value != static_cast<int>(permits)) sim::fail("permits not returned: value " + std::to_string(value));
  sem_destroy(&semaphore);
  return max_inside;
}

}  // namespace

TEST(SemaphoreMaxConcurrency, TwoPermitsPass) {
  auto report = sim::explore([] {
    if (MaxInside(2) > 2) sim::fail("more than two inside");
  }, {.seeds = 1000});
  EXPECT_FALSE(report.has_value()) << report->render();
}

TEST(SemaphoreMaxConcurrency, TwoPermitsAdmitTwoTogether) {
  auto report = sim::explore([] {
    if (MaxInside(2) == 2) sim::fail("two inside together");
  }, {.seeds = 1000});
  ASSERT_TRUE(report.has_value());
  EXPECT_THAT(report->message, ::testing::HasSubstr("two inside together"));
}

TEST(SemaphoreMaxConcurrency, ThreePermitsFail) {
  auto report = sim::explore([] {
    if (MaxInside(3) > 2) sim::fail("more than two inside");
  }, {.seeds = 1000});
  ASSERT_TRUE(report.has_value());
  EXPECT_EQ(report->verdict, sim::Verdict::kFailure) << report->render();
  EXPECT_THAT(report->message, ::testing::HasSubstr("more than two inside"));
}

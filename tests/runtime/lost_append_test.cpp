// The lost append of the schedule explorer's cookbook: a log reserves a slot
// (reads the length), does slow work (a sleep), then writes at the reserved
// index. Two appenders that both reserve before either writes collide, and
// one entry is lost. Virtual time makes the sleep free; the window it opens
// is still explored.
//   buggy:      reserve under the lock, write under the lock later
//   half-fixed: the whole append under the lock, but the slot reserved before it
//   fixed:      reserve and write in one critical section
#include <gtest/gtest.h>

#include <chrono>
#include <mutex>
#include <thread>
#include <vector>

#include "sim/sim.h"

namespace {

enum class Variant { kBuggy, kHalfFixed, kFixed };

class Log {
 public:
  explicit Log(Variant variant) : variant_(variant), entries_(4, 0) {}

  void Append(int value) {
    if (variant_ == Variant::kFixed) {
      std::lock_guard guard(mutex_);
      Slow();
      entries_[length_++] = value;
      return;
    }
    std::size_t slot;
    {
      std::lock_guard guard(mutex_);
      slot = length_;  // reserve
    }
    Slow();
    std::lock_guard guard(mutex_);
    if (variant_ == Variant::kHalfFixed) {
      entries_[slot] = value;  // locked, but the reservation may be stale
      length_ = slot + 1;
    } else {
      entries_[slot] = value;
      length_ = slot + 1;
    }
  }

  std::vector<int> Snapshot() {
    std::lock_guard guard(mutex_);
    return std::vector<int>(entries_.begin(), entries_.begin() + static_cast<std::ptrdiff_t>(length_));
  }

 private:
  static void Slow() { std::this_thread::sleep_for(std::chrono::milliseconds(50)); }

  Variant variant_;
  std::mutex mutex_;
  std::vector<int> entries_;
  std::size_t length_ = 0;
};

std::optional<sim::Report> ExploreTwoAppenders(Variant variant) {
  return sim::explore(
      [variant] {
        Log log(variant);
        std::thread a([&] { log.Append(1); });
        std::thread b([&] { log.Append(2); });
        a.join();
        b.join();
        const std::vector<int> entries = log.Snapshot();
        if (entries.size() != 2) sim::fail("lost append: " + std::to_string(entries.size()) + " entries, expected 2");
      },
      {.seeds = 1000});
}

TEST(LostAppend, ReserveThenWriteLosesAnAppend) {
  auto report = ExploreTwoAppenders(Variant::kBuggy);
  ASSERT_TRUE(report.has_value());
  EXPECT_EQ(report->verdict, sim::Verdict::kFailure);
  EXPECT_NE(report->message.find("lost append: 1 entries, expected 2"), std::string::npos) << report->message;
  // The sleep is virtual: the failing run shows time advanced by 50 ms.
  EXPECT_NE(report->render().find("t=0.050000"), std::string::npos) << report->render();
}

TEST(LostAppend, LockingTheWriteWithoutReReservingStillLosesOne) {
  auto report = ExploreTwoAppenders(Variant::kHalfFixed);
  ASSERT_TRUE(report.has_value());
  EXPECT_EQ(report->verdict, sim::Verdict::kFailure);
}

TEST(LostAppend, ReserveAndWriteInOneCriticalSectionPassesEverySeed) {
  auto report = ExploreTwoAppenders(Variant::kFixed);
  EXPECT_FALSE(report.has_value()) << report->render();
}

}  // namespace

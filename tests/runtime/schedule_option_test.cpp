// schedule=STRING and schedule=@FILE replay a printed schedule exactly; the
// report wraps a long schedule at 76 columns and the wrapped copy still
// replays; a missing file or a malformed schedule is an error up front.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <mutex>
#include <sstream>
#include <thread>

#include "sim/sim.h"

namespace {

using ::testing::HasSubstr;

void ManyStepsThenFail() {
  std::mutex m;
  int total = 0;
  auto work = [&] {
    for (int i = 0; i < 20; ++i) {
      std::lock_guard g(m);
      ++total;
    }
  };
  std::thread a(work), b(work), c(work);
  a.join();
  b.join();
  c.join();
  sim::fail("done: " + std::to_string(total));
}

class ScheduleOptionTest : public ::testing::Test {
 protected:
  void TearDown() override { unsetenv("SIM_OPTIONS"); }
};

TEST_F(ScheduleOptionTest, ScheduleStringAndFileReplayExactly) {
  auto original = sim::explore(ManyStepsThenFail, {.first_seed = 5, .seeds = 1, .shrink = 0});
  ASSERT_TRUE(original.has_value());

  setenv("SIM_OPTIONS", ("schedule=" + original->schedule + ":shrink=0").c_str(), 1);
  auto from_string = sim::explore(ManyStepsThenFail);
  ASSERT_TRUE(from_string.has_value());
  EXPECT_EQ(from_string->trace_hash, original->trace_hash);

  const std::string path = ::testing::TempDir() + "schedule.txt";
  std::ofstream(path) << original->schedule << "\n";
  setenv("SIM_OPTIONS", ("schedule=@" + path + ":shrink=0").c_str(), 1);
  auto from_file = sim::explore(ManyStepsThenFail);
  ASSERT_TRUE(from_file.has_value());
  EXPECT_EQ(from_file->trace_hash, original->trace_hash);
}

TEST_F(ScheduleOptionTest, LongScheduleIsWrappedAt76ColumnsAndTheWrappedCopyReplays) {
  // random: a schedule with many switches (priority strategies switch rarely).
  auto original = sim::explore(ManyStepsThenFail, {.first_seed = 9, .seeds = 1, .strategy = "random", .shrink = 0});
  ASSERT_TRUE(original.has_value());
  ASSERT_GT(original->schedule.size(), 80u) << "the test needs a long schedule";
  std::istringstream rendered(original->render());
  std::string line, wrapped;
  bool in_schedule = false;
  for (int lines = 0; std::getline(rendered, line);) {
    if (line.starts_with("  schedule: ")) in_schedule = true;
    else if (in_schedule && !line.starts_with("            ")) break;
    if (!in_schedule) continue;
    EXPECT_LE(line.size(), 76u) << line;
    wrapped += line.substr(12) + "\n";
    ++lines;
  }
  EXPECT_NE(wrapped.find('\n'), wrapped.size() - 1) << "expected more than one line";
  const std::string path = ::testing::TempDir() + "wrapped.txt";
  std::ofstream(path) << wrapped;
  setenv("SIM_OPTIONS", ("schedule=@" + path + ":shrink=0").c_str(), 1);
  auto replayed = sim::explore(ManyStepsThenFail);
  ASSERT_TRUE(replayed.has_value());
  EXPECT_EQ(replayed->trace_hash, original->trace_hash);
}

TEST_F(ScheduleOptionTest, MissingFileAndMalformedScheduleAreErrors) {
  setenv("SIM_OPTIONS", "schedule=@/nonexistent/schedule.txt", 1);
  try {
    sim::explore([] {});
    FAIL();
  } catch (const std::invalid_argument& error) {
    EXPECT_THAT(error.what(), HasSubstr("cannot read the file '/nonexistent/schedule.txt'"));
  }
  setenv("SIM_OPTIONS", "schedule=S1-3-0x3-ffff", 1);
  try {
    sim::explore([] {});
    FAIL();
  } catch (const std::invalid_argument& error) {
    EXPECT_THAT(error.what(), HasSubstr("check digits do not match"));
  }
}

}  // namespace

// story_test.cpp: built with the pass, so every access below is a
// scheduling point. The story of an unshrunk schedule with dozens of
// preemptions must be true line by line (story.h): a thread that ran to
// completion never appears again, a thread resumes where it was preempted
// before it does anything else, and a range of lines never runs backwards.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <map>
#include <regex>
#include <string>
#include <thread>
#include <vector>

#include "sim/sim.h"

// External linkage: the compiler must keep every access.
int story_test_cells[4][8];

namespace {

void Worker(int me) {
  for (int round = 0; round < 10; ++round) {
    for (int& cell : story_test_cells[me]) cell += round;
    story_test_cells[(me + 1) % 4][round % 8] += 1;  // shared with the next worker
  }
}

// Checks the rules above; returns what broke, or "".
std::string FirstFalseLine(const std::vector<std::string>& story) {
  // A site may hold spaces ("f() (libstdc++.so.6)"), and so may an event
  // kind ("create thread"): a preemption and its resumption are compared as
  // the whole "<site> <kind>".
  static const std::regex kPreempted(R"(T(\d+) (.+)   <- preempted)");
  static const std::regex kResumes(R"(T(\d+) (.+) resumes \((.+)\))");
  static const std::regex kRuns(R"(T(\d+) (.+) runs( to completion)?)");
  static const std::regex kRange(R"(:(\d+)-(\d+))");
  std::map<std::string, std::string> preempted_at;  // thread -> "site kind" while it waits to resume
  std::map<std::string, bool> completed;
  for (const std::string& line : story) {
    std::smatch match;
    std::string thread;
    if (std::regex_match(line, match, kPreempted)) {
      thread = match[1];
      if (preempted_at.count(thread)) return "preempted again before resuming: " + line;
      preempted_at[thread] = match[2];
    } else if (std::regex_match(line, match, kResumes)) {
      thread = match[1];
      auto it = preempted_at.find(thread);
      if (it == preempted_at.end()) return "resumes without a preemption: " + line;
      if (it->second != std::string(match[2]) + " " + std::string(match[3])) {
        return "resumes elsewhere than preempted (" + it->second + "): " + line;
      }
      preempted_at.erase(it);
    } else if (std::regex_match(line, match, kRuns)) {
      thread = match[1];
      if (preempted_at.count(thread)) return "runs before resuming: " + line;
      const std::string sites = match[2];
      for (std::sregex_iterator range(sites.begin(), sites.end(), kRange), end; range != end; ++range) {
        if (std::stoul((*range)[1]) > std::stoul((*range)[2])) return "a range runs backwards: " + line;
      }
      if (match[3].matched) {
        if (completed[thread]) return "completes twice: " + line;
        completed[thread] = true;
        continue;
      }
    } else if (line.find("does not run again") != std::string::npos || line.starts_with("... and ")) {
      continue;
    } else {
      return "a line of no known shape: " + line;
    }
    if (completed[thread]) return "appears after running to completion: " + line;
  }
  return "";
}

TEST(Story, EveryLineOfALongUnshrunkStoryIsTrue) {
  int checked = 0;
  for (std::uint64_t first_seed = 0; first_seed < 6; ++first_seed) {
    auto report = sim::explore(
        [] {
          std::thread workers[] = {std::thread(Worker, 0), std::thread(Worker, 1), std::thread(Worker, 2),
                                   std::thread(Worker, 3)};
          for (std::thread& worker : workers) worker.join();
          sim::fail("the end");  // every execution is reported, with its story
        },
        {.first_seed = first_seed, .seeds = 1, .strategy = "random", .shrink = 0});
    ASSERT_TRUE(report.has_value());
    ASSERT_GT(report->preemptions, 8u) << "not a long story";
    EXPECT_EQ(FirstFalseLine(report->story), "") << report->render();
    ++checked;
  }
  EXPECT_EQ(checked, 6);
}

TEST(Story, TheCheckerCatchesAFalseStory) {
  EXPECT_THAT(FirstFalseLine({"T1 a.cpp:3 lock   <- preempted", "T2 a.cpp:5-9 runs to completion",
                              "T2 a.cpp:4 load   <- preempted"}),
              ::testing::HasSubstr("after running to completion"));
  EXPECT_THAT(FirstFalseLine({"T1 a.cpp:30 lock   <- preempted", "T1 a.cpp:12 resumes (load)"}),
              ::testing::HasSubstr("resumes elsewhere"));
  EXPECT_THAT(FirstFalseLine({"T2 stl_vector.h:988-100 runs"}), ::testing::HasSubstr("backwards"));
}

}  // namespace

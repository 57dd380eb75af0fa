// The report block, line by line, as docs/report-format.md documents it:
// exact text for reports built by hand, and the shape of the thread and
// event lines of reports that explore() produced.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <mutex>
#include <regex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "sim/sim.h"

namespace {

using ::testing::Contains;
using ::testing::HasSubstr;
using ::testing::MatchesRegex;
using ::testing::Not;

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream stream(text);
  for (std::string line; std::getline(stream, line);) lines.push_back(line);
  return lines;
}

sim::Report HandBuilt(sim::Verdict verdict, std::string message) {
  sim::Report report;
  report.seed = 37;
  report.step = 88;
  report.verdict = verdict;
  report.message = std::move(message);
  report.schedule = "S1-3-1.0-00ff";
  report.trace_hash = 0x3f9c2a1bULL;
  return report;
}

TEST(ReportFormat, VerdictNames) {
  EXPECT_EQ(sim::to_string(sim::Verdict::kPass), "pass");
  EXPECT_EQ(sim::to_string(sim::Verdict::kFailure), "failure");
  EXPECT_EQ(sim::to_string(sim::Verdict::kUncaughtException), "uncaught exception");
  EXPECT_EQ(sim::to_string(sim::Verdict::kDeadlock), "deadlock");
  EXPECT_EQ(sim::to_string(sim::Verdict::kStepLimit), "step limit");
  EXPECT_EQ(sim::to_string(sim::Verdict::kLivelock), "livelock");
  EXPECT_EQ(sim::to_string(sim::Verdict::kCrash), "crash");
  EXPECT_EQ(sim::to_string(sim::Verdict::kUnsupported), "unsupported operation");
}

// One header line and one SUMMARY line per verdict, exactly.
TEST(ReportFormat, HeaderAndSummaryLineOfEveryVerdict) {
  for (sim::Verdict verdict : {sim::Verdict::kFailure, sim::Verdict::kUncaughtException, sim::Verdict::kDeadlock,
                               sim::Verdict::kStepLimit, sim::Verdict::kLivelock, sim::Verdict::kCrash,
                               sim::Verdict::kUnsupported}) {
    const std::string name(sim::to_string(verdict));
    const std::vector<std::string> lines = Lines(HandBuilt(verdict, "what happened").render());
    ASSERT_GE(lines.size(), 4u);
    EXPECT_EQ(lines[0], "==================");
    EXPECT_EQ(lines[1], "WARNING: simthread: " + name + " (seed=37, step=88)");
    EXPECT_EQ(lines[lines.size() - 2], "SUMMARY: simthread: " + name + ": what happened");
    EXPECT_EQ(lines.back(), "==================");
  }
}

TEST(ReportFormat, WholeBlockOfAFailure) {
  sim::Report report = HandBuilt(sim::Verdict::kFailure, "registry_test.cpp:42 (in T0): Expected equality of these "
                                                         "values:\n  registry.build_count()\n    Which is: 2\n  1");
  report.threads = {"T0 'main' running, last lock at registry_test.cpp:40 in Registry_Test::TestBody()",
                    "T1 finished", "T2 blocked: lock mutex 0x1000 (held by T0) at registry.cpp:12 in Registry::get()"};
  report.last_events = {"[step 86 t=0.000000] T1 exit registry.cpp:16",
                        "[step 87 t=1.500000] T0 lock registry_test.cpp:40"};
  report.replay = "./registry_test --gtest_filter=Registry.BuildsTheClientOnce/seeds_0_99 --sim_replay=37";
  EXPECT_EQ(report.render(),
            "==================\n"
            "WARNING: simthread: failure (seed=37, step=88)\n"
            "  registry_test.cpp:42 (in T0): Expected equality of these values:\n"
            "    registry.build_count()\n"
            "      Which is: 2\n"
            "    1\n"
            "  threads at failure:\n"
            "    T0 'main' running, last lock at registry_test.cpp:40 in Registry_Test::TestBody()\n"
            "    T1 finished\n"
            "    T2 blocked: lock mutex 0x1000 (held by T0) at registry.cpp:12 in Registry::get()\n"
            "  last 2 events:\n"
            "    [step 86 t=0.000000] T1 exit registry.cpp:16\n"
            "    [step 87 t=1.500000] T0 lock registry_test.cpp:40\n"
            "  preemptions: 0\n"
            "  schedule: S1-3-1.0-00ff\n"
            "  trace hash: 000000003f9c2a1b\n"
            "  replay: ./registry_test --gtest_filter=Registry.BuildsTheClientOnce/seeds_0_99 --sim_replay=37\n"
            "SUMMARY: simthread: failure: registry_test.cpp:42 (in T0): Expected equality of these values:\n"
            "==================\n");
}

// Sections with nothing to say are left out; preemptions, schedule and trace
// hash are always there.
TEST(ReportFormat, EmptySectionsAreLeftOut) {
  const std::string text = HandBuilt(sim::Verdict::kCrash, "SIGSEGV in T1").render();
  EXPECT_THAT(text, Not(HasSubstr("threads at failure:")));
  EXPECT_THAT(text, Not(HasSubstr("events:")));
  EXPECT_THAT(text, Not(HasSubstr("replay:")));
  EXPECT_THAT(text, HasSubstr("\n  preemptions: 0\n  schedule: S1-3-1.0-00ff\n  trace hash: 000000003f9c2a1b\n"));
}

// A search a bound cut short says so in one line after the story
// (shrink_bound_test.cpp checks the text shrinking writes there).
TEST(ReportFormat, ShrinkingStoppedLineFollowsTheStory) {
  sim::Report report = HandBuilt(sim::Verdict::kFailure, "lost 1 update");
  report.preemptions = 3;
  report.preemptions_before_shrink = 9;
  report.story = {"T1 a.cpp:3 lock   <- preempted", "T2 a.cpp:3-5 runs to completion", "T1 a.cpp:5 resumes (unlock)"};
  report.shrink_stopped = "shrinking stopped at its bound of 7 candidates (shrink_candidates); a higher bound may "
                          "find fewer preemptions";
  EXPECT_THAT(report.render(),
              HasSubstr("  preemptions: 3 (shrunk from 9)\n"
                        "    T1 a.cpp:3 lock   <- preempted\n"
                        "    T2 a.cpp:3-5 runs to completion\n"
                        "    T1 a.cpp:5 resumes (unlock)\n"
                        "  shrinking stopped at its bound of 7 candidates (shrink_candidates); a higher bound may "
                        "find fewer preemptions\n"
                        "  schedule: S1-3-1.0-00ff\n"));
  report.shrink_stopped.clear();
  EXPECT_THAT(report.render(), Not(HasSubstr("shrinking stopped")));
}

// The SUMMARY line is the first sentence of the message's first line.
TEST(ReportFormat, SummaryIsTheFirstSentence) {
  const std::vector<std::string> lines =
      Lines(HandBuilt(sim::Verdict::kStepLimit,
                      "1000000 scheduling points without the execution ending. This is often caused by a spin "
                      "lock\nsecond line")
                .render());
  EXPECT_EQ(lines[lines.size() - 2], "SUMMARY: simthread: step limit: 1000000 scheduling points without the "
                                     "execution ending");
  EXPECT_EQ(lines[2], "  1000000 scheduling points without the execution ending. This is often caused by a spin lock");
  EXPECT_EQ(lines[3], "  second line");
}

// Thread and event lines of real reports.
TEST(ReportFormat, ThreadLinesOfADeadlock) {
  auto report = sim::explore([] {
    std::mutex a, b;
    std::thread first([&] {
      std::lock_guard x(a);
      std::lock_guard y(b);
    });
    std::thread second([&] {
      std::lock_guard y(b);
      std::lock_guard x(a);
    });
    first.join();
    second.join();
  });
  ASSERT_TRUE(report.has_value());
  ASSERT_EQ(report->verdict, sim::Verdict::kDeadlock);
  ASSERT_EQ(report->threads.size(), 3u);
  EXPECT_THAT(report->threads[0],
              MatchesRegex("T0 'main' blocked: join thread 0x[0-9a-f]+ \\(T[12] has not finished\\) at .*"));
  EXPECT_THAT(report->threads[1],
              MatchesRegex("T1 blocked: lock mutex 0x[0-9a-f]+ \\(held by T2\\) at report_format_test.cpp:[0-9]+ in .*"));
  EXPECT_THAT(report->threads[2],
              MatchesRegex("T2 blocked: lock mutex 0x[0-9a-f]+ \\(held by T1\\) at report_format_test.cpp:[0-9]+ in .*"));
  const std::string text = report->render();
  EXPECT_THAT(text, HasSubstr("\n  threads at failure:\n    T0 'main' blocked: "));
  EXPECT_THAT(text, HasSubstr("SUMMARY: simthread: deadlock: 3 threads are blocked and no thread can run or wake them\n"));
}

TEST(ReportFormat, ALoneBlockedThreadIsNamedInTheSingular) {
  // T0 locks a mutex it already holds: the only blocked thread, no other to wake it.
  auto report = sim::explore([] {
    std::mutex mutex;
    mutex.lock();
    mutex.lock();
  });
  ASSERT_TRUE(report.has_value());
  ASSERT_EQ(report->verdict, sim::Verdict::kDeadlock);
  EXPECT_THAT(report->render(),
              HasSubstr("SUMMARY: simthread: deadlock: 1 thread is blocked and no thread can run or wake it\n"));
}

TEST(ReportFormat, RunningAndFinishedThreadLines) {
  auto report = sim::explore([] {
    std::mutex m;
    std::thread t([&] { std::lock_guard g(m); });
    t.join();
    { std::lock_guard g(m); }
    sim::fail("done");
  });
  ASSERT_TRUE(report.has_value());
  ASSERT_EQ(report->threads.size(), 2u);
  EXPECT_THAT(report->threads[0], MatchesRegex("T0 'main' running, last unlock at report_format_test.cpp:[0-9]+ in .*"));
  EXPECT_EQ(report->threads[1], "T1 finished");
  EXPECT_EQ(report->message, "done (in T0)");
}

// "[step N t=S.UUUUUU] Tn <event kind> <site>", the last 20, oldest first,
// with virtual time in seconds.
TEST(ReportFormat, EventLinesWithStepAndVirtualTime) {
  auto report = sim::explore([] {
    std::mutex m;
    for (int i = 0; i < 15; ++i) {
      std::lock_guard g(m);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(1500));
    std::thread t([&] { std::lock_guard g(m); });
    t.join();
    sim::fail("after the sleep");
  });
  ASSERT_TRUE(report.has_value());
  ASSERT_EQ(report->last_events.size(), 20u);
  std::uint64_t previous_step = 0;
  bool first = true;
  for (const std::string& event : report->last_events) {
    std::smatch match;
    ASSERT_TRUE(std::regex_match(event, match, std::regex(R"(\[step (\d+) t=(\d+\.\d{6})\] T(\d+) (\S.*) (\S+))")))
        << event;
    const std::uint64_t step = std::stoull(match[1]);
    if (!first) EXPECT_GT(step, previous_step) << "oldest first";
    first = false;
    previous_step = step;
  }
  EXPECT_THAT(report->last_events.back(), HasSubstr(" t=1.500000] "));
  EXPECT_THAT(report->last_events, Contains(MatchesRegex(R"(\[step [0-9]+ t=0\.000000\] T0 unlock report_format_test.cpp:[0-9]+)")));
  const std::string text = report->render();
  EXPECT_THAT(text, HasSubstr("\n  last 20 events ("));
  EXPECT_THAT(text, HasSubstr(" in library code left out):\n    [step "));
}

TEST(ReportFormat, ReplayLineOfExploreNamesTheSeed) {
  auto report = sim::explore([] { sim::fail("always"); }, {.first_seed = 5, .seeds = 1});
  ASSERT_TRUE(report.has_value());
  EXPECT_THAT(report->replay, MatchesRegex("SIM_OPTIONS=seed=5 .*report_format_test.*"));
  EXPECT_THAT(report->render(), HasSubstr("\n  replay: SIM_OPTIONS=seed=5 "));
  EXPECT_THAT(report->render(), MatchesRegex("(.|\n)*\n  trace hash: [0-9a-f]{16}\n(.|\n)*"));
}

}  // namespace

// RapidCheck owns the data, a fixed seed range owns the schedules.
//
// RapidCheck draws a whole workload (writers, payload sizes, a virtual
// delay) before anything runs; sim::explore then runs that workload under
// the seeds [0, kSeeds). The seed is never a generator, and explore() is
// deterministic for a given workload, so RapidCheck's shrinker sees a pure
// function of the data and its shrinking stays sound. A failure carries both
// halves of the reproduction: RapidCheck's counterexample (and its
// reproduce string) and simthread's report with its replay command.
//
// Debian's librapidcheck-dev ships rapidcheck/gtest.h (RC_GTEST_PROP), but
// it FAILs the test on a failing property; the must-fail properties here need
// the result itself, so CheckWithResult below calls RapidCheck's result API
// (rc::detail::checkTestable) and the glue reports with ADD_FAILURE.
#include <gtest/gtest.h>
#include <rapidcheck.h>

#include <chrono>
#include <cstddef>
#include <mutex>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "sim/sim.h"

namespace {

constexpr std::uint64_t kSeeds = 200;

struct Workload {
  int writers = 1;
  std::vector<int> payload_sizes;  // each writer appends one payload per size
  int delay_ms = 0;                // virtual time between reserve and write
};

std::string Describe(const Workload& workload) {
  std::ostringstream out;
  out << "writers=" << workload.writers << " payload_sizes=[";
  for (std::size_t i = 0; i < workload.payload_sizes.size(); ++i) {
    out << (i ? "," : "") << workload.payload_sizes[i];
  }
  out << "] delay_ms=" << workload.delay_ms;
  return out.str();
}

// RapidCheck prints the counterexample with this (found by ADL).
void showValue(const Workload& workload, std::ostream& os) { os << Describe(workload); }

}  // namespace

namespace rc {
template <>
struct Arbitrary<Workload> {
  static Gen<Workload> arbitrary() {
    return gen::apply(
        [](int writers, std::vector<int> sizes, int delay_ms) {
          return Workload{writers, std::move(sizes), delay_ms};
        },
        gen::inRange(1, 4),
        // At most 3 payloads; the resize bounds the list, not the sizes.
        gen::resize(3, gen::nonEmpty(gen::container<std::vector<int>>(gen::resize(100, gen::inRange(1, 9))))),
        gen::inRange(0, 11));
  }
};
}  // namespace rc

namespace {

// A shared log. AppendRacy reserves an index under the lock, lets virtual
// time pass (the write's network or disk), then writes under the lock again:
// two writers can reserve the same index, and one append is lost.
// AppendGuarded holds the lock across both: the fix.
class AppendLog {
 public:
  void AppendRacy(const std::string& payload, int delay_ms) {
    std::size_t index;
    {
      std::lock_guard guard(mutex_);
      index = entries_.size();
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(delay_ms));
    std::lock_guard guard(mutex_);
    if (entries_.size() <= index) entries_.resize(index + 1);
    entries_[index] = payload;
  }

  void AppendGuarded(const std::string& payload, int delay_ms) {
    std::lock_guard guard(mutex_);
    const std::size_t index = entries_.size();
    std::this_thread::sleep_for(std::chrono::milliseconds(delay_ms));
    entries_.resize(index + 1);
    entries_[index] = payload;
  }

  std::size_t size() {
    std::lock_guard guard(mutex_);
    return entries_.size();
  }

 private:
  std::mutex mutex_;
  std::vector<std::string> entries_;
};

enum class Log { kRacy, kGuarded };

// One execution: every writer appends every payload; no append may be lost.
void Replicate(const Workload& workload, Log kind) {
  AppendLog log;
  std::vector<std::thread> writers;
  for (int writer = 0; writer < workload.writers; ++writer) {
    writers.emplace_back([&, writer] {
      for (int size : workload.payload_sizes) {
        const std::string payload(static_cast<std::size_t>(size), static_cast<char>('a' + writer));
        if (kind == Log::kRacy) {
          log.AppendRacy(payload, workload.delay_ms);
        } else {
          log.AppendGuarded(payload, workload.delay_ms);
        }
      }
    });
  }
  for (std::thread& writer : writers) writer.join();
  const std::size_t expected = static_cast<std::size_t>(workload.writers) * workload.payload_sizes.size();
  const std::size_t size = log.size();
  if (size != expected) {
    sim::fail("lost " + std::to_string(expected - size) + " of " + std::to_string(expected) + " appends");
  }
}

std::optional<sim::Report> ExploreWorkload(const Workload& workload, Log kind, const sim::Options& options) {
  return sim::explore([&] { Replicate(workload, kind); }, options);
}

// The last workload whose property failed, and its report: after shrinking,
// RapidCheck's last failing run is its minimal counterexample.
struct LastFailure {
  Workload workload;
  sim::Report report;
};
std::optional<LastFailure> last_failure;

// The property: no seed in [0, kSeeds) loses an append.
auto NoSeedLosesAnAppend(Log kind) {
  return [kind](const Workload& workload) {
    std::optional<sim::Report> report = ExploreWorkload(workload, kind, {.seeds = kSeeds});
    if (report) {
      last_failure = LastFailure{workload, *report};
      RC_FAIL("simthread found a failing seed for " + Describe(workload) + "\n" + report->render() +
              "\nreplay: " + report->replay + "\nschedule: " + report->schedule);
    }
  };
}

// Runs a property with a fixed RapidCheck seed, so the test is deterministic.
template <typename Property>
rc::detail::TestResult CheckWithResult(const std::string& id, Property property) {
  rc::detail::TestMetadata metadata;
  metadata.id = id;
  metadata.description = id;
  rc::detail::TestParams params;
  params.seed = 20261202;
  params.maxSuccess = 40;
  params.maxSize = 100;
  return rc::detail::checkTestable(std::move(property), metadata, params);
}

std::string Message(const rc::detail::TestResult& result) {
  std::ostringstream out;
  rc::detail::printResultMessage(result, out);
  return out.str();
}

TEST(PropertyWorkloads, GuardedLogKeepsEveryAppendForEveryWorkload) {
  const rc::detail::TestResult result = CheckWithResult("guarded log", NoSeedLosesAnAppend(Log::kGuarded));
  if (!result.is<rc::detail::SuccessResult>()) ADD_FAILURE() << Message(result);
}

TEST(PropertyWorkloads, RacyLogFailsAndShrinksToTwoWriters) {
  last_failure.reset();
  const rc::detail::TestResult result = CheckWithResult("racy log", NoSeedLosesAnAppend(Log::kRacy));
  rc::detail::FailureResult failure;
  ASSERT_TRUE(result.match(failure)) << "the racy log passed:\n" << Message(result);
  const std::string message = Message(result);
  // Both halves of the reproduction are in the one message.
  EXPECT_NE(message.find("writers=2 "), std::string::npos) << message;
  EXPECT_NE(message.find("lost 1 of 2 appends"), std::string::npos) << message;
  EXPECT_NE(message.find("replay: "), std::string::npos) << message;
  ASSERT_EQ(failure.counterExample.size(), 1u) << message;
  EXPECT_NE(failure.counterExample[0].second.find("writers=2 "), std::string::npos) << message;

  ASSERT_TRUE(last_failure.has_value());
  EXPECT_EQ(last_failure->workload.writers, 2) << message;
  EXPECT_EQ(last_failure->workload.payload_sizes.size(), 1u) << message;
}

// The minimal workload and the failing seed reproduce the failure together:
// that seed alone, with that workload, fails the same way.
TEST(PropertyWorkloads, MinimalWorkloadAndFailingSeedReproduceTogether) {
  last_failure.reset();
  const rc::detail::TestResult result = CheckWithResult("racy log", NoSeedLosesAnAppend(Log::kRacy));
  ASSERT_FALSE(result.is<rc::detail::SuccessResult>());
  ASSERT_TRUE(last_failure.has_value());
  const Workload workload = last_failure->workload;
  const sim::Report& found = last_failure->report;

  // The report's strategy, not the default spec: it carries what pct had
  // learned from the seeds before (pct:D:K), which the seed alone needs.
  const sim::Options replay{.first_seed = found.seed, .seeds = 1, .strategy = found.strategy};
  std::optional<sim::Report> again = ExploreWorkload(workload, Log::kRacy, replay);
  ASSERT_TRUE(again.has_value()) << "seed " << found.seed << " passed with " << Describe(workload);
  EXPECT_EQ(again->seed, found.seed);
  EXPECT_EQ(again->verdict, sim::Verdict::kFailure);
  EXPECT_EQ(again->message, found.message);
  EXPECT_EQ(again->trace_hash, found.trace_hash);

  // The seed without the workload's data does not reproduce it: one writer
  // cannot lose an append under any schedule.
  Workload one_writer = workload;
  one_writer.writers = 1;
  EXPECT_FALSE(ExploreWorkload(one_writer, Log::kRacy, replay).has_value());
}

}  // namespace

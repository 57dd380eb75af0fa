// sim_test.cpp: SIM_TEST's runtime: registration of chunk tests after the
// flags are parsed, exploration of a chunk, and gtest failures in simulated
// threads turned into the seed's verdict. Flag parsing is in flags.cpp; the
// world, strategies and the report block are libsimrt's.
#include <gtest/gtest-spi.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/exit_status.h"
#include "core/world.h"
#include "explore/explore_internal.h"
#include "explore/isolated_execution.h"
#include "explore/options.h"
#include "explore/replay_command.h"
#include "gtest/flags.h"
#include "sim/gtest.h"

namespace sim::internal {

bool ExecutableIsInstrumented();  // instrumented.cpp

namespace {

// invariant: state reached from a simulated thread lives in plain globals,
// never in thread-local storage (the FS base changes under it).
struct GtestState {
  std::deque<SimTestRecord> records;  // deque: RegisterTest's factories keep pointers to records
  TestSettings settings;
  std::string executable;  // for replay commands
  bool initialized = false;
  int iteration = 0;  // of --gtest_repeat, from the listener
  std::uint64_t chunks_run = 0;
  bool warned_uninstrumented = false;
};

GtestState& State() {
  static GtestState* state = new GtestState;  // never destroyed: gtest outlives static destructors
  return *state;
}

// Failures reported by gtest in the running execution: "file:line (in Tn): message".
std::vector<std::string> execution_failures;
// Failures reported outside any world while a chunk ran: re-reported after it.
std::vector<testing::TestPartResult> outside_failures;

std::string Basename(const char* path) {
  if (path == nullptr) return "unknown file";
  const std::string_view text = path;
  const std::size_t slash = text.rfind('/');
  return std::string(slash == std::string_view::npos ? text : text.substr(slash + 1));
}

std::string Join(const std::vector<std::string>& lines) {
  std::string text;
  for (const std::string& line : lines) text += (text.empty() ? "" : "\n") + line;
  return text;
}

// Tracks --gtest_repeat iterations, and fails loudly when a main() ran
// RUN_ALL_TESTS without sim::init (the SIM_TESTs would silently not exist).
class SimListener : public testing::EmptyTestEventListener {
 public:
  void OnTestProgramStart(const testing::UnitTest&) override {
    if (State().initialized || State().records.empty()) return;
    std::fprintf(stderr,
                 "simthread: %zu SIM_TEST(s) are not registered because main() did not call sim::init(&argc, argv) "
                 "after testing::InitGoogleTest; call it, or link simthread::gtest_main, whose main() does\n",
                 State().records.size());
    std::exit(1);
  }
  void OnTestIterationStart(const testing::UnitTest&, int iteration) override { State().iteration = iteration; }
};

// Takes every gtest failure while a chunk explores (ScopedFakeTestPartResultReporter
// is gtest's public interception point; INTERCEPT_ALL_THREADS covers every
// simulated thread, whose per-thread reporters forward to the global one).
// In a world a failure fails the seed instead of the chunk test, so gtest
// prints nothing per seed and the chunk reports once.
class FailureInterceptor : public testing::ScopedFakeTestPartResultReporter {
 public:
  FailureInterceptor() : ScopedFakeTestPartResultReporter(INTERCEPT_ALL_THREADS, &Unused()) {}

  void ReportTestPartResult(const testing::TestPartResult& result) override {
    if (result.type() == testing::TestPartResult::kSuccess || result.type() == testing::TestPartResult::kSkip) {
      return;
    }
    if (!InWorld() || current_world == nullptr) {
      outside_failures.push_back(result);
      return;
    }
    World& world = *current_world;
    const std::string location = result.line_number() >= 0
                                     ? Basename(result.file_name()) + ":" + std::to_string(result.line_number())
                                     : Basename(result.file_name());
    execution_failures.push_back(location + " (in T" + std::to_string(world.running().id) + "): " + result.summary());
    // ASSERT_*: end the execution here, as a fatal failure ends a test.
    if (result.fatally_failed()) world.EndExecution(Verdict::kFailure, Join(execution_failures));
  }

 private:
  static testing::TestPartResultArray& Unused() {
    static testing::TestPartResultArray* unused = new testing::TestPartResultArray;
    return *unused;
  }
};

// At the end of every execution, in its process: a deadlock or crash after
// failed expectations keeps the expectations.
void AddFailedExpectations(Outcome& outcome) {
  if (outcome.verdict == Verdict::kPass || outcome.verdict == Verdict::kFailure || execution_failures.empty()) return;
  outcome.message += "\nfailed expectations earlier in this execution:\n" + Join(execution_failures);
}

// T0's body for every execution of a chunk.
void RunSeed(void (*run_seed)()) {
  execution_failures.clear();
  run_seed();
  // EXPECT_*: the execution ran to its end; its failed expectations fail it.
  if (!execution_failures.empty()) current_world->EndExecution(Verdict::kFailure, Join(execution_failures));
}

void WarnOnceIfNotInstrumented() {
  if (State().warned_uninstrumented || ExecutableIsInstrumented()) return;
  State().warned_uninstrumented = true;
  std::fputs(
      "simthread: this test binary was not built with sim-clang++: only synchronisation calls are scheduling "
      "points, plain memory accesses are not\n",
      stderr);
}

std::string ChunkTestName(const SimTestRecord& record, const SeedChunk& chunk) {
  return std::string(record.name) + "/seeds_" + std::to_string(chunk.begin) + "_" + std::to_string(chunk.end - 1);
}

// `strategy`: the report's, which carries what the strategy learned from
// the chunk's earlier seeds (pct:D:K), so the seed alone runs as it did.
// The replay command up to its seed, which ends it.
// This binary, the test and `options` as flags: the start of every command
// that runs one of its executions again.
std::string TestCommand(const std::string& full_test_name, const Options& options) {
  return ShellQuote(State().executable) + " " + ShellQuote("--gtest_filter=" + full_test_name) +
         OptionsAsFlags(options);
}

std::string ReplayCommandBeforeSeed(const std::string& full_test_name, const std::string& strategy) {
  const TestSettings& settings = State().settings;
  Options replayed = settings.options;
  if (!strategy.empty() && settings.schedule.empty()) replayed.strategy = strategy;
  std::string command = TestCommand(full_test_name, replayed);
  if (!settings.schedule.empty()) command += " " + ShellQuote("--sim_schedule=" + settings.schedule);
  return command + " --sim_replay=";
}

std::string ReplayCommandFor(const std::string& full_test_name, std::uint64_t seed, const std::string& strategy) {
  return ReplayCommandBeforeSeed(full_test_name, strategy) + std::to_string(seed);
}

std::string ExecutablePath(const char* argv0) {
  char path[4096];
  const ssize_t length = readlink("/proc/self/exe", path, sizeof path - 1);
  if (length > 0) return std::string(path, length);
  return argv0 != nullptr ? argv0 : "";
}

}  // namespace

bool RecordSimTest(const char* suite, const char* name, const char* file, int line,
                   RegisterChunkFunction register_chunk) {
  GtestState& state = State();
  if (state.records.empty()) testing::UnitTest::GetInstance()->listeners().Append(new SimListener);
  state.records.push_back({suite, name, file, line, register_chunk});
  if (state.initialized) {
    std::fprintf(stderr, "simthread: SIM_TEST %s.%s was defined after sim::init ran; it is not registered\n", suite,
                 name);
  }
  return true;
}

void RunChunk(const SimTestRecord& record, const SeedChunk& chunk, void (*run_seed)()) {
  GtestState& state = State();
  WarnOnceIfNotInstrumented();
  ++state.chunks_run;
  const TestSettings& settings = state.settings;
  const std::string full_name = std::string(record.suite) + "." + ChunkTestName(record, chunk);

  Options options = settings.options;
  // Each execution in a process of its own unless told otherwise: a test
  // body's threads and statics must not reach the next seed. (The value was
  // checked by sim::init.)
  ResolveIsolation(options, "fork");
  const bool single = settings.replay_seed.has_value() || !settings.schedule.empty();
  if (single) {
    options.first_seed = settings.replay_seed.value_or(chunk.begin);
    options.seeds = 1;
    if (!settings.schedule.empty()) options.strategy = "replay:" + settings.schedule;
  } else {
    options.first_seed = chunk.begin + static_cast<std::uint64_t>(state.iteration) * settings.options.seeds;
    options.seeds = chunk.end - chunk.begin;
  }

  std::optional<Report> report;
  std::string error;
  std::string summary;
  execution_failures.clear();
  outside_failures.clear();
  {
    FailureInterceptor interceptor;
    auto observe = [&summary, single](std::uint64_t, const Outcome& outcome) {
      if (!single) return;
      char line[256];
      std::snprintf(line, sizeof line, "%s, %" PRIu64 " steps, %" PRIu64 " preemptions, trace hash %016" PRIx64,
                    std::string(to_string(outcome.verdict)).c_str(), outcome.steps, outcome.preemptions,
                    outcome.trace_hash);
      summary = line;
    };
    annotate_outcome = AddFailedExpectations;
    try {
      // A crash inside libc gets the short report, whose replay line must be
      // this test's, not the SIM_OPTIONS=seed=N form of a whole program.
      auto replay_around_seed = [&full_name](const Options& replayed) {
        return std::pair<std::string, std::string>(ReplayCommandBeforeSeed(full_name, replayed.strategy), "");
      };
      report = ExploreWithOptions([run_seed] { RunSeed(run_seed); }, options, observe, replay_around_seed);
    } catch (const std::exception& exception) {
      error = exception.what();
    }
  }
  for (const testing::TestPartResult& failure : outside_failures) {
    ADD_FAILURE_AT(failure.file_name() != nullptr ? failure.file_name() : "unknown file", failure.line_number())
        << failure.message();
  }
  // --sim_replay and --sim_schedule say how the execution ended, a pass included.
  if (single && !summary.empty()) {
    const std::string what =
        settings.schedule.empty() ? "seed " + std::to_string(options.first_seed) : std::string("the schedule");
    std::fprintf(stderr, "simthread: replayed %s of %s: %s\n", what.c_str(), full_name.c_str(), summary.c_str());
  }
  if (!error.empty()) {
    ADD_FAILURE_AT(record.file, record.line) << "simthread: " << error;
    return;
  }
  if (!report) return;
  report->replay = ReplayCommandFor(full_name, report->seed, report->strategy);
  if (!report->race_flipped_schedule.empty()) {
    // The flipped execution by its schedule, without the race detector,
    // which would stop it at the race it flips: --sim_races=0, named here
    // whatever the default (OptionsAsFlags leaves out what equals it).
    Options replayed = settings.options;
    replayed.races = Options{}.races;
    report->race_flipped_replay = TestCommand(full_name, replayed) + " --sim_races=0 " +
                                  ShellQuote("--sim_schedule=" + report->race_flipped_schedule);
  }
  testing::Test::RecordProperty("sim_seed", std::to_string(report->seed));
  testing::Test::RecordProperty("sim_replay", report->replay);
  ADD_FAILURE_AT(record.file, record.line)
      << "SIM_TEST " << record.suite << "." << record.name << " failed at seed " << report->seed << " ("
      << report->seeds_passed << (report->seeds_passed == 1 ? " seed" : " seeds") << " of this chunk passed first):\n"
      << report->render();
}

// How many chunk tests ran (for gtest_main: a replay that ran none is an error).
std::uint64_t ChunksRun() { return State().chunks_run; }
bool ReplayRequested() { return State().settings.replay_seed.has_value() || !State().settings.schedule.empty(); }

}  // namespace sim::internal

namespace sim {

void init(int* argc, char** argv) {
  using namespace internal;
  GtestState& state = State();
  if (state.initialized) return;
  try {
    state.settings = ParseTestSettings(argc, argv);
  } catch (const std::invalid_argument& error) {
    std::fprintf(stderr, "simthread: %s\n", error.what());
    std::exit(exit_status::kUsage);
  }
  if (state.settings.help) {
    std::fputs(FlagsHelp().c_str(), stderr);
    std::exit(0);
  }
  state.executable = ExecutablePath(*argc > 0 ? argv[0] : nullptr);
  const Options& options = state.settings.options;
  constexpr std::uint64_t kMaxChunks = 100000;
  if ((options.seeds + options.chunk - 1) / options.chunk > kMaxChunks) {
    std::fprintf(stderr,
                 "simthread: %" PRIu64 " seeds in chunks of %" PRIu64 " would register more than %" PRIu64
                 " tests per SIM_TEST; raise --sim_chunk\n",
                 options.seeds, options.chunk, kMaxChunks);
    std::exit(exit_status::kUsage);
  }
  state.initialized = true;
  for (const SimTestRecord& record : state.records) {
    for (std::uint64_t begin = 0; begin < options.seeds; begin += options.chunk) {
      const SeedChunk chunk{options.first_seed + begin,
                            options.first_seed + std::min(options.seeds, begin + options.chunk)};
      const std::string name = ChunkTestName(record, chunk);
      const std::string value_param = "seeds=[" + std::to_string(chunk.begin) + "," + std::to_string(chunk.end) + ")";
      record.register_chunk(record, chunk, name.c_str(), value_param.c_str());
    }
  }
}

}  // namespace sim

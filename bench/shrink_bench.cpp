// shrink_bench.cpp: how long shrinking a failure takes, as the difference
// between finding it with shrinking on and with shrinking off, side by side.
//
//   BM_SimRunShrink/<example>/<shrink|no_shrink>
//       `sim-run --seeds 1000 --jobs 1 --[no-]shrink -- build/bin/examples/<example>`
//       on the four failing examples of examples/programs. Each iteration is
//       one sim-run, which stops at the first failing seed; shrinking then
//       replays that seed's schedule with preemptions taken out, each replay
//       a process of its own.
//   BM_ExploreShrink/<body>/<shrink|no_shrink>
//       sim::explore(body, {seeds = 1000, shrink = 1 or 0}) in process, on
//       three bodies with bugs of different depths (below).
//
// Every row reports ms per run; bench/plot.py takes shrink - no_shrink of
// the same repetition as the time shrinking took (target: < 1 s each).
// Rows are meant to run with --benchmark_enable_random_interleaving, so
// that a neighbour's load hits both sides of a difference alike.
//
// usage: shrink_bench [--sim-run PATH] [--examples DIR] [benchmark flags]
// Defaults: ../sim-run and ../examples beside this binary's directory.
#include <benchmark/benchmark.h>
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "sim/sim.h"

extern char** environ;

namespace {

using Clock = std::chrono::steady_clock;

std::filesystem::path sim_run_program;
std::filesystem::path examples_dir;

constexpr const char* kFailingExamples[] = {"lazy_registry", "unlocked_counter", "refcount_double_delete",
                                            "abba_deadlock"};

// Runs sim-run on `example`; returns its exit status (1: a failure was
// found), or -1 when it could not be started.
int RunSimRun(const std::string& example, bool shrink) {
  const std::string program = (examples_dir / example).string();
  const std::string sim_run = sim_run_program.string();
  std::vector<std::string> args = {sim_run, "--seeds", "1000", "--jobs", "1", shrink ? "--shrink" : "--no-shrink",
                                   "--",    program};
  std::vector<char*> argv;
  for (std::string& arg : args) argv.push_back(arg.data());
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
  pid_t pid = 0;
  const int error = posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (error != 0) return -1;
  int status = 0;
  if (waitpid(pid, &status, 0) != pid) return -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

void BM_SimRunShrink(benchmark::State& state, const char* example, bool shrink) {
  double total_ms = 0;
  for (auto _ : state) {
    const Clock::time_point start = Clock::now();
    const int status = RunSimRun(example, shrink);
    total_ms += std::chrono::duration<double, std::milli>(Clock::now() - start).count();
    if (status != 1) {
      state.SkipWithError(("sim-run " + std::string(example) + " exited " + std::to_string(status) +
                           ", not 1 (a failure found); is it built (examples/programs)?")
                              .c_str());
      return;
    }
  }
  state.counters["ms_per_run"] = total_ms / static_cast<double>(state.iterations());
}

// --- in-process bodies ----------------------------------------------------

// One preemption: a check and an act in two critical sections.
void CheckThenAct() {
  std::mutex m;
  int balance = 100;
  auto withdraw = [&] {
    bool enough;
    {
      std::lock_guard g(m);
      enough = balance >= 80;
    }
    if (enough) {
      std::lock_guard g(m);
      balance -= 80;
    }
  };
  std::thread a(withdraw), b(withdraw);
  a.join();
  b.join();
  if (balance < 0) sim::fail("overdrawn");
}

// A lost update between three threads doing many locked steps each, so the
// run as found has many preemptions for shrinking to take out.
void LostUpdateAmongThree() {
  std::mutex m;
  int count = 0;
  auto add = [&] {
    for (int i = 0; i < 20; ++i) {
      int seen;
      {
        std::lock_guard g(m);
        seen = count;
      }
      std::lock_guard g(m);
      count = seen + 1;
    }
  };
  std::thread a(add), b(add), c(add);
  a.join();
  b.join();
  c.join();
  if (count != 60) sim::fail("lost an update");
}

// Lock-order inversion: a deadlock.
void LockOrderInversion() {
  std::mutex first, second;
  std::thread a([&] {
    std::lock_guard g1(first);
    std::lock_guard g2(second);
  });
  std::thread b([&] {
    std::lock_guard g2(second);
    std::lock_guard g1(first);
  });
  a.join();
  b.join();
}

void BM_ExploreShrink(benchmark::State& state, void (*body)(), bool shrink) {
  sim::Options options;
  options.races = 0;  // the world's own cost: the detector's has rows of its own (access_bench)
  options.seeds = 1000;
  options.shrink = shrink ? 1 : 0;
  double total_ms = 0;
  std::uint64_t preemptions_before = 0;
  std::uint64_t preemptions_after = 0;
  for (auto _ : state) {
    const Clock::time_point start = Clock::now();
    const std::optional<sim::Report> report = sim::explore(body, options);
    total_ms += std::chrono::duration<double, std::milli>(Clock::now() - start).count();
    if (!report) {
      state.SkipWithError("no failure found in 1,000 seeds");
      return;
    }
    preemptions_before = report->preemptions_before_shrink;
    preemptions_after = report->preemptions;
  }
  state.counters["ms_per_run"] = total_ms / static_cast<double>(state.iterations());
  state.counters["preemptions_found"] = static_cast<double>(preemptions_before);
  state.counters["preemptions_reported"] = static_cast<double>(preemptions_after);
}

}  // namespace

int main(int argc, char** argv) {
  const std::filesystem::path here = std::filesystem::read_symlink("/proc/self/exe").parent_path();
  sim_run_program = here / ".." / "sim-run";
  examples_dir = here / ".." / "examples";
  std::vector<char*> rest{argv[0]};
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--sim-run" && i + 1 < argc) {
      sim_run_program = argv[++i];
    } else if (arg == "--examples" && i + 1 < argc) {
      examples_dir = argv[++i];
    } else {
      rest.push_back(argv[i]);
    }
  }
  int rest_count = static_cast<int>(rest.size());
  for (const char* example : kFailingExamples) {
    for (const bool shrink : {true, false}) {
      benchmark::RegisterBenchmark(
          ("BM_SimRunShrink/" + std::string(example) + (shrink ? "/shrink" : "/no_shrink")).c_str(), BM_SimRunShrink,
          example, shrink)
          ->Iterations(1)
          ->UseRealTime()
          ->Unit(benchmark::kMillisecond);
    }
  }
  const std::pair<const char*, void (*)()> bodies[] = {
      {"check_then_act", CheckThenAct}, {"lost_update_3x20", LostUpdateAmongThree}, {"abba", LockOrderInversion}};
  for (const auto& [name, body] : bodies) {
    for (const bool shrink : {true, false}) {
      benchmark::RegisterBenchmark(
          ("BM_ExploreShrink/" + std::string(name) + (shrink ? "/shrink" : "/no_shrink")).c_str(), BM_ExploreShrink,
          body, shrink)
          ->Iterations(1)
          ->UseRealTime()
          ->Unit(benchmark::kMillisecond);
    }
  }
  benchmark::Initialize(&rest_count, rest.data());
  if (benchmark::ReportUnrecognizedArguments(rest_count, rest.data())) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}

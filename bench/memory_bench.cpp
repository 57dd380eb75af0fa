// memory_bench.cpp: what a world costs in memory, and whether exploring many
// seeds leaks it.
//
//   BM_PeakRss/<how>     peak RSS (wait4's ru_maxrss) of a fresh copy of this
//                        binary that does one thing and exits:
//                          idle           nothing (the floor: binary, libraries, runtime)
//                          real_threads   starts 1,000 std::threads, all alive
//                                         at once (each waits on one std::latch)
//                          world          sim::explore, one seed, of the same
//                                         body: 1,000 simulated threads
//                        counters: peak_rss_kib, and kib_per_thread above idle
//                        (measured in the same repetition).
//   BM_RssOverSeeds      a fresh copy explores 100,000 seeds of a small body
//                        (3 threads, a mutex) and samples VmRSS after 1,000,
//                        10,000 and 100,000 seeds: stacks and TCBs are pooled,
//                        so the RSS should stay flat.
//                        counters: rss_kib_at_1k, _10k, _100k, growth_kib.
//
// Each measurement runs in a child process (this binary re-executed with
// --memory-child=<what>), so that neither Google Benchmark's own state nor
// an earlier row's pools count.
#include <benchmark/benchmark.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <latch>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "sim/sim.h"

extern char** environ;

namespace {

constexpr int kThreadsAlive = 1000;
constexpr std::uint64_t kSeedSamples[] = {1000, 10000, 100000};

// --- what the children do ----------------------------------------------

void ThousandThreadsBody() {
  std::latch all_started(kThreadsAlive);
  std::vector<std::thread> threads;
  threads.reserve(kThreadsAlive);
  for (int i = 0; i < kThreadsAlive; ++i) threads.emplace_back([&] { all_started.arrive_and_wait(); });
  for (std::thread& thread : threads) thread.join();
}

void SmallBody() {
  std::mutex mutex;
  int count = 0;
  auto work = [&] {
    for (int i = 0; i < 4; ++i) {
      std::lock_guard lock(mutex);
      ++count;
    }
  };
  std::thread a(work);
  std::thread b(work);
  std::thread c(work);
  a.join();
  b.join();
  c.join();
}

long VmRssKib() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind("VmRSS:", 0) == 0) return std::strtol(line.c_str() + 6, nullptr, 10);
  }
  return -1;
}

// Runs in the child; prints what the parent parses. Returns the exit status.
int RunChild(const std::string& what) {
  if (what == "idle") return 0;
  if (what == "real_threads") {
    ThousandThreadsBody();
    return 0;
  }
  if (what == "world") {
    sim::Options options;
    options.races = 0;  // the world's own cost: the detector's has rows of its own (access_bench)
    options.seeds = 1;
    const std::optional<sim::Report> report = sim::explore(ThousandThreadsBody, options);
    if (report) {
      std::fprintf(stderr, "memory_bench: the 1,000-thread world failed: %s\n", report->message.c_str());
      return 1;
    }
    return 0;
  }
  if (what == "seeds") {
    sim::Options options;
    options.races = 0;  // the world's own cost: the detector's has rows of its own (access_bench)
    std::uint64_t done = 0;
    for (std::uint64_t sample : kSeedSamples) {
      options.first_seed = done;
      options.seeds = sample - done;
      const std::optional<sim::Report> report = sim::explore(SmallBody, options);
      if (report) {
        std::fprintf(stderr, "memory_bench: the small body failed: %s\n", report->message.c_str());
        return 1;
      }
      done = sample;
      std::printf("%llu %ld\n", static_cast<unsigned long long>(sample), VmRssKib());
    }
    return 0;
  }
  std::fprintf(stderr, "memory_bench: unknown --memory-child=%s\n", what.c_str());
  return 2;
}

// --- the parent: spawning and measuring --------------------------------

struct ChildResult {
  int status = -1;
  long max_rss_kib = 0;
  std::string output;
};

ChildResult SpawnChild(const std::string& what) {
  ChildResult result;
  char output_path[] = "/tmp/memory_bench.XXXXXX";
  const int output_fd = mkstemp(output_path);
  if (output_fd < 0) return result;
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, output_fd, STDOUT_FILENO);
  const std::string flag = "--memory-child=" + what;
  char* argv[] = {const_cast<char*>("/proc/self/exe"), const_cast<char*>(flag.c_str()), nullptr};
  pid_t pid = 0;
  const int error = posix_spawn(&pid, "/proc/self/exe", &actions, nullptr, argv, environ);
  posix_spawn_file_actions_destroy(&actions);
  if (error == 0) {
    rusage usage{};
    int status = 0;
    if (wait4(pid, &status, 0, &usage) == pid) {
      result.status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
      result.max_rss_kib = usage.ru_maxrss;  // Linux: KiB
    }
  }
  std::ifstream output(output_path);
  result.output.assign(std::istreambuf_iterator<char>(output), std::istreambuf_iterator<char>());
  close(output_fd);
  unlink(output_path);
  return result;
}

void BM_PeakRss(benchmark::State& state, const char* what) {
  double peak = 0;
  double idle = 0;
  for (auto _ : state) {
    const ChildResult child = SpawnChild(what);
    const ChildResult floor = SpawnChild("idle");
    if (child.status != 0 || floor.status != 0) {
      state.SkipWithError(
          (std::string("child '") + what + "' exited with status " + std::to_string(child.status)).c_str());
      return;
    }
    peak = static_cast<double>(child.max_rss_kib);
    idle = static_cast<double>(floor.max_rss_kib);
  }
  state.counters["peak_rss_kib"] = peak;
  state.counters["idle_rss_kib"] = idle;
  state.counters["kib_per_thread"] = std::strcmp(what, "idle") == 0 ? 0.0 : (peak - idle) / kThreadsAlive;
}

void BM_RssOverSeeds(benchmark::State& state) {
  for (auto _ : state) {
    const ChildResult child = SpawnChild("seeds");
    if (child.status != 0) {
      state.SkipWithError(("the seeds child exited with status " + std::to_string(child.status)).c_str());
      return;
    }
    unsigned long long seeds = 0;
    long rss = 0;
    long first = -1;
    long last = -1;
    int offset = 0;
    int consumed = 0;
    while (std::sscanf(child.output.c_str() + offset, "%llu %ld%n", &seeds, &rss, &consumed) == 2) {
      offset += consumed;
      const std::string name = "rss_kib_at_" + std::to_string(seeds / 1000) + "k";
      state.counters[name] = static_cast<double>(rss);
      if (first < 0) first = rss;
      last = rss;
    }
    if (first < 0) {
      state.SkipWithError("the seeds child printed no samples");
      return;
    }
    state.counters["growth_kib"] = static_cast<double>(last - first);
    state.counters["peak_rss_kib"] = static_cast<double>(child.max_rss_kib);
  }
}

}  // namespace

BENCHMARK_CAPTURE(BM_PeakRss, idle, "idle")->Iterations(1)->UseRealTime();
BENCHMARK_CAPTURE(BM_PeakRss, real_threads, "real_threads")->Iterations(1)->UseRealTime();
BENCHMARK_CAPTURE(BM_PeakRss, world, "world")->Iterations(1)->UseRealTime();
BENCHMARK(BM_RssOverSeeds)->Iterations(1)->UseRealTime()->Unit(benchmark::kMillisecond);

int main(int argc, char** argv) {
  constexpr char kChildFlag[] = "--memory-child=";
  if (argc == 2 && std::strncmp(argv[1], kChildFlag, sizeof kChildFlag - 1) == 0) {
    return RunChild(argv[1] + sizeof kChildFlag - 1);
  }
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}

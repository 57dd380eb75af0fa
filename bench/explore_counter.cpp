// explore_counter.cpp: executions per second of the scenario the peer
// checkers publish, through sim::explore as a user calls it.
//
// 2 threads x 10 increments of a counter under a std::mutex, checked at the
// end: the counter scenario that Relacy (which runs its own fibers and
// checks data races on its rl::var in the same run) times with its random
// scheduler. Built as a user's test is (sim-clang++ -O2, main its own, so
// -fno-sim-whole-program): every access of the body instrumented, the
// default options but for races and the seed count. executions_bench's
// rows time bench/scenarios.h's loop from an uninstrumented Google
// Benchmark binary; this one is what a user's explore() call pays.
//
//   explore_counter [SEEDS [ROUNDS]]
//
// Runs sim::explore over SEEDS fresh seeds (default 20,000) with races=1
// and races=0 in turn, ROUNDS times (default 5), and prints each one's
// median executions per second, and their ratio.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <thread>
#include <vector>

#include "sim/sim.h"

namespace {

void Counter() {
  std::mutex mutex;
  int count = 0;
  auto work = [&] {
    for (int i = 0; i < 10; ++i) {
      std::lock_guard lock(mutex);
      ++count;
    }
  };
  std::thread first(work);
  std::thread second(work);
  first.join();
  second.join();
  if (count != 20) sim::fail("lost an increment");
}

// Executions per second of one explore() call over `seeds` seeds from `first_seed`.
double ExecutionsPerSecond(int races, std::uint64_t first_seed, std::uint64_t seeds) {
  sim::Options options;
  options.races = races;
  options.first_seed = first_seed;
  options.seeds = seeds;
  const auto start = std::chrono::steady_clock::now();
  if (const std::optional<sim::Report> report = sim::explore(Counter, options)) {
    std::fprintf(stderr, "explore_counter: seed %llu failed: %s\n", static_cast<unsigned long long>(report->seed),
                 report->message.c_str());
    std::exit(1);
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return static_cast<double>(seeds) / seconds;
}

double Median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return values[values.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  const std::uint64_t seeds = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 20000;
  const int rounds = argc > 2 ? std::atoi(argv[2]) : 5;
  if (seeds == 0 || rounds <= 0) {
    std::fprintf(stderr, "usage: explore_counter [SEEDS [ROUNDS]]\n");
    return 2;
  }
  std::vector<double> with_races;
  std::vector<double> without_races;
  for (int round = 0; round < rounds; ++round) {
    // Fresh seeds every round, the same ones for both.
    with_races.push_back(ExecutionsPerSecond(1, round * seeds, seeds));
    without_races.push_back(ExecutionsPerSecond(0, round * seeds, seeds));
  }
  const double racing = Median(with_races);
  const double plain = Median(without_races);
  std::printf("explore_counter: 2 threads x 10 locked increments, %llu seeds, median of %d rounds\n",
              static_cast<unsigned long long>(seeds), rounds);
  std::printf("  races=1 (default): %8.0f executions/s\n", racing);
  std::printf("  races=0:           %8.0f executions/s  (races=1 runs at %.2fx of it)\n", plain, racing / plain);
  return 0;
}

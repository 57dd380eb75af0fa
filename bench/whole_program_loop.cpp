// whole_program_loop.cpp: a histogram loop as a whole program, for what an
// access costs and how much memory a run takes when the program is run as
// users run theirs (SIM_OPTIONS=seed=K ./prog, or sim-run), not inside
// explore() (access_bench.cpp measures that).
//
//   whole_program_loop THREADS ITERATIONS [worker]
//
// Each of THREADS threads (1 or more; with 1, main does the work on its
// own, unless `worker`: then one thread does, while main waits to join it) runs ++histogram[t][bytes[i % 64 KiB]]
// ITERATIONS times: three instrumented accesses per iteration (two loads, a store), on global arrays the pass must
// treat as shared. The threads touch disjoint histograms, so a run passes under any schedule. Built three ways
// (bench/CMakeLists.txt): whole_program_loop (sim-clang++ -O2),
// whole_program_loop_native and whole_program_loop_tsan; timed from
// outside (a world's clock is virtual) by bench/whole_program_access.py,
// which takes the difference between ITERATIONS and 10x ITERATIONS so that
// process start-up cancels out.
#include <cstdio>
#include <cstdlib>
#include <string_view>
#include <thread>
#include <vector>

constexpr unsigned kBytes = 1 << 16;
constexpr unsigned kMaxThreads = 8;
unsigned char bytes[kBytes];
unsigned histogram[kMaxThreads][256];

void Count(unsigned thread, unsigned long iterations) {
  for (unsigned long i = 0; i < iterations; ++i) ++histogram[thread][bytes[i % kBytes]];
}

int main(int argc, char** argv) {
  if (argc != 3 && !(argc == 4 && std::string_view(argv[3]) == "worker")) {
    std::fprintf(stderr, "usage: %s THREADS ITERATIONS [worker]\n", argv[0]);
    return 2;
  }
  const unsigned threads = static_cast<unsigned>(std::strtoul(argv[1], nullptr, 10));
  const unsigned long iterations = std::strtoul(argv[2], nullptr, 10);
  if (threads == 0 || threads > kMaxThreads) {
    std::fprintf(stderr, "THREADS must be 1 to %u\n", kMaxThreads);
    return 2;
  }
  for (unsigned i = 0; i < kBytes; ++i) bytes[i] = static_cast<unsigned char>(i * 2654435761u >> 24);
  if (threads == 1 && argc == 3) {
    Count(0, iterations);
  } else {
    std::vector<std::thread> workers;
    for (unsigned t = 0; t < threads; ++t) workers.emplace_back(Count, t, iterations);
    for (std::thread& worker : workers) worker.join();
  }
  unsigned long total = 0;
  for (unsigned t = 0; t < threads; ++t) {
    for (unsigned value : histogram[t]) total += value;
  }
  // Checked so that the loop cannot be optimised away.
  return total == threads * iterations ? 0 : 1;
}

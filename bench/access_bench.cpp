// access_bench.cpp: what a memory access costs under the pass, next to the
// same loop uninstrumented and under ThreadSanitizer.
//
// This one file is compiled three ways (bench/CMakeLists.txt), because the
// variants differ in the compiler, not in the source:
//   access_bench_native  clang++-19 -O2                  -> (a) rows
//   access_bench_sim     sim-clang++ -O2                 -> (b) rows: no world
//                        -fno-sim-whole-program             (the twin runs)
//                                                        -> (c) rows: inside
//                                                           sim::explore, one
//                                                           simulated thread
//                                                        -> (c') rows: the same
//                                                           beside a second,
//                                                           blocked thread
//                                                        -> (c'') rows: (c')
//                                                           with races=1
//   access_bench_tsan    clang++-19 -O2 -fsanitize=thread -> (d) rows: one real
//                                                           thread
// run_benchmarks.sh runs the three binaries in interleaved rounds, so that
// ratios come from rows measured seconds apart.
//
// The kernels work on global arrays (external linkage, written at setup),
// so the pass instruments every access: nothing is a non-captured alloca or
// a constant. Each kernel reports items_per_second = source-level element
// accesses per second (axpy: 3 per element; histogram: 3; pointer chase: 2
// per step). At -O2 axpy is vectorised before the pass (and TSan) runs, so
// both see one 16-byte access per two elements; the others stay scalar.
//
//   BM_Axpy        z[i] = a * x[i] + y[i] over 3 x 16 MiB of doubles
//   BM_Histogram   ++histogram[bytes[i]] over 16 MiB of bytes
//   BM_PointerChase sum += p->payload; p = p->next over a random cycle of
//                   1 Mi 16-byte nodes (16 MiB), latency-bound
#include <benchmark/benchmark.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <utility>

#if defined(SIM_BENCH_INSTRUMENTED)
#include <mutex>
#include <optional>
#include <thread>

#include "sim/sim.h"
#endif

// Globals with external linkage: the pass must treat every access as shared.
constexpr std::size_t kAxpyElements = std::size_t{2} << 20;  // 16 MiB per array
constexpr std::size_t kHistogramBytes = std::size_t{16} << 20;
constexpr std::size_t kChaseNodes = std::size_t{1} << 20;  // 16 MiB

struct Node {
  Node* next;
  long payload;
};

double bench_x[kAxpyElements];
double bench_y[kAxpyElements];
double bench_z[kAxpyElements];
unsigned char bench_bytes[kHistogramBytes];
unsigned bench_histogram[256];
Node bench_nodes[kChaseNodes];
Node* bench_chase_start;
long bench_chase_sum;
double bench_axpy_factor = 1.5;

namespace {

void Setup() {
  static bool done = false;
  if (done) return;
  done = true;
  std::uint64_t state = 0x9e3779b97f4a7c15u;
  auto next_random = [&state] {  // xorshift64: a fixed, compiler-independent sequence
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return state;
  };
  for (std::size_t i = 0; i < kAxpyElements; ++i) {
    bench_x[i] = static_cast<double>(i & 1023);
    bench_y[i] = static_cast<double>(i & 511);
  }
  for (std::size_t i = 0; i < kHistogramBytes; ++i) bench_bytes[i] = static_cast<unsigned char>(next_random());
  // One cycle through every node in a random order (Sattolo's algorithm).
  static std::size_t order[kChaseNodes];
  for (std::size_t i = 0; i < kChaseNodes; ++i) order[i] = i;
  for (std::size_t i = kChaseNodes - 1; i > 0; --i) {
    const std::size_t j = next_random() % i;
    const std::size_t swap = order[i];
    order[i] = order[j];
    order[j] = swap;
  }
  for (std::size_t i = 0; i < kChaseNodes; ++i) {
    bench_nodes[order[i]].next = &bench_nodes[order[(i + 1) % kChaseNodes]];
    bench_nodes[order[i]].payload = static_cast<long>(i);
  }
  bench_chase_start = &bench_nodes[order[0]];
}

// The kernels are out of line so each chooses instrumented or native body
// once at entry, as a user's function would.
[[gnu::noinline]] void Axpy() {
  const double a = bench_axpy_factor;
  for (std::size_t i = 0; i < kAxpyElements; ++i) bench_z[i] = a * bench_x[i] + bench_y[i];
}

[[gnu::noinline]] void Histogram() {
  for (std::size_t i = 0; i < kHistogramBytes; ++i) ++bench_histogram[bench_bytes[i]];
}

[[gnu::noinline]] void PointerChase() {
  long sum = 0;
  const Node* p = bench_chase_start;
  for (std::size_t i = 0; i < kChaseNodes; ++i) {
    sum += p->payload;
    p = p->next;
  }
  bench_chase_sum = sum;
}

struct Kernel {
  void (*run)();
  std::int64_t accesses;  // source-level element accesses per run
};
constexpr Kernel kAxpy{Axpy, 3 * static_cast<std::int64_t>(kAxpyElements)};
constexpr Kernel kHistogram{Histogram, 3 * static_cast<std::int64_t>(kHistogramBytes)};
constexpr Kernel kPointerChase{PointerChase, 2 * static_cast<std::int64_t>(kChaseNodes)};

// (a), (b), (d): the kernel on the calling (real) thread.
void BM_Direct(benchmark::State& state, Kernel kernel) {
  Setup();
  for (auto _ : state) {
    kernel.run();
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations() * kernel.accesses);
}

#if defined(SIM_BENCH_INSTRUMENTED)
// (c): one execution of a world per iteration whose body runs the kernel on
// T0, the only simulated thread, so every hook is a scheduling point with one
// enabled thread and nothing switches. World setup (a few µs) is inside the
// timed region, amortised over millions of accesses.
void BM_InWorld(benchmark::State& state, Kernel kernel) {
  Setup();
  sim::Options options;
  options.races = 0;  // (c'') measures the detector
  options.seeds = 1;
  options.max_steps = std::uint64_t{1} << 40;  // the default million is one kernel run's worth
  options.shrink = 0;
  for (auto _ : state) {
    const std::optional<sim::Report> report = sim::explore(kernel.run, options);
    if (report) {
      state.SkipWithError(("the execution did not pass: " + report->message).c_str());
      return;
    }
    ++options.first_seed;
  }
  state.SetItemsProcessed(state.iterations() * kernel.accesses);
}

// (c'): as (c), but a second simulated thread is alive, blocked on a mutex T0
// holds, for the whole kernel. T0 is then never alone: every access is a full
// scheduling point (hashed, recorded, the enabled threads polled), with one
// enabled thread and so still no switch. The waiter blocks within the first
// few points of a seed, against millions of accesses. (c''): the same with
// the race detector on (races=1): what it adds to an access while threads
// run, against TSan's (d).
void BM_InWorldBesideBlockedThread(benchmark::State& state, Kernel kernel, bool races) {
  Setup();
  static void (*run)() = nullptr;
  run = kernel.run;
  sim::Options options;
  options.races = races ? 1 : 0;
  options.seeds = 1;
  options.max_steps = std::uint64_t{1} << 40;
  options.shrink = 0;
  for (auto _ : state) {
    const std::optional<sim::Report> report = sim::explore(
        [] {
          std::mutex held;
          held.lock();
          std::thread waiter([&held] {
            held.lock();
            held.unlock();
          });
          run();
          held.unlock();
          waiter.join();
        },
        options);
    if (report) {
      state.SkipWithError(("the execution did not pass: " + report->message).c_str());
      return;
    }
    ++options.first_seed;
  }
  state.SetItemsProcessed(state.iterations() * kernel.accesses);
}
#endif

#if defined(SIM_BENCH_INSTRUMENTED)
constexpr const char* kDirectVariant = "instrumented_no_world";
#elif defined(SIM_BENCH_TSAN)  // clang 19 has no __SANITIZE_THREAD__; CMake defines this
constexpr const char* kDirectVariant = "tsan";
#else
constexpr const char* kDirectVariant = "native";
#endif

void Register() {
  const std::pair<const char*, Kernel> kernels[] = {
      {"axpy", kAxpy}, {"histogram", kHistogram}, {"pointer_chase", kPointerChase}};
  for (const auto& [name, kernel] : kernels) {
    benchmark::RegisterBenchmark((std::string("BM_Access/") + name + "/" + kDirectVariant).c_str(), BM_Direct, kernel)
        ->Unit(benchmark::kMillisecond)
        ->MinTime(0.3)
        ->UseRealTime();
#if defined(SIM_BENCH_INSTRUMENTED)
    benchmark::RegisterBenchmark((std::string("BM_Access/") + name + "/instrumented_in_world").c_str(), BM_InWorld,
                                 kernel)
        ->Unit(benchmark::kMillisecond)
        ->MinTime(0.3)
        ->UseRealTime();
    for (const bool races : {false, true}) {
      benchmark::RegisterBenchmark(
          (std::string("BM_Access/") + name + "/instrumented_in_world_beside_blocked_thread" + (races ? "_races" : ""))
              .c_str(),
          BM_InWorldBesideBlockedThread, kernel, races)
          ->Unit(benchmark::kMillisecond)
          ->MinTime(0.3)
          ->UseRealTime();
    }
#endif
  }
}

}  // namespace

int main(int argc, char** argv) {
  Register();
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}

// switch_bench.cpp: what one thread switch costs, side by side in one run.
//
//   BM_RawFcontextSwitch          jump_fcontext ping-pong between two contexts:
//                                 the floor a fiber runtime cannot go below.
//   BM_RawFcontextSwitchWrfsbase  the same plus one wrfsbase per switch, as the
//                                 runtime does to point FS at the next TCB.
//   BM_RawSimSwitchStacks         the same ping-pong (with wrfsbase) through
//                                 the runtime's own sim_switch_stacks
//                                 (runtime/core/fiber_switch.h), which replaced
//                                 jump_fcontext in the runtime; both sides
//                                 switch from one function, as in the runtime.
//   BM_Raw*Nested                 both routines with the switch called
//                                 kNestedCalls non-inlined calls deep, from the
//                                 same function on both sides, as the runtime
//                                 called it until e15673c (hook ->
//                                 AccessSchedulingPoint -> Reschedule ->
//                                 SwitchTo): what returning through
//                                 `jmp *%r8` instead of `ret` costs the
//                                 returns above the switch.
//   BM_RawSimSwitchStacksSameLoop
//                                 sim_switch_stacks called as deep as the
//                                 runtime calls it now, with both sides in one
//                                 loop function, as simulated threads are: no
//                                 return mispredicts; the floor under (b).
//   BM_SimSwitchAlternating       two simulated threads, each calling the
//                                 scheduling-point hook N times, under a replay
//                                 schedule that alternates them, so every
//                                 scheduling point in the ping-pong is a switch.
//   BM_SimSwitchAlternatingIn/tls_<mode>
//                                 the same under tls_switch=<mode>
//                                 (runtime/core/thread_local_switch.h): what
//                                 each way of switching thread-local state
//                                 costs (the unsuffixed row runs auto).
//   BM_SimSwitchRandom            the same body under strategy=random: about
//                                 half of the points switch; reports ns per
//                                 point and per counted switch.
//   BM_SimSwitchSchedYield        BM_SimSwitchAlternating through the
//                                 sched_yield() interceptor instead of the hook
//                                 (skipped while sched_yield is not intercepted).
//   BM_OsThreadHandoff            two std::threads handing a turn back and forth
//                                 through std::mutex + std::condition_variable.
//
// Every row reports its cost per switch in the counter ns_per_switch,
// measured with steady_clock around the timed work (setup outside worlds is
// not timed; world setup is, and is amortised over N switches). Switches
// between simulated threads are counted by the threads themselves, never
// inferred. bench/plot.py turns the JSON into docs/performance.md.
#include <benchmark/benchmark.h>
#include <sched.h>
#include <sys/auxv.h>

#include <boost/context/detail/fcontext.hpp>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "core/fiber_switch.h"
#include "sim/sim.h"
#include "sim/sim_interface.h"
#include "strategy/schedule.h"

namespace {

namespace ctx = boost::context::detail;
using Clock = std::chrono::steady_clock;

double NanosecondsSince(Clock::time_point start) {
  return std::chrono::duration<double, std::nano>(Clock::now() - start).count();
}

// Reports the accumulated cost per switch.
void ReportPerSwitch(benchmark::State& state, double total_ns, double switches) {
  state.counters["ns_per_switch"] = switches > 0 ? total_ns / switches : 0.0;
  state.counters["switches"] = switches;
}

// --- (a) raw Boost.Context switches --------------------------------------

constexpr int kRoundTripsPerBatch = 1000;  // 2000 switches per benchmark iteration
bool raw_switch_writes_fs = false;

void* CurrentThreadPointer() {
  void* self;
  asm volatile("mov %%fs:0, %0" : "=r"(self));
  return self;
}

// Rewrites the FS base with the value it already has: the same instruction
// the runtime issues per switch, without changing which TCB is current.
inline void WriteFsBase() {
  void* thread_pointer = CurrentThreadPointer();
  asm volatile("wrfsbase %0" ::"r"(thread_pointer) : "memory");
}

void PartnerContext(ctx::transfer_t from) {
  for (;;) {
    if (raw_switch_writes_fs) WriteFsBase();
    from = ctx::jump_fcontext(from.fctx, nullptr);
  }
}

void RawSwitch(benchmark::State& state, bool with_wrfsbase) {
  if (with_wrfsbase && (getauxval(AT_HWCAP2) & 2) == 0) {
    state.SkipWithError("no FSGSBASE (AT_HWCAP2 bit 1): the runtime uses arch_prctl here instead");
    return;
  }
  raw_switch_writes_fs = with_wrfsbase;
  constexpr std::size_t kStackBytes = 64 * 1024;
  auto stack = std::make_unique<char[]>(kStackBytes);
  ctx::fcontext_t partner = ctx::make_fcontext(stack.get() + kStackBytes, kStackBytes, PartnerContext);
  double total_ns = 0;
  double switches = 0;
  for (auto _ : state) {
    const Clock::time_point start = Clock::now();
    for (int i = 0; i < kRoundTripsPerBatch; ++i) {
      if (with_wrfsbase) WriteFsBase();
      partner = ctx::jump_fcontext(partner, nullptr).fctx;
    }
    total_ns += NanosecondsSince(start);
    switches += 2 * kRoundTripsPerBatch;
  }
  // The partner is parked inside jump_fcontext and is simply dropped.
  ReportPerSwitch(state, total_ns, switches);
}

// --- the same, kNestedCalls calls deep -------------------------------------
//
// Both sides switch from the same function, as every simulated thread
// switches from its scheduling point: the return addresses above the switch are
// then the same on both sides, which a return-stack buffer can predict if
// the switch itself pops what its call pushed (`ret`), and cannot after
// `jmp *%r8`.

constexpr int kNestedCalls = 4;
// The runtime's depth since e15673c: the hook tail-calls
// World::AccessSchedulingPoint, which calls the switch from its own frame,
// as the loop's call of Nested*Switch(0) does.
constexpr int kRuntimeSwitchDepth = 0;
int symmetric_depth = 0;                  // how deep both sides call the switch
ctx::fcontext_t fcontext_peer = nullptr;  // the suspended side, either one
sim::internal::FiberStackPointer own_fibers[2] = {nullptr, nullptr};
int own_running = 0;  // which of own_fibers is running

__attribute__((noinline)) void NestedFcontextSwitch(int depth) {
  if (depth > 0) {
    NestedFcontextSwitch(depth - 1);
    asm volatile("" ::: "memory");  // not a tail call
    return;
  }
  WriteFsBase();
  fcontext_peer = ctx::jump_fcontext(fcontext_peer, nullptr).fctx;
}

__attribute__((noinline)) void NestedOwnSwitch(int depth) {
  if (depth > 0) {
    NestedOwnSwitch(depth - 1);
    asm volatile("" ::: "memory");
    return;
  }
  WriteFsBase();
  const int self = own_running;
  own_running = 1 - self;
  sim_switch_stacks(&own_fibers[self], own_fibers[1 - self]);
}

// Both sides switching from inside the same loop function as well: the
// return into the loop is then the same on both sides too, as it is for
// simulated threads that all reach their points from one function (the
// rows above return into the benchmark's loop on one side and the partner's
// on the other, a misprediction per switch). The floor for (b).
__attribute__((noinline)) void NestedOwnSwitchLoop(std::int64_t round_trips) {
  for (std::int64_t i = 0; i < round_trips; ++i) {
    NestedOwnSwitch(symmetric_depth);
    asm volatile("" ::: "memory");
  }
}

void NestedFcontextPartner(ctx::transfer_t from) {
  fcontext_peer = from.fctx;
  for (;;) NestedFcontextSwitch(symmetric_depth);
}

void NestedOwnPartner() {
  for (;;) NestedOwnSwitch(symmetric_depth);
}

void NestedOwnLoopPartner() {
  for (;;) NestedOwnSwitchLoop(INT64_MAX);
}

enum class SwitchRoutine { kFcontext, kSimSwitchStacks, kSimSwitchStacksSameLoop };

void RawSymmetric(benchmark::State& state, SwitchRoutine routine, int depth) {
  if ((getauxval(AT_HWCAP2) & 2) == 0) {
    state.SkipWithError("no FSGSBASE (AT_HWCAP2 bit 1): the runtime uses arch_prctl here instead");
    return;
  }
  symmetric_depth = depth;
  constexpr std::size_t kStackBytes = 64 * 1024;
  auto stack = std::make_unique<char[]>(kStackBytes);
  if (routine == SwitchRoutine::kFcontext) {
    fcontext_peer = ctx::make_fcontext(stack.get() + kStackBytes, kStackBytes, NestedFcontextPartner);
  } else {
    own_running = 0;
    own_fibers[1] = sim::internal::MakeFiber(
        stack.get(), kStackBytes,
        routine == SwitchRoutine::kSimSwitchStacksSameLoop ? NestedOwnLoopPartner : NestedOwnPartner);
  }
  double total_ns = 0;
  double switches = 0;
  for (auto _ : state) {
    const Clock::time_point start = Clock::now();
    if (routine == SwitchRoutine::kSimSwitchStacksSameLoop) {
      NestedOwnSwitchLoop(kRoundTripsPerBatch);
    } else {
      for (int i = 0; i < kRoundTripsPerBatch; ++i) {
        if (routine == SwitchRoutine::kFcontext) {
          NestedFcontextSwitch(depth);
        } else {
          NestedOwnSwitch(depth);
        }
      }
    }
    total_ns += NanosecondsSince(start);
    switches += 2 * kRoundTripsPerBatch;
  }
  ReportPerSwitch(state, total_ns, switches);
}

void BM_RawSimSwitchStacks(benchmark::State& state) { RawSymmetric(state, SwitchRoutine::kSimSwitchStacks, 0); }
void BM_RawFcontextSwitchNested(benchmark::State& state) {
  RawSymmetric(state, SwitchRoutine::kFcontext, kNestedCalls);
}
void BM_RawSimSwitchStacksNested(benchmark::State& state) {
  RawSymmetric(state, SwitchRoutine::kSimSwitchStacks, kNestedCalls);
}

void BM_RawSimSwitchStacksSameLoop(benchmark::State& state) {
  RawSymmetric(state, SwitchRoutine::kSimSwitchStacksSameLoop, kRuntimeSwitchDepth);
}

void BM_RawFcontextSwitch(benchmark::State& state) { RawSwitch(state, false); }
void BM_RawFcontextSwitchWrfsbase(benchmark::State& state) { RawSwitch(state, true); }

// --- (b) switches between simulated threads -----------------------------

// Plain globals: the FS base changes under thread-local storage.
std::uint64_t switch_count = 0;
int last_runner = 0;  // 1 or 2: which ping-pong thread ran last
int shared_word = 0;
enum class PointKind { kHook, kSchedYield };
PointKind point_kind = PointKind::kHook;

constexpr __sim_site kBenchSite = {"switch_bench.cpp", "PingPong", 1, 1, 0x5c17e5c17e5c17eULL};

// N scheduling points, counting every time this thread got the CPU back from
// the other ping-pong thread.
void PingPong(int self, std::int64_t points) {
  for (std::int64_t i = 0; i < points; ++i) {
    if (point_kind == PointKind::kHook) {
      // What code built with sim-clang++ calls before an atomic load.
      __sim_atomic32_load(&shared_word, __ATOMIC_SEQ_CST, &kBenchSite);
    } else {
      sched_yield();
    }
    if (last_runner != self) {
      ++switch_count;
      last_runner = self;
    }
  }
}

void PingPongBody(std::int64_t points) {
  std::thread a(PingPong, 1, points);
  std::thread b(PingPong, 2, points);
  a.join();
  b.join();
}

// S1 schedule text (runtime/strategy/schedule.h, format version 1) for PingPongBody
// where T1 and T2 alternate at every point:
//   T0 continues after creating T1, after creating T2 and at join(T1); T0
//   blocks, T1 runs; then every point of T1 chooses T2 and vice versa; when
//   T1 exits, T2 runs its exit; T0's joins then have no other thread enabled.
std::string AlternatingSchedule(std::int64_t points) {
  std::vector<std::uint32_t> decisions = {0, 0, 0, 1};
  for (std::int64_t i = 0; i < points; ++i) {
    decisions.push_back(2);
    decisions.push_back(1);
  }
  decisions.push_back(2);
  return sim::internal::EncodeSchedule(decisions);
}

// state.range(0): scheduling points per ping-pong thread per execution.
// Each benchmark iteration explores kSeedsPerIteration executions, so that
// explore()'s one-off work (parsing the replay schedule: about 1 ns per
// decision) is amortised below 1% of the measured time.
constexpr std::uint64_t kSeedsPerIteration = 16;

void SimSwitch(benchmark::State& state, const std::string& strategy, PointKind kind, const char* tls_switch = "auto") {
  if (std::string_view(tls_switch) == "wrfsbase" && (getauxval(AT_HWCAP2) & 2) == 0) {
    state.SkipWithError("tls_switch=wrfsbase: no FSGSBASE (AT_HWCAP2 bit 1) on this machine");
    return;
  }
  const std::int64_t points = state.range(0);
  point_kind = kind;
  sim::Options options;
  options.races = 0;  // the world's own cost: the detector's has rows of its own (access_bench)
  options.strategy = strategy;
  options.tls_switch = tls_switch;
  options.seeds = kSeedsPerIteration;
  options.max_steps = 4 * static_cast<std::uint64_t>(points) + 1000;
  double total_ns = 0;
  double switches = 0;
  double scheduling_points = 0;
  for (auto _ : state) {
    switch_count = 0;
    last_runner = 0;
    std::optional<sim::Report> report;
    const Clock::time_point start = Clock::now();
    try {
      report = sim::explore([points] { PingPongBody(points); }, options);
    } catch (const std::exception& error) {
      // A replay that does not fit: for sched_yield, because this runtime
      // does not make it a scheduling point yet.
      const std::string prefix = kind == PointKind::kSchedYield ? "sched_yield is not a scheduling point here: " : "";
      state.SkipWithError((prefix + error.what()).c_str());
      return;
    }
    total_ns += NanosecondsSince(start);
    if (report) {
      state.SkipWithError(("execution did not pass: " + report->message).c_str());
      return;
    }
    if (switch_count == 0) {
      state.SkipWithError("no switch happened: this runtime does not make sched_yield a scheduling point yet");
      return;
    }
    switches += static_cast<double>(switch_count);
    scheduling_points += 2.0 * static_cast<double>(points) * kSeedsPerIteration;
  }
  ReportPerSwitch(state, total_ns, switches);
  state.counters["ns_per_point"] = total_ns / scheduling_points;
  state.counters["switches_per_point"] = switches / scheduling_points;
}

void BM_SimSwitchAlternating(benchmark::State& state) {
  SimSwitch(state, "replay:" + AlternatingSchedule(state.range(0)), PointKind::kHook);
}
void BM_SimSwitchAlternatingIn(benchmark::State& state, const char* tls_switch) {
  SimSwitch(state, "replay:" + AlternatingSchedule(state.range(0)), PointKind::kHook, tls_switch);
}
void BM_SimSwitchRandom(benchmark::State& state) { SimSwitch(state, "random", PointKind::kHook); }
void BM_SimSwitchSchedYield(benchmark::State& state) {
  SimSwitch(state, "replay:" + AlternatingSchedule(state.range(0)), PointKind::kSchedYield);
}

// --- (c) OS threads: a turn handed back and forth -------------------------

void BM_OsThreadHandoff(benchmark::State& state) {
  std::mutex mutex;
  std::condition_variable turn_changed;
  int turn = 0;  // 0: the benchmark thread's turn, 1: the partner's, -1: stop
  std::thread partner([&] {
    std::unique_lock lock(mutex);
    for (;;) {
      turn_changed.wait(lock, [&] { return turn != 0; });
      if (turn < 0) return;
      turn = 0;
      turn_changed.notify_one();
    }
  });
  constexpr int kRoundTrips = 200;
  double total_ns = 0;
  double switches = 0;
  for (auto _ : state) {
    const Clock::time_point start = Clock::now();
    std::unique_lock lock(mutex);
    for (int i = 0; i < kRoundTrips; ++i) {
      turn = 1;
      turn_changed.notify_one();
      turn_changed.wait(lock, [&] { return turn == 0; });
    }
    lock.unlock();
    total_ns += NanosecondsSince(start);
    switches += 2 * kRoundTrips;
  }
  {
    std::lock_guard lock(mutex);
    turn = -1;
  }
  turn_changed.notify_one();
  partner.join();
  ReportPerSwitch(state, total_ns, switches);
}

}  // namespace

BENCHMARK(BM_RawFcontextSwitch)->UseRealTime();
BENCHMARK(BM_RawFcontextSwitchWrfsbase)->UseRealTime();
BENCHMARK(BM_RawSimSwitchStacks)->UseRealTime();
BENCHMARK(BM_RawFcontextSwitchNested)->UseRealTime();
BENCHMARK(BM_RawSimSwitchStacksNested)->UseRealTime();
BENCHMARK(BM_RawSimSwitchStacksSameLoop)->UseRealTime();
BENCHMARK(BM_SimSwitchAlternating)->Arg(20000)->Arg(2000)->UseRealTime();
BENCHMARK_CAPTURE(BM_SimSwitchAlternatingIn, tls_lazy, "lazy")->Arg(20000)->UseRealTime();
BENCHMARK_CAPTURE(BM_SimSwitchAlternatingIn, tls_wrfsbase, "wrfsbase")->Arg(20000)->UseRealTime();
BENCHMARK_CAPTURE(BM_SimSwitchAlternatingIn, tls_syscall, "syscall")->Arg(20000)->UseRealTime();
BENCHMARK(BM_SimSwitchRandom)->Arg(20000)->UseRealTime();
BENCHMARK(BM_SimSwitchSchedYield)->Arg(20000)->UseRealTime();
BENCHMARK(BM_OsThreadHandoff)->UseRealTime();

BENCHMARK_MAIN();

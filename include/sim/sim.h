// sim.h: the public API of simthread.
//
// explore() runs a callable in many worlds, one per seed. In a world every
// thread the callable starts (std::thread, std::jthread, std::async,
// pthread_create) is a fiber on the calling OS thread, and a seeded strategy
// decides which thread runs at every scheduling point: every intercepted
// synchronisation call (mutexes, condition variables, futexes, sleeps, ...)
// and, in code compiled with sim-clang++, every shared memory access. The
// same seed gives the same interleaving, the same trace hash and the same
// failure, every time.
//
// Outside a world (no explore() running, or a real OS thread) everything here
// and every interceptor passes straight through to the real primitives.
#ifndef SIM_SIM_H_
#define SIM_SIM_H_

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sim {

// How explore() chooses and runs executions. Every field can also be set in
// the SIM_OPTIONS environment variable (key=value pairs separated by ':',
// ',' or spaces; `SIM_OPTIONS=help=1` lists them), which overrides the value
// given in code. `seed=N` is shorthand for first_seed=N, seeds=1.
struct Options {
#define SIM_OPTION_TYPE_uint64 std::uint64_t
#define SIM_OPTION_TYPE_string std::string
#define SIM_OPTION(type, name, default_value, help) SIM_OPTION_TYPE_##type name = default_value;
#include "sim/options.inc"
#undef SIM_OPTION
#undef SIM_OPTION_TYPE_uint64
#undef SIM_OPTION_TYPE_string
};

// How an execution ended.
enum class Verdict {
  kPass,
  kFailure,            // sim::fail(), or a test assertion in any simulated thread
  kUncaughtException,  // an exception escaped a simulated thread
  kDeadlock,           // no thread can ever run again
  kStepLimit,          // Options::max_steps scheduling points: a livelock or spin loop
  kCrash,              // a fatal signal, abort() or a failed assert()
  kUnsupported,        // an operation a world cannot model (fork, pthread_cancel, ...)
};

// "pass", "failure", "uncaught exception", "deadlock", "step limit", "crash",
// "unsupported operation".
std::string_view to_string(Verdict verdict);

// What explore() found at the first failing seed.
struct Report {
  std::uint64_t seed = 0;          // the failing seed
  std::uint64_t seeds_passed = 0;  // seeds that passed before it
  Verdict verdict = Verdict::kPass;
  std::string message;             // what failed, where
  std::string schedule;            // the decision list; strategy "replay:<schedule>" replays it
  std::uint64_t trace_hash = 0;    // identical for identical executions
  std::uint64_t step = 0;          // scheduling points executed when it ended
  std::uint64_t preemptions = 0;   // choice points that switched away from a runnable thread
  std::vector<std::string> threads;      // each thread at the end: state, what it waits on, where
  std::vector<std::string> last_events;  // the last trace events, oldest first
  std::string replay;              // a command that replays the failure

  // The report block: header, message, threads, last events, trace hash,
  // replay command and SUMMARY line (docs/report-format.md).
  std::string render() const;
};

// Runs `body` in a fresh world for every seed in [first_seed, first_seed +
// seeds) (after applying SIM_OPTIONS) and returns the report of the first
// seed whose execution did not pass, or nullopt when all passed.
// Throws std::invalid_argument for a malformed option, and
// std::runtime_error when a replayed schedule does not fit the program.
// Precondition: not called from inside a world.
std::optional<Report> explore(std::function<void()> body, const Options& options = {});

// Ends the current execution with Verdict::kFailure and `message`. Callable
// from any simulated thread; outside a world it prints the message and aborts.
[[noreturn]] void fail(std::string_view message);

// True on a simulated thread of a running world.
bool active();

}  // namespace sim

#endif  // SIM_SIM_H_

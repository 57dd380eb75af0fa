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

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sim/internal/site_hash.h"
#include "sim/sim_interface.h"

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
  kStepLimit,          // Options::max_steps scheduling points with other threads alive, no cycle seen
  kLivelock,           // threads going round a cycle that leaves memory and the clock as they were
  kCrash,              // a fatal signal, abort() or a failed assert()
  kUnsupported,        // an operation a world cannot model (fork, pthread_cancel, ...)
  kNondeterministic,   // check_determinism: the same schedule gave a different execution
  kDataRace,           // races=1: two accesses to a byte, one a write, neither ordered before the other
};

// "pass", "failure", "uncaught exception", "deadlock", "step limit", "livelock", "crash",
// "unsupported operation", "nondeterministic", "data race".
std::string_view to_string(Verdict verdict);

// What explore() found at the first failing seed.
struct Report {
  std::uint64_t seed = 0;          // the failing seed
  std::uint64_t seeds_passed = 0;  // seeds that passed before it
  Verdict verdict = Verdict::kPass;
  std::string message;  // what failed, where
  // A data race (Options::race_flips): whether running its two accesses
  // the other way round made an execution fail, and that execution's replay
  // command when one did.
  std::string race_flipped;
  std::string race_flipped_schedule;  // the failing flipped execution's schedule (replayed without races)
  std::string race_flipped_replay;
  std::string schedule;           // the decision list, shrunk (Options::shrink); "replay:<schedule>" replays it
  std::uint64_t trace_hash = 0;   // identical for identical executions
  std::uint64_t step = 0;         // scheduling points executed when it ended
  std::uint64_t preemptions = 0;  // in `schedule`: switches away from a thread that could go on
  std::uint64_t preemptions_before_shrink = 0;  // in the run as found, before shrinking
  // Set when shrinking could not prove `preemptions` the fewest (its budget
  // ran out, or the program did not repeat itself): no schedule with fewer
  // than this many preemptions fails so; unset when it is the minimum, or
  // shrinking was off.
  std::optional<std::uint64_t> minimum_at_least;
  std::uint64_t shrink_candidates = 0;   // executions shrinking tried (at most Options::shrink_candidates)
  std::string shrink_stopped;            // why shrinking stopped before it was done, as the report's line, or empty
  std::vector<std::string> story;        // the preemptions of `schedule` in source terms
  std::string diff;                      // where it departs from the first passing seed (Options::diff), or empty
  std::vector<std::string> threads;      // each thread at the end: state, what it waits on, where
  std::vector<std::string> last_events;  // the last trace events at user sites, oldest first
  std::uint64_t events_left_out = 0;     // recent events in library code (libstdc++, libc, gtest) not listed
  std::string replay;                    // a command that replays the failure
  std::string strategy;                  // the strategy spec that runs `seed` alone as it ran here (pct:D:K
                                         // once pct's estimate of the execution length moved)
  // The same for the same failure whatever the schedule (its kind and where:
  // a data race's pair of sites): a sweep counts its seeds by it.
  std::uint64_t failure_signature = 0;

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

// --- Gates: named points in production code that a test can hold open ---
//
// SIM_GATE("registry.build") marks a window (e.g. between a check and the
// act that depends on it). Outside simulation it costs one predictable
// branch. Inside a world it is a scheduling point named in the trace, and a
// held gate parks every thread that reaches it. `sim-clang++
// -fsim-gate=Qualified::name` makes a function's entry a gate with that name.

// The function form of SIM_GATE, for call sites that prefer no macro.
void gate(const char* name);

// Holds a gate for a test: every thread that reaches it parks there until
// release() (or the Gate's destruction). Inside a world (a SIM_TEST or
// explore body) waiting needs no timeout: an arrival that can never happen
// ends the execution with Verdict::kDeadlock naming the gate. Outside a world
// (real threads) the same calls work with a mutex and condition variable,
// and await_arrivals gives up after `timeout` with std::runtime_error.
class Gate {
 public:
  // Precondition: no other Gate holds `name` in this world (or, outside
  // worlds, in this process).
  static Gate hold(std::string_view name);

  Gate(Gate&& other) noexcept;
  Gate& operator=(Gate&&) = delete;
  ~Gate();  // releases

  // Returns once `count` threads have reached the gate since hold().
  void await_arrivals(std::size_t count, std::chrono::milliseconds timeout = std::chrono::seconds(5));
  // Lets the parked threads and every later arrival through.
  void release();
  // Threads that reached the gate since hold().
  std::size_t arrivals() const;

 private:
  explicit Gate(std::string name);
  std::string name_;
  bool released_ = false;
};

}  // namespace sim

#define SIM_GATE(name)                                                                         \
  do {                                                                                         \
    static const ::__sim_site sim_gate_site_{__FILE__, __func__, __LINE__, 0,                  \
                                             ::sim::internal::SiteHash(__FILE__, __LINE__)};   \
    if (__builtin_expect(::__sim_world_active != 0, 0)) ::__sim_gate((name), &sim_gate_site_); \
  } while (0)

#endif  // SIM_SIM_H_

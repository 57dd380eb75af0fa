// progress_watch.h: tells a livelock from long honest work.
//
// Counting scheduling points cannot: a sort of a million ints before the
// first thread starts takes tens of millions of points, and a thread
// spinning on a flag that a finished thread will never set takes as many.
// What differs is the state. A spinning thread (or two threads yielding to
// each other politely) goes round a cycle: it touches the same few words and
// leaves them, and the clock, as they were. Honest work touches new memory
// or changes it.
//
// So the world watches a stretch of points every Options::livelock_steps:
// the watch collects the 8-byte words the points touched, and at the end of
// each window of points hashes their contents and the virtual clock. More
// words than a spin loop touches, or a window ending without the state of
// an earlier one, is progress: the watch ends and the count starts again.
// The same state at the end of two windows, with no new word touched in
// between, is a cycle that nothing outside it can break: a livelock.
//
// What it cannot see: memory only uninstrumented code changes, and state in
// registers (a loop counter the pass never sees). A loop that stores the
// same value a million times over in a word it does nothing else with looks
// like a spin; livelock_steps=0 turns the watch off for such a program, and
// the step limit (max_steps) still ends an execution that never does.
//
// The world owns the watch; it never switches threads or touches TLS.
#ifndef SIM_RUNTIME_PROGRESS_WATCH_H_
#define SIM_RUNTIME_PROGRESS_WATCH_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace sim::internal {

class ProgressWatch {
 public:
  enum class Verdict { kWatching, kProgress, kLivelock };

  // Starts a watch at scheduling point `step`.
  void Begin(std::uint64_t step);
  bool watching() const { return watching_; }

  // One scheduling point of thread `thread` touching `object` (null: a
  // point with no memory of its own, such as a yield), with the clock at
  // `now_ns`. Ends the watch unless it returns kWatching.
  Verdict Observe(std::uint32_t thread, const void* object, std::uint64_t now_ns);

  // For the verdict's message: the threads that took points in the cycle,
  // and how many words it went round.
  const std::vector<std::uint32_t>& threads_in_cycle() const { return threads_; }
  std::size_t words_in_cycle() const { return words_.size(); }
  std::uint64_t cycle_started_at() const { return cycle_start_step_; }

  // More words than this in a watch is progress. A spin loop reads a flag
  // or two and maybe writes a lock word; honest work walks through memory.
  static constexpr std::size_t kMaxCycleWords = 64;
  // Points between two looks at the state, and looks before the watch
  // gives up on finding a cycle (a state that keeps changing is progress).
  static constexpr std::uint64_t kWindowPoints = 1024;
  static constexpr std::size_t kMaxWindows = 16;

 private:
  // Hashes the words' contents and the clock into `hash`; false when a word
  // cannot be read (freed and unmapped since), which counts as a change.
  bool HashState(std::uint64_t now_ns, std::uint64_t& hash) const;

  bool watching_ = false;
  std::uint64_t window_points_ = 0;
  std::uint64_t cycle_start_step_ = 0;
  std::vector<std::uintptr_t> words_;  // distinct, in the order first touched
  std::size_t words_at_last_look_ = 0;
  std::vector<std::uint64_t> states_;  // the state hashed at the end of each window since a new word
  std::size_t windows_ = 0;
  std::vector<std::uint32_t> threads_;  // distinct, in the order they first took a point
};

}  // namespace sim::internal

#endif  // SIM_RUNTIME_PROGRESS_WATCH_H_

// crash_guard.h: turns fatal signals and std::terminate on a simulated
// thread into a verdict, for as long as a CrashGuard lives.
//
// A fatal signal (SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT; a stack overflow
// into a guard page included, on an alternate signal stack) ends the
// execution with Verdict::kCrash; std::terminate with a current exception
// ends it with kUncaughtException. On a real thread, the previous handlers
// run. The process may not be fully sane after a fault (memory corruption,
// libc locks taken by the dying code): its outcome is process_suspect, and
// explore() reports it as found and stops. A signal the world simulated
// (raise(SIGABRT) on a simulated thread) reaches the handler without a
// context and is a crash of a sound process, as abort() and a failed
// assert() are (interceptors/process.cpp). A crash inside libc itself (glibc aborting on a double free, a fault inside
// malloc) may hold the heap's lock, so no report can be built with the heap:
// a short one is written with write(2) from static buffers, and the process
// dies by the signal; unless a LibcFaultHandler takes it over, with only the
// runtime's own heap (core/runtime_heap.h), which the fault cannot hold.
#ifndef SIM_RUNTIME_CRASH_GUARD_H_
#define SIM_RUNTIME_CRASH_GUARD_H_

#include <signal.h>

#include <cstdint>
#include <exception>
#include <string>

namespace sim::internal {

class World;

class CrashGuard {
 public:
  // `replay_before_seed` + seed + `replay_after_seed` is the replay command
  // printed when a crash leaves the heap unusable (see OnCrashSignal).
  // A non-empty `report_json` gets a JSON report of such a crash too.
  CrashGuard(std::string replay_before_seed = "", std::string replay_after_seed = "", std::string report_json = "");
  ~CrashGuard();
  CrashGuard(const CrashGuard&) = delete;
  CrashGuard& operator=(const CrashGuard&) = delete;

  // A crash ended the execution from inside a signal handler, which never
  // returned: unblock the signal again on this OS thread.
  static void AfterCrash();

  // The seed of the execution about to run (for the short crash report).
  static void SetSeed(std::uint64_t seed);
  // Replaces the replay command around the seed, for a strategy whose replay
  // spec moved between seeds (pct's estimate).
  static void SetReplayCommand(const std::string& replay_before_seed, const std::string& replay_after_seed);

  // Called for a crash inside libc on a simulated thread, in the signal
  // handler, when the runtime has a heap of its own; when it returns, the
  // short report is written and the process dies as without it. It may not
  // call into libc's heap (the faulting call may hold its lock).
  using LibcFaultHandler = void (*)(int signal_number, World& world);
  static void SetLibcFaultHandler(LibcFaultHandler handler);
  // The short report's text, with the preemptions and (when decisions were
  // kept) the schedule; `preemptions_before_shrink` != 0 tells a shrunk one.
  static std::string ShortReport(int signal_number, World& world, std::uint64_t preemptions_before_shrink);
  // Ends the process by `signal_number`, from its handler.
  [[noreturn]] static void DieBy(int signal_number);

 private:
  struct sigaction previous_[32] = {};
  stack_t previous_alternate_stack_ = {};
  std::terminate_handler previous_terminate_ = nullptr;
};

}  // namespace sim::internal

#endif  // SIM_RUNTIME_CRASH_GUARD_H_

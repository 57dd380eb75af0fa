// crash_guard.h: turns fatal signals and std::terminate on a simulated
// thread into a verdict, for as long as a CrashGuard lives.
//
// A fatal signal (SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT; a stack overflow
// into a guard page included, on an alternate signal stack) ends the
// execution with Verdict::kCrash; std::terminate with a current exception
// ends it with kUncaughtException. On a real thread, the previous handlers
// run. The process may not be fully sane after a crash (memory corruption,
// libc locks taken by the dying code): explore() reports it and stops.
#ifndef SIM_RUNTIME_CRASH_GUARD_H_
#define SIM_RUNTIME_CRASH_GUARD_H_

#include <signal.h>

#include <exception>

namespace sim::internal {

class CrashGuard {
 public:
  CrashGuard();
  ~CrashGuard();
  CrashGuard(const CrashGuard&) = delete;
  CrashGuard& operator=(const CrashGuard&) = delete;

  // A crash ended the execution from inside a signal handler, which never
  // returned: unblock the signal again on this OS thread.
  static void AfterCrash();

 private:
  struct sigaction previous_[32] = {};
  stack_t previous_alternate_stack_ = {};
  std::terminate_handler previous_terminate_ = nullptr;
};

}  // namespace sim::internal

#endif  // SIM_RUNTIME_CRASH_GUARD_H_

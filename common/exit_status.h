// exit_status.h: the exit statuses simthread's own processes end with, one
// table for the runtime and sim-run.
//
// A program run under simthread keeps its own statuses (0, or whatever main
// returns, or 128 + a signal); simthread adds these three, each meaning one
// thing a script can act on.
#ifndef SIM_COMMON_EXIT_STATUS_H_
#define SIM_COMMON_EXIT_STATUS_H_

namespace sim::exit_status {

// An execution failed with a verdict the runtime detected (a deadlock, a
// failed check, a livelock, ...): ThreadSanitizer's default exitcode.
inline constexpr int kVerdict = 66;
// The command line or SIM_OPTIONS cannot be used as given; the message says
// what to change.
inline constexpr int kUsage = 2;
// simthread could not do its job: the environment refused it (no memory for
// a stack, no thread for a TCB, no real libc function to forward to) or an
// internal check failed. sysexits.h's EX_SOFTWARE.
inline constexpr int kEnvironment = 70;

}  // namespace sim::exit_status

#endif  // SIM_COMMON_EXIT_STATUS_H_

// libc_crash.h: a whole program's crash inside libc, shrunk and told.
//
// glibc aborts on a double free or a corrupted heap from inside free or
// malloc, often holding its heap's lock: nothing in that process may touch
// libc's heap again, so the crash guard writes a short report with write(2)
// and the process dies (explore/crash_guard.h). With the runtime's own heap
// (core/runtime_heap.h) a whole program can do more, since its runtime
// then needs nothing of libc's heap:
// - a candidate (rerun.h) that crashes so answers with the outcome as it
//   stands (its decisions so far, its preemptions, its trace hash) and, when
//   it tells the report, the short report with its preemptions and
//   schedule; so a bounded search finds such a crash, and shrinking works
//   on it like on any failure;
// - the seed's own run hands the crash to a fresh image of itself: it execs
//   /proc/self/exe in place (the same process, for sim-run and a shell),
//   with libc_crash= naming the crash, and that image reruns the seed as a
//   candidate, checks it is the same crash, shrinks it and tells it
//   (ReportSeed), then dies by the same signal.
// With the runtime heap off (a program that links its own allocator) or
// shrink=0, the short report is all, as before.
#ifndef SIM_RUNTIME_WHOLE_PROGRAM_LIBC_CRASH_H_
#define SIM_RUNTIME_WHOLE_PROGRAM_LIBC_CRASH_H_

#include <optional>

#include "core/outcome.h"
#include "explore/options.h"

namespace sim::internal {

// In a candidate: a crash inside libc writes the outcome as it stands to
// internal.outcome_file (and the short report with outcome_report).
void AnswerLibcCrashes(const InternalOptions& internal);

// In a seed's own run: a crash inside libc execs this program again with
// `argv` and libc_crash= added to SIM_OPTIONS.
void HandLibcCrashesToAFreshImage(char** argv);

// In the fresh image: the crash as the seed's run met it (verdict, signal,
// trace hash, choice points; no decisions); nullopt for a malformed
// libc_crash=.
std::optional<Outcome> LibcCrashAsFound(const InternalOptions& internal);

}  // namespace sim::internal

#endif  // SIM_RUNTIME_WHOLE_PROGRAM_LIBC_CRASH_H_

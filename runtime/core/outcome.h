// outcome.h: how an execution ended, as the world saw it, with what
// replay, shrinking and the report need of it.
#ifndef SIM_RUNTIME_OUTCOME_H_
#define SIM_RUNTIME_OUTCOME_H_

#include <cstdint>
#include <string>
#include <vector>

#include "core/trace.h"
#include "sim/sim.h"
#include "strategy/strategy.h"

namespace sim::internal {

// A data race as its flip needs it (strategy/race_flip.h): the two
// threads, and where the order of their accesses can be turned round.
struct RaceToFlip {
  ThreadId earlier = 0;            // the thread whose access ran first
  ThreadId later = 0;              // the thread whose access found the race
  std::uint64_t choice_point = 0;  // ChoicePoint::number of the last one before the earlier access; 0: not known
  std::uintptr_t later_site = 0;   // the later access's pass site (PendingOperation::site)
  // later_site 0: the later access is no scheduling point of its own (a
  // free, race_checks.cpp), made between the later thread's scheduling
  // points number later_points and later_points + 1.
  std::uint64_t later_points = 0;
  bool earlier_writes = false;     // for the report's words only
  bool later_writes = false;
  bool known() const { return choice_point != 0; }
};

// How an execution ended, as the world saw it (before symbolization).
struct Outcome {
  Verdict verdict = Verdict::kPass;
  std::string message;
  std::string schedule_mismatch;  // non-empty: a replay did not fit
  std::uint64_t trace_hash = 0;
  std::uint64_t steps = 0;
  std::uint64_t choice_points = 0;  // what pct learns its estimate from (pct_choice_points)
  std::uint64_t preemptions = 0;
  // Threads that had not finished when the execution ended: after a pass,
  // threads it abandoned (detached ones still running, a library's thread
  // waiting for work), which a later execution in the same process would
  // wait on in vain.
  std::uint64_t threads_left_running = 0;
  std::vector<std::string> threads;
  std::vector<std::string> last_events;
  std::uint64_t events_left_out = 0;  // recent events in library code, not listed
  int signal_number = 0;              // kCrash: the signal that ends a real process (SIGABRT for abort/assert)
  // kCrash by a real fault (crash_guard: SIGSEGV, a stack overflow, ...):
  // memory may be corrupt, so this process runs no more executions for it.
  // abort(), assert() and std::terminate end the execution by a call and
  // leave the process sound: their failures are replayed, shrunk and
  // diffed like any other.
  bool process_suspect = false;
  // The strategy's decisions, in order, each anchored to the progress of
  // the thread that reached its choice point (what shrinking edits).
  std::vector<AnchoredDecision> anchored;
  // The thread chosen at each choice point, in order: the schedule.
  std::vector<std::uint32_t> decisions() const;
  // What makes two failures "the same" for shrinking: the verdict and the
  // sites where it happened (never addresses or thread ids).
  std::uint64_t failure_signature = 0;
  std::vector<std::string> story;  // with KeepWholeTrace: the preemptions, in source terms
  std::vector<Event> events;       // with KeepWholeTrace: every event (for the diff against a passing run)
  RaceToFlip race_to_flip;         // kDataRace: where its two accesses can be run the other way round
};

// Called at the end of every World::Run, in the process that ran it (which
// may be a child: isolated_execution.h), to add what only that process
// knows to the outcome: SIM_TEST adds the expectations that failed before a
// deadlock or crash ended the execution.
inline void (*annotate_outcome)(Outcome& outcome) = nullptr;

}  // namespace sim::internal

#endif  // SIM_RUNTIME_OUTCOME_H_

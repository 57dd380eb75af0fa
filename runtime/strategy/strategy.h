// strategy.h: who runs next at a choice point.
//
// Lifecycle: MakeStrategy() once per explore() call; then, per execution,
// BeginExecution(seed), WantsPendingOperations(), OnThreadCreated() for every
// thread (T0 included), Choose() at every choice point (a scheduling point
// with more than one enabled thread) but those its answers let the world
// decide alone (Choice::same_for), and EndExecution(). A strategy keeps
// what it learns across executions (pct: the number of choice points). Same
// seed and same program => same choices: a strategy draws only from its
// seeded Prng.
#ifndef SIM_RUNTIME_STRATEGY_H_
#define SIM_RUNTIME_STRATEGY_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "strategy/transition.h"

namespace sim::internal {

// Where a choice point is, in terms that survive small changes to the
// schedule: the thread that reached it and how many scheduling points that
// thread had reached before (its own progress, not a global index).
// What a thread does when it runs next: the access or sync operation it
// announced at its last scheduling point (hooks and interceptors announce
// before they act), or what a blocked thread waits on.
struct PendingOperation {
  const void* object = nullptr;  // the address or sync object; null: not known
  bool writes = true;            // false: it only reads `object` (a load, a shared lock)
  // The scheduling points the thread had reached when it announced this
  // operation: a different value is a different operation, even on the
  // same object.
  std::uint64_t thread_points = 0;
  // The pass's site of the access it announced (a `const __sim_site*`, the
  // same in every execution of a program); null for any other operation.
  // A race's flip waits for it (race_flip.h).
  const void* site = nullptr;
};

// Whether two pending operations may not commute: the same 8-byte word (so
// a 4-byte read inside an 8-byte write counts) and at least one writes. An
// operation that is not known conflicts with everything.
inline bool Conflict(const PendingOperation& a, const PendingOperation& b) {
  if (a.object == nullptr || b.object == nullptr) return true;
  return (reinterpret_cast<std::uintptr_t>(a.object) >> 3) == (reinterpret_cast<std::uintptr_t>(b.object) >> 3) &&
         (a.writes || b.writes);
}

struct ChoicePoint {
  ThreadId current = 0;
  std::uint64_t current_points = 0;
  bool current_enabled = false;  // false: it blocked or finished, so any choice is no preemption
  // The running thread offered to let others run (sched_yield, a spin-lock
  // retry, a zero sleep): it is waiting for one of them to make progress.
  bool current_yielding = false;
  // Parallel to `enabled` when the strategy WantsPendingOperations(); empty
  // otherwise.
  std::span<const PendingOperation> pending;
  // The steps the execution had completed before this point, when the
  // strategy WantsTransitions(): the step that follows the choice is
  // transitions[this], in what OnTransitions is given.
  std::uint64_t transitions = 0;
  // The running thread went on at the last kTimeSliceChoicePoints choice
  // points in a row, with others enabled: a time slice would have ended.
  bool current_overran = false;
  // This choice point's number in the execution, from 1. Points the world
  // decided without asking (Choice::same_for) are counted too.
  std::uint64_t number = 0;
  std::optional<ThreadId> running() const { return current_enabled ? std::optional(current) : std::nullopt; }
};

// A choice point as an execution met it, kept for a search that learns
// from it (bounded_search.h).
struct ChoiceRecord {
  ThreadId current = 0;
  std::uint64_t current_points = 0;
  bool current_enabled = false;
  bool switch_by_default = false;  // SwitchByDefault(at)
  std::vector<ThreadId> enabled;   // sorted by id
  std::uint64_t transition = 0;    // ChoicePoint::transitions
  // Threads the search must also try here, so that a pair of dependent
  // steps later in the execution runs in the other order (race_reversal.h).
  std::vector<ThreadId> also_try;
};

// The record of the choice point `at` among `enabled`.
ChoiceRecord RecordOf(std::span<const ThreadId> enabled, const ChoicePoint& at);

struct Choice {
  ThreadId thread = 0;
  // Non-empty: the strategy cannot go on (replay of a schedule that does not
  // fit). Points into the strategy, valid until its next call; a view, so
  // that the choice a world takes at every choice point has nothing to
  // destroy.
  std::string_view mismatch;
  // When `thread` is the running one: at this many choice points after this
  // one the strategy would choose it again, as long as no thread becomes
  // enabled or stops being enabled, it does not yield and its time slice
  // does not end (ChoicePoint::current_overran). The world may then let it
  // go on at those points without asking, which keeps an access between
  // two synchronisations as cheap as a lone thread's (pct: until its next
  // change point). Never a promise about any other kind of point: only
  // accesses take it.
  std::uint64_t same_for = 0;
};

class Strategy {
 public:
  virtual ~Strategy() = default;
  virtual void BeginExecution(std::uint64_t seed) = 0;
  // True: Choose() needs ChoicePoint::pending (the world only gathers it
  // then). Asked once per execution, after BeginExecution.
  virtual bool WantsPendingOperations() const { return false; }
  virtual void OnThreadCreated(ThreadId thread) { (void)thread; }
  // `enabled` is sorted by id and has at least two threads.
  virtual Choice Choose(std::span<const ThreadId> enabled, const ChoicePoint& at) = 0;
  // Returns a mismatch (non-empty) when the execution ended somewhere the
  // strategy did not expect (a replayed schedule with decisions left over).
  virtual std::string EndExecution(std::uint64_t choice_points) {
    (void)choice_points;
    return {};
  }
  // The spec under which the last execution's seed, run alone, repeats that
  // execution: `given` (the spec this strategy was made from) unless the
  // strategy carried something from earlier executions into it (pct's
  // estimate of choice points). What a report's replay command prints.
  virtual std::string ReplaySpec(std::string_view given) const { return std::string(given); }
  // True when what the strategy carries into later executions depends on
  // the choice points an execution met (dfs: its search tree), not only on
  // the seed and the count of choice points: an execution run in another
  // process hands them back (strategy/recording.h).
  virtual bool LearnsFromChoicePoints() const { return false; }
  // True: at the end of every execution, before EndExecution, the world
  // hands over its steps (OnTransitions), unless partial-order reduction is
  // off (Options::por, or a library not built with sim-clang++ is loaded).
  virtual bool WantsTransitions() const { return false; }
  // Every step of the execution, in order, then one for each thread that
  // had not finished: the step it was about to take.
  virtual void OnTransitions(std::span<const Transition> transitions) { (void)transitions; }
  // For a strategy that LearnsFromChoicePoints, in place of its own Choose
  // and OnTransitions calls: the choice points an execution in another
  // process met, with their also_try when `reduced` (OnTransitions ran there).
  virtual void LearnChoices(const std::vector<ChoiceRecord>& choices, bool reduced) {
    (void)choices;
    (void)reduced;
  }
  // Exhaustive strategies: true once every schedule they cover has run.
  virtual bool Exhausted() const { return false; }
  virtual std::uint64_t SchedulesRun() const { return 0; }
};

// Change points are drawn from the first K choice points, K learned across
// executions from `initial_choice_points` upward.
inline constexpr std::uint64_t kPctInitialChoicePoints = 64;

// "random", "pct:D" (or "pct:D:K", K the initial estimate of choice points,
// `pct_choice_points` when not given), "pos", "dfs:P", "portfolio[:S,S,...]"
// or "replay:<schedule>". Throws std::invalid_argument naming the valid forms.
std::unique_ptr<Strategy> MakeStrategy(std::string_view spec,
                                       std::uint64_t pct_choice_points = kPctInitialChoicePoints);

std::unique_ptr<Strategy> MakeRandomStrategy();
std::unique_ptr<Strategy> MakePctStrategy(std::uint32_t depth,
                                          std::uint64_t initial_choice_points = kPctInitialChoicePoints);
std::unique_ptr<Strategy> MakePosStrategy();
// Seed s runs members[s % members.size()], seeded by s. Precondition: not empty.
struct PortfolioMember {
  std::string spec;  // what the member was made from, for ReplaySpec
  std::unique_ptr<Strategy> strategy;
};
std::unique_ptr<Strategy> MakePortfolioStrategy(std::vector<PortfolioMember> members);
std::unique_ptr<Strategy> MakeReplayStrategy(std::string_view schedule);
// Every schedule with at most `bound` preemptions, one per execution.
std::unique_ptr<Strategy> MakeDfsStrategy(std::uint32_t bound);

// A thread that goes on at this many choice points in a row, with others
// enabled, is switched away from by default, as a time slice would end: a
// thread that spins without yielding, waiting for one the search has not
// run, then lets it run.
inline constexpr std::uint64_t kTimeSliceChoicePoints = 10000;

// Whether the default at `at` is to switch rather than to go on: the
// running thread yielded (it asked to let others run, as a spin loop's
// yield does) or overran its time slice.
inline bool SwitchByDefault(const ChoicePoint& at) { return at.current_yielding || at.current_overran; }

// What a search or a lenient replay chooses where it has no decision: the
// running thread goes on; when it cannot, the lowest enabled thread; when
// `switch_by_default`, the next enabled thread after it in id order,
// wrapping, so that a thread waiting in a loop does not keep the threads it
// waits for from running.
ThreadId DefaultChoice(std::span<const ThreadId> enabled, ThreadId current, bool current_enabled,
                       bool switch_by_default);

// A decision anchored to the progress of the thread that reached it.
struct AnchoredDecision {
  ThreadId current = 0;
  std::uint64_t current_points = 0;
  ThreadId chosen = 0;
  bool preemption = false;  // `current` could have gone on
  // Not at this point but at the first later one where `current` cannot go
  // on (it blocks or finishes): a preemption turned into a switch that
  // waits for its turn, which is how shrinking takes a preemption out.
  bool deferred = false;
};

// Follows `decisions` by their anchors where the chosen thread is enabled
// (deferred ones at the anchor thread's first later point where it cannot go
// on or yields), and otherwise takes DefaultChoice: how shrinking replays a
// schedule with preemptions taken out, and a bounded search's candidate its
// prefix. Anchors keep the other decisions in place when one is removed.
// Never reports a mismatch.
std::unique_ptr<Strategy> MakeAnchoredReplayStrategy(std::vector<AnchoredDecision> decisions);

}  // namespace sim::internal

#endif  // SIM_RUNTIME_STRATEGY_H_

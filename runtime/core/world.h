// world.h: one execution's simulated machine: its threads, clock, trace and
// the scheduler that decides who runs at each scheduling point.
//
// All simulated threads are fibers on the OS thread that called explore().
// A thread runs until it reaches a scheduling point; there the world asks
// the strategy (only at a choice point: more than one enabled thread) and
// switches fiber to fiber directly, pointing the FS base at the next
// thread's borrowed TCB. Interceptors and hooks talk to the world; the world
// knows nothing of which primitive blocked a thread beyond its Wait.
//
// invariant: world state lives in plain globals and heap objects reached
// from them, never in thread-local storage (the FS base changes under it).
#ifndef SIM_RUNTIME_WORLD_H_
#define SIM_RUNTIME_WORLD_H_

#include <algorithm>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <typeindex>
#include <vector>

#include "core/fiber_switch.h"
#include "core/outcome.h"
#include "core/per_thread_race_address.h"
#include "core/progress_watch.h"
#include "core/sim_thread.h"
#include "core/site.h"
#include "core/stack_pool.h"
#include "core/story.h"
#include "core/thread_control_block.h"
#include "core/thread_local_switch.h"
#include "core/trace.h"
#include "core/uninstrumented_library.h"
#include "sim/sim.h"
#include "sim/sim_interface.h"
#include "strategy/strategy.h"

namespace sim::internal {

class RaceDetector;
struct Race;
struct RaceToTell;

// Per-world model of a user's synchronisation object, keyed by its address.
// A model lives as long as its object: the world forgets it when the
// object's memory ends (World::ForgetModelsIn: free, realloc, munmap,
// fclose, a finished thread's stack) or the object is destroyed or
// initialised again (World::ForgetModel), so a new object at the same
// address starts fresh.
//
// invariant: a SyncModel is the first base of its model type (single
// inheritance), so a Wait's `model` pointer, which points at the derived
// model, is also the address of its SyncModel.
struct SyncModel {
  virtual ~SyncModel() = default;
  // Whether an interceptor holds this model across user code, outside a
  // Block (pthread_once, while the routine runs). The world never destroys
  // a busy model, nor one a blocked thread's Wait names: forgotten, it is
  // kept aside until the world ends.
  virtual bool Busy() const { return false; }
  // Whether the model outlives the memory of its object: a futex's waiters
  // are queued on the address alone, in the kernel as here.
  virtual bool OutlivesMemory() const { return false; }
  // Called when the execution has ended, for each model still in the map (its object was not
  // seen to end): undoes what it wrote into the object, so the next execution finds it as this one did.
  virtual void AtExecutionEnd(const void* /*address*/) {}
  bool forgotten = false;  // forgotten while busy or waited on
};

class World {
 public:
  // Keeps a reference to `options` and `strategy`: both must outlive the world.
  World(const Options& options, Strategy& strategy, std::uint64_t seed);
  ~World();
  World(const World&) = delete;
  World& operator=(const World&) = delete;

  // How T0 gets its TCB: borrowed (fresh thread-local state, as a new thread
  // has), or the caller's own (whole-program mode: main keeps the
  // thread-local state that static initialisation gave the main thread).
  enum class MainTcb { kBorrowed, kCallers };

  // Runs `body` as T0 until the execution ends. Called by the driver.
  Outcome Run(std::function<void()> body, MainTcb main_tcb = MainTcb::kBorrowed);

  // Hands a finished outcome's decision records to the next world, which
  // reuses their memory (an explorer calls this for each passing seed).
  static void RecycleOutcome(Outcome&& outcome);

  // Fills in the report-only parts of a failed `outcome` of Run: each
  // thread's state and site, the last events, and (with KeepWholeTrace) the
  // story. Symbolizes, so only the execution that is reported pays for it.
  void DescribeFailure(Outcome& outcome);
  // Hands the frames a description of this failure would name (the race's
  // stack, each thread's site and creator) to the symbolizer without
  // waiting (SiteNamer::AskAhead): a whole program's failure is described
  // by a rerun of it, which borrows this process's symbolizer.
  void AskSymbolizerAhead() const;

  // --- for interceptors and hooks, on a simulated thread ---
  SimThread& running() { return *running_; }
  SimThread* thread(ThreadId id) { return id < threads_.size() ? threads_[id].get() : nullptr; }
  SimThread* FindThread(ThreadPointer tcb);
  std::uint64_t now_ns() const { return now_ns_; }
  std::uint64_t step() const { return steps_; }
  std::uint64_t trace_hash() const { return trace_.hash(); }
  // The outcome so far: preemptions and decisions as they stand.
  const Outcome& outcome() const { return outcome_; }
  // Whether a thread other than the running one may not happen before what
  // the running one does next: one not finished, or detached (nothing joined
  // it). What exit() runs after main returns may race with such a thread.
  bool OthersUnjoined() const {
    return unfinished_.size() > 1 || std::any_of(threads_.begin(), threads_.end(), [](const auto& thread) {
             return thread->detached;
           });
  }
  RaceDetector* races() { return races_.get(); }  // with options.races (race_checks.cpp), else null
  // races=1: the running thread frees the heap block [block, block + size),
  // a write of all of it to the detector (RaceDetector::Free). `freed_from`:
  // the return address into free's caller (free keeps no frame to walk).
  void CheckFreeForRace(const void* block, std::size_t size, const void* freed_from);
  // races=1: libc's `function` wrote [begin, begin + size) of the caller's
  // memory for the running thread (strerror_r's buffer), a write like any
  // other to the detector. `called_from`: the return address into its caller.
  void CheckLibraryWriteForRace(const void* begin, std::size_t size, const __sim_site& function,
                                const void* called_from);

  // The user's frames above the interceptor that calls this.
  __attribute__((always_inline)) Site CallerSite() {
    return CaptureCallerSite(running_->stack.lowest, running_->stack.top());
  }

  // Records an event and lets the strategy switch to another thread.
  void SchedulingPoint(EventKind kind, const void* object, const Site& site);
  // SchedulingPoint for an instrumented access at a pass-emitted site. While
  // T0 is the only thread (setup, before the first thread starts) there is
  // nothing to decide and nothing for the access to interleave with: it
  // counts as a step and a point, becomes T0's last site, and is neither
  // hashed nor put in the trace's ring, so it stays a handful of stores with
  // no call (the cost of an access in a single-threaded stretch).
  __attribute__((always_inline)) void AccessPoint(EventKind kind, const void* object, unsigned size,
                                                  const __sim_site* source) {
    if (steps_ < lone_access_limit_) {
      SimThread& self = *running_;
      ++self.points;
      self.last_site.source = source;
      self.last_kind = kind;
      // Not last_object: only a choice point reads it (pos), and T0 reaches
      // a scheduling point of its own, which sets it, before any choice.
      ++steps_;
      return;
    }
    if (steps_ < unasked_access_limit_) return GoOnUnasked(kind, object, size, source);
    AccessSchedulingPoint(kind, object, size, source);
  }
  // An access point below unasked_access_limit_: what AccessSchedulingPoint
  // and Decide would do, with the strategy's answer known (or no choice to
  // make); unless the access races with a pending operation that answer
  // depends on (unasked_watched_), where it asks. Out of line, so that the
  // hooks keep the lone-thread path free of its frame.
  [[gnu::noinline]] void GoOnUnasked(EventKind kind, const void* object, unsigned size, const __sim_site* source);
  // SchedulingPoint for a pass-emitted site, without building a Site. When
  // the last poll found the running thread the only one enabled, and no
  // thread can have become enabled since, the point decides nothing and
  // skips the scheduler (see enabled_known_).
  void AccessSchedulingPoint(EventKind kind, const void* object, unsigned size, const __sim_site* source);
  // Like SchedulingPoint, but the thread is willing to wait: when no other
  // thread can run, the clock jumps to the next deadline (sched_yield, spin).
  void YieldPoint(EventKind kind, const void* object, const Site& site);
  // Blocks the running thread until `wait` is satisfied. Returns true when it
  // ended by its deadline instead.
  bool Block(const Wait& wait);
  void Wake(SimThread& thread) {
    thread.woken = true;
    ForgetEnabled();  // the woken thread's next step touches anything: the waker's need not
  }
  // A blocked thread may have become enabled: what its wait's `ready` reads
  // changed (a lock was released, a semaphore posted, a once finished, a
  // gate opened). Every model calls this where it makes such a change.
  void ReadinessMayHaveChanged() {
    ForgetEnabled();
    if (keep_transitions_) TouchesAnything();  // the change may be before its point
  }
  // A waiter back from the Block after its `points`-th point touches only `first` and `second` until its
  // next point (taking its mutex back), unless a signal handler's points came between (transition.h).
  void WokenStepTouches(std::uint64_t points, const void* first, const void* second);
  // As ReadinessMayHaveChanged, for a model that released `object` before
  // the running thread's point: its step touches that object too.
  void ReleasedBeforePoint(const void* object) {
    ForgetEnabled();
    if (keep_transitions_) AddReleased(object);
  }
  // A signal is now pending for `thread` (interceptors/signal.cpp).
  void SignalPending(SimThread& thread, int signal_number) {
    TouchesAnything();  // what the thread does next depends on this step
    thread.pending_signals.push_back(signal_number);
    LeaveLonePath();  // the slow path delivers it
    unasked_access_limit_ = 0;
  }

  // Called at each clock read of the running thread. The first read after
  // the thread last blocked (or ever) leaves the clock alone; each further
  // one moves it on, by kFirstRepeatedReadNs on the second and twice as much
  // at each read after, up to kMaxRepeatedReadNs a read: time passes for a
  // thread that spins on the clock, in a number of reads that grows with
  // the logarithm of what it waits for, and deterministically.
  void AdvanceClockForRepeatedRead();
  static constexpr std::uint64_t kFirstRepeatedReadNs = 1000;
  static constexpr std::uint64_t kMaxRepeatedReadNs = 1000000;

  // Starts a simulated thread; it becomes runnable at once.
  SimThread& CreateThread(std::function<void()> body);
  // Ends the running thread (its thread_local and key destructors first).
  [[noreturn]] void ExitRunningThread();
  // Returns the TCB of a finished thread that nobody will join.
  void RetireThread(SimThread& thread);

  // Ends the execution from a simulated thread (or a signal handler on it).
  [[noreturn]] void EndExecution(Verdict verdict, std::string message, int signal_number = 0);
  // Ends the execution with Verdict::kCrash for a real fault on the running
  // thread, from crash_guard's signal handler: the outcome is
  // process_suspect.
  [[noreturn]] void EndExecutionByFault(std::string message, int signal_number);
  // A fault inside libc, which may hold its heap's lock: the outcome where
  // the execution stands, without leaving the faulting thread's stack, for
  // a report that allocates only from the runtime's own heap.
  const Outcome& EndInPlaceByLibcFault(int signal_number);

  // The per-world model of the user's object at `address`, created on first
  // use by `make`. A model of another type at the same address (the memory
  // was reused without the world seeing it end) is replaced.
  template <typename Model, typename Make>
  Model& ModelOf(const void* address, Make make) {
    // A thread usually works one object at a time (lock, unlock, wait on the
    // same mutex): a one-entry cache saves the hash lookup. Map nodes are
    // stable, so the cached slot stays valid until ForgetModel. The hit is
    // inline and the rest is not, so a hit saves no registers.
    if (address == cached_model_address_ && cached_model_slot_ != nullptr && cached_model_slot_->model != nullptr &&
        cached_model_slot_->type == std::type_index(typeid(Model))) [[likely]] {
      return static_cast<Model&>(*cached_model_slot_->model);
    }
    return FindOrMakeModel<Model>(address, make);
  }
  // The object at `address` was destroyed or is initialised again: the
  // next use there starts from a new model.
  void ForgetModel(const void* address) {
    auto it = models_.find(address);
    if (it != models_.end()) ForgetModels(it, std::next(it));
  }
  // The memory [begin, end) was freed, unmapped or otherwise ended: forgets
  // the models of the objects in it (except those that OutlivesMemory).
  // Inline for the common case, a range with no model in it; a no-op while
  // the world disposes of models itself (their memory is the runtime's).
  void ForgetModelsIn(const void* begin, const void* end) {
    if (disposing_models_) return;
    auto it = models_.lower_bound(begin);
    if (it == models_.end() || it->first >= end) return;
    ForgetModelsOfMemory(it, end);
  }
  // The lowest address at or above `address` with a model, or null: lets
  // free() learn a block's size only when a model may lie in the block.
  // Frees come in runs from the same stretch of heap, so the gap between
  // two models that held the last address is remembered, until a model is
  // made or forgotten: a hit costs two compares instead of a walk down the
  // map (34 ns a free with 2,000 models; docs/performance.md).
  const void* FirstModelAtOrAbove(const void* address) {
    const auto at = reinterpret_cast<std::uintptr_t>(address);
    if (gap_version_ == models_version_ && at > gap_above_ && at <= gap_end_) [[likely]] {
      return gap_end_ == kNoModelAbove ? nullptr : reinterpret_cast<const void*>(gap_end_);
    }
    return FindFirstModelAtOrAbove(address);
  }

  const Options& options() const { return options_; }

  // Records every event (for the story of a shrunk run, and timelines).
  // Precondition: called before Run.
  void KeepWholeTrace() { trace_.KeepAll(); }
  // Leaves Outcome::anchored empty: a whole program's own run, whose memory
  // must not grow with its length, has its decisions recorded by a rerun
  // of its seed when it fails (whole_program/rerun.h).
  void ForgetDecisions() { keep_decisions_ = false; }
  const std::vector<Event>& whole_trace() const { return trace_.all(); }

 private:
  friend void ThreadEntry();

  // The bookkeeping of a scheduling point: the running thread's progress, the
  // trace event, its last site.
  void RecordPoint(EventKind kind, const void* object, const Site& site);
  // While the world keeps the steps: the running thread's step ends here, and its next one touches `next`.
  [[gnu::noinline]] void EndTransition(SimThread& self, Footprint next);
  // The running thread's step may touch anything, or also `object` (transition.h).
  void TouchesAnything() { running_->footprint = Footprint{}; }
  [[gnu::noinline]] void AddReleased(const void* object);
  // A strategy's choice at `at`, for replay and shrinking.
  void RecordDecision(const ChoicePoint& at, ThreadId chosen, bool preemption);
  // Where `preempted` was preempted, for the story (whole-trace runs only).
  [[gnu::noinline]] void RecordPreemption(const SimThread& preempted, const SimThread& switched_to);
  // Whether events now interleave with another live thread's, which is when
  // the trace hashes them.
  bool EventsInterleave() const { return live_threads_ >= 2; }
  // The thread to run after the running thread's scheduling point: itself,
  // or the one the strategy chose (the running thread may have just blocked
  // or finished). Counts the step.
  [[gnu::noinline]] SimThread& PickNext(bool willing_to_wait);
  // PickNext, and the switch to the thread it picked. Inline, so that the
  // switch happens in the scheduling point's own frame: every call level
  // above sim_switch_stacks saves and restores its registers on both sides
  // of every switch.
  [[gnu::always_inline]] void Reschedule(bool willing_to_wait) {
    SimThread& next = PickNext(willing_to_wait);
    if (&next != running_) SwitchTo(next);
  }
  // PickNext's way out when no thread other than a yielding `current` is
  // enabled: moves the clock, wakes an idle waiter, or ends in a deadlock.
  // Returns whether `current` is enabled afterwards.
  [[gnu::noinline]] bool WaitUntilAThreadIsEnabled(const SimThread& current, bool current_enabled,
                                                   bool willing_to_wait);
  // The choice among the enabled threads at a scheduling point of
  // `current`, through Decide, counting a preemption when it switches away
  // from an enabled `current`.
  [[gnu::always_inline]] SimThread& Choose(const SimThread& current, bool current_enabled, bool current_yielding);
  // Asks the strategy to pick one of `candidates` at a choice point of
  // `current`, and records the decision. The one way a choice reaches the
  // strategy: which thread runs next (Choose) and which idle waiter a
  // pinned gate releases (WakeOneIdleWaiter) alike, so both replay and shrink.
  [[gnu::always_inline]] ThreadId Decide(std::span<const ThreadId> candidates, const SimThread& current,
                                         bool current_enabled, bool current_yielding);
  // At step_check_at_: the step limit, or a look for progress (livelock).
  [[gnu::noinline, gnu::cold]] void CheckSteps();
  void ScheduleStepCheck();
  std::uint64_t StepsWithOthersAlive() const;
  [[noreturn, gnu::noinline, gnu::cold]] void EndOnStepLimit();
  [[noreturn, gnu::noinline, gnu::cold]] void EndOnLivelock();
  [[noreturn, gnu::noinline, gnu::cold]] void EndOnScheduleMismatch(std::string_view mismatch);
  bool IsEnabled(const SimThread& thread) const;
  // Fills enabled_ and returns whether `current` is in it.
  bool CollectEnabled(const SimThread& current);
  // Whether a poll now would find `running` the only enabled thread,
  // trusting the last poll while enabled_known_.
  bool OnlyRunnerEnabled(const SimThread& running) const {
    return enabled_known_ && enabled_count_ == 1 && enabled_[0] == running.id;
  }
  // SIM_CHECK_ENABLED_CACHE, where a point trusts the last poll: polls,
  // and aborts naming what the threads waited for when the two differ.
  [[gnu::noinline]] void CheckKnownEnabled(const SimThread& running);
  // ChoicePoint::pending for `threads`: empty unless the strategy wants it,
  // checked here so that a choice point of any other strategy makes no call.
  std::span<const PendingOperation> PendingOperations(std::span<const ThreadId> threads) {
    return strategy_wants_pending_ ? GatherPendingOperations(threads) : std::span<const PendingOperation>();
  }
  [[gnu::noinline]] std::span<const PendingOperation> GatherPendingOperations(std::span<const ThreadId> threads);
  bool AdvanceClockToNextDeadline();
  bool WakeOneIdleWaiter();
  [[gnu::always_inline]] void SwitchTo(SimThread& next) {
    switching_from_ = running_;
    running_ = &next;
    if (tls_switch_ == TlsSwitch::kLazy) {
      MoveThreadLocals(switching_from_->carried, next.carried, next.tcb, driver_.tcb, &next != &driver_);
    } else {
      InstallThreadPointer(next.tcb, tls_switch_);
    }
    sim_switch_stacks(&switching_from_->context, next.context);
    AfterSwitch();
  }
  // On the thread switched to (in SwitchTo, or at a new fiber's entry).
  [[gnu::always_inline]] void AfterSwitch() {
    SimThread& from = *switching_from_;
    if (from.state == ThreadState::kFinished && from.stack.lowest != nullptr) [[unlikely]]
      ReleaseFinishedStack(from);
  }
  // After a switch away from a finished thread: returns its stack to the
  // pool, and its TCB when nobody will join it.
  [[gnu::noinline]] void ReleaseFinishedStack(SimThread& from);
  void ReleaseResources(SimThread& thread);
  void DescribeThreads(Outcome& outcome);
  std::uint64_t FailureSignature() const;
  std::string DescribeDeadlock() const;

  // ModelOf's miss: the map lookup, and the model's creation.
  template <typename Model, typename Make>
  [[gnu::noinline]] Model& FindOrMakeModel(const void* address, Make make) {
    if (address != cached_model_address_ || cached_model_slot_ == nullptr) {
      auto [it, inserted] = models_.try_emplace(address);
      models_version_ += inserted;
      cached_model_slot_ = &it->second;
      cached_model_address_ = address;
    }
    ModelSlot& slot = *cached_model_slot_;
    if (slot.model == nullptr || slot.type != std::type_index(typeid(Model))) {
      Dispose(std::move(slot.model));
      slot.model = make();
      slot.type = std::type_index(typeid(Model));
    }
    return static_cast<Model&>(*slot.model);
  }

  struct ModelSlot {
    std::unique_ptr<SyncModel> model;
    std::type_index type = std::type_index(typeid(void));
  };
  using ModelMap = std::map<const void*, ModelSlot>;

  // Forgets the models in [first, last).
  void ForgetModels(ModelMap::iterator first, ModelMap::iterator last);
  // ForgetModelsIn's slow path: `first` is the first model in the range.
  [[gnu::noinline]] void ForgetModelsOfMemory(ModelMap::iterator first, const void* end);
  // FirstModelAtOrAbove's miss: the map lookup, remembering the gap.
  [[gnu::noinline]] const void* FindFirstModelAtOrAbove(const void* address);
  // Destroys a model nothing points at any more, or keeps it aside until
  // the world ends when a thread still may (SyncModel::Busy, a Wait).
  void Dispose(std::unique_ptr<SyncModel> model);
  // At the end of the execution: AtExecutionEnd for every model.
  void EndModels();

  const Options& options_;                      // not a copy: copying it cost six strings per execution
  TlsSwitch tls_switch_ = TlsSwitch::kSyscall;  // chosen when Run starts
  Strategy& strategy_;
  // PickNext calls CheckSteps when steps_ passes this: at the next look for
  // progress or where the step limit may be reached, whichever comes first.
  // Read at every point, so a member rather than a computation.
  std::uint64_t step_check_at_ = 0;
  // Steps taken while two or more threads were unfinished, up to
  // shared_since_ (the step at which the current such stretch began, while
  // there is one): only those count toward max_steps, since a lone thread
  // interleaves with nobody (the progress watch covers its spinning).
  std::uint64_t shared_steps_ = 0;
  std::uint64_t shared_since_ = 0;
  std::uint64_t next_look_ = 0;  // the step after which the next look for progress begins
  ProgressWatch progress_watch_;
  std::vector<std::unique_ptr<SimThread>> threads_;
  std::size_t live_threads_ = 0;  // created and not finished; the trace hashes only while >= 2
  // AccessPoint takes its lone-thread path while steps_ is below this:
  // step_check_at_ while lone_path_ holds (T0 is the only thread, no signal
  // is pending and the whole trace is not kept: a timeline or a shrunk story
  // lists every access), 0 from the first of those to end. One compare per
  // access instead of four.
  std::uint64_t lone_access_limit_ = 0;
  bool lone_path_ = false;
  bool keep_decisions_ = true;
  // For the rest of the execution (a second thread, a pending signal).
  void LeaveLonePath() {
    lone_path_ = false;
    lone_access_limit_ = 0;
  }
  SimThread driver_;  // the OS thread's own context, while it waits for the execution
  SimThread* running_ = nullptr;
  SimThread* switching_from_ = nullptr;
  // The threads not finished, by id: what the scheduler polls (a program
  // that starts threads one after another polls only the live ones).
  std::vector<SimThread*> unfinished_;
  // Scratch, reused at every point: the first enabled_count_ are the enabled
  // threads; it is as long as the most threads unfinished at once.
  std::vector<ThreadId> enabled_;
  std::size_t enabled_count_ = 0;
  // enabled_ is still the set of enabled threads: set by each poll, cleared
  // by whatever may enable a thread (ReadinessMayHaveChanged: models, Wake,
  // thread creation, the clock), by the running thread blocking or
  // finishing and, in case a model changes its state after its scheduling
  // point without saying so, at the end of every scheduling point other than
  // an access. Every scheduling point trusts it instead of polling (an access
  // point where it names only the running thread skips the scheduler), so a
  // change no one reported would hide interleavings: with
  // SIM_CHECK_ENABLED_CACHE=1 in the environment (the test suite sets it)
  // every poll skipped is checked against a real one.
  bool enabled_known_ = false;
  bool strategy_wants_pending_ = false;
  std::vector<PendingOperation> pending_;  // scratch, reused at every choice point
  // Every step, for a strategy that WantsTransitions, unless Options::por
  // is 0 or FirstUninstrumentedLibrary() names a library.
  bool keep_transitions_ = false;
  std::vector<Transition> transitions_;
  std::vector<Preemption> preemptions_;  // recorded only while the whole trace is kept
  // Ordered, so that the models in a freed range are found without a probe
  // per address. Nodes are stable: cached_model_slot_ stays valid until its
  // model is forgotten.
  ModelMap models_;
  const void* cached_model_address_ = nullptr;
  ModelSlot* cached_model_slot_ = nullptr;
  // Counts the keys made and erased: what the gap below remembers is valid
  // while this is unchanged.
  std::uint64_t models_version_ = 0;
  // The last FindFirstModelAtOrAbove: no model lies in (gap_above_,
  // gap_end_), and gap_end_ is a model's address or kNoModelAbove.
  static constexpr std::uintptr_t kNoModelAbove = UINTPTR_MAX;
  std::uint64_t gap_version_ = UINT64_MAX;
  std::uintptr_t gap_above_ = 0;
  std::uintptr_t gap_end_ = 0;
  // Forgotten while busy or waited on; destroyed with the world.
  std::vector<std::unique_ptr<SyncModel>> retired_models_;
  // Set while the world destroys models: the frees that causes are of the
  // runtime's own memory, and must not reenter the map.
  bool disposing_models_ = false;
  Trace trace_;
  Outcome outcome_;
  std::uint64_t steps_ = 0;
  std::uint64_t choice_points_ = 0;
  std::uint64_t choices_gone_on_ = 0;  // in a row, by the running thread (ChoicePoint::current_overran)
  // AccessPoint goes on without the scheduler while steps_ is below this:
  // the strategy's answer is known (Choice::same_for), within the time slice
  // and the next step check, or no other thread can run; 0 from the next
  // PickNext, ForgetEnabled or signal on.
  std::uint64_t unasked_access_limit_ = 0;
  std::unique_ptr<RaceDetector> races_;
  std::uint64_t seed_ = 0;  // for a race's warning (halt_on_race=0)
  void CheckAccessForRace(EventKind kind, const void* object, unsigned size, const __sim_site* source);
  PerThreadRaceAddress race_address_;  // the detector's key for a per-thread word lazy mode shares
  // ThreadLocalCensus::static_reach: a finished thread's static TLS is
  // forgotten with its stack, as the next thread on its TCB has new objects.
  std::ptrdiff_t static_tls_reach_ = 0;
  // Finished threads' stacks and static TLS, [begin, end): forgotten by
  // the detector before the next thread is made, which may get them.
  std::vector<std::pair<std::uintptr_t, std::uintptr_t>> forget_before_next_thread_;
  void CheckPlainAccessForRace(EventKind kind, const void* object, unsigned size, const __sim_site* source);
  void CheckForRace(EventKind kind, const void* object, unsigned size, const __sim_site* source,
                    bool own_thread_path_tried);  // the rest
  void SyncEdgeForRaces(EventKind kind, const void* object, bool after_point);
  // A race the running thread's access at `source` met (null: an access
  // that is no scheduling point, a free, called from `frameless_caller`):
  // suppressed, warned of, or the end of the execution (halt_on_race).
  void ReportRace(const Race& race, const __sim_site* source, const void* frameless_caller = nullptr);
  // The race that ended the execution, as found; told (its frames named)
  // only when the execution is described: DescribeRace puts its whole
  // message in place of the sites' lines that begin `message`.
  std::shared_ptr<const RaceToTell> race_to_tell_;
  void DescribeRace(std::string& message) const;
  bool unasked_choice_points_ = false;  // those points are choice points (the first case)
  void LetGoOnUnasked(std::uint64_t same_for, std::span<const ThreadId> enabled, ThreadId running);
  std::vector<PendingOperation> unasked_watched_;  // the other threads' pending operations, for pos
  void ForgetEnabled() {
    enabled_known_ = false;
    unasked_access_limit_ = 0;
  }
  std::uint64_t now_ns_ = 0;
  bool ended_ = false;
  SimThread* ended_on_ = nullptr;  // the thread that ended the execution
  MainTcb main_tcb_ = MainTcb::kBorrowed;
};

// Thrown by pthread_exit on a simulated thread, so the thread's stack unwinds
// (running destructors) as it would on a real thread; caught at the fiber's
// entry.
struct ThreadExitUnwind {};

// Runs the handlers of the running thread's pending signals. Called where a
// thread returns from the world to its own code (the end of a scheduling
// point or a Block, and fiber entry), as the kernel runs handlers on the
// return to user space. Defined in interceptors/signal.cpp.
void DeliverPendingSignals(World& world);

// The running world, or null. A plain global (see the invariant above).
extern World* current_world;

// Reads the runtime's self-checks (SIM_CHECK_ENABLED_CACHE) for the executions
// run from now on. Called where exploring starts (explore, whole-program
// main) rather than per world: getenv per execution is a visible share of a
// small one.
void ReadSelfChecksFromEnvironment();

// The exception being handled, for a report: its demangled type and, for a
// std::exception, what(). Call only inside a catch block (or terminate).
std::string DescribeCurrentException();

// Sets __sim_world_active from what needs the slow path: a running world,
// or gates held on real threads (gate.cpp).
void RefreshSlowPathFlag();

// True on a simulated thread of a running world: interceptors model the call
// only then, and forward to the real function otherwise.
inline bool InWorld() { return __sim_world_active != 0 && OnSimulatedThread(); }

// Virtual clocks: every world starts at the same instant.
inline constexpr std::uint64_t kRealtimeEpochNs = 1767225600ULL * 1000000000ULL;  // 2026-01-01T00:00:00Z
inline constexpr std::uint64_t kMonotonicEpochNs = 1000ULL * 1000000000ULL;       // 1000 s after boot

}  // namespace sim::internal

#endif  // SIM_RUNTIME_WORLD_H_

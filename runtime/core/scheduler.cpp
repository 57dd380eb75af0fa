// scheduler.cpp: the scheduler loop. Scheduling points, who is enabled,
// waiting (blocking, the virtual clock, idle waiters), the choice handed to
// the strategy and the decision records, and the step and livelock limits.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "core/check.h"
#include "core/race_checks.h"
#include "core/world.h"
#include "race/race_detector.h"

namespace sim::internal {

namespace {
// SIM_CHECK_ENABLED_CACHE: check every trusted poll against a real one.
bool enabled_cache_check_requested = false;
}  // namespace

void ReadSelfChecksFromEnvironment() {
  enabled_cache_check_requested = std::getenv("SIM_CHECK_ENABLED_CACHE") != nullptr;
}

namespace {

// What an access step touches, when it is one word (transition.h).
Footprint AccessFootprint(EventKind kind, const void* object, unsigned size) {
  const auto address = reinterpret_cast<std::uintptr_t>(object);
  if (object == nullptr || size == 0 || (address & 7) + size > 8) return {};
  return {WordOf(object), kind != EventKind::kRead && kind != EventKind::kAtomicLoad, true};
}

// What the step after a lock's point touches: the lock alone (taking it, or
// finding it held and blocking; a release acts before its point, and says
// so through ReleasedBeforePoint). Likewise a condition variable's: its
// waiters (a wait also releases its mutex, and says so; what the waiter
// does once woken is a step that may touch anything, as after any wait).
// Any other point's step may touch anything: what an interceptor does after
// its point is not one word.
Footprint PointFootprint(EventKind kind, const void* object) {
  switch (kind) {
    case EventKind::kCondWait:
    case EventKind::kCondSignal:
    case EventKind::kCondBroadcast:
    case EventKind::kMutexLock:
    case EventKind::kMutexTryLock:
    case EventKind::kMutexUnlock:
    case EventKind::kSpinLock:
    case EventKind::kSpinUnlock:
    case EventKind::kRwlockRead:
    case EventKind::kRwlockWrite:
    case EventKind::kRwlockUnlock:
    // A thread's creation and its join act on the thread's end, the word of
    // its handle, which its exit releases (World::ExitRunningThread).
    case EventKind::kThreadCreate:
    case EventKind::kJoin:
      if (object != nullptr) return {WordOf(object), true, true};
      return {};
    default: return {};
  }
}

}  // namespace

void World::EndTransition(SimThread& self, Footprint next) {
  transitions_.push_back({self.id, self.footprint, self.spawned});
  self.footprint = next;
  self.spawned = kNoThread;
}

void World::WokenStepTouches(std::uint64_t points, const void* first, const void* second) {
  SimThread& self = *running_;
  if (!keep_transitions_ || self.points != points + 1) return;  // a handler's points came between
  self.footprint = {WordOf(first), true, true, WordOf(second)};
}

void World::AddReleased(const void* object) {
  Footprint& footprint = running_->footprint;
  const std::uintptr_t word = WordOf(object);
  if (!footprint.known || (footprint.released != 0 && footprint.released != word)) {
    footprint = Footprint{};  // a second release: more than the footprint holds
  } else {
    footprint.released = word;
  }
}

inline void World::RecordPoint(EventKind kind, const void* object, const Site& site) {
  SimThread& self = *running_;
  ++self.points;
  if (keep_transitions_) [[unlikely]]
    EndTransition(self, PointFootprint(kind, object));
  trace_.Record(steps_, now_ns_, self.id, kind, object, site, EventsInterleave());
  self.last_site = site;
  self.last_kind = kind;
  self.last_object = object;
}

void World::SchedulingPoint(EventKind kind, const void* object, const Site& site) {
  SimThread& self = *running_;
  RecordPoint(kind, object, site);
  // Some interceptors act before their point (an unlock): what the thread
  // did so far is released before another can run.
  if (races_ != nullptr) [[unlikely]]
    SyncEdgeForRaces(kind, object, /*after_point=*/false);
  // Nothing to decide while T0 is the only thread (before the first one
  // starts): count the step, and leave the scheduler out.
  if (threads_.size() == 1 && kind != EventKind::kThreadCreate && steps_ + 1 <= step_check_at_) {
    ++steps_;
  } else {
    Reschedule(/*willing_to_wait=*/false);
  }
  // The interceptor acts after its point; what its step touches is the
  // footprint RecordPoint gave it, so not ReadinessMayHaveChanged.
  ForgetEnabled();
  if (races_ != nullptr) [[unlikely]]
    SyncEdgeForRaces(kind, object, /*after_point=*/true);
  if (!self.pending_signals.empty()) DeliverPendingSignals(*this);
}

// An access's check for races (races=1), its common cases first: a read
// the write after it checks (__sim_site::read_then_written), inline, before
// any frame is made (a third of whole_program_loop's accesses); then, in a
// function of its own off the scheduler's path, a plain access of a thread
// outside foreign code (race_checks.h), in one granule, that the detector's
// own-thread path takes. The rest, and the report of a race, out of line in
// CheckForRace.
[[gnu::always_inline]] inline void World::CheckAccessForRace(EventKind kind, const void* object, unsigned size,
                                                             const __sim_site* source) {
  if (kind == EventKind::kRead && source->read_then_written != 0 && running_->foreign_calls == 0) return;
  CheckPlainAccessForRace(kind, race_address_.Of(object, running_->tcb), size, source);
}

[[gnu::noinline]] void World::CheckPlainAccessForRace(EventKind kind, const void* object, unsigned size,
                                                      const __sim_site* source) {
  const SimThread& self = *running_;
  const bool own_thread_path = (kind == EventKind::kRead || kind == EventKind::kWrite) && self.foreign_calls == 0;
  if (own_thread_path && races_->AccessedWithoutRace(self.id, reinterpret_cast<std::uintptr_t>(object), size, source,
                                                     kind == EventKind::kWrite, /*atomic=*/false, choice_points_)) {
    return;
  }
  CheckForRace(kind, object, size, source, /*own_thread_path_tried=*/own_thread_path);
}

void World::AccessSchedulingPoint(EventKind kind, const void* object, unsigned size, const __sim_site* source) {
  SimThread& self = *running_;
  ++self.points;
  if (races_ != nullptr) [[unlikely]]
    ForeignCodeEdge(*this, /*after_point=*/false);
  if (keep_transitions_) [[unlikely]]
    EndTransition(self, AccessFootprint(kind, object, size));
  trace_.Record(steps_, now_ns_, self.id, kind, object, source, EventsInterleave());
  self.last_site.source = source;
  self.last_kind = kind;
  self.last_object = object;  // what pos sees as this thread's next operation
  // As in SchedulingPoint (an access is never a thread creation), and no
  // choice either while the running thread is known to be the only enabled
  // one: then PickNext would count the step and return it, at the cost of
  // a call.
  if ((threads_.size() == 1 || OnlyRunnerEnabled(self)) && steps_ + 1 <= step_check_at_) {
    if (enabled_cache_check_requested && enabled_known_) [[unlikely]]
      CheckKnownEnabled(self);
    ++steps_;
    // Until something may make another thread runnable, its next accesses
    // decide nothing either: they take GoOnUnasked's path, as points that
    // are not choice points. Not where every step's footprint is kept, nor
    // where each point's trust in the last poll is to be checked.
    if (!keep_transitions_ && !enabled_cache_check_requested) {
      unasked_access_limit_ = step_check_at_;
      unasked_choice_points_ = false;
      unasked_watched_.clear();
    }
  } else {
    Reschedule(/*willing_to_wait=*/false);
  }
  if (races_ != nullptr) [[unlikely]]
    CheckAccessForRace(kind, object, size, source);
  if (!self.pending_signals.empty()) DeliverPendingSignals(*this);
}

void World::YieldPoint(EventKind kind, const void* object, const Site& site) {
  SimThread& self = *running_;
  RecordPoint(kind, object, site);
  if (races_ != nullptr) [[unlikely]]
    ForeignCodeEdge(*this, /*after_point=*/false);  // a oneTBB worker's yield
  Reschedule(/*willing_to_wait=*/true);
  if (races_ != nullptr) [[unlikely]]
    ForeignCodeEdge(*this, /*after_point=*/true);
  ReadinessMayHaveChanged();  // the interceptor acts after its point
  if (!self.pending_signals.empty()) DeliverPendingSignals(*this);
}

bool World::Block(const Wait& wait) {
  SimThread& self = *running_;
  self.clock_reads_since_wait = 0;
  self.wait = wait;
  self.woken = false;
  self.state = ThreadState::kBlocked;
  // This thread is no longer enabled. (An interceptor's own point, which
  // comes first, has dropped the last poll already; Block does not rely on
  // it.) Not ReadinessMayHaveChanged: no model changed, and the step that
  // ends here touched what its point said (a lock found held).
  ForgetEnabled();
  ++self.points;
  // After the wait, the interceptor acts on what it waited for.
  if (keep_transitions_) [[unlikely]]
    EndTransition(self, Footprint{});
  Reschedule(/*willing_to_wait=*/false);
  const bool satisfied = self.woken || (wait.ready != nullptr && wait.ready(wait.model));
  self.state = ThreadState::kRunnable;
  self.woken = false;
  if (races_ != nullptr) [[unlikely]] {
    if (self.wait.object != nullptr) races_->Acquire(self.id, self.wait.object);  // a post's, a wake's
    ForeignCodeEdge(*this, /*after_point=*/true);
  }
  self.wait = Wait{};
  ReadinessMayHaveChanged();  // the interceptor acts after the wait (takes the lock it waited for)
  // After the wait is over, so a handler that reaches a scheduling point
  // of its own finds this thread runnable, not inside the wait.
  if (!self.pending_signals.empty()) DeliverPendingSignals(*this);
  return !satisfied;
}

bool World::IsEnabled(const SimThread& thread) const {
  switch (thread.state) {
    case ThreadState::kRunnable: return true;
    case ThreadState::kFinished: return false;
    case ThreadState::kBlocked:
      return thread.woken || (thread.wait.ready != nullptr && thread.wait.ready(thread.wait.model)) ||
             (thread.wait.deadline_ns.has_value() && now_ns_ >= *thread.wait.deadline_ns);
  }
  return false;
}

bool World::CollectEnabled(const SimThread& current) {
  // enabled_ has a slot for every unfinished thread (CreateThread sees to
  // it), so this writes without a capacity check per thread.
  ThreadId* out = enabled_.data();
  bool current_enabled = false;
  for (const SimThread* thread : unfinished_) {
    if (!IsEnabled(*thread)) continue;
    *out++ = thread->id;
    current_enabled |= thread == &current;
  }
  enabled_count_ = static_cast<std::size_t>(out - enabled_.data());
  enabled_known_ = true;
  return current_enabled;
}

void World::CheckKnownEnabled(const SimThread& running) {
  const std::vector<ThreadId> known(enabled_.begin(), enabled_.begin() + enabled_count_);
  CollectEnabled(running);
  if (std::equal(known.begin(), known.end(), enabled_.begin(), enabled_.begin() + enabled_count_)) return;
  // Name what the threads that differ waited for: the model behind that
  // wait changed since the last poll without saying so.
  auto names = [this](const std::vector<ThreadId>& ids) {
    std::string text;
    for (ThreadId id : ids) {
      const SimThread& thread = *threads_[id];
      text += (text.empty() ? "T" : ", T") + std::to_string(id) +
              (thread.state == ThreadState::kBlocked ? std::string(" (") + thread.wait.description + ")" : "");
    }
    return text.empty() ? std::string("none") : text;
  };
  const std::vector<ThreadId> polled(enabled_.begin(), enabled_.begin() + enabled_count_);
  Die(exit_status::kEnvironment, {"internal error (SIM_CHECK_ENABLED_CACHE): T", std::to_string(running.id),
                                  " skipped the poll at a scheduling point, trusting the last one, which found ",
                                  names(known), " enabled, but a poll now finds ", names(polled),
                                  ": what the threads that differ waited for changed since the last poll without "
                                  "World::ReadinessMayHaveChanged()"});
}

std::span<const PendingOperation> World::GatherPendingOperations(std::span<const ThreadId> threads) {
  pending_.clear();
  for (ThreadId id : threads) {
    const SimThread& thread = *threads_[id];
    // In place, as RecordDecision writes (no stack copy).
    PendingOperation& operation = pending_.emplace_back();
    operation.thread_points = thread.points;
    if (thread.state == ThreadState::kBlocked) {
      operation.object = thread.wait.object;  // it goes on with what it waited for (a lock it now takes)
    } else {
      operation.object = thread.last_object;
      operation.site = thread.last_site.source;
      operation.writes = !(thread.last_kind == EventKind::kRead || thread.last_kind == EventKind::kAtomicLoad ||
                           thread.last_kind == EventKind::kRwlockRead);
    }
  }
  return pending_;
}

void World::AdvanceClockForRepeatedRead() {
  SimThread& self = *running_;
  const std::uint64_t repeats = self.clock_reads_since_wait++;
  if (repeats == 0) return;
  const std::uint64_t doublings = std::min<std::uint64_t>(repeats - 1, 20);
  now_ns_ += std::min(kFirstRepeatedReadNs << doublings, kMaxRepeatedReadNs);
  ReadinessMayHaveChanged();  // a sleeper's deadline may have passed
}

bool World::AdvanceClockToNextDeadline() {
  std::optional<std::uint64_t> earliest;
  for (auto& thread : threads_) {
    if (thread->state == ThreadState::kBlocked && thread->wait.deadline_ns.has_value() &&
        *thread->wait.deadline_ns > now_ns_ && (!earliest || *thread->wait.deadline_ns < *earliest)) {
      earliest = thread->wait.deadline_ns;
    }
  }
  if (!earliest) return false;
  now_ns_ = *earliest;
  ReadinessMayHaveChanged();  // deadlines passed
  return true;
}

bool World::WakeOneIdleWaiter() {
  std::vector<ThreadId> idle;
  for (auto& thread : threads_) {
    if (thread->state == ThreadState::kBlocked && !thread->woken && thread->wait.released_when_idle) {
      idle.push_back(thread->id);
    }
  }
  if (idle.empty()) return false;
  ThreadId chosen = idle.front();
  if (idle.size() > 1) chosen = Decide(idle, *running_, /*current_enabled=*/false, /*current_yielding=*/false);
  Wake(*threads_[chosen]);
  return true;
}

// The scheduler loop: pick the next thread at a scheduling point of the
// running thread (which may have just blocked or finished). What is rare
// (the step limit, waiting for the clock, a deadlock, a replay mismatch) is
// out of line, so that a switch does not pay for its frame and registers.
SimThread& World::PickNext(bool willing_to_wait) {
  if (++steps_ > step_check_at_) [[unlikely]]
    CheckSteps();
  unasked_access_limit_ = 0;  // a strategy's promise holds until it is asked again
  SimThread& current = *running_;
  // Trusting the last poll when nothing has been reported since that may
  // have changed it: the running thread is then in it, since a thread runs
  // only after a poll found it enabled, and stops being enabled only by
  // blocking or finishing, which report.
  bool current_enabled = true;
  if (!enabled_known_) {
    current_enabled = CollectEnabled(current);
  } else if (enabled_cache_check_requested) [[unlikely]] {
    CheckKnownEnabled(current);
  }
  // No other thread can run: a yielding thread lets the clock move first.
  if (enabled_count_ == (current_enabled ? 1u : 0u) && (willing_to_wait || enabled_count_ == 0)) [[unlikely]] {
    current_enabled = WaitUntilAThreadIsEnabled(current, current_enabled, willing_to_wait);
  }
  // Ids in enabled_ are valid indexes of threads_.
  if (enabled_count_ > 1) return Choose(current, current_enabled, willing_to_wait);
  return *threads_[enabled_[0]];
}

bool World::WaitUntilAThreadIsEnabled(const SimThread& current, bool current_enabled, bool willing_to_wait) {
  for (;;) {
    if (willing_to_wait && enabled_count_ == (current_enabled ? 1u : 0u) && AdvanceClockToNextDeadline()) {
      willing_to_wait = false;
    } else if (enabled_count_ != 0) {
      return current_enabled;
    } else if (!AdvanceClockToNextDeadline() && !WakeOneIdleWaiter()) {
      EndExecution(Verdict::kDeadlock, DescribeDeadlock());
    }
    current_enabled = CollectEnabled(current);
  }
}

inline ThreadId World::Decide(std::span<const ThreadId> candidates, const SimThread& current, bool current_enabled,
                              bool current_yielding) {
  ++choice_points_;
  const ChoicePoint at{current.id,
                       current.points,
                       current_enabled,
                       current_yielding,
                       PendingOperations(candidates),
                       transitions_.size(),
                       current_enabled && choices_gone_on_ >= kTimeSliceChoicePoints,
                       choice_points_};
  const Choice choice = strategy_.Choose(candidates, at);
  const bool goes_on = current_enabled && choice.thread == current.id;
  choices_gone_on_ = goes_on ? choices_gone_on_ + 1 : 0;
  if (goes_on && choice.same_for != 0) [[unlikely]]
    LetGoOnUnasked(choice.same_for, candidates, current.id);
  if (!choice.mismatch.empty()) [[unlikely]]
    EndOnScheduleMismatch(choice.mismatch);
  if (keep_decisions_) RecordDecision(at, choice.thread, /*preemption=*/current_enabled && choice.thread != current.id);
  return choice.thread;
}

void World::LetGoOnUnasked(std::uint64_t same_for, std::span<const ThreadId> enabled, ThreadId running) {
  // Where every decision is recorded, or every step's footprint, the
  // strategy is asked at every point.
  if (keep_decisions_ || keep_transitions_) return;
  // A strategy that sees pending operations (pos) answers anew where the
  // running thread's access races with another's: those are watched.
  unasked_watched_.clear();
  if (strategy_wants_pending_) {
    for (std::size_t i = 0; i < enabled.size(); ++i) {
      if (enabled[i] == running) continue;
      if (pending_[i].object == nullptr) return;  // races with everything
      unasked_watched_.push_back(pending_[i]);
    }
  }
  // The point where the time slice ends is asked (the strategy may answer
  // otherwise there); an answer given past it stands.
  const std::uint64_t to_slice_end =
      choices_gone_on_ <= kTimeSliceChoicePoints ? kTimeSliceChoicePoints - choices_gone_on_ : UINT64_MAX;
  unasked_access_limit_ = std::min(steps_ + std::min(same_for, to_slice_end), step_check_at_);
  unasked_choice_points_ = true;
}

void World::GoOnUnasked(EventKind kind, const void* object, unsigned size, const __sim_site* source) {
  const PendingOperation access{object, kind != EventKind::kRead && kind != EventKind::kAtomicLoad};
  for (const PendingOperation& watched : unasked_watched_) {
    if (Conflict(watched, access)) return AccessSchedulingPoint(kind, object, size, source);
  }
  // AccessSchedulingPoint's bookkeeping, written out without its footprint
  // branch (never taken here): sharing one helper cost 0.7 ns an access, a
  // fifth of this path (bench/whole_program_access.py, A/B in one run).
  SimThread& self = *running_;
  ++self.points;
  trace_.Record(steps_, now_ns_, self.id, kind, object, source, EventsInterleave());
  self.last_site.source = source;
  self.last_kind = kind;
  self.last_object = object;
  choice_points_ += unasked_choice_points_;
  choices_gone_on_ += unasked_choice_points_;
  ++steps_;
  // No switch here, so nothing to release first: the access is checked as
  // AccessSchedulingPoint checks it.
  if (races_ != nullptr) [[unlikely]]
    CheckAccessForRace(kind, object, size, source);
}

inline SimThread& World::Choose(const SimThread& current, bool current_enabled, bool current_yielding) {
  const std::span<const ThreadId> enabled(enabled_.data(), enabled_count_);
  SimThread& next = *threads_[Decide(enabled, current, current_enabled, current_yielding)];
  if (current_enabled && &next != &current) {
    ++outcome_.preemptions;
    // Only the story of a shrunk run reads them, and it needs the whole trace.
    if (trace_.keeps_all()) RecordPreemption(current, next);
  }
  return next;
}

void World::RecordPreemption(const SimThread& preempted, const SimThread& switched_to) {
  Preemption& record = preemptions_.emplace_back();
  record.event_index = trace_.events() == 0 ? 0 : trace_.events() - 1;
  record.preempted = preempted.id;
  record.switched_to = switched_to.id;
}

std::uint64_t World::StepsWithOthersAlive() const {
  return shared_steps_ + (unfinished_.size() >= 2 ? steps_ - shared_since_ : 0);
}

void World::ScheduleStepCheck() {
  std::uint64_t next = options_.livelock_steps != 0 ? next_look_ : UINT64_MAX;
  // Where the limit would be reached if every step from here on counted;
  // CheckSteps looks again then.
  const std::uint64_t counted = StepsWithOthersAlive();
  if (options_.max_steps > counted) next = std::min(next, steps_ + (options_.max_steps - counted));
  step_check_at_ = next;
  lone_access_limit_ = lone_path_ ? step_check_at_ : 0;
}

void World::CheckSteps() {
  if (StepsWithOthersAlive() > options_.max_steps) EndOnStepLimit();
  if (options_.livelock_steps != 0 && (progress_watch_.watching() || steps_ > next_look_)) {
    if (!progress_watch_.watching()) progress_watch_.Begin(steps_);
    switch (progress_watch_.Observe(running_->id, running_->last_object, now_ns_)) {
      case ProgressWatch::Verdict::kWatching:
        // Every point comes back here until the watch decides.
        step_check_at_ = steps_;
        lone_access_limit_ = 0;
        return;
      case ProgressWatch::Verdict::kLivelock: EndOnLivelock();
      case ProgressWatch::Verdict::kProgress: next_look_ = steps_ + options_.livelock_steps; break;
    }
  }
  ScheduleStepCheck();
}

void World::EndOnStepLimit() {
  EndExecution(Verdict::kStepLimit,
               std::to_string(options_.max_steps) +
                   " scheduling points with two or more threads alive without the execution ending, and no "
                   "cycle the livelock check could see (a thread spinning on a counter that keeps changing, or "
                   "on memory only uninstrumented code touches); each thread's last site is below. Raise "
                   "max_steps in SIM_OPTIONS if the program is just long");
}

void World::EndOnLivelock() {
  std::vector<std::uint32_t> ids = progress_watch_.threads_in_cycle();
  std::sort(ids.begin(), ids.end());
  std::string threads;
  for (std::uint32_t id : ids) threads += (threads.empty() ? "T" : ", T") + std::to_string(id);
  const std::size_t words = progress_watch_.words_in_cycle();
  EndExecution(Verdict::kLivelock,
               threads + " went round the same " + std::to_string(words) + (words == 1 ? " word" : " words") +
                   " of memory from step " + std::to_string(progress_watch_.cycle_started_at()) +
                   " on, leaving them and the clock as they were: a thread spinning on a flag that no other "
                   "thread will set, or threads yielding to each other forever. Each thread's last site is "
                   "below. If the loop is honest work (it keeps state only in registers or in uninstrumented "
                   "code), set livelock_steps=0 in SIM_OPTIONS");
}

void World::EndOnScheduleMismatch(std::string_view mismatch) {
  outcome_.schedule_mismatch = mismatch;
  EndExecution(Verdict::kUnsupported, "replay: " + outcome_.schedule_mismatch);
}

void World::RecordDecision(const ChoicePoint& at, ThreadId chosen, bool preemption) {
  // Constructed in the vector's own storage: push_back of a braced
  // temporary built it on the stack with narrow stores and copied it with
  // wide loads, which cannot be forwarded from those stores and stalled
  // every choice point (a third of Reschedule's time in the profile).
  outcome_.anchored.emplace_back(at.current, at.current_points, chosen, preemption, /*deferred=*/false);
}

}  // namespace sim::internal

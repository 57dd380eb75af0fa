// world.cpp: thread lifecycle, blocking, the scheduler loop and fiber switches.
#include "core/world.h"

#include <cxxabi.h>

#include <algorithm>

#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>

#include "interceptors/keys.h"

extern "C" {
unsigned char __sim_world_active = 0;
}

namespace sim::internal {

World* current_world = nullptr;

namespace {

// How many choice points the previous execution had. The next one of the
// same body usually has about as many, and reserving that much up front
// spares the decision records their doubling (a copy and, for long
// executions, fresh pages to fault in) while the execution runs.
std::size_t previous_choice_points = 0;
// What the previous world allocated, kept for the next one: an execution of
// a small body otherwise spends as long in malloc and free (its thread
// objects, the thread list, the scratch lists, the decision records) as in
// scheduling, and freeing the thread objects made glibc consolidate its
// free lists at the end of every execution.
std::vector<Preemption> spare_preemptions;
std::vector<std::unique_ptr<SimThread>> spare_threads;  // reset, ready for CreateThread
std::vector<std::unique_ptr<SimThread>> spare_thread_list;
std::vector<ThreadId> spare_enabled;
std::vector<SimThread*> spare_unfinished;
std::vector<PendingOperation> spare_pending;
std::vector<AnchoredDecision> spare_anchored;
// A 1,000-thread world keeps its thread objects; beyond this many, the
// memory goes back to malloc.
constexpr std::size_t kMaxSpareThreads = 1024;

template <typename T>
void TakeSpare(std::vector<T>& into, std::vector<T>& spare) {
  into.swap(spare);
  into.clear();
}

std::string DescribeCurrentException() {
  std::type_info* type = abi::__cxa_current_exception_type();
  std::string name = "an exception of unknown type";
  if (type != nullptr) {
    int status = 0;
    char* demangled = abi::__cxa_demangle(type->name(), nullptr, nullptr, &status);
    name = status == 0 && demangled != nullptr ? demangled : type->name();
    std::free(demangled);
  }
  try {
    throw;
  } catch (const std::exception& exception) {
    return name + ": " + exception.what();
  } catch (...) {
    return name;
  }
}

}  // namespace

void ThreadEntry() {
  World& world = *current_world;
  world.AfterSwitch();
  SimThread& self = world.running();
  if (self.borrowed_tcb) {
    // What a previous borrower may have left; a new thread starts clean.
    errno = 0;
    ClearPthreadKeyValues();
  }
  if (!self.pending_signals.empty()) DeliverPendingSignals(world);
  try {
    self.body();
  } catch (const ThreadExitUnwind&) {
    // pthread_exit: the result is already stored.
  } catch (...) {
    world.EndExecution(Verdict::kUncaughtException,
                       "uncaught exception in T" + std::to_string(self.id) + ": " + DescribeCurrentException());
  }
  world.ExitRunningThread();
}

namespace {
bool enabled_cache_check_requested = false;
}  // namespace

void ReadSelfChecksFromEnvironment() {
  enabled_cache_check_requested = std::getenv("SIM_CHECK_ENABLED_CACHE") != nullptr;
}

World::World(const Options& options, Strategy& strategy, std::uint64_t seed)
    : options_(options), strategy_(strategy) {
  strategy_.BeginExecution(seed);
  strategy_wants_pending_ = strategy_.WantsPendingOperations();
  driver_.id = UINT32_MAX;
  TakeSpare(outcome_.anchored, spare_anchored);
  outcome_.anchored.reserve(previous_choice_points + previous_choice_points / 8);
  TakeSpare(preemptions_, spare_preemptions);
  TakeSpare(threads_, spare_thread_list);
  TakeSpare(enabled_, spare_enabled);
  TakeSpare(unfinished_, spare_unfinished);
  TakeSpare(pending_, spare_pending);
}

World::~World() {
  for (auto& thread : threads_) {
    ReleaseResources(*thread);
    // Its body's captures are destroyed here, as before recycling.
    *thread = SimThread{};
    if (spare_threads.size() < kMaxSpareThreads) spare_threads.push_back(std::move(thread));
  }
  threads_.clear();
  threads_.swap(spare_thread_list);
  preemptions_.swap(spare_preemptions);
  enabled_.swap(spare_enabled);
  unfinished_.swap(spare_unfinished);
  pending_.swap(spare_pending);
}

void World::RecycleOutcome(Outcome&& outcome) {
  outcome.anchored.swap(spare_anchored);
}

Outcome World::Run(std::function<void()> body, MainTcb main_tcb) {
  current_world = this;
  main_tcb_ = main_tcb;
  driver_.tcb = CurrentThreadPointer();
  running_ = &driver_;
  SimThread& main = CreateThread(std::move(body));
  lone_path_ = !trace_.keeps_all();
  next_look_ = options_.livelock_steps;
  ScheduleStepCheck();
  if (!main.borrowed_tcb) SetSimulatedThreadMarker(true);
  __sim_world_active = 1;
  SwitchTo(main);  // returns when the execution has ended
  if (!main.borrowed_tcb) SetSimulatedThreadMarker(false);
  EndModels();
  current_world = nullptr;
  RefreshSlowPathFlag();

  previous_choice_points = choice_points_;
  std::string mismatch = strategy_.EndExecution(choice_points_);
  if (!mismatch.empty() && outcome_.schedule_mismatch.empty()) outcome_.schedule_mismatch = std::move(mismatch);
  outcome_.trace_hash = trace_.hash();
  outcome_.steps = steps_;
  outcome_.threads_left_running = unfinished_.size();
  if (outcome_.verdict != Verdict::kPass) outcome_.failure_signature = FailureSignature();
  if (annotate_outcome != nullptr) annotate_outcome(outcome_);
  return std::move(outcome_);
}

void World::DescribeFailure(Outcome& outcome) {
  DescribeThreads(outcome);
  if (!trace_.all().empty()) {
    outcome.story = TellStory(trace_.all(), preemptions_);
    outcome.events = trace_.all();
  }
}

SimThread* World::FindThread(ThreadPointer tcb) {
  for (auto& thread : threads_) {
    if (thread->tcb == tcb) return thread.get();
  }
  return nullptr;
}

SimThread& World::CreateThread(std::function<void()> body) {
  std::unique_ptr<SimThread> thread;
  if (spare_threads.empty()) {
    thread = std::make_unique<SimThread>();
  } else {
    thread = std::move(spare_threads.back());
    spare_threads.pop_back();
  }
  thread->id = static_cast<ThreadId>(threads_.size());
  thread->body = std::move(body);
  thread->stack = GlobalStackPool().Acquire(options_.stack_size);
  if (threads_.empty() && main_tcb_ == MainTcb::kCallers) {
    thread->tcb = driver_.tcb;
    thread->borrowed_tcb = false;
  } else {
    thread->tcb = BorrowThreadControlBlock();
  }
  thread->context = MakeFiber(thread->stack.lowest, thread->stack.size, ThreadEntry);
  strategy_.OnThreadCreated(thread->id);
  unfinished_.push_back(thread.get());
  if (unfinished_.size() == 2) shared_since_ = steps_;
  ReadinessMayHaveChanged();  // a new runnable thread
  if (enabled_.size() < unfinished_.size()) enabled_.resize(unfinished_.size());
  threads_.push_back(std::move(thread));
  ++live_threads_;
  if (threads_.size() > 1) LeaveLonePath();
  return *threads_.back();
}

inline void World::RecordPoint(EventKind kind, const void* object, const Site& site) {
  SimThread& self = *running_;
  ++self.points;
  trace_.Record(steps_, now_ns_, self.id, kind, object, site, EventsInterleave());
  self.last_site = site;
  self.last_kind = kind;
  self.last_object = object;
}

void World::SchedulingPoint(EventKind kind, const void* object, const Site& site) {
  SimThread& self = *running_;
  RecordPoint(kind, object, site);
  // Nothing to decide while T0 is the only thread (before the first one
  // starts): count the step, and leave the scheduler out.
  if (threads_.size() == 1 && kind != EventKind::kThreadCreate && steps_ + 1 <= step_check_at_) {
    ++steps_;
  } else {
    Reschedule(/*willing_to_wait=*/false);
  }
  ReadinessMayHaveChanged();  // the interceptor acts after its point
  if (!self.pending_signals.empty()) DeliverPendingSignals(*this);
}

void World::AccessSchedulingPoint(EventKind kind, const void* object, const __sim_site* source) {
  SimThread& self = *running_;
  ++self.points;
  trace_.Record(steps_, now_ns_, self.id, kind, object, source, EventsInterleave());
  self.last_site.source = source;
  self.last_kind = kind;
  self.last_object = object;  // what pos sees as this thread's next operation
  // As in SchedulingPoint (an access is never a thread creation), and no
  // choice either while the running thread is known to be the only enabled
  // one: then PickNext would count the step and return it, at the cost of
  // a call.
  if ((threads_.size() == 1 || OnlyRunnerEnabled(self)) && steps_ + 1 <= step_check_at_) {
    if (enabled_cache_check_requested && enabled_known_) [[unlikely]] CheckKnownEnabled(self);
    ++steps_;
  } else {
    Reschedule(/*willing_to_wait=*/false);
  }
  if (!self.pending_signals.empty()) DeliverPendingSignals(*this);
}

void World::YieldPoint(EventKind kind, const void* object, const Site& site) {
  SimThread& self = *running_;
  RecordPoint(kind, object, site);
  Reschedule(/*willing_to_wait=*/true);
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
  // comes first, has dropped the last poll already; Block does not rely on it.)
  ReadinessMayHaveChanged();
  ++self.points;
  Reschedule(/*willing_to_wait=*/false);
  const bool satisfied = self.woken || (wait.ready != nullptr && wait.ready(wait.model));
  self.state = ThreadState::kRunnable;
  self.woken = false;
  self.wait = Wait{};
  ReadinessMayHaveChanged();  // the interceptor acts after the wait (takes the lock it waited for)
  // After the wait is over, so a handler that reaches a scheduling point
  // of its own finds this thread runnable, not inside the wait.
  if (!self.pending_signals.empty()) DeliverPendingSignals(*this);
  return !satisfied;
}

bool World::IsEnabled(const SimThread& thread) const {
  switch (thread.state) {
    case ThreadState::kRunnable:
      return true;
    case ThreadState::kFinished:
      return false;
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
  std::fprintf(stderr,
               "simthread: internal error (SIM_CHECK_ENABLED_CACHE): T%u skipped the poll at a scheduling point, "
               "trusting the last one, which found %s enabled, but a poll now finds %s: what the threads that "
               "differ waited for changed since the last poll without World::ReadinessMayHaveChanged()\n",
               running.id, names(known).c_str(), names(polled).c_str());
  std::abort();
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
  if (idle.size() > 1) {
    ++choice_points_;
    const ChoicePoint at{running_->id, running_->points, /*current_enabled=*/false, /*current_yielding=*/false,
                         PendingOperations(idle)};
    const Choice choice = strategy_.Choose(idle, at);
    if (!choice.mismatch.empty()) EndOnScheduleMismatch(choice.mismatch);
    RecordDecision(at, choice.thread, /*preemption=*/false);
    chosen = choice.thread;
  }
  Wake(*threads_[chosen]);
  return true;
}

// The scheduler loop: pick the next thread at a scheduling point of the
// running thread (which may have just blocked or finished). What is rare
// (the step limit, waiting for the clock, a deadlock, a replay mismatch) is
// out of line, so that a switch does not pay for its frame and registers.
SimThread& World::PickNext(bool willing_to_wait) {
  if (++steps_ > step_check_at_) [[unlikely]] CheckSteps();
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

inline SimThread& World::Choose(const SimThread& current, bool current_enabled, bool current_yielding) {
  ++choice_points_;
  const std::span<const ThreadId> enabled(enabled_.data(), enabled_count_);
  const ChoicePoint at{current.id, current.points, current_enabled, current_yielding, PendingOperations(enabled)};
  const Choice choice = strategy_.Choose(enabled, at);
  if (!choice.mismatch.empty()) [[unlikely]] EndOnScheduleMismatch(choice.mismatch);
  SimThread& next = *threads_[choice.thread];
  const bool preemption = current_enabled && &next != &current;
  RecordDecision(at, choice.thread, preemption);
  if (preemption) {
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
      case ProgressWatch::Verdict::kLivelock:
        EndOnLivelock();
      case ProgressWatch::Verdict::kProgress:
        next_look_ = steps_ + options_.livelock_steps;
        break;
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

void World::ReleaseFinishedStack(SimThread& from) {
  // Its fiber will never run again, and we are no longer on its stack. The
  // objects on it are gone (the next thread may get the same stack).
  ForgetModelsIn(from.stack.lowest, from.stack.top());
  GlobalStackPool().Release(from.stack);
  from.stack = Stack{};
  if (from.detached || from.joined) RetireThread(from);
}

void World::ForgetModels(ModelMap::iterator first, ModelMap::iterator last) {
  const bool was_disposing = disposing_models_;
  disposing_models_ = true;  // erasing frees map nodes
  while (first != last) {
    if (&first->second == cached_model_slot_) cached_model_slot_ = nullptr;
    std::unique_ptr<SyncModel> model = std::move(first->second.model);
    first = models_.erase(first);
    ++models_version_;
    Dispose(std::move(model));
  }
  disposing_models_ = was_disposing;
}

void World::ForgetModelsOfMemory(ModelMap::iterator first, const void* end) {
  while (first != models_.end() && first->first < end) {
    auto next = std::next(first);
    if (first->second.model == nullptr || !first->second.model->OutlivesMemory()) ForgetModels(first, next);
    first = next;
  }
}

const void* World::FindFirstModelAtOrAbove(const void* address) {
  const auto it = models_.lower_bound(address);
  gap_above_ = it == models_.begin() ? 0 : reinterpret_cast<std::uintptr_t>(std::prev(it)->first);
  gap_end_ = it == models_.end() ? kNoModelAbove : reinterpret_cast<std::uintptr_t>(it->first);
  gap_version_ = models_version_;
  return it == models_.end() ? nullptr : it->first;
}

void World::Dispose(std::unique_ptr<SyncModel> model) {
  if (model == nullptr) return;
  const bool was_disposing = disposing_models_;
  disposing_models_ = true;
  // Dropping a model changes no thread's readiness: one a blocked thread's
  // Wait reads is kept as it is, and a new object at the address gets a
  // model of its own.
  bool in_use = model->Busy();
  for (const SimThread* thread : unfinished_) {
    in_use |= thread->state == ThreadState::kBlocked && thread->wait.model == static_cast<const void*>(model.get());
  }
  if (in_use) {
    model->forgotten = true;
    retired_models_.push_back(std::move(model));
  } else {
    model.reset();
  }
  disposing_models_ = was_disposing;
}

void World::EndModels() {
  // Objects on an abandoned fiber's stack are included: that stack is dead
  // memory, the pool's, until a new thread's frames overwrite it.
  for (auto& [address, slot] : models_) {
    if (slot.model != nullptr) slot.model->AtExecutionEnd(address);
  }
}

std::vector<std::uint32_t> Outcome::decisions() const {
  std::vector<std::uint32_t> chosen(anchored.size());
  for (std::size_t i = 0; i < anchored.size(); ++i) chosen[i] = anchored[i].chosen;
  return chosen;
}

void World::RecordDecision(const ChoicePoint& at, ThreadId chosen, bool preemption) {
  // Constructed in the vector's own storage: push_back of a braced
  // temporary built it on the stack with narrow stores and copied it with
  // wide loads, which cannot be forwarded from those stores and stalled
  // every choice point (a third of Reschedule's time in the profile).
  outcome_.anchored.emplace_back(at.current, at.current_points, chosen, preemption, /*deferred=*/false);
}

void World::ExitRunningThread() {
  SimThread& self = *running_;
  while (!self.thread_local_destructors.empty()) {
    auto [destructor, object] = self.thread_local_destructors.back();
    self.thread_local_destructors.pop_back();
    destructor(object);
  }
  RunPthreadKeyDestructors();
  ++self.points;  // invariant: every choice point of a thread has its own (thread, points) anchor
  trace_.Record(steps_, now_ns_, self.id, EventKind::kThreadExit, nullptr, self.last_site, EventsInterleave());
  self.state = ThreadState::kFinished;
  unfinished_.erase(std::find(unfinished_.begin(), unfinished_.end(), &self));
  if (unfinished_.size() == 1) shared_steps_ += steps_ - shared_since_;
  ReadinessMayHaveChanged();  // its joiners
  --live_threads_;
  if (self.id == 0) EndExecution(Verdict::kPass, "");  // the body returned: as when main returns
  Reschedule(/*willing_to_wait=*/false);
  std::abort();  // invariant: a finished thread is never scheduled again
}

void World::RetireThread(SimThread& thread) {
  if (thread.tcb != nullptr && thread.stack.lowest == nullptr) {
    if (thread.borrowed_tcb) ReturnThreadControlBlock(thread.tcb);
    thread.tcb = nullptr;
  }
}

void World::ReleaseResources(SimThread& thread) {
  // An abandoned fiber is dropped without unwinding: its destructors would
  // run user code outside the execution. What its stack owned is leaked.
  if (thread.stack.lowest != nullptr) {
    GlobalStackPool().Release(thread.stack);
    thread.stack = Stack{};
  }
  if (thread.tcb != nullptr) {
    if (thread.borrowed_tcb) ReturnThreadControlBlock(thread.tcb);
    thread.tcb = nullptr;
  }
}

void World::EndExecution(Verdict verdict, std::string message, int signal_number) {
  if (!ended_) {
    ended_ = true;
    ended_on_ = running_;
    outcome_.verdict = verdict;
    outcome_.message = std::move(message);
    outcome_.signal_number = signal_number;
  }
  SwitchTo(driver_);
  std::abort();  // invariant: the driver never resumes an ended execution
}

void World::EndExecutionByFault(std::string message, int signal_number) {
  if (!ended_) outcome_.process_suspect = true;
  EndExecution(Verdict::kCrash, std::move(message), signal_number);
}

std::string World::DescribeDeadlock() const {
  std::size_t blocked = 0;
  for (auto& thread : threads_) blocked += thread->state == ThreadState::kBlocked;
  return std::to_string(blocked) +
         (blocked == 1 ? " thread is blocked and no thread can run or wake it"
                       : " threads are blocked and no thread can run or wake them");
}

std::uint64_t World::FailureSignature() const {
  std::uint64_t signature = static_cast<std::uint64_t>(outcome_.verdict) * 1099511628211ULL;
  auto mix = [&signature](std::uint64_t value) { signature = (signature ^ value) * 1099511628211ULL; };
  if (outcome_.verdict == Verdict::kDeadlock) {
    // Which sites are stuck, in any order.
    std::uint64_t blocked_sites = 0;
    for (auto& thread : threads_) {
      if (thread->state == ThreadState::kBlocked) blocked_sites += thread->last_site.Hash() * 0x9e3779b97f4a7c15ULL;
    }
    mix(blocked_sites);
  } else if (ended_on_ != nullptr && ended_on_ != &driver_) {
    mix(ended_on_->last_site.Hash());
  }
  // A crash by another signal (a SIGSEGV where the run as found asserted)
  // is another failure.
  if (outcome_.verdict == Verdict::kCrash) mix(static_cast<std::uint64_t>(outcome_.signal_number));
  return signature;
}

void World::DescribeThreads(Outcome& outcome) {
  SiteNamer namer;
  for (auto& thread : threads_) namer.Add(thread->last_site);
  // The recent past: the ring, or a window of the whole trace when it was
  // kept (the reported execution), so library-internal stretches (gtest
  // formatting a failure) do not hide the user's events.
  constexpr std::size_t kWindow = 512;
  std::vector<Event> events = trace_.LastEvents();
  if (!trace_.all().empty()) {
    const std::vector<Event>& all = trace_.all();
    events.assign(all.end() - static_cast<std::ptrdiff_t>(std::min(all.size(), kWindow)), all.end());
  }
  for (const Event& event : events) namer.Add(event.site);
  // Each thread's last event at a user site in that window.
  std::vector<const Event*> last_user_event(threads_.size(), nullptr);
  for (auto it = events.rbegin(); it != events.rend(); ++it) {
    if (it->thread < threads_.size() && last_user_event[it->thread] == nullptr && namer.IsUserSite(it->site)) {
      last_user_event[it->thread] = &*it;
    }
  }

  auto where = [&namer](const Site& site) {
    std::string text = namer.Name(site);
    const std::string function = namer.Function(site);
    // A name without a line already is the function ("f() (libx.so)").
    if (!function.empty() && text.find(" (") == std::string::npos) text += " in " + function;
    return text;
  };
  for (auto& thread : threads_) {
    std::string line = "T" + std::to_string(thread->id) + (thread->id == 0 ? " 'main'" : "");
    switch (thread->state) {
      case ThreadState::kFinished:
        line += " finished";
        break;
      case ThreadState::kBlocked: {
        char object[32];
        std::snprintf(object, sizeof object, "%p", thread->wait.object);
        line += std::string(" blocked: ") + thread->wait.description + " " + object;
        if (thread->wait.blocker != nullptr) line += " (" + thread->wait.blocker(thread->wait.model) + ")";
        line += " at " + where(thread->last_site);
        break;
      }
      case ThreadState::kRunnable: {
        const Event* last = last_user_event[thread->id];
        line += std::string(thread.get() == ended_on_ ? " running" : " runnable") + ", last " +
                EventKindName(last != nullptr ? last->kind : thread->last_kind) + " at " +
                where(last != nullptr ? last->site : thread->last_site);
        break;
      }
    }
    outcome.threads.push_back(std::move(line));
  }
  // The last kReportedEvents at user sites; library-internal ones (gtest
  // reporting a failure, libstdc++ internals) are counted, not listed.
  constexpr std::size_t kReportedEvents = 20;
  std::vector<const Event*> shown;
  std::size_t omitted = 0;
  for (auto it = events.rbegin(); it != events.rend() && shown.size() < kReportedEvents; ++it) {
    if (namer.IsUserSite(it->site) || it->kind == EventKind::kThreadExit) {
      shown.insert(shown.begin(), &*it);
    } else {
      ++omitted;
    }
  }
  outcome.events_left_out = omitted;
  for (const Event* shown_event : shown) {
    const Event& event = *shown_event;
    char prefix[96];
    std::snprintf(prefix, sizeof prefix, "[step %" PRIu64 " t=%.6f] T%u ", event.step,
                  static_cast<double>(event.time_ns) / 1e9, event.thread);
    outcome.last_events.push_back(prefix + std::string(EventKindName(event.kind)) + " " + namer.Name(event.site));
  }
}

}  // namespace sim::internal

// world.cpp: an execution's start and end, thread lifecycle (create, exit,
// retire), and the registry of sync models. The scheduler loop is in
// scheduler.cpp; what the world reports about an ended execution, in
// world_report.cpp.
#include "core/world.h"

#include <cxxabi.h>

#include <algorithm>
#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>

#include "core/check.h"
#include "core/race_checks.h"
#include "interceptors/keys.h"
#include "race/race_detector.h"

extern "C" {
unsigned char __sim_world_active = 0;
unsigned char __sim_races_active = 0;
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
// The race detector (races=1), its shadow pages and clocks among them: an
// execution of a small body spent a tenth of its time allocating and
// freeing them (executions_bench's registry).
std::unique_ptr<RaceDetector> spare_races;
// A 1,000-thread world keeps its thread objects; beyond this many, the
// memory goes back to malloc.
constexpr std::size_t kMaxSpareThreads = 1024;

template <typename T>
void TakeSpare(std::vector<T>& into, std::vector<T>& spare) {
  into.swap(spare);
  into.clear();
}

}  // namespace

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

World::World(const Options& options, Strategy& strategy, std::uint64_t seed)
    : options_(options), strategy_(strategy), seed_(seed) {
  strategy_.BeginExecution(seed);
  strategy_wants_pending_ = strategy_.WantsPendingOperations();
  keep_transitions_ = strategy_.WantsTransitions() && options_.por != 0 && FirstUninstrumentedLibrary().empty();
  driver_.id = UINT32_MAX;
  TakeSpare(outcome_.anchored, spare_anchored);
  outcome_.anchored.reserve(previous_choice_points + previous_choice_points / 8);
  TakeSpare(preemptions_, spare_preemptions);
  TakeSpare(threads_, spare_thread_list);
  TakeSpare(enabled_, spare_enabled);
  TakeSpare(unfinished_, spare_unfinished);
  TakeSpare(pending_, spare_pending);
  if (options_.races != 0) {
    races_ = spare_races != nullptr ? std::move(spare_races) : std::make_unique<RaceDetector>();
    races_->Reset();
    InUninstrumentedLibrary(nullptr);  // reads the libraries' code ranges now, outside the world
    RaceSuppressionsOf(options_);      // and the suppressions file
  }
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
  if (races_ != nullptr) spare_races = std::move(races_);
}

void World::RecycleOutcome(Outcome&& outcome) { outcome.anchored.swap(spare_anchored); }

Outcome World::Run(std::function<void()> body, MainTcb main_tcb) {
  current_world = this;
  main_tcb_ = main_tcb;
  driver_.tcb = CurrentThreadPointer();
  running_ = &driver_;
  tls_switch_ = ChooseTlsSwitch(options_.tls_switch).mode;
  if (races_ != nullptr) {
    race_address_.Reset(tls_switch_ == TlsSwitch::kLazy, driver_.tcb);
    static_tls_reach_ = CurrentThreadLocalCensus().static_reach;
  }
  SimThread& main = CreateThread(std::move(body));
  lone_path_ = !trace_.keeps_all();
  next_look_ = options_.livelock_steps;
  ScheduleStepCheck();
  if (!main.borrowed_tcb) SetSimulatedThreadMarker(true);
  __sim_world_active = 1;
  __sim_races_active = races_ != nullptr;
  SwitchTo(main);  // returns when the execution has ended
  __sim_races_active = 0;
  if (!main.borrowed_tcb) SetSimulatedThreadMarker(false);
  EndModels();
  current_world = nullptr;
  RefreshSlowPathFlag();

  previous_choice_points = choice_points_;
  // An execution a data race ended never ran what follows the race, so it
  // cannot say which orders past it to reverse: it is handed over as not
  // reduced, and a bounded search tries every thread at each of its choice
  // points (shrinking a failure past another race missed schedules that
  // reach it: lazy_registry seed 2 stayed at 7 preemptions, where 1 does).
  if (keep_transitions_ && outcome_.verdict != Verdict::kDataRace) {
    for (const SimThread* thread : unfinished_) transitions_.push_back({thread->id, thread->footprint, kNoThread});
    strategy_.OnTransitions(transitions_);
  }
  std::string mismatch = strategy_.EndExecution(choice_points_);
  if (!mismatch.empty() && outcome_.schedule_mismatch.empty()) outcome_.schedule_mismatch = std::move(mismatch);
  outcome_.trace_hash = trace_.hash();
  outcome_.steps = steps_;
  outcome_.choice_points = choice_points_;
  outcome_.threads_left_running = unfinished_.size();
  if (outcome_.verdict != Verdict::kPass) outcome_.failure_signature = FailureSignature();
  if (annotate_outcome != nullptr) annotate_outcome(outcome_);
  return std::move(outcome_);
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
  if (races_ != nullptr) {
    for (const auto& [begin, end] : forget_before_next_thread_) races_->Forget(begin, end);
  }
  forget_before_next_thread_.clear();
  thread->stack = GlobalStackPool().Acquire(options_.stack_size);
  if (threads_.empty() && main_tcb_ == MainTcb::kCallers) {
    thread->tcb = driver_.tcb;
    thread->borrowed_tcb = false;
  } else {
    thread->tcb = BorrowThreadControlBlock();
  }
  if (tls_switch_ == TlsSwitch::kLazy) LoadCarriedWords(thread->tcb, thread->carried);
  if (keep_transitions_) {
    // Its first step, up to its first point, runs the runtime's entry and
    // touches only what is its own; everything it does comes after the
    // creator's step that made it.
    thread->footprint = {WordOf(thread.get()), true, true};
    if (running_ != &driver_) running_->spawned = thread->id;
  }
  thread->context = MakeFiber(thread->stack.lowest, thread->stack.size, ThreadEntry);
  strategy_.OnThreadCreated(thread->id);
  if (races_ != nullptr && running_ != &driver_) races_->ThreadStarted(thread->id, running_->id);
  unfinished_.push_back(thread.get());
  if (unfinished_.size() == 2) shared_since_ = steps_;
  // A new runnable thread. What the creator's step touches besides is the
  // handle pthread_create writes, which it reports (ReleasedBeforePoint).
  ForgetEnabled();
  if (enabled_.size() < unfinished_.size()) enabled_.resize(unfinished_.size());
  threads_.push_back(std::move(thread));
  ++live_threads_;
  if (threads_.size() > 1) LeaveLonePath();
  return *threads_.back();
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

void World::ExitRunningThread() {
  SimThread& self = *running_;
  while (!self.thread_local_destructors.empty()) {
    auto [destructor, object] = self.thread_local_destructors.back();
    self.thread_local_destructors.pop_back();
    destructor(object);
  }
  RunPthreadKeyDestructors();
  ++self.points;  // invariant: every choice point of a thread has its own (thread, points) anchor
  if (keep_transitions_) {
    AddReleased(reinterpret_cast<const void*>(self.tcb));  // its end, which a join waits for
    EndTransition(self, Footprint{});
  }
  trace_.Record(steps_, now_ns_, self.id, EventKind::kThreadExit, nullptr, self.last_site, EventsInterleave());
  // Its stack goes back to the pool, and its TCB: the next thread's frames
  // and thread-locals there are new objects, forgotten when one is made
  // (CreateThread). Not here: most executions make no thread after one
  // ends, and forgetting a stack's shadow walks every cell of each page it
  // touched, a tenth of an execution of 2 threads' 10 locked increments.
  if (races_ != nullptr) {
    const auto thread_pointer = reinterpret_cast<std::uintptr_t>(self.tcb);
    forget_before_next_thread_.push_back(
        {reinterpret_cast<std::uintptr_t>(self.stack.lowest), reinterpret_cast<std::uintptr_t>(self.stack.top())});
    forget_before_next_thread_.push_back(
        {thread_pointer - static_cast<std::uintptr_t>(static_tls_reach_), thread_pointer});
  }
  self.state = ThreadState::kFinished;
  unfinished_.erase(std::find(unfinished_.begin(), unfinished_.end(), &self));
  if (unfinished_.size() == 1) shared_steps_ += steps_ - shared_since_;
  ReadinessMayHaveChanged();  // its joiners
  --live_threads_;
  if (self.id == 0) EndExecution(Verdict::kPass, "");  // the body returned: as when main returns
  Reschedule(/*willing_to_wait=*/false);
  SIM_UNREACHABLE("a finished thread was scheduled again");
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
  SIM_UNREACHABLE("the driver resumed an ended execution");
}

void World::EndExecutionByFault(std::string message, int signal_number) {
  if (!ended_) outcome_.process_suspect = true;
  EndExecution(Verdict::kCrash, std::move(message), signal_number);
}

const Outcome& World::EndInPlaceByLibcFault(int signal_number) {
  if (!ended_) {
    ended_ = true;
    ended_on_ = running_;
    outcome_.verdict = Verdict::kCrash;
    outcome_.signal_number = signal_number;
    outcome_.process_suspect = true;
    outcome_.trace_hash = trace_.hash();
    outcome_.steps = steps_;
    outcome_.choice_points = choice_points_;
    outcome_.failure_signature = FailureSignature();
  }
  return outcome_;
}

}  // namespace sim::internal

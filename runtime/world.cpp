// world.cpp: thread lifecycle, blocking, the scheduler loop and fiber switches.
#include "world.h"

#include <cxxabi.h>

#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>

#include "interceptors_keys.h"

namespace ctx = boost::context::detail;

extern "C" {
unsigned char __sim_world_active = 0;
}

namespace sim::internal {

World* current_world = nullptr;

namespace {

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

void ThreadEntry(ctx::transfer_t from) {
  World& world = *current_world;
  world.AfterSwitch(from.fctx);
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
    : options_(options), strategy_(strategy) {
  strategy_.BeginExecution(seed);
  driver_.id = UINT32_MAX;
}

World::~World() {
  for (auto& thread : threads_) ReleaseResources(*thread);
}

Outcome World::Run(std::function<void()> body, MainTcb main_tcb) {
  current_world = this;
  main_tcb_ = main_tcb;
  driver_.tcb = CurrentThreadPointer();
  running_ = &driver_;
  SimThread& main = CreateThread(std::move(body));
  if (!main.borrowed_tcb) SetSimulatedThreadMarker(true);
  __sim_world_active = 1;
  SwitchTo(main);  // returns when the execution has ended
  if (!main.borrowed_tcb) SetSimulatedThreadMarker(false);
  current_world = nullptr;
  RefreshSlowPathFlag();

  std::string mismatch = strategy_.EndExecution(choice_points_);
  if (!mismatch.empty() && outcome_.schedule_mismatch.empty()) outcome_.schedule_mismatch = std::move(mismatch);
  outcome_.trace_hash = trace_.hash();
  outcome_.steps = steps_;
  if (outcome_.verdict != Verdict::kPass) DescribeThreads(outcome_);
  return std::move(outcome_);
}

SimThread* World::FindThread(ThreadPointer tcb) {
  for (auto& thread : threads_) {
    if (thread->tcb == tcb) return thread.get();
  }
  return nullptr;
}

SimThread& World::CreateThread(std::function<void()> body) {
  auto thread = std::make_unique<SimThread>();
  thread->id = static_cast<ThreadId>(threads_.size());
  thread->body = std::move(body);
  thread->stack = GlobalStackPool().Acquire(options_.stack_size);
  if (threads_.empty() && main_tcb_ == MainTcb::kCallers) {
    thread->tcb = driver_.tcb;
    thread->borrowed_tcb = false;
  } else {
    thread->tcb = BorrowThreadControlBlock();
  }
  thread->context = ctx::make_fcontext(thread->stack.top(), thread->stack.size, ThreadEntry);
  strategy_.OnThreadCreated(thread->id);
  threads_.push_back(std::move(thread));
  return *threads_.back();
}

void World::SchedulingPoint(EventKind kind, const void* object, const Site& site) {
  SimThread& self = *running_;
  trace_.Record({steps_, now_ns_, self.id, kind, object, site});
  self.last_site = site;
  self.last_kind = kind;
  self.last_step = steps_;
  Reschedule(/*willing_to_wait=*/false);
  if (!self.pending_signals.empty()) DeliverPendingSignals(*this);
}

void World::YieldPoint(EventKind kind, const void* object, const Site& site) {
  SimThread& self = *running_;
  trace_.Record({steps_, now_ns_, self.id, kind, object, site});
  self.last_site = site;
  self.last_kind = kind;
  self.last_step = steps_;
  Reschedule(/*willing_to_wait=*/true);
  if (!self.pending_signals.empty()) DeliverPendingSignals(*this);
}

bool World::Block(const Wait& wait) {
  SimThread& self = *running_;
  self.wait = wait;
  self.woken = false;
  self.state = ThreadState::kBlocked;
  Reschedule(/*willing_to_wait=*/false);
  const bool satisfied = self.woken || (wait.ready != nullptr && wait.ready(wait.model));
  self.state = ThreadState::kRunnable;
  self.woken = false;
  self.wait = Wait{};
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
    Choice choice = strategy_.Choose(idle, std::nullopt);
    if (!choice.mismatch.empty()) {
      outcome_.schedule_mismatch = choice.mismatch;
      EndExecution(Verdict::kUnsupported, "replay: " + choice.mismatch);
    }
    outcome_.decisions.push_back(choice.thread);
    chosen = choice.thread;
  }
  Wake(*threads_[chosen]);
  return true;
}

// The scheduler loop: pick the next thread at a scheduling point of the
// running thread (which may have just blocked or finished).
void World::Reschedule(bool willing_to_wait) {
  if (++steps_ > options_.max_steps) {
    EndExecution(Verdict::kStepLimit,
                 std::to_string(options_.max_steps) +
                     " scheduling points without the execution ending. This is often caused by a thread "
                     "spinning until another makes progress (a spin lock or a busy-wait loop); each thread's "
                     "last site is below. Raise max_steps in SIM_OPTIONS if the program is just long");
  }
  SimThread& current = *running_;
  for (;;) {
    enabled_.clear();
    for (auto& thread : threads_) {
      if (IsEnabled(*thread)) enabled_.push_back(thread->id);
    }
    const bool others_enabled = enabled_.size() > (IsEnabled(current) ? 1u : 0u);
    if (willing_to_wait && !others_enabled && AdvanceClockToNextDeadline()) {
      willing_to_wait = false;
      continue;
    }
    if (!enabled_.empty()) break;
    if (!AdvanceClockToNextDeadline() && !WakeOneIdleWaiter()) EndExecution(Verdict::kDeadlock, DescribeDeadlock());
  }

  SimThread* next = thread(enabled_.front());
  if (enabled_.size() > 1) {
    ++choice_points_;
    const bool current_enabled = IsEnabled(current);
    Choice choice = strategy_.Choose(enabled_, current_enabled ? std::optional(current.id) : std::nullopt);
    if (!choice.mismatch.empty()) {
      outcome_.schedule_mismatch = choice.mismatch;
      EndExecution(Verdict::kUnsupported, "replay: " + choice.mismatch);
    }
    outcome_.decisions.push_back(choice.thread);
    next = thread(choice.thread);
    if (current_enabled && next != &current) ++outcome_.preemptions;
  }
  if (next != &current) SwitchTo(*next);
}

void World::SwitchTo(SimThread& next) {
  switching_from_ = running_;
  running_ = &next;
  SetThreadPointer(next.tcb);
  const ctx::transfer_t back = ctx::jump_fcontext(next.context, nullptr);
  AfterSwitch(back.fctx);
}

void World::AfterSwitch(ctx::fcontext_t from_context) {
  SimThread& from = *switching_from_;
  from.context = from_context;
  if (from.state == ThreadState::kFinished && from.stack.lowest != nullptr) {
    // Its fiber will never run again, and we are no longer on its stack.
    GlobalStackPool().Release(from.stack);
    from.stack = Stack{};
    if (from.detached || from.joined) RetireThread(from);
  }
}

void World::ExitRunningThread() {
  SimThread& self = *running_;
  while (!self.thread_local_destructors.empty()) {
    auto [destructor, object] = self.thread_local_destructors.back();
    self.thread_local_destructors.pop_back();
    destructor(object);
  }
  RunPthreadKeyDestructors();
  trace_.Record({steps_, now_ns_, self.id, EventKind::kThreadExit, nullptr, self.last_site});
  self.state = ThreadState::kFinished;
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

std::string World::DescribeDeadlock() const {
  std::size_t blocked = 0;
  for (auto& thread : threads_) blocked += thread->state == ThreadState::kBlocked;
  return std::to_string(blocked) + (blocked == 1 ? " thread is" : " threads are") +
         " blocked and no thread can run or wake them";
}

void World::DescribeThreads(Outcome& outcome) {
  SiteNamer namer;
  for (auto& thread : threads_) namer.Add(thread->last_site);
  const std::vector<Event> events = trace_.LastEvents();
  for (const Event& event : events) namer.Add(event.site);

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
      case ThreadState::kRunnable:
        line += std::string(thread.get() == ended_on_ ? " running" : " runnable") + ", last " +
                EventKindName(thread->last_kind) + " at " + where(thread->last_site);
        break;
    }
    outcome.threads.push_back(std::move(line));
  }
  for (const Event& event : events) {
    char prefix[96];
    std::snprintf(prefix, sizeof prefix, "[step %" PRIu64 " t=%.6f] T%u ", event.step,
                  static_cast<double>(event.time_ns) / 1e9, event.thread);
    outcome.last_events.push_back(prefix + std::string(EventKindName(event.kind)) + " " + namer.Name(event.site));
  }
}

}  // namespace sim::internal

// sim_thread.h: a simulated thread as the world keeps it, and what it
// waits for while blocked. The world (world.h) creates, schedules and
// retires them; interceptors read and set their waits.
#ifndef SIM_RUNTIME_CORE_SIM_THREAD_H_
#define SIM_RUNTIME_CORE_SIM_THREAD_H_

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/fiber_switch.h"
#include "core/site.h"
#include "core/stack_pool.h"
#include "core/thread_control_block.h"
#include "core/thread_local_switch.h"
#include "core/trace.h"
#include "strategy/strategy.h"  // ThreadId, Footprint

namespace sim::internal {

// Why a thread is not running, and when it may run again. A blocked thread
// is enabled once it was woken, or `ready` says so, or the clock reached its
// deadline (then it timed out).
struct Wait {
  const char* description = "";                // "lock mutex", "wait on condition variable", ...
  const void* object = nullptr;                // the user's object, for reports
  bool (*ready)(const void* model) = nullptr;  // null: only a wake-up or the deadline
  const void* model = nullptr;
  std::optional<std::uint64_t> deadline_ns = std::nullopt;  // virtual time
  // For reports: who is in the way ("held by T2"); may be null.
  std::string (*blocker)(const void* model) = nullptr;
  // Woken only when no other thread can run, even after the clock advanced
  // (a pinned gate): then one such thread at a time, chosen by the strategy.
  bool released_when_idle = false;
};

enum class ThreadState { kRunnable, kBlocked, kFinished };

struct SimThread {
  ThreadId id = 0;
  ThreadState state = ThreadState::kRunnable;
  Wait wait;
  bool woken = false;
  Stack stack;
  FiberStackPointer context = nullptr;  // saved while the thread is not running
  ThreadPointer tcb = nullptr;
  bool borrowed_tcb = true;    // false: T0 on the caller's own TCB (whole-program mode)
  std::function<void()> body;  // what the thread runs
  void* result = nullptr;      // pthread return value
  bool detached = false;
  bool joined = false;
  Site last_site;
  EventKind last_kind = EventKind::kThreadStart;
  const void* last_object = nullptr;  // of the last scheduling point: what the thread does next
  int memory_order = 0;               // races=1: of its last atomic operation (hooks.cpp), and the calls into
  unsigned foreign_calls = 0;         // uninstrumented libraries it is inside (race_checks.cpp)
  ThreadId created_by = 0;            // its creator, and where that called pthread_create (a race's report)
  Site created_at;
  Site created_after;  // the creator's last point before it (where libstdc++'s frames hide the caller)
  // What its step from the last scheduling point on touches, and the thread
  // that step created, while the world keeps the steps (World::transitions_).
  Footprint footprint;
  ThreadId spawned = kNoThread;
  std::uint64_t points = 0;  // scheduling points this thread has reached (anchors decisions)
  // Clock reads since the thread last blocked (World::AdvanceClockForRepeatedRead).
  std::uint64_t clock_reads_since_wait = 0;
  // __cxa_thread_atexit_impl registrations (thread_local destructors), run
  // in reverse order when the thread exits.
  std::vector<std::pair<void (*)(void*), void*>> thread_local_destructors;
  // Signals another thread sent with pthread_kill, whose handlers run when
  // this thread next returns from the world (interceptors/signal.cpp).
  std::vector<int> pending_signals;
  // tls_switch=lazy, while the thread is not running: its libc and
  // libstdc++ per-thread words (thread_local_switch.h).
  CarriedThreadLocals carried{};
  // tls_switch=lazy, on a borrowed TCB: its pthread key values, by key
  // (interceptors/keys.cpp), since glibc would keep them in the installed block.
  std::vector<const void*> key_values;
};

}  // namespace sim::internal

#endif  // SIM_RUNTIME_CORE_SIM_THREAD_H_

// futex.cpp: syscall(SYS_futex, ...), the primitive under
// libstdc++'s contended function-local statics (__cxa_guard_acquire),
// std::atomic<T>::wait/notify, std::counting_semaphore, std::latch,
// std::barrier and std::promise/std::future.
//
// Inside a world a futex is a FIFO queue of waiters per address, private
// and shared alike (a world is one process). FUTEX_WAIT, FUTEX_WAKE and
// their _BITSET forms, with timeouts, are modelled; requeueing, WAKE_OP and
// the priority-inheritance operations end the execution as unsupported.
// glibc's own locks issue the futex syscall inline, never through
// syscall(), so they never arrive here (their pthread entry points are
// intercepted instead). Every other syscall number is forwarded unchanged.
#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstdarg>
#include <cstdint>
#include <ctime>
#include <list>

#include "core/world.h"
#include "interceptors/mutex_model.h"
#include "interceptors/real_function.h"
#include "interceptors/virtual_clock.h"

using namespace sim::internal;

namespace {

struct FutexModel final : SyncModel {
  struct Waiter {
    SimThread* thread;
    std::uint32_t bitset;  // FUTEX_WAIT waits with every bit set
  };
  // invariant: a thread is in the queue exactly while it blocks in FutexWait
  // and nobody has woken it; the first to wait is the first woken.
  std::list<Waiter> waiters;

  // The kernel queues waiters by address alone: one that waits on a word
  // whose memory is then freed stays queued, and a wake at that address (on
  // a new object there) wakes it. Without waiters the model holds nothing.
  bool OutlivesMemory() const override { return !waiters.empty(); }
};

FutexModel& FutexModelOf(World& world, const void* address) {
  return world.ModelOf<FutexModel>(address, [] { return std::make_unique<FutexModel>(); });
}

long ForwardSyscall(long number, long a, long b, long c, long d, long e, long f) {
  using Syscall = long (*)(long, ...);
  static Syscall real_syscall = nullptr;
  if (real_syscall == nullptr) real_syscall = reinterpret_cast<Syscall>(ResolveRealFunction("syscall", nullptr));
  return real_syscall(number, a, b, c, d, e, f);
}

// As the syscall() wrapper reports a failure.
long Fail(int error) {
  errno = error;
  return -1;
}

const char* FutexCommandName(int command) {
  switch (command) {
    case FUTEX_WAIT: return "FUTEX_WAIT";
    case FUTEX_WAKE: return "FUTEX_WAKE";
    case FUTEX_FD: return "FUTEX_FD";
    case FUTEX_REQUEUE: return "FUTEX_REQUEUE";
    case FUTEX_CMP_REQUEUE: return "FUTEX_CMP_REQUEUE";
    case FUTEX_WAKE_OP: return "FUTEX_WAKE_OP";
    case FUTEX_LOCK_PI: return "FUTEX_LOCK_PI";
    case FUTEX_UNLOCK_PI: return "FUTEX_UNLOCK_PI";
    case FUTEX_TRYLOCK_PI: return "FUTEX_TRYLOCK_PI";
    case FUTEX_WAIT_BITSET: return "FUTEX_WAIT_BITSET";
    case FUTEX_WAKE_BITSET: return "FUTEX_WAKE_BITSET";
    case FUTEX_WAIT_REQUEUE_PI: return "FUTEX_WAIT_REQUEUE_PI";
    case FUTEX_CMP_REQUEUE_PI: return "FUTEX_CMP_REQUEUE_PI";
#ifdef FUTEX_LOCK_PI2
    case FUTEX_LOCK_PI2: return "FUTEX_LOCK_PI2";
#endif
  }
  return "an unknown futex operation";
}

long FutexWait(World& world, const std::uint32_t* address, std::uint32_t expected,
               std::optional<std::uint64_t> deadline_ns, std::uint32_t bitset) {
  // One OS thread runs the world, so this check and the enqueue below are
  // atomic with respect to every other simulated thread, as in the kernel.
  if (__atomic_load_n(address, __ATOMIC_SEQ_CST) != expected) return Fail(EAGAIN);
  if (deadline_ns && *deadline_ns <= world.now_ns()) return Fail(ETIMEDOUT);
  SimThread& self = world.running();
  FutexModelOf(world, address).waiters.push_back({&self, bitset});
  const Wait wait{
      .description = "futex wait",
      .object = address,
      .deadline_ns = deadline_ns,  // no ready predicate: only FUTEX_WAKE or the deadline ends it
  };
  if (!world.Block(wait)) return 0;
  // Timed out: the waker never took us off the queue.
  FutexModelOf(world, address).waiters.remove_if([&self](const auto& waiter) { return waiter.thread == &self; });
  return Fail(ETIMEDOUT);
}

long FutexWake(World& world, const std::uint32_t* address, int count, std::uint32_t bitset) {
  FutexModel& model = FutexModelOf(world, address);
  long woken = 0;
  for (auto waiter = model.waiters.begin(); waiter != model.waiters.end();) {
    if ((waiter->bitset & bitset) == 0) {
      ++waiter;
      continue;
    }
    world.Wake(*waiter->thread);
    waiter = model.waiters.erase(waiter);
    // As the kernel counts: a count of 0 or less still wakes one waiter.
    if (++woken >= count) break;
  }
  return woken;
}

long Futex(World& world, const Site& site, long address_argument, long op_argument, long value_argument,
           long timeout_argument, long bitset_argument) {
  auto* address = reinterpret_cast<const std::uint32_t*>(address_argument);
  const int op = static_cast<int>(op_argument);
  const int command = op & FUTEX_CMD_MASK;
  const auto value = static_cast<std::uint32_t>(value_argument);
  const auto* timeout = reinterpret_cast<const timespec*>(timeout_argument);
  const auto bitset = static_cast<std::uint32_t>(bitset_argument);

  switch (command) {
    case FUTEX_WAIT:
    case FUTEX_WAIT_BITSET: {
      world.SchedulingPoint(EventKind::kFutexWait, address, site);
      if (reinterpret_cast<std::uintptr_t>(address) % alignof(std::uint32_t) != 0) return Fail(EINVAL);
      if (command == FUTEX_WAIT_BITSET && bitset == 0) return Fail(EINVAL);
      std::optional<std::uint64_t> deadline_ns;
      if (timeout != nullptr) {
        if (!ValidDuration(*timeout)) return Fail(EINVAL);
        if (command == FUTEX_WAIT) {
          // Relative, whatever the clock flag says (as in the kernel).
          const std::uint64_t relative = static_cast<std::uint64_t>(timeout->tv_sec) * 1000000000ULL +
                                         static_cast<std::uint64_t>(timeout->tv_nsec);
          deadline_ns = world.now_ns() + relative;
        } else {
          deadline_ns =
              DeadlineFromAbsolute((op & FUTEX_CLOCK_REALTIME) != 0 ? CLOCK_REALTIME : CLOCK_MONOTONIC, *timeout);
        }
      }
      return FutexWait(world, address, value, deadline_ns, command == FUTEX_WAIT ? FUTEX_BITSET_MATCH_ANY : bitset);
    }
    case FUTEX_WAKE:
    case FUTEX_WAKE_BITSET:
      world.SchedulingPoint(EventKind::kFutexWake, address, site);
      if (reinterpret_cast<std::uintptr_t>(address) % alignof(std::uint32_t) != 0) return Fail(EINVAL);
      if (command == FUTEX_WAKE_BITSET && bitset == 0) return Fail(EINVAL);
      return FutexWake(world, address, static_cast<int>(value_argument),
                       command == FUTEX_WAKE ? FUTEX_BITSET_MATCH_ANY : bitset);
  }
  world.EndExecution(sim::Verdict::kUnsupported,
                     std::string("syscall(SYS_futex, ") + FutexCommandName(command) + ") called in T" +
                         std::to_string(world.running().id) +
                         ": a world models FUTEX_WAIT, FUTEX_WAKE, FUTEX_WAIT_BITSET and FUTEX_WAKE_BITSET only; "
                         "build the waiting on those (or on std::mutex and std::condition_variable)");
}

}  // namespace

extern "C" {

// The six arguments are read whether or not the caller passed them, as the
// syscall() wrapper itself does: the kernel ignores the ones it does not use.
long syscall(long number, ...) noexcept {
  va_list arguments;
  va_start(arguments, number);
  long a[6];
  for (long& argument : a) argument = va_arg(arguments, long);
  va_end(arguments);
  if (number != SYS_futex || !InWorld()) {
#ifdef SYS_futex_waitv
    // A real futex wait on the world's one OS thread would stop every
    // simulated thread with it.
    if (number == SYS_futex_waitv && InWorld()) {
      World& world = *current_world;
      world.EndExecution(sim::Verdict::kUnsupported,
                         "syscall(SYS_futex_waitv) called in T" + std::to_string(world.running().id) +
                             ": a world models syscall(SYS_futex) only; wait on one futex at a time");
    }
#endif
    return ForwardSyscall(number, a[0], a[1], a[2], a[3], a[4], a[5]);
  }
  World& world = *current_world;
  // FUTEX_WAIT_BITSET's bitset is the sixth argument; the fifth (uaddr2) is unused.
  return Futex(world, world.CallerSite(), a[0], a[1], a[2], a[3], a[5]);
}

}  // extern "C"

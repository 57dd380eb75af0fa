// signal.cpp: signals between simulated threads: pthread_kill
// and raise.
//
// All simulated threads share one OS thread, so a real signal could only
// ever interrupt whichever fiber happens to run. Inside a world a signal to
// a simulated thread is simulated instead, from the process's real
// dispositions (sigaction is left real, and read at send and delivery):
//   - signal 0 checks that the thread exists;
//   - an ignored signal (SIG_IGN, or SIG_DFL whose default is to ignore) is
//     dropped;
//   - a signal whose default action ends the process ends the execution
//     with Verdict::kCrash; one whose default stops it is unsupported;
//   - a handled signal runs its handler on the target thread: at once for
//     raise() and a thread that signals itself, otherwise when the target
//     next returns from the world to its own code (World calls
//     DeliverPendingSignals there), as the kernel runs handlers on the
//     return to user space.
// Not modelled: a signal never interrupts a blocked call (no EINTR; the
// handler runs when the call returns), handlers get no ucontext (null), and
// signal masks are not consulted. pthread_sigmask and sigprocmask are left
// real: the mask belongs to the one OS thread, so it is shared by all
// simulated threads and only matters for real signals. While a thread runs
// a handler, further signals to it wait until the handler returns (as if
// sa_mask held every signal). kill(), tgkill() and sigqueue() are real.
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <string>

#include "core/world.h"
#include "interceptors/real_function.h"

using namespace sim::internal;

namespace {
RealFunction<int(pthread_t, int)> real_pthread_kill("pthread_kill");
RealFunction<int(int)> real_raise("raise");

// Keyed by the SimThread: whether it is inside a handler right now.
struct SignalDeliveryModel final : SyncModel {
  bool in_handler = false;
};

std::string SignalName(int signal_number) {
  if (signal_number >= SIGRTMIN && signal_number <= SIGRTMAX) {
    return "SIGRTMIN+" + std::to_string(signal_number - SIGRTMIN);
  }
  const char* abbreviation = sigabbrev_np(signal_number);
  return abbreviation != nullptr ? std::string("SIG") + abbreviation : "signal " + std::to_string(signal_number);
}

std::string ThreadName(const SimThread& thread) { return "T" + std::to_string(thread.id); }

enum class Disposition { kIgnore, kHandle, kTerminate, kStop };

Disposition DispositionOf(int signal_number, struct sigaction& action) {
  sigaction(signal_number, nullptr, &action);
  if (signal_number == SIGKILL) return Disposition::kTerminate;
  if (signal_number == SIGSTOP) return Disposition::kStop;
  if (action.sa_handler == SIG_IGN) return Disposition::kIgnore;
  if (action.sa_handler != SIG_DFL) return Disposition::kHandle;
  switch (signal_number) {
    case SIGCHLD:
    case SIGCONT:
    case SIGURG:
    case SIGWINCH: return Disposition::kIgnore;
    case SIGTSTP:
    case SIGTTIN:
    case SIGTTOU: return Disposition::kStop;
  }
  return Disposition::kTerminate;
}

// Ends the execution for a signal that would end or stop the process.
// `what` says who sent it to whom ("T1 sent SIGUSR1 to T2").
void EndForDefaultAction(World& world, Disposition disposition, const std::string& what) {
  if (disposition == Disposition::kTerminate) {
    world.EndExecution(sim::Verdict::kCrash, what + ", whose default action ends the process");
  }
  if (disposition == Disposition::kStop) {
    world.EndExecution(sim::Verdict::kUnsupported,
                       what + ", whose default action stops the process, which a world cannot model");
  }
}

void RunHandler(World& world, int signal_number, const struct sigaction& action) {
  SignalDeliveryModel& delivery =
      world.ModelOf<SignalDeliveryModel>(&world.running(), [] { return std::make_unique<SignalDeliveryModel>(); });
  const bool nested = delivery.in_handler;
  delivery.in_handler = true;
  if ((action.sa_flags & SA_RESETHAND) != 0) signal(signal_number, SIG_DFL);
  if ((action.sa_flags & SA_SIGINFO) != 0) {
    siginfo_t info{};
    info.si_signo = signal_number;
    info.si_code = SI_TKILL;
    info.si_pid = getpid();
    info.si_uid = getuid();
    action.sa_sigaction(signal_number, &info, nullptr);
  } else {
    action.sa_handler(signal_number);
  }
  delivery.in_handler = nested;
}

// Handles a signal on the running thread now (raise, or a thread signalling
// itself). `what` names it for a verdict.
int SignalSelf(World& world, int signal_number, const std::string& what) {
  struct sigaction action;
  const Disposition disposition = DispositionOf(signal_number, action);
  if (disposition == Disposition::kHandle) {
    RunHandler(world, signal_number, action);
  } else {
    EndForDefaultAction(world, disposition, what);
  }
  return 0;
}

}  // namespace

namespace sim::internal {

void DeliverPendingSignals(World& world) {
  SimThread& self = world.running();
  SignalDeliveryModel& delivery =
      world.ModelOf<SignalDeliveryModel>(&self, [] { return std::make_unique<SignalDeliveryModel>(); });
  if (delivery.in_handler) return;  // after the running handler returns
  while (!self.pending_signals.empty()) {
    // Lowest number first, as Linux picks among pending standard signals.
    auto lowest = std::min_element(self.pending_signals.begin(), self.pending_signals.end());
    const int signal_number = *lowest;
    self.pending_signals.erase(lowest);
    struct sigaction action;
    const Disposition disposition = DispositionOf(signal_number, action);
    if (disposition == Disposition::kHandle) {
      RunHandler(world, signal_number, action);
    } else {
      // The handler was removed between sending and delivery.
      EndForDefaultAction(world, disposition, ThreadName(self) + " received " + SignalName(signal_number));
    }
  }
}

}  // namespace sim::internal

extern "C" {

int pthread_kill(pthread_t handle, int signal_number) noexcept {
  if (!InWorld()) return real_pthread_kill(handle, signal_number);
  World& world = *current_world;
  world.SchedulingPoint(EventKind::kSignal, reinterpret_cast<void*>(handle), world.CallerSite());
  if (signal_number < 0 || signal_number >= NSIG) return EINVAL;
  SimThread& self = world.running();
  SimThread* target = world.FindThread(reinterpret_cast<ThreadPointer>(handle));
  // Not found: joined (its TCB went back to the pool), or not a thread of
  // this world at all; a simulated thread cannot signal a real one.
  if (target == nullptr || target->state == ThreadState::kFinished) return ESRCH;
  if (signal_number == 0) return 0;
  const std::string what = ThreadName(self) + " sent " + SignalName(signal_number) + " to " + ThreadName(*target);
  if (target == &self) return SignalSelf(world, signal_number, what);
  struct sigaction action;
  const Disposition disposition = DispositionOf(signal_number, action);
  switch (disposition) {
    case Disposition::kIgnore: return 0;  // discarded when sent, as by the kernel
    case Disposition::kTerminate:
    case Disposition::kStop: EndForDefaultAction(world, disposition, what); return 0;
    case Disposition::kHandle: break;
  }
  // A standard signal is pending at most once; real-time signals queue.
  std::vector<int>& pending = target->pending_signals;
  if (signal_number >= SIGRTMIN || std::find(pending.begin(), pending.end(), signal_number) == pending.end()) {
    world.SignalPending(*target, signal_number);
  }
  return 0;
}

int raise(int signal_number) noexcept {
  if (!InWorld()) return real_raise(signal_number);
  World& world = *current_world;
  world.SchedulingPoint(EventKind::kSignal, nullptr, world.CallerSite());
  if (signal_number < 0 || signal_number >= NSIG) {
    errno = EINVAL;
    return -1;
  }
  if (signal_number == 0) return 0;
  return SignalSelf(world, signal_number, ThreadName(world.running()) + " raised " + SignalName(signal_number));
}

}  // extern "C"

// crash_guard.cpp: fatal signal and std::terminate handlers for worlds.
#include "crash_guard.h"

#include <cxxabi.h>
#include <string.h>

#include <cstdlib>
#include <string>

#include "world.h"

namespace sim::internal {
namespace {

constexpr int kCrashSignals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};
alignas(16) char alternate_stack[64 * 1024];
CrashGuard* active_guard = nullptr;
struct sigaction* previous_actions = nullptr;
std::terminate_handler previous_terminate_handler = nullptr;

// A fault inside the handler itself must not recurse (SA_NODEFER).
volatile sig_atomic_t handling_crash = 0;

void OnCrashSignal(int signal_number, siginfo_t* info, void* context) {
  if (handling_crash) {
    signal(signal_number, SIG_DFL);
    raise(signal_number);
    return;
  }
  handling_crash = 1;
  if (InWorld() && current_world != nullptr) {
    World& world = *current_world;
    SimThread& thread = world.running();
    std::string message = "T" + std::to_string(thread.id) + " received SIG" + std::string(sigabbrev_np(signal_number)) + " (" +
                          strsignal(signal_number) + ")";
    if (signal_number == SIGSEGV || signal_number == SIGBUS) {
      char address[64];
      snprintf(address, sizeof address, " at address %p", info->si_addr);
      message += address;
      if (thread.stack.lowest != nullptr && info->si_addr < thread.stack.lowest &&
          thread.stack.contains(info->si_addr)) {
        message += ": stack overflow into the guard page (raise stack_size in SIM_OPTIONS)";
      }
    }
    world.EndExecution(Verdict::kCrash, message, signal_number);
  }
  handling_crash = 0;
  // Not ours: hand it to whoever handled it before.
  const struct sigaction& previous = previous_actions[signal_number];
  if (previous.sa_flags & SA_SIGINFO) {
    previous.sa_sigaction(signal_number, info, context);
  } else if (previous.sa_handler != SIG_IGN && previous.sa_handler != SIG_DFL) {
    previous.sa_handler(signal_number);
  } else {
    signal(signal_number, SIG_DFL);
    raise(signal_number);
  }
}

[[noreturn]] void OnTerminate() {
  if (InWorld() && current_world != nullptr) {
    World& world = *current_world;
    const std::string thread = "T" + std::to_string(world.running().id);
    if (std::current_exception()) {
      std::string what = "an exception";
      if (std::type_info* type = abi::__cxa_current_exception_type()) {
        int status = 0;
        char* name = abi::__cxa_demangle(type->name(), nullptr, nullptr, &status);
        what = status == 0 && name != nullptr ? name : type->name();
        std::free(name);
      }
      try {
        throw;
      } catch (const std::exception& exception) {
        what += std::string(": ") + exception.what();
      } catch (...) {
      }
      world.EndExecution(Verdict::kUncaughtException,
                         "uncaught exception in " + thread + " (std::terminate): " + what);
    }
    world.EndExecution(Verdict::kCrash,
                       "std::terminate called in " + thread +
                           " without an active exception (a joinable std::thread destroyed?)",
                       SIGABRT);
  }
  if (previous_terminate_handler != nullptr) previous_terminate_handler();
  std::abort();
}

}  // namespace

CrashGuard::CrashGuard() {
  active_guard = this;
  previous_actions = previous_;
  stack_t alternate{};
  alternate.ss_sp = alternate_stack;
  alternate.ss_size = sizeof alternate_stack;
  sigaltstack(&alternate, &previous_alternate_stack_);
  struct sigaction action{};
  action.sa_sigaction = OnCrashSignal;
  action.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_NODEFER;
  sigemptyset(&action.sa_mask);
  for (int signal_number : kCrashSignals) sigaction(signal_number, &action, &previous_[signal_number]);
  previous_terminate_ = std::set_terminate(OnTerminate);
  previous_terminate_handler = previous_terminate_;
}

CrashGuard::~CrashGuard() {
  std::set_terminate(previous_terminate_);
  for (int signal_number : kCrashSignals) sigaction(signal_number, &previous_[signal_number], nullptr);
  sigaltstack(&previous_alternate_stack_, nullptr);
  active_guard = nullptr;
}

void CrashGuard::AfterCrash() {
  handling_crash = 0;
  sigset_t signals;
  sigemptyset(&signals);
  for (int signal_number : kCrashSignals) sigaddset(&signals, signal_number);
  pthread_sigmask(SIG_UNBLOCK, &signals, nullptr);
}

}  // namespace sim::internal

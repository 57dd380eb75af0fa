// crash_guard.cpp: fatal signal and std::terminate handlers for worlds.
#include "explore/crash_guard.h"

#include <cxxabi.h>
#include <fcntl.h>
#include <link.h>
#include <string.h>
#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "core/runtime_heap.h"
#include "core/world.h"
#include "strategy/schedule.h"

namespace sim::internal {
namespace {

constexpr int kCrashSignals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};

// What the short report needs, prepared while the heap is usable.
struct LibcRange {
  std::uintptr_t start, end;
};
LibcRange libc_ranges[8];
int libc_range_count = 0;
char replay_before_seed[4096];
char replay_after_seed[4096];
char report_json_path[4096];
std::uint64_t current_seed = 0;

void FindLibc() {
  libc_range_count = 0;
  dl_iterate_phdr(
      [](dl_phdr_info* info, std::size_t, void*) {
        const char* name = info->dlpi_name != nullptr ? std::strrchr(info->dlpi_name, '/') : nullptr;
        if (name == nullptr || std::strncmp(name + 1, "libc.so", 7) != 0) return 0;
        for (int i = 0; i < info->dlpi_phnum && libc_range_count < 8; ++i) {
          const ElfW(Phdr)& header = info->dlpi_phdr[i];
          if (header.p_type != PT_LOAD || (header.p_flags & PF_X) == 0) continue;
          const std::uintptr_t start = info->dlpi_addr + header.p_vaddr;
          libc_ranges[libc_range_count++] = {start, start + header.p_memsz};
        }
        return 1;
      },
      nullptr);
}

bool InsideLibc(const void* context) {
  const auto pc = static_cast<std::uintptr_t>(static_cast<const ucontext_t*>(context)->uc_mcontext.gregs[REG_RIP]);
  for (int i = 0; i < libc_range_count; ++i) {
    if (pc >= libc_ranges[i].start && pc < libc_ranges[i].end) return true;
  }
  return false;
}

// Async-signal-safe output: write(2) of pieces, no allocation, no stdio;
// or, into a string of the runtime's own heap (core/runtime_heap.h), which
// the faulting call cannot hold.
int say_fd = 2;
std::string* say_into = nullptr;
void Say(const char* text) {
  if (say_into != nullptr) {
    say_into->append(text);
    return;
  }
  for (std::size_t length = std::strlen(text); length > 0;) {
    const ssize_t written = write(say_fd, text, length);
    if (written <= 0) return;
    text += written;
    length -= static_cast<std::size_t>(written);
  }
}
void SayHex(std::uint64_t value) {
  char text[17];
  for (int i = 15; i >= 0; --i, value >>= 4) text[i] = "0123456789abcdef"[value & 15];
  text[16] = '\0';
  Say(text);
}
void SayNumber(std::uint64_t value) {
  char digits[24];
  int count = 0;
  do {
    digits[count++] = static_cast<char>('0' + value % 10);
    value /= 10;
  } while (value != 0);
  char text[24];
  for (int i = 0; i < count; ++i) text[i] = digits[count - 1 - i];
  text[count] = '\0';
  Say(text);
}

CrashGuard::LibcFaultHandler libc_fault_handler = nullptr;

// The schedule as the short report tells it, or "" when the decisions were
// not kept, or when encoding could only allocate from libc's heap.
std::string ScheduleText(const World& world) {
  if (!RuntimeHeapIsOn() || world.outcome().anchored.empty()) return "";
  return EncodeSchedule(world.outcome().decisions());
}

// The short report, on say_fd or into say_into. `preemptions_before_shrink`
// (when not 0) tells a shrunk failure's report.
void SayShortReport(int signal_number, World& world, std::uint64_t preemptions_before_shrink) {
  SimThread& thread = world.running();
  const char* name = sigabbrev_np(signal_number);
  Say("==================\nWARNING: simthread: crash (seed=");
  SayNumber(current_seed);
  Say(", step=");
  SayNumber(world.step());
  Say(")\n  T");
  SayNumber(thread.id);
  Say(" received SIG");
  Say(name != nullptr ? name : "?");
  Say(" inside libc: glibc found the heap corrupted (a double free, a use after free) or a check failed.\n"
      "  The heap may be locked by the dying call, so this report is short (no threads or events);\n"
      "  run its replay line under gdb for them.\n");
  if (thread.last_site.source != nullptr) {
    Say("  T");
    SayNumber(thread.id);
    Say(" was last seen at ");
    Say(thread.last_site.source->file);
    Say(":");
    SayNumber(thread.last_site.source->line);
    Say("\n");
  }
  Say("  preemptions: ");
  SayNumber(world.outcome().preemptions);
  if (preemptions_before_shrink != 0 && preemptions_before_shrink != world.outcome().preemptions) {
    Say(" (shrunk from ");
    SayNumber(preemptions_before_shrink);
    Say(")");
  }
  Say("\n");
  if (const std::string schedule = ScheduleText(world); !schedule.empty()) {
    Say("  schedule: ");
    Say(schedule.c_str());
    Say("\n");
  }
  Say("  trace hash: ");
  SayHex(world.trace_hash());
  Say("\n");
  if (replay_before_seed[0] != '\0') {
    Say("  replay: ");
    Say(replay_before_seed);
    SayNumber(current_seed);
    Say(replay_after_seed);
    Say("\n");
  }
  Say("SUMMARY: simthread: crash: SIG");
  Say(name != nullptr ? name : "?");
  Say(" inside libc\n==================\n");
}

// The short report as JSON, in report_json_path when there is one.
void WriteShortReportJson(int signal_number, World& world, std::uint64_t preemptions_before_shrink) {
  if (report_json_path[0] == '\0') return;
  const int fd = open(report_json_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return;
  std::string* const into = say_into;
  say_into = nullptr;
  say_fd = fd;
  const char* name = sigabbrev_np(signal_number);
  const std::uint64_t preemptions = world.outcome().preemptions;
  Say("{\"verdict\": \"crash\", \"seed\": ");
  SayNumber(current_seed);
  Say(", \"message\": \"T");
  SayNumber(world.running().id);
  Say(" received SIG");
  Say(name != nullptr ? name : "?");
  Say(" inside libc\", \"schedule\": \"");
  Say(ScheduleText(world).c_str());
  Say("\", \"preemptions\": ");
  SayNumber(preemptions);
  Say(", \"preemptions_before_shrink\": ");
  SayNumber(preemptions_before_shrink != 0 ? preemptions_before_shrink : preemptions);
  Say(", \"trace_hash\": \"");
  SayHex(world.trace_hash());
  Say("\", \"step\": ");
  SayNumber(world.step());
  // The replay command holds only shell-safe characters or single quotes,
  // so it goes into the JSON string as it is.
  Say(", \"replay\": \"");
  Say(replay_before_seed);
  SayNumber(current_seed);
  Say(replay_after_seed);
  Say("\"}\n");
  close(fd);
  say_fd = 2;
  say_into = into;
}

[[noreturn]] void ShortReportAndDie(int signal_number, World& world) {
  SayShortReport(signal_number, world, 0);
  WriteShortReportJson(signal_number, world, 0);
  CrashGuard::DieBy(signal_number);
}
// The alternate signal stack, mmap'd with a guard page below it: a handler
// that faults again must hit the guard, not the globals (and GOT) that would
// sit below a static array.
constexpr std::size_t kAlternateStackBytes = 64 * 1024;
char* alternate_stack = nullptr;
struct sigaction* previous_actions = nullptr;
std::terminate_handler previous_terminate_handler = nullptr;

// A fault inside the handler itself must not recurse (SA_NODEFER).
volatile sig_atomic_t handling_crash = 0;

void OnCrashSignal(int signal_number, siginfo_t* info, void* context) {
  if (handling_crash) {
    signal(signal_number, SIG_DFL);
    kill(getpid(), signal_number);  // not raise(): simulated on a simulated thread
    return;
  }
  handling_crash = 1;
  if (InWorld() && current_world != nullptr) {
    World& world = *current_world;
    // A null context: a signal the world simulated (raise, pthread_kill;
    // interceptors/signal.cpp) and delivered by calling this handler, not
    // a fault: the process is as sound as the call that sent it.
    const bool fault = context != nullptr;
    if (fault && InsideLibc(context)) {
      if (libc_fault_handler != nullptr && RuntimeHeapIsOn()) libc_fault_handler(signal_number, world);
      ShortReportAndDie(signal_number, world);
    }
    SimThread& thread = world.running();
    std::string message = "T" + std::to_string(thread.id) + " received SIG" + std::string(sigabbrev_np(signal_number)) +
                          " (" + strsignal(signal_number) + ")";
    if (fault && (signal_number == SIGSEGV || signal_number == SIGBUS)) {
      char address[64];
      snprintf(address, sizeof address, " at address %p", info->si_addr);
      message += address;
      if (thread.stack.lowest != nullptr && info->si_addr < thread.stack.lowest &&
          thread.stack.contains(info->si_addr)) {
        message += ": stack overflow into the guard page (raise stack_size in SIM_OPTIONS)";
      }
    }
    if (!fault) {
      handling_crash = 0;
      world.EndExecution(Verdict::kCrash, message, signal_number);
    }
    world.EndExecutionByFault(message, signal_number);
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
      world.EndExecution(Verdict::kUncaughtException,
                         "uncaught exception in " + thread + " (std::terminate): " + DescribeCurrentException());
    }
    world.EndExecution(
        Verdict::kCrash,
        "std::terminate called in " + thread + " without an active exception (a joinable std::thread destroyed?)",
        SIGABRT);
  }
  if (previous_terminate_handler != nullptr) previous_terminate_handler();
  std::abort();
}

}  // namespace

void CrashGuard::SetReplayCommand(const std::string& replay_before, const std::string& replay_after) {
  std::snprintf(replay_before_seed, sizeof replay_before_seed, "%s", replay_before.c_str());
  std::snprintf(replay_after_seed, sizeof replay_after_seed, "%s", replay_after.c_str());
}

CrashGuard::CrashGuard(std::string replay_before, std::string replay_after, std::string report_json) {
  FindLibc();
  std::snprintf(report_json_path, sizeof report_json_path, "%s", report_json.c_str());
  std::snprintf(replay_before_seed, sizeof replay_before_seed, "%s", replay_before.c_str());
  std::snprintf(replay_after_seed, sizeof replay_after_seed, "%s", replay_after.c_str());
  previous_actions = previous_;
  if (alternate_stack == nullptr) {
    void* region =
        mmap(nullptr, kAlternateStackBytes + 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (region != MAP_FAILED) {
      mprotect(region, 4096, PROT_NONE);
      alternate_stack = static_cast<char*>(region) + 4096;
    }
  }
  stack_t alternate{};
  alternate.ss_sp = alternate_stack;
  alternate.ss_size = kAlternateStackBytes;
  alternate.ss_flags = alternate_stack == nullptr ? SS_DISABLE : 0;
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
}

void CrashGuard::SetSeed(std::uint64_t seed) { current_seed = seed; }

void CrashGuard::SetLibcFaultHandler(LibcFaultHandler handler) { libc_fault_handler = handler; }

std::string CrashGuard::ShortReport(int signal_number, World& world, std::uint64_t preemptions_before_shrink) {
  std::string report;
  say_into = &report;
  SayShortReport(signal_number, world, preemptions_before_shrink);
  say_into = nullptr;
  WriteShortReportJson(signal_number, world, preemptions_before_shrink);
  return report;
}

void CrashGuard::DieBy(int signal_number) {
  signal(signal_number, SIG_DFL);
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, signal_number);
  pthread_sigmask(SIG_UNBLOCK, &signals, nullptr);
  // Not raise(): on a simulated thread it is intercepted and simulated.
  kill(getpid(), signal_number);
  _exit(128 + signal_number);
}

void CrashGuard::AfterCrash() {
  handling_crash = 0;
  sigset_t signals;
  sigemptyset(&signals);
  for (int signal_number : kCrashSignals) sigaddset(&signals, signal_number);
  pthread_sigmask(SIG_UNBLOCK, &signals, nullptr);
}

}  // namespace sim::internal

// thread_local_switch.h: how a switch between simulated threads gives the
// next one its thread-local state (the tls_switch option).
//
// Every simulated thread owns a borrowed glibc thread control block
// (thread_control_block.h). The eager modes point the FS base at it on every
// switch: `wrfsbase` where the CPU and kernel allow it, otherwise the
// arch_prctl system call, which costs 0.2 to 4 us depending on the
// hypervisor: more than everything else a switch does, by 40x to 700x.
//
// The lazy mode never moves the FS base off the driving OS thread's own
// block, and needs no system call:
//  - thread_locals of instrumented code: the pass adds __sim_tls_delta (the
//    distance from the installed block to the running thread's own) to each
//    address, so each thread reaches its own copy, constructors and
//    destructors included;
//  - libc's and libstdc++'s per-thread words (thread_local_census.h) are
//    carried by hand: saved from the installed block into the thread left,
//    and loaded into it from the thread resumed;
//  - pthread_self and pthread keys are answered per simulated thread by
//    their interceptors.
// It is exact only when the census finds no other thread-local in the
// process; auto then prefers it to the system call. With wrfsbase at hand,
// auto keeps the eager switch, which is exact for every thread-local there
// is, at the cost of one instruction.
#ifndef SIM_RUNTIME_CORE_THREAD_LOCAL_SWITCH_H_
#define SIM_RUNTIME_CORE_THREAD_LOCAL_SWITCH_H_

#include <array>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

#include "core/thread_control_block.h"
#include "core/thread_local_census.h"
#include "sim/sim_interface.h"

namespace sim::internal {

enum class TlsSwitch : std::uint8_t { kLazy, kWrfsbase, kSyscall };

const char* TlsSwitchName(TlsSwitch mode);

struct TlsSwitchChoice {
  TlsSwitch mode;
  std::string why;  // one sentence: why this mode, here
};

// What `requested` (auto, lazy, wrfsbase or syscall: the option's value)
// runs as in this process now. Ends the process with a usage error naming
// the fix when the value is unknown or the mode it names cannot be exact
// here; says once on stderr, with the measured cost, when the choice makes
// a system call per switch. Cheap when nothing was loaded since last time.
TlsSwitchChoice ChooseTlsSwitch(std::string_view requested);

// The name of the mode ChooseTlsSwitch(requested) runs, for reports.
inline const char* ChosenTlsSwitchName(std::string_view requested) {
  return TlsSwitchName(ChooseTlsSwitch(requested).mode);
}

// The same choice as a line for help=1, without dying or saying anything.
std::string DescribeTlsSwitch(std::string_view requested);

// The words lazy mode carries for one thread while it is not running.
constexpr std::size_t kMaxCarriedWords = 12;
using CarriedThreadLocals = std::array<std::uint64_t, kMaxCarriedWords>;

// The census's carried words and pinned blocks, flattened for the switch
// and for __sim_tls_address; published when a world chooses lazy mode.
struct LazyLayout {
  std::size_t count = 0;
  std::array<std::ptrdiff_t, kMaxCarriedWords> below{};
  std::array<std::uint8_t, kMaxCarriedWords> size{};
  static constexpr std::size_t kMaxPinnedBlocks = 4;
  std::size_t pinned_count = 0;
  std::array<PinnedBlock, kMaxPinnedBlocks> pinned{};
  std::ptrdiff_t static_reach = 0;  // ThreadLocalCensus::static_reach
};
extern LazyLayout lazy_layout;

// Lazy mode's switch: the thread left keeps its carried words, the next
// one's are put in their place, and the running thread's distance from the
// installed block is published. `next_is_simulated` is false for the driver.
inline void MoveThreadLocals(CarriedThreadLocals& left, const CarriedThreadLocals& next, ThreadPointer next_tcb,
                             ThreadPointer installed_tcb, bool next_is_simulated) {
  char* const thread_pointer = static_cast<char*>(installed_tcb);
  for (std::size_t i = 0; i < lazy_layout.count; ++i) {
    char* const word = thread_pointer - lazy_layout.below[i];
    // Constant sizes, so that each copy is one move, not a call to memcpy.
    if (lazy_layout.size[i] == 8) {
      std::memcpy(&left[i], word, 8);
      std::memcpy(word, &next[i], 8);
    } else {
      std::memcpy(&left[i], word, 4);
      std::memcpy(word, &next[i], 4);
    }
  }
  __sim_tls_delta = static_cast<char*>(next_tcb) - thread_pointer;
  simulated_thread_marker = next_is_simulated;
}

// A new thread's carried words: those of its own TCB, which hold what glibc
// gave the donor thread (errno 0, the global locale and its tables) or, for
// T0 of a whole program on the main thread's own TCB, what main has.
inline void LoadCarriedWords(ThreadPointer own_tcb, CarriedThreadLocals& into) {
  char* const thread_pointer = static_cast<char*>(own_tcb);
  for (std::size_t i = 0; i < lazy_layout.count; ++i) {
    std::memcpy(&into[i], thread_pointer - lazy_layout.below[i], lazy_layout.size[i]);
  }
}

// The eager switch: the FS base moves to the next thread's own block.
inline void InstallThreadPointer(ThreadPointer tcb, TlsSwitch mode) {
  if (mode == TlsSwitch::kWrfsbase) {
    asm volatile("wrfsbase %0" ::"r"(tcb) : "memory");
  } else {
    SetThreadPointerBySyscall(tcb);
  }
}

}  // namespace sim::internal

#endif  // SIM_RUNTIME_CORE_THREAD_LOCAL_SWITCH_H_

// thread_control_block.cpp: donor pthreads, FS base switching, static TLS reset.
#include "core/thread_control_block.h"

#include <asm/prctl.h>
#include <link.h>
#include <linux/futex.h>
#include <pthread.h>
#include <signal.h>
#include <sys/auxv.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "core/check.h"
#include "interceptors/real_function.h"

namespace sim::internal {
namespace {

RealFunction<int(pthread_t*, const pthread_attr_t*, void* (*)(void*), void*)> real_pthread_create("pthread_create");
// Real ones: a donor may be made inside a world, whose interceptors model
// signals between simulated threads.
RealFunction<int(pthread_t, int)> real_pthread_kill("pthread_kill");

constexpr unsigned long kHwcap2Fsgsbase = 1UL << 1;

// The donor's whole life: it ends at once, by a raw exit syscall, so that
// glibc never learns of it and keeps its TCB and stack where they are (no
// errno, no TLS, no exit handlers touch them). The process is then one
// thread again: on a VM a parked thread made every later page fault and the
// process's exit dearer (docs/performance.md).
[[noreturn]] void* DonorMain(void*) {
  for (;;) asm volatile("syscall" : : "a"(static_cast<long>(SYS_exit)), "D"(0L) : "rcx", "r11", "memory");
}

// Until the kernel has cleared the donor's tid in its TCB
// (CLONE_CHILD_CLEARTID): from then on nothing but a borrower writes there.
// pthread_kill with no signal reads that tid: 0 is refused.
void AwaitDonorExit(ThreadPointer donor) {
  while (real_pthread_kill(reinterpret_cast<pthread_t>(donor), 0) == 0) syscall(SYS_sched_yield);
}

// A module's static TLS block, found by its fixed offset below the thread
// pointer (x86-64 TLS variant II: the offset is the same in every thread).
struct StaticTlsImage {
  std::ptrdiff_t offset_below_thread_pointer;
  const void* initial_image;
  std::size_t initialised_bytes;
  std::size_t total_bytes;
};

std::vector<StaticTlsImage>& StaticTlsImages() {
  static std::vector<StaticTlsImage> images;
  return images;
}
unsigned long long tls_modules_seen = 0;  // dl_phdr_info::dlpi_adds when scanned

bool IsLibcOrLoader(const char* path) {
  // libc's TLS holds malloc's per-thread caches and the dynamic loader's holds
  // its own bookkeeping: both stay valid across borrowers and must not be
  // reset under them. errno (also libc's) is cleared by the fiber on entry.
  const char* base = std::strrchr(path, '/');
  base = base != nullptr ? base + 1 : path;
  return std::strncmp(base, "libc.so", 7) == 0 || std::strncmp(base, "ld-linux", 8) == 0;
}

void ScanStaticTlsImages() {
  struct Scan {
    char* thread_pointer;
    std::vector<StaticTlsImage> images;
    unsigned long long adds = 0;
  } scan{static_cast<char*>(CurrentThreadPointer()), {}, 0};
  dl_iterate_phdr(
      [](dl_phdr_info* info, std::size_t, void* data) {
        auto* scan = static_cast<Scan*>(data);
        scan->adds = info->dlpi_adds;
        if (info->dlpi_tls_data == nullptr || IsLibcOrLoader(info->dlpi_name)) return 0;
        for (int i = 0; i < info->dlpi_phnum; ++i) {
          const ElfW(Phdr)& header = info->dlpi_phdr[i];
          if (header.p_type != PT_TLS) continue;
          const std::ptrdiff_t offset = scan->thread_pointer - static_cast<char*>(info->dlpi_tls_data);
          // Dynamic TLS (a dlopen'ed module outside the static block) has no
          // fixed offset; such modules keep their state across borrowers.
          if (offset <= 0 || offset > (1 << 20)) continue;
          scan->images.push_back({offset, reinterpret_cast<const void*>(info->dlpi_addr + header.p_vaddr),
                                  header.p_filesz, header.p_memsz});
        }
        return 0;
      },
      &scan);
  StaticTlsImages() = std::move(scan.images);
  tls_modules_seen = scan.adds;
}

void ResetStaticTls(ThreadPointer tcb) {
  if (tls_modules_seen == 0) ScanStaticTlsImages();
  char* thread_pointer = static_cast<char*>(tcb);
  for (const StaticTlsImage& image : StaticTlsImages()) {
    char* block = thread_pointer - image.offset_below_thread_pointer;
    std::memcpy(block, image.initial_image, image.initialised_bytes);
    std::memset(block + image.initialised_bytes, 0, image.total_bytes - image.initialised_bytes);
  }
}

bool* MarkerIn(ThreadPointer tcb) {
  const std::ptrdiff_t offset =
      static_cast<char*>(CurrentThreadPointer()) - reinterpret_cast<char*>(&simulated_thread_marker);
  return reinterpret_cast<bool*>(static_cast<char*>(tcb) - offset);
}

// A donor, which may not have ended yet (AwaitDonorExit).
ThreadPointer StartDonor() {
  pthread_attr_t attributes;
  pthread_attr_init(&attributes);
  // The donor's own stack only ever holds DonorMain's frame.
  pthread_attr_setstacksize(&attributes, 64 * 1024);
  sigset_t all_signals;
  sigfillset(&all_signals);
  pthread_attr_setsigmask_np(&attributes, &all_signals);
  pthread_t donor;
  const int error = real_pthread_create(&donor, &attributes, DonorMain, nullptr);
  pthread_attr_destroy(&attributes);
  if (error != 0) {
    Die(exit_status::kEnvironment,
        {"cannot start a donor thread for a simulated thread's TLS: ", std::strerror(error)});
  }
  // glibc on x86-64: pthread_t is the address of the thread's struct pthread,
  // which is its thread pointer.
  return reinterpret_cast<ThreadPointer>(donor);
}

std::vector<ThreadPointer>& FreeTcbs() {
  static std::vector<ThreadPointer> tcbs;
  return tcbs;
}

std::vector<ThreadPointer>& Donors() {
  static std::vector<ThreadPointer> donors;
  return donors;
}

}  // namespace

constinit thread_local bool simulated_thread_marker __attribute__((tls_model("initial-exec"))) = false;

ThreadPointer CurrentThreadPointer() {
  ThreadPointer self;
  asm volatile("mov %%fs:0, %0" : "=r"(self));
  return self;
}

const bool can_write_fs_base = (getauxval(AT_HWCAP2) & kHwcap2Fsgsbase) != 0;

void SetThreadPointerBySyscall(ThreadPointer tcb) { syscall(SYS_arch_prctl, ARCH_SET_FS, tcb); }

ThreadPointer BorrowThreadControlBlock() {
  std::vector<ThreadPointer>& free_tcbs = FreeTcbs();
  ThreadPointer tcb;
  if (free_tcbs.empty()) {
    // pthread_create reads the caller's TCB; run it under a real thread's
    // own TCB even when a simulated thread on a borrowed one asks.
    std::vector<ThreadPointer>& donors = Donors();
    static ThreadPointer real_thread_pointer = nullptr;
    const ThreadPointer caller = CurrentThreadPointer();
    const bool caller_is_donor = std::find(donors.begin(), donors.end(), caller) != donors.end();
    if (!caller_is_donor) real_thread_pointer = caller;
    if (caller_is_donor) SetThreadPointer(real_thread_pointer);
    tcb = StartDonor();
    AwaitDonorExit(tcb);
    if (caller_is_donor) SetThreadPointer(caller);
    donors.push_back(tcb);
  } else {
    tcb = free_tcbs.back();
    free_tcbs.pop_back();
  }
  ResetStaticTls(tcb);
  *MarkerIn(tcb) = true;
  return tcb;
}

void ReturnThreadControlBlock(ThreadPointer tcb) { FreeTcbs().push_back(tcb); }

void CreateDonorsAhead(std::size_t count) {
  // All started before any is awaited: they end side by side.
  const std::size_t first = Donors().size();
  while (Donors().size() < count) Donors().push_back(StartDonor());
  for (std::size_t i = first; i < Donors().size(); ++i) {
    AwaitDonorExit(Donors()[i]);
    FreeTcbs().push_back(Donors()[i]);
  }
}

void ForgetInheritedDonors() {
  FreeTcbs().clear();
  Donors().clear();
}

void SetSimulatedThreadMarker(bool simulated) { simulated_thread_marker = simulated; }

}  // namespace sim::internal

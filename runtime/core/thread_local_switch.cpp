// thread_local_switch.cpp: the tls_switch choice, and the notice when it
// costs a system call per switch.
#include "core/thread_local_switch.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <optional>

#include "common/process_notices.h"
#include "core/check.h"

extern "C" {
__thread long __sim_tls_delta __attribute__((tls_model("initial-exec"))) = 0;
}

namespace sim::internal {
namespace {

// What one arch_prctl(ARCH_SET_FS) costs here: the median of a few, each
// setting the FS base to what it already is.
long MeasuredSyscallNanoseconds() {
  constexpr int kSamples = 15;
  std::array<long, kSamples> samples{};
  const ThreadPointer self = CurrentThreadPointer();
  for (long& sample : samples) {
    const auto start = std::chrono::steady_clock::now();
    SetThreadPointerBySyscall(self);
    sample = static_cast<long>(
        std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - start).count());
  }
  std::nth_element(samples.begin(), samples.begin() + kSamples / 2, samples.end());
  return samples[kSamples / 2];
}

void SayOnceSyscallPerSwitch(std::string_view requested, const std::string& why) {
  static bool said = false;
  if (said) return;
  said = true;
  const std::string how_to_avoid =
      requested == "syscall"
          ? "tls_switch=auto avoids it where it can"
          : "building every module with thread-locals with sim-clang++ lets tls_switch=auto avoid it, as does a "
            "machine whose CPU and kernel (Linux 5.9+) allow wrfsbase";
  std::fprintf(stderr,
               "%.*s (arch_prctl, %ld ns each, measured): %s; %s (docs/performance.md, \"the thread-local switch\")\n",
               static_cast<int>(common::kSyscallPerSwitchNotice.size()), common::kSyscallPerSwitchNotice.data(),
               MeasuredSyscallNanoseconds(), why.c_str(), how_to_avoid.c_str());
}

constexpr const char* kNoWrfsbase = "this CPU or kernel does not allow wrfsbase (no FSGSBASE in AT_HWCAP2)";

// The choice, or the reason it is impossible (mode unset).
struct Decision {
  std::optional<TlsSwitch> mode;
  std::string why;
};

Decision Decide(std::string_view requested, const ThreadLocalCensus& census) {
  if (requested == "wrfsbase") {
    if (!can_write_fs_base) return {std::nullopt, kNoWrfsbase};
    return {TlsSwitch::kWrfsbase, "tls_switch=wrfsbase was asked for"};
  }
  if (requested == "lazy") {
    if (!census.lazy_is_exact) return {std::nullopt, "lazy mode cannot be exact: " + census.why_lazy_is_not_exact};
    return {TlsSwitch::kLazy, "tls_switch=lazy was asked for"};
  }
  if (requested == "syscall") return {TlsSwitch::kSyscall, "tls_switch=syscall was asked for"};
  if (requested == "auto") {
    if (can_write_fs_base) return {TlsSwitch::kWrfsbase, "this CPU and kernel allow wrfsbase (FSGSBASE)"};
    if (census.lazy_is_exact) {
      return {TlsSwitch::kLazy,
              std::string(kNoWrfsbase) +
                  ", and lazy mode is exact: every thread-local outside libc and libstdc++ was built with sim-clang++"};
    }
    return {TlsSwitch::kSyscall, std::string(kNoWrfsbase) + ", and " + census.why_lazy_is_not_exact};
  }
  return {std::nullopt, "option 'tls_switch' is auto, lazy, wrfsbase or syscall, got '" + std::string(requested) + "'"};
}

void PublishLazyLayout(const ThreadLocalCensus& census) {
  SIM_CHECK(census.carried.size() <= kMaxCarriedWords, "more carried thread-local words than a thread keeps");
  SIM_CHECK(census.pinned.size() <= LazyLayout::kMaxPinnedBlocks, "more pinned thread-local blocks than expected");
  lazy_layout.count = census.carried.size();
  for (std::size_t i = 0; i < census.carried.size(); ++i) {
    lazy_layout.below[i] = census.carried[i].below_thread_pointer;
    lazy_layout.size[i] = census.carried[i].size;
  }
  lazy_layout.static_reach = census.static_reach;
  lazy_layout.pinned_count = census.pinned.size();
  std::copy(census.pinned.begin(), census.pinned.end(), lazy_layout.pinned.begin());
}

}  // namespace

LazyLayout lazy_layout;

const char* TlsSwitchName(TlsSwitch mode) {
  switch (mode) {
    case TlsSwitch::kLazy: return "lazy";
    case TlsSwitch::kWrfsbase: return "wrfsbase";
    case TlsSwitch::kSyscall: return "syscall";
  }
  return "?";
}

TlsSwitchChoice ChooseTlsSwitch(std::string_view requested) {
  const ThreadLocalCensus& census = CurrentThreadLocalCensus();
  Decision decision = Decide(requested, census);
  if (!decision.mode.has_value()) {
    Die(exit_status::kUsage, {"SIM_OPTIONS: tls_switch=", requested, ": ", decision.why, "; tls_switch=auto chooses ",
                              "the fastest exact mode"});
  }
  if (*decision.mode == TlsSwitch::kLazy) PublishLazyLayout(census);
  if (*decision.mode == TlsSwitch::kSyscall) SayOnceSyscallPerSwitch(requested, decision.why);
  return {*decision.mode, std::move(decision.why)};
}

std::string DescribeTlsSwitch(std::string_view requested) {
  const Decision decision = Decide(requested, CurrentThreadLocalCensus());
  if (!decision.mode.has_value()) return "tls_switch=" + std::string(requested) + " cannot run here: " + decision.why;
  return "tls_switch=" + std::string(requested) + " runs as " + TlsSwitchName(*decision.mode) +
         " here: " + decision.why;
}

}  // namespace sim::internal

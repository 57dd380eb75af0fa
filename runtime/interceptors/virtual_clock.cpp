// virtual_clock.cpp: timespec checks and deadlines (virtual_clock.h).
#include "interceptors/virtual_clock.h"

#include "core/world.h"

namespace sim::internal {
namespace {
constexpr long kNanosecondsPerSecond = 1000000000L;
}  // namespace

bool ValidDuration(const timespec& duration) {
  return duration.tv_sec >= 0 && duration.tv_nsec >= 0 && duration.tv_nsec < kNanosecondsPerSecond;
}

bool ValidDeadline(const timespec* absolute) {
  return absolute != nullptr && absolute->tv_nsec >= 0 && absolute->tv_nsec < kNanosecondsPerSecond;
}

std::uint64_t DeadlineFromAbsolute(clockid_t clock, const timespec& absolute) {
  const auto absolute_ns =
      static_cast<std::uint64_t>(absolute.tv_sec) * 1000000000ULL + static_cast<std::uint64_t>(absolute.tv_nsec);
  const std::uint64_t epoch = clock == CLOCK_REALTIME ? kRealtimeEpochNs : kMonotonicEpochNs;
  return absolute.tv_sec < 0 || absolute_ns < epoch ? 0 : absolute_ns - epoch;
}

}  // namespace sim::internal

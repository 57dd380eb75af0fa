// time.cpp: virtual time: the sleep family (nanosleep,
// clock_nanosleep, usleep, sleep), sched_yield, and clock reads
// (clock_gettime, gettimeofday, time).
//
// Every world starts at the same instant (kRealtimeEpochNs,
// kMonotonicEpochNs) and its clock moves only when the world moves it: when
// no thread can run, it jumps to the earliest deadline. A sleep is therefore
// a Block with a deadline and nothing else to wait for, and costs no wall
// time. How deadlines are chosen among threads is the world's business; this
// file only converts clocks and timespecs to virtual nanoseconds.
//
// Not intercepted: clock() and timespec_get() (glibc calls its clock
// internally, past any interceptor), so they read the real clocks.
#include <sched.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <optional>

#include "core/world.h"
#include "interceptors/real_function.h"
#include "interceptors/virtual_clock.h"

using namespace sim::internal;

namespace {
RealFunction<int(const struct timespec*, struct timespec*)> real_nanosleep("nanosleep");
RealFunction<int(clockid_t, int, const struct timespec*, struct timespec*)> real_clock_nanosleep("clock_nanosleep");
RealFunction<int(useconds_t)> real_usleep("usleep");
RealFunction<unsigned(unsigned)> real_sleep("sleep");
RealFunction<int()> real_sched_yield("sched_yield");
RealFunction<int(clockid_t, struct timespec*)> real_clock_gettime("clock_gettime");
RealFunction<int(struct timeval*, void*)> real_gettimeofday("gettimeofday");
RealFunction<time_t(time_t*)> real_time("time");

constexpr std::uint64_t kNanosecondsPerSecond = 1000000000ULL;
// TAI runs ahead of UTC by the leap seconds since 1972: 37 since 2017.
constexpr std::uint64_t kTaiOffsetNs = 37 * kNanosecondsPerSecond;

// A clock's reading is its offset plus the world's virtual time; nullopt for
// a clock the kernel would reject.
std::optional<std::uint64_t> ClockOffsetNs(clockid_t clock) {
  switch (clock) {
    case CLOCK_REALTIME:
    case CLOCK_REALTIME_COARSE:
    case CLOCK_REALTIME_ALARM: return kRealtimeEpochNs;
    case CLOCK_TAI: return kRealtimeEpochNs + kTaiOffsetNs;
    case CLOCK_MONOTONIC:
    case CLOCK_MONOTONIC_RAW:
    case CLOCK_MONOTONIC_COARSE:
    case CLOCK_BOOTTIME:  // a world never suspends
    case CLOCK_BOOTTIME_ALARM: return kMonotonicEpochNs;
    case CLOCK_PROCESS_CPUTIME_ID:
    case CLOCK_THREAD_CPUTIME_ID:
      // Virtual too: the real CPU time of the one OS thread that runs every
      // simulated thread is shared by all of them and differs from run to
      // run, so a program that reads it (a benchmark loop, a CPU budget)
      // would stop being a function of the seed. Virtual time since the
      // world began is what a thread that only ever waited would see.
      return 0;
  }
  // Negative ids are the CPU-time clocks of clock_getcpuclockid() and
  // pthread_getcpuclockid(): virtual, as above.
  if (clock < 0) return 0;
  return std::nullopt;
}

std::uint64_t ToNs(const timespec& time) {
  return static_cast<std::uint64_t>(time.tv_sec) * kNanosecondsPerSecond + static_cast<std::uint64_t>(time.tv_nsec);
}

timespec ToTimespec(std::uint64_t ns) {
  return {static_cast<time_t>(ns / kNanosecondsPerSecond), static_cast<long>(ns % kNanosecondsPerSecond)};
}

// Sleeps until the virtual clock reaches `deadline_ns`.
void SleepUntil(World& world, std::uint64_t deadline_ns, const Site& site) {
  if (deadline_ns <= world.now_ns()) {
    // A sleep that is already over is a yield: a loop of zero-length sleeps
    // must let time advance like any other waiting loop.
    world.YieldPoint(EventKind::kSleep, nullptr, site);
    return;
  }
  world.SchedulingPoint(EventKind::kSleep, nullptr, site);
  const Wait wait{
      .description = "sleep",
      // No ready predicate: only the clock ends a sleep. When nothing else can
      // run, the world jumps the clock to the earliest such deadline.
      .deadline_ns = deadline_ns,
  };
  world.Block(wait);
}

// Reading the clock is a scheduling point (EventKind::kClockRead), so a
// loop that polls the clock until another thread does something
// (`while (!done && now() < timeout)`, with `done` read by uninstrumented
// code) lets that thread run. It is not a yield point (the reader is not
// willing to wait): if it were, a read while every other thread sleeps
// would jump the clock to the earliest wake-up, and the usual
// `deadline = now() + timeout` would come out late by an arbitrary amount
// (wait_for(1s) on a producer that sleeps 2 s would never time out).
//
// A thread that reads the clock again without having waited since sees
// time pass (World::AdvanceClockForRepeatedRead): a busy-wait for a
// deadline, or a calibration loop that spins until the clock moves, ends
// in a few dozen reads instead of spinning forever at an instant that
// never ends. The first read after a wait moves nothing, so one thread's
// reads around a sleep differ by exactly the slept time.
std::uint64_t ReadClockNs(World& world, std::uint64_t offset_ns, const Site& site) {
  world.SchedulingPoint(EventKind::kClockRead, nullptr, site);
  world.AdvanceClockForRepeatedRead();
  return offset_ns + world.now_ns();
}

}  // namespace

extern "C" {

int nanosleep(const struct timespec* duration, struct timespec* remaining) {
  if (!InWorld()) return real_nanosleep(duration, remaining);
  World& world = *current_world;
  const Site site = world.CallerSite();
  if (duration == nullptr) {
    errno = EFAULT;
    return -1;
  }
  if (!ValidDuration(*duration)) {
    errno = EINVAL;
    return -1;
  }
  // Never interrupted (a simulated signal waits for the sleep to end), so
  // `remaining` is never written.
  SleepUntil(world, world.now_ns() + ToNs(*duration), site);
  return 0;
}

int clock_nanosleep(clockid_t clock, int flags, const struct timespec* request, struct timespec* remaining) {
  if (!InWorld()) return real_clock_nanosleep(clock, flags, request, remaining);
  World& world = *current_world;
  const Site site = world.CallerSite();
  const std::optional<std::uint64_t> offset = ClockOffsetNs(clock);
  // Linux refuses to sleep on the calling thread's own CPU clock.
  if (!offset || clock == CLOCK_THREAD_CPUTIME_ID) return EINVAL;
  if (request == nullptr) return EFAULT;
  if (!ValidDuration(*request)) return EINVAL;
  const std::uint64_t request_ns = ToNs(*request);
  if ((flags & TIMER_ABSTIME) != 0) {
    SleepUntil(world, request_ns > *offset ? request_ns - *offset : 0, site);
  } else {
    SleepUntil(world, world.now_ns() + request_ns, site);
  }
  return 0;
}

int usleep(useconds_t microseconds) {
  if (!InWorld()) return real_usleep(microseconds);
  World& world = *current_world;
  SleepUntil(world, world.now_ns() + static_cast<std::uint64_t>(microseconds) * 1000, world.CallerSite());
  return 0;
}

unsigned sleep(unsigned seconds) {
  if (!InWorld()) return real_sleep(seconds);
  World& world = *current_world;
  SleepUntil(world, world.now_ns() + seconds * kNanosecondsPerSecond, world.CallerSite());
  return 0;
}

// A yield point: a thread that yields in a loop is waiting for another to
// act, so when no other thread can run the clock jumps to the next deadline
// instead of the loop livelocking.
int sched_yield() noexcept {
  if (!InWorld()) return real_sched_yield();
  World& world = *current_world;
  world.YieldPoint(EventKind::kYield, nullptr, world.CallerSite());
  return 0;
}

int clock_gettime(clockid_t clock, struct timespec* time) noexcept {
  if (!InWorld()) return real_clock_gettime(clock, time);
  World& world = *current_world;
  const Site site = world.CallerSite();
  const std::optional<std::uint64_t> offset = ClockOffsetNs(clock);
  if (!offset) {
    errno = EINVAL;
    return -1;
  }
  const std::uint64_t now = ReadClockNs(world, *offset, site);
  *time = ToTimespec(now);  // declared nonnull, as by glibc
  return 0;
}

int gettimeofday(struct timeval* time, void* timezone) noexcept {
  if (!InWorld()) return real_gettimeofday(time, timezone);
  World& world = *current_world;
  const std::uint64_t now = ReadClockNs(world, kRealtimeEpochNs, world.CallerSite());
  time->tv_sec = static_cast<time_t>(now / kNanosecondsPerSecond);  // declared nonnull, as by glibc
  time->tv_usec = static_cast<suseconds_t>(now % kNanosecondsPerSecond / 1000);
  // The time zone is obsolete; glibc zeroes it too.
  if (timezone != nullptr) *static_cast<struct timezone*>(timezone) = {};
  return 0;
}

time_t time(time_t* result) noexcept {
  if (!InWorld()) return real_time(result);
  World& world = *current_world;
  const auto now =
      static_cast<time_t>(ReadClockNs(world, kRealtimeEpochNs, world.CallerSite()) / kNanosecondsPerSecond);
  if (result != nullptr) *result = now;
  return now;
}

}  // extern "C"

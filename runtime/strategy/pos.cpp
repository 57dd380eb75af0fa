// pos.cpp: partial order sampling.
//
// Yuan, Yang, Gu, "Partial Order Aware Concurrency Sampling", CAV 2018.
// Every pending event gets a random priority; the enabled event with the
// highest priority runs; after it runs, every pending event that races with
// it (same location and at least one write, or the same sync object) gets a
// fresh random priority. Resetting the racing events is what makes the
// sampling aware of the partial order: orders of events that commute are
// not sampled again and again, so each distinct partial order is reached
// with a probability far above random walk's for the same interleaving.
//
// Departures from the paper:
// - A thread has one pending event, the operation it announced at its last
//   scheduling point (ChoicePoint::pending), so a priority belongs to a
//   thread until that operation changes: a thread whose `thread_points`
//   moved since the last choice point (it ran, it blocked and was woken,
//   it ran alone while every other thread was blocked) has a new event and
//   gets a fresh priority. The paper's "reassign when it becomes pending".
// - The strategy sees only choice points. Events run while a single thread
//   was enabled are not seen, so the races they had with blocked threads'
//   events are not either; those threads' events are new by then (they
//   blocked), so they get fresh priorities all the same.
// - An operation the world does not know (a thread that has not reached its
//   first scheduling point, a sleep, a fence, a signal) races with every
//   other: its priority and theirs are reset, which errs towards random
//   walk rather than towards missing a race.
// - Locations are compared by 8-byte word (strategy.h, Conflict), since the
//   hooks do not pass sizes to the world.
//
// Going on without being asked: when the running thread goes on, pos says
// at how many of the next choice points it would go on again while nothing
// else changes (Choice::same_for): as many as its next events' fresh
// priorities lead every other enabled thread's, unless one of its accesses
// races with another thread's pending event (which resets that priority):
// the world checks that before going on unasked. Drawing those priorities
// one by one, as pos used to (ahead, up to 1,024 at a time), cost a draw per
// access: most of what pos paid above pct for two threads' accesses in a
// whole program. Each is a fresh uniform priority and leads the highest
// other one, h, with probability p = (2^64 - 1 - h) / 2^64, so how many
// lead before the first that does not is geometric, and one draw gives the
// count (LeadingCount). The values themselves are drawn only where a
// choice point needs one, from what the count says of them: uniform in
// (h, max] for a leading one (needed only where another thread's priority
// may be above h by then: a new thread, one woken, one reset after a
// race), uniform in [0, h] for the first that does not lead. That is the
// joint distribution of independent uniform priorities, drawn in another
// order: every schedule is as likely as before (but for the count's
// rounding, far below what seeds can show), only which seed runs it
// changed. Where the thread goes on again while another's priority is
// above h, the rest of the count is dropped and a new one drawn against
// the new highest: no decision has used what it said of later events, and
// those are independent of the earlier ones.
//
// Whether the world asks or not, the run is the same execution (the rerun
// that records decisions asks at every point): at a point the world would
// have gone on unasked, the running thread's priority is known to lead, no
// priority is reset (the world asks where one would be), and the count
// still holds, so answering there draws nothing and changes nothing. Draws
// happen only where the world asks either way: past the count, and where
// something else changed. (Drawing ahead broke this: asked at every point,
// pos drew its next block one point early, before a reset's draw at the
// next point instead of after it.)
#include <algorithm>
#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/prng.h"
#include "strategy/strategy.h"

// The count is computed with + - * / only, each rounded as IEEE 754 says,
// never fused: a seed's schedule must not depend on the libm or the CPU.
#pragma STDC FP_CONTRACT OFF

namespace sim::internal {
namespace {

// ln((1 + s) / (1 - s)) = 2 (s + s^3/3 + s^5/5 + ...), to double precision
// for |s| <= 1/3.
constexpr std::size_t kAtanhTerms = 17;  // 9^-17 / 35 < 2^-58
constexpr std::array<double, kAtanhTerms> kAtanhCoefficients = [] {
  std::array<double, kAtanhTerms> coefficients{};
  for (std::size_t k = 0; k < kAtanhTerms; ++k) coefficients[k] = 1.0 / static_cast<double>(2 * k + 1);
  return coefficients;
}();

double LogOfRatio(double s) {
  const double s2 = s * s;
  double sum = 0;
  for (std::size_t k = kAtanhTerms; k-- > 0;) sum = sum * s2 + kAtanhCoefficients[k];
  return 2 * s * sum;
}

// ln(x) for a normal x in (0, 1]: x = m 2^e with m in [sqrt(1/2), sqrt(2)).
double Log(double x) {
  const auto bits = std::bit_cast<std::uint64_t>(x);
  int exponent = static_cast<int>(bits >> 52) - 1023;
  double mantissa = std::bit_cast<double>((bits & ((std::uint64_t{1} << 52) - 1)) | (std::uint64_t{1023} << 52));
  if (mantissa > 1.4142135623730951) {
    mantissa /= 2;
    ++exponent;
  }
  return exponent * 0.6931471805599453 + LogOfRatio((mantissa - 1) / (mantissa + 1));
}

// The most leading priorities one count covers: past them nothing is known
// and each priority is a fresh draw again, which leaves the distribution as
// it is and keeps the count's conversion from a double defined when p is
// within 2^-64 of 1.
constexpr std::uint64_t kMostLeading = std::uint64_t{1} << 32;

class PosStrategy final : public Strategy {
 public:
  void BeginExecution(std::uint64_t seed) override {
    prng_ = Prng(seed);
    threads_.clear();
    ahead_thread_ = kNobody;
  }

  bool WantsPendingOperations() const override { return true; }

  // Its priority is drawn where its first event is first seen.
  void OnThreadCreated(ThreadId thread) override {
    if (threads_.size() <= thread) threads_.resize(thread + 1);
    threads_[thread] = PerThread{};
  }

  Choice Choose(std::span<const ThreadId> enabled, const ChoicePoint& at) override {
    auto pending = [&at](std::size_t i) { return at.pending.empty() ? PendingOperation{} : at.pending[i]; };
    std::size_t above_only = enabled.size();  // a thread whose priority is known only to be above a bound
    bool several_above_only = false;
    for (std::size_t i = 0; i < enabled.size(); ++i) {
      PerThread& thread = threads_[enabled[i]];
      const PendingOperation operation = pending(i);
      if (at.pending.empty() || operation.thread_points != thread.seen_points) {
        NewPriority(thread, enabled[i], at.number);
        thread.seen_points = operation.thread_points;
      }
      if (thread.above_only) {
        if (above_only != enabled.size()) several_above_only = true;
        above_only = i;
      }
    }
    std::size_t best = 0;
    if (above_only != enabled.size() && !several_above_only && LeadsUndrawn(enabled, above_only)) {
      best = above_only;  // chosen on its bound: its value stays undrawn until a point needs it
    } else {
      for (std::size_t i = 0; i < enabled.size(); ++i) DrawAboveOnly(threads_[enabled[i]]);
      for (std::size_t i = 1; i < enabled.size(); ++i) {
        if (threads_[enabled[i]].priority > threads_[enabled[best]].priority) best = i;
      }
    }
    // The chosen event runs now; its thread's next event is new (its points
    // will have moved), and every event racing with it is sampled afresh.
    const PendingOperation runs = pending(best);
    for (std::size_t i = 0; i < enabled.size(); ++i) {
      if (i != best && Conflict(pending(i), runs)) threads_[enabled[i]].priority = prng_.Next();
    }
    if (enabled[best] != at.running() || at.pending.empty()) return {enabled[best], {}};
    std::uint64_t highest_other = 0;
    for (std::size_t i = 0; i < enabled.size(); ++i) {
      if (i != best) highest_other = std::max(highest_other, threads_[enabled[i]].priority);
    }
    return {enabled[best], {}, PointsGoingOn(enabled[best], at.number, highest_other)};
  }

 private:
  static constexpr ThreadId kNobody = ~ThreadId{0};
  static constexpr std::uint64_t kMax = ~std::uint64_t{0};
  static constexpr std::uint64_t kNeverSeen = kMax;

  struct PerThread {
    // When above_only: the bound its priority is known to be above, drawn
    // (uniform in (priority, max]) only when needed.
    std::uint64_t priority = 0;
    bool above_only = false;
    std::uint64_t seen_points = kNeverSeen;  // thread_points of the event `priority` belongs to
  };

  // The priority of `thread`'s new event at choice point `number`: one the
  // count says leads (left undrawn), the first one it says does not, or a
  // fresh one.
  void NewPriority(PerThread& thread, ThreadId id, std::uint64_t number) {
    thread.above_only = false;
    if (id == ahead_thread_ && number >= ahead_first_) {
      const std::uint64_t index = number - ahead_first_;
      if (index < ahead_leading_) {
        thread.priority = ahead_above_;
        thread.above_only = true;
        return;
      }
      if (index == ahead_leading_ && !ahead_capped_) {
        thread.priority = ahead_above_ == kMax ? prng_.Next() : prng_.Below(ahead_above_ + 1);
        return;
      }
    }
    thread.priority = prng_.Next();
  }

  // Whether enabled[i], whose priority is above a bound, is above every
  // other enabled thread's (known) one.
  bool LeadsUndrawn(std::span<const ThreadId> enabled, std::size_t i) const {
    for (std::size_t j = 0; j < enabled.size(); ++j) {
      if (j != i && threads_[enabled[j]].priority > threads_[enabled[i]].priority) return false;
    }
    return true;
  }

  void DrawAboveOnly(PerThread& thread) {
    if (!thread.above_only) return;
    thread.priority += 1 + prng_.Below(kMax - thread.priority);  // a bound below max: something leads it
    thread.above_only = false;
  }

  // The choice points after `number` at which `thread`, going on now, goes
  // on again while nothing else changes: the rest of its count while that
  // still holds (the other threads' highest priority is not above the one
  // it was drawn against), else a new count.
  std::uint64_t PointsGoingOn(ThreadId thread, std::uint64_t number, std::uint64_t highest_other) {
    if (thread == ahead_thread_ && number >= ahead_first_ && number - ahead_first_ < ahead_leading_ &&
        highest_other <= ahead_above_) {
      return ahead_leading_ - 1 - (number - ahead_first_);
    }
    ahead_thread_ = thread;
    ahead_first_ = number + 1;
    ahead_above_ = highest_other;
    ahead_leading_ = LeadingCount(highest_other);
    ahead_capped_ = ahead_leading_ == kMostLeading;
    return ahead_leading_;
  }

  // How many fresh priorities in a row are above `highest`: geometric, at
  // least k with probability p^k, p = (2^64 - 1 - highest) / 2^64, by the
  // inverse CDF floor(ln u / ln p) of one uniform u in (0, 1]. ln p as
  // ln(1 - q) for q = 1 - p < 1/2 (from q, so that a p near 1 keeps its
  // precision), otherwise from p. Both are within a few ulps, and u has 53
  // bits, so each count's probability is within about 2^-50 of p^k (1 - p):
  // far below what any number of seeds could show.
  std::uint64_t LeadingCount(std::uint64_t highest) {
    if (highest == kMax) return 0;  // nothing is above it
    double log_p;
    if (highest < (std::uint64_t{1} << 63)) {
      const double q = static_cast<double>(highest + 1) * 0x1p-64;
      log_p = LogOfRatio(-q / (2 - q));  // (1 + s) / (1 - s) = 1 - q
    } else {
      log_p = Log(static_cast<double>(kMax - highest) * 0x1p-64);
    }
    const double u = static_cast<double>((prng_.Next() >> 11) + 1) * 0x1p-53;
    const double count = Log(u) / log_p;
    return count < static_cast<double>(kMostLeading) ? static_cast<std::uint64_t>(count) : kMostLeading;
  }

  Prng prng_{0};
  std::vector<PerThread> threads_;
  // ahead_thread_'s events at choice points ahead_first_ to ahead_first_ +
  // ahead_leading_ - 1 have priorities above ahead_above_; at the next
  // point, one at most ahead_above_, unless ahead_capped_ (nothing is known
  // past the count).
  ThreadId ahead_thread_ = kNobody;
  std::uint64_t ahead_first_ = 0;
  std::uint64_t ahead_leading_ = 0;
  std::uint64_t ahead_above_ = 0;
  bool ahead_capped_ = false;
};

}  // namespace

std::unique_ptr<Strategy> MakePosStrategy() { return std::make_unique<PosStrategy>(); }

}  // namespace sim::internal

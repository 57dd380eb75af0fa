// world_report.cpp: what the world says about an ended execution: where
// each thread was, the last events at user sites, the story of a shrunk
// run, and the failure signature that tells one failure from another.
#include <algorithm>
#include <cinttypes>
#include <cstdio>

#include "core/race_checks.h"
#include "core/world.h"

namespace sim::internal {

void World::DescribeFailure(Outcome& outcome) {
  // What an annotation added (SIM_TEST's earlier failed expectations)
  // stays after the race's own lines.
  DescribeRace(outcome.message);
  DescribeThreads(outcome);
  if (!trace_.all().empty()) {
    outcome.story = TellStory(trace_.all(), preemptions_);
    outcome.events = trace_.all();
  }
}

void World::AskSymbolizerAhead() const {
  SiteNamer namer;
  if (race_to_tell_) {
    for (const void* frame : race_to_tell_->walked) namer.Add(frame);
    namer.Add(race_to_tell_->frameless_caller);
  }
  for (const auto& thread : threads_) {
    namer.Add(thread->last_site);
    namer.Add(thread->created_at);
    namer.Add(thread->created_after);
  }
  namer.AskAhead();
}

std::string World::DescribeDeadlock() const {
  std::size_t blocked = 0;
  for (auto& thread : threads_) blocked += thread->state == ThreadState::kBlocked;
  return std::to_string(blocked) + (blocked == 1 ? " thread is blocked and no thread can run or wake it"
                                                 : " threads are blocked and no thread can run or wake them");
}

std::uint64_t World::FailureSignature() const {
  std::uint64_t signature = static_cast<std::uint64_t>(outcome_.verdict) * 1099511628211ULL;
  auto mix = [&signature](std::uint64_t value) { signature = (signature ^ value) * 1099511628211ULL; };
  if (outcome_.verdict == Verdict::kDeadlock) {
    // Which sites are stuck, in any order.
    std::uint64_t blocked_sites = 0;
    for (auto& thread : threads_) {
      if (thread->state == ThreadState::kBlocked) blocked_sites += thread->last_site.Hash() * 0x9e3779b97f4a7c15ULL;
    }
    mix(blocked_sites);
  } else if (race_to_tell_) {
    // The pair of sites that raced: a shrinking candidate that races
    // elsewhere, or at the same site with another, is another failure.
    mix(RaceSitesKey(race_to_tell_->race));
  } else if (ended_on_ != nullptr && ended_on_ != &driver_) {
    mix(ended_on_->last_site.Hash());
  }
  // A crash by another signal (a SIGSEGV where the run as found asserted)
  // is another failure.
  if (outcome_.verdict == Verdict::kCrash) mix(static_cast<std::uint64_t>(outcome_.signal_number));
  return signature;
}

void World::DescribeThreads(Outcome& outcome) {
  SiteNamer namer;
  for (auto& thread : threads_) namer.Add(thread->last_site);
  // The recent past: the ring, or a window of the whole trace when it was
  // kept (the reported execution), so library-internal stretches (gtest
  // formatting a failure) do not hide the user's events.
  constexpr std::size_t kWindow = 512;
  std::vector<Event> events = trace_.LastEvents();
  if (!trace_.all().empty()) {
    const std::vector<Event>& all = trace_.all();
    events.assign(all.end() - static_cast<std::ptrdiff_t>(std::min(all.size(), kWindow)), all.end());
  }
  for (const Event& event : events) namer.Add(event.site);
  // Each thread's last event at a user site in that window.
  std::vector<const Event*> last_user_event(threads_.size(), nullptr);
  for (auto it = events.rbegin(); it != events.rend(); ++it) {
    if (it->thread < threads_.size() && last_user_event[it->thread] == nullptr && namer.IsUserSite(it->site)) {
      last_user_event[it->thread] = &*it;
    }
  }

  auto where = [&namer](const Site& site) {
    std::string text = namer.Name(site);
    const std::string function = namer.Function(site);
    // A name without a line already is the function ("f() (libx.so)").
    if (!function.empty() && text.find(" (") == std::string::npos) text += " in " + function;
    return text;
  };
  for (auto& thread : threads_) {
    std::string line = "T" + std::to_string(thread->id) + (thread->id == 0 ? " 'main'" : "");
    switch (thread->state) {
      case ThreadState::kFinished: line += " finished"; break;
      case ThreadState::kBlocked: {
        char object[32];
        std::snprintf(object, sizeof object, "%p", thread->wait.object);
        line += std::string(" blocked: ") + thread->wait.description + " " + object;
        if (thread->wait.blocker != nullptr) line += " (" + thread->wait.blocker(thread->wait.model) + ")";
        line += " at " + where(thread->last_site);
        break;
      }
      case ThreadState::kRunnable: {
        const Event* last = last_user_event[thread->id];
        line += std::string(thread.get() == ended_on_ ? " running" : " runnable") + ", last " +
                EventKindName(last != nullptr ? last->kind : thread->last_kind) + " at " +
                where(last != nullptr ? last->site : thread->last_site);
        break;
      }
    }
    outcome.threads.push_back(std::move(line));
  }
  // The last kReportedEvents at user sites; library-internal ones (gtest
  // reporting a failure, libstdc++ internals) are counted, not listed.
  constexpr std::size_t kReportedEvents = 20;
  std::vector<const Event*> shown;
  std::size_t omitted = 0;
  for (auto it = events.rbegin(); it != events.rend() && shown.size() < kReportedEvents; ++it) {
    if (namer.IsUserSite(it->site) || it->kind == EventKind::kThreadExit) {
      shown.insert(shown.begin(), &*it);
    } else {
      ++omitted;
    }
  }
  outcome.events_left_out = omitted;
  for (const Event* shown_event : shown) {
    const Event& event = *shown_event;
    char prefix[96];
    std::snprintf(prefix, sizeof prefix, "[step %" PRIu64 " t=%.6f] T%u ", event.step,
                  static_cast<double>(event.time_ns) / 1e9, event.thread);
    outcome.last_events.push_back(prefix + std::string(EventKindName(event.kind)) + " " + namer.Name(event.site));
  }
}

}  // namespace sim::internal

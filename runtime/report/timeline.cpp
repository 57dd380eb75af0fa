// timeline.cpp: builds the timeline model from the whole trace (runs,
// instants, release->acquire flows, the failure) and writes it to a file.
// The JSON and HTML renderings live in timeline_json.cpp and
// timeline_html.cpp.
//
// The trace records scheduling points, not the moments a lock was taken or
// a wait returned, so the flows are inferred: see each Add*Flows function
// for what it assumes. A flow ends where the acquire completed: at the
// acquiring event when the release came first, else at the start of the
// acquiring thread's first run after the release (it was blocked until
// then).
#include "report/timeline.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <optional>
#include <unordered_map>
#include <utility>

#include "report/timeline_model.h"

namespace sim::internal {
namespace {

constexpr std::size_t kNone = TimelineModel::kNone;

// Sites are named once per distinct site: SiteNamer's lookups are linear in
// what it has symbolized, and a trace repeats a few sites many times.
struct SiteKey {
  const __sim_site* source;
  const void* frames[Site::kMaxFrames];
  bool operator==(const SiteKey& other) const {
    return source == other.source && std::equal(frames, frames + Site::kMaxFrames, other.frames);
  }
};
struct SiteKeyHash {
  std::size_t operator()(const SiteKey& key) const {
    std::size_t hash = std::hash<const void*>()(key.source);
    for (const void* frame : key.frames) hash = hash * 1099511628211ULL ^ std::hash<const void*>()(frame);
    return hash;
  }
};
SiteKey KeyOf(const Site& site) {
  SiteKey key{site.source, {}};
  if (site.source == nullptr) std::copy(site.frames, site.frames + Site::kMaxFrames, key.frames);
  return key;
}

// "file.cpp:23" and "file.cpp:25" -> "file.cpp:23-25"; different files -> "a:1 .. b:2".
std::string Range(const std::string& first, const std::string& last) {
  if (first == last) return first;
  const std::size_t a = first.rfind(':');
  const std::size_t b = last.rfind(':');
  if (a != std::string::npos && b != std::string::npos && first.compare(0, a, last, 0, b) == 0 &&
      first.find(" (") == std::string::npos) {
    return first + "-" + last.substr(b + 1);
  }
  return first + " .. " + last;
}

// What a run did, in source terms: the range of its sites in the user's
// code ("file:line"), or when it has none (only library calls such as
// std::thread's), the kinds of its events.
std::string RunRange(const TimelineModel& model, const TimelineModel::Run& run) {
  const std::string* first = nullptr;
  const std::string* last = nullptr;
  std::string kinds;
  for (std::size_t i = run.first_event; i <= run.last_event; ++i) {
    const TimelineModel::Point& event = model.events[i];
    if (event.site.find(':') != std::string::npos && event.site.find(" (") == std::string::npos) {
      if (first == nullptr) first = &event.site;
      last = &event.site;
    }
    const std::string kind = EventKindName(event.kind);
    if (kinds.find(kind) == std::string::npos) kinds += (kinds.empty() ? "" : ", ") + kind;
  }
  return first != nullptr ? Range(*first, *last) : kinds;
}

// The thread DescribeFailure described as running when the execution ended.
std::optional<ThreadId> FailingThread(const Outcome& outcome) {
  for (const std::string& line : outcome.threads) {
    if (line.size() < 2 || line[0] != 'T' || line.find(" running") == std::string::npos) continue;
    return static_cast<ThreadId>(std::strtoul(line.c_str() + 1, nullptr, 10));
  }
  return std::nullopt;
}

enum class Family { kNone, kMutex, kRwlock, kSpin, kStdio, kCond, kFutex, kSemaphore };

struct FlowKind {
  Family family;
  bool release;
};

FlowKind Classify(EventKind kind) {
  switch (kind) {
    case EventKind::kMutexLock:
    case EventKind::kMutexTryLock: return {Family::kMutex, false};
    case EventKind::kMutexUnlock: return {Family::kMutex, true};
    case EventKind::kRwlockRead:
    case EventKind::kRwlockWrite: return {Family::kRwlock, false};
    case EventKind::kRwlockUnlock: return {Family::kRwlock, true};
    case EventKind::kSpinLock: return {Family::kSpin, false};
    case EventKind::kSpinUnlock: return {Family::kSpin, true};
    case EventKind::kStdioLock: return {Family::kStdio, false};
    case EventKind::kStdioUnlock: return {Family::kStdio, true};
    case EventKind::kCondWait: return {Family::kCond, false};
    case EventKind::kCondSignal:
    case EventKind::kCondBroadcast: return {Family::kCond, true};
    case EventKind::kFutexWait: return {Family::kFutex, false};
    case EventKind::kFutexWake: return {Family::kFutex, true};
    case EventKind::kSemaphoreWait: return {Family::kSemaphore, false};
    case EventKind::kSemaphorePost: return {Family::kSemaphore, true};
    default: return {Family::kNone, false};
  }
}

const char* FlowName(Family family) {
  switch (family) {
    case Family::kMutex: return "unlock -> lock";
    case Family::kRwlock: return "unlock -> lock (rwlock)";
    case Family::kSpin: return "spin unlock -> spin lock";
    case Family::kStdio: return "funlockfile -> flockfile";
    case Family::kCond: return "notify -> wait returns";
    case Family::kFutex: return "futex wake -> wait returns";
    case Family::kSemaphore: return "sem_post -> sem_wait";
    case Family::kNone: return "";
  }
  return "";
}

// Indexes over the model's events and runs that the flow inference needs.
class FlowBuilder {
 public:
  explicit FlowBuilder(TimelineModel& model) : model_(model), events_(model.events) {
    const std::size_t n = events_.size();
    next_of_thread_.assign(n, kNone);
    std::unordered_map<ThreadId, std::size_t> later;
    for (std::size_t i = n; i-- > 0;) {
      auto it = later.find(events_[i].thread);
      if (it != later.end()) next_of_thread_[i] = it->second;
      later[events_[i].thread] = i;
    }
    run_of_.assign(n, kNone);
    for (std::size_t r = 0; r < model_.runs.size(); ++r) {
      const TimelineModel::Run& run = model_.runs[r];
      if (run.first_event != kNone) {
        for (std::size_t i = run.first_event; i <= run.last_event; ++i) run_of_[i] = r;
      }
      if (runs_of_thread_.size() <= run.thread) runs_of_thread_.resize(run.thread + 1);
      runs_of_thread_[run.thread].push_back(r);
    }
  }

  void Build() {
    std::map<std::pair<Family, const void*>, std::vector<std::size_t>> releases;
    for (std::size_t i = 0; i < events_.size(); ++i) {
      const FlowKind kind = Classify(events_[i].kind);
      if (kind.family != Family::kNone && kind.release) releases[{kind.family, events_[i].object}].push_back(i);
    }
    std::map<std::pair<Family, const void*>, std::vector<bool>> consumed;
    for (auto& [key, list] : releases) consumed[key].assign(list.size(), false);

    for (std::size_t i = 0; i < events_.size(); ++i) {
      const FlowKind kind = Classify(events_[i].kind);
      if (kind.family == Family::kNone || kind.release) continue;
      auto it = releases.find({kind.family, events_[i].object});
      if (it == releases.end()) continue;
      switch (kind.family) {
        case Family::kMutex:
        case Family::kRwlock:
        case Family::kSpin:
        case Family::kStdio: AddLockFlow(i, kind.family, it->second); break;
        case Family::kCond:
        case Family::kFutex: AddWakeFlow(i, kind.family, it->second, consumed[it->first]); break;
        case Family::kSemaphore: AddSemaphoreFlow(i, it->second, consumed[it->first]); break;
        case Family::kNone: break;
      }
    }
    AddThreadFlows();
    std::sort(model_.flows.begin(), model_.flows.end(),
              [](const auto& a, const auto& b) { return a.from_step < b.from_step; });
  }

 private:
  // The first run of `thread` that begins after `step`, or kNone.
  std::size_t FirstRunAfter(ThreadId thread, std::uint64_t step) const {
    if (thread >= runs_of_thread_.size()) return kNone;
    for (std::size_t r : runs_of_thread_[thread]) {
      if (model_.runs[r].begin > step) return r;
    }
    return kNone;
  }

  // Records release `from` -> acquire event `to` (see the file comment).
  void Add(Family family, const char* name, std::size_t from, std::size_t to) {
    const TimelineModel::Point& release = events_[from];
    const TimelineModel::Point& acquire = events_[to];
    if (release.thread == acquire.thread) return;
    std::uint64_t to_step = acquire.step;
    if (release.step > acquire.step) {
      const std::size_t run = FirstRunAfter(acquire.thread, release.step);
      if (run == kNone) return;
      to_step = model_.runs[run].begin;
    }
    model_.flows.push_back(
        {name != nullptr ? name : FlowName(family), release.thread, release.step, from, acquire.thread, to_step, to});
  }

  bool LastOfItsRun(std::size_t i) const {
    const std::size_t run = run_of_[i];
    return run != kNone && model_.runs[run].last_event == i;
  }

  // Locks: the lock was taken after the lock event and before the thread's
  // next event, so the release it waited for is the last release of the
  // object before that next event. A trylock counts only when the thread's
  // next event on the object is its own unlock (it succeeded).
  void AddLockFlow(std::size_t i, Family family, const std::vector<std::size_t>& releases) {
    std::size_t window_end = next_of_thread_[i] == kNone ? events_.size() : next_of_thread_[i];
    if (events_[i].kind == EventKind::kMutexTryLock) {
      window_end = i;
      bool succeeded = false;
      for (std::size_t j = next_of_thread_[i]; j != kNone; j = next_of_thread_[j]) {
        if (events_[j].object != events_[i].object) continue;
        succeeded = events_[j].kind == EventKind::kMutexUnlock;
        break;
      }
      if (!succeeded) return;
    }
    auto it = std::lower_bound(releases.begin(), releases.end(), window_end);
    if (it == releases.begin()) return;
    Add(family, nullptr, *std::prev(it), i);
  }

  // Condition variables and futexes: a thread that blocked at its wait event
  // (it is the last of its run) was woken by a notify after it and before
  // its next run. A signal wakes one waiter (FIFO: the earliest unconsumed),
  // a broadcast or futex wake any number. When the thread was preempted at
  // the wait event itself (the next event is the very next step), it queued
  // only later, so a notify in between may have been lost: take the latest.
  void AddWakeFlow(std::size_t i, Family family, const std::vector<std::size_t>& notifies,
                   std::vector<bool>& consumed) {
    if (!LastOfItsRun(i)) return;  // it did not block
    const ThreadId waiter = events_[i].thread;
    const std::size_t wake_run = FirstRunAfter(waiter, events_[i].step);
    if (wake_run == kNone) return;  // never woke
    const std::size_t window_end =
        model_.runs[wake_run].first_event == kNone ? events_.size() : model_.runs[wake_run].first_event;
    const bool preempted_at_wait = i + 1 < events_.size() && events_[i + 1].step == events_[i].step + 1;
    std::size_t chosen = kNone;
    for (std::size_t k = 0; k < notifies.size(); ++k) {
      const std::size_t j = notifies[k];
      if (j <= i || j >= window_end || events_[j].thread == waiter || consumed[k]) continue;
      chosen = k;
      if (!preempted_at_wait) break;
    }
    if (chosen == kNone) return;
    if (events_[notifies[chosen]].kind == EventKind::kCondSignal) consumed[chosen] = true;
    Add(family, nullptr, notifies[chosen], i);
  }

  // Semaphores: each wait takes the earliest post not yet taken, before the
  // thread's next event; a post after the wait only when the thread blocked
  // there. Posts the waiting thread made itself are taken without a flow.
  void AddSemaphoreFlow(std::size_t i, const std::vector<std::size_t>& posts, std::vector<bool>& consumed) {
    const std::size_t window_end =
        LastOfItsRun(i) ? (next_of_thread_[i] == kNone ? events_.size() : next_of_thread_[i]) : i;
    for (std::size_t k = 0; k < posts.size() && posts[k] < window_end; ++k) {
      if (consumed[k]) continue;
      consumed[k] = true;
      Add(Family::kSemaphore, nullptr, posts[k], i);
      return;
    }
  }

  // Thread create -> its first run, and thread exit -> the join that waited
  // for it. Threads are numbered in creation order (World::CreateThread,
  // called only by pthread_create, records the create event right after),
  // and a create or join event's object is the thread's handle; handles are
  // reused only after a join, so the latest create with a handle names the
  // thread a join means.
  void AddThreadFlows() {
    std::unordered_map<const void*, ThreadId> thread_of_handle;
    std::vector<std::size_t> exit_of;
    std::vector<std::pair<std::size_t, ThreadId>> joins;
    ThreadId next_created = 1;
    for (std::size_t i = 0; i < events_.size(); ++i) {
      const TimelineModel::Point& event = events_[i];
      if (event.kind == EventKind::kThreadCreate) {
        const ThreadId created = next_created++;
        thread_of_handle[event.object] = created;
        const std::size_t run = FirstRunAfter(created, event.step);
        if (run != kNone && model_.runs[run].thread == created) {
          model_.flows.push_back({"create -> start", event.thread, event.step, i, created, model_.runs[run].begin,
                                  model_.runs[run].first_event});
        }
      } else if (event.kind == EventKind::kJoin) {
        auto it = thread_of_handle.find(event.object);
        if (it != thread_of_handle.end()) joins.push_back({i, it->second});
      } else if (event.kind == EventKind::kThreadExit) {
        if (exit_of.size() <= event.thread) exit_of.resize(event.thread + 1, kNone);
        exit_of[event.thread] = i;
      }
    }
    for (const auto& [join, target] : joins) {
      if (target < exit_of.size() && exit_of[target] != kNone)
        Add(Family::kNone, "exit -> join", exit_of[target], join);
    }
  }

  TimelineModel& model_;
  const std::vector<TimelineModel::Point>& events_;
  std::vector<std::size_t> next_of_thread_;
  std::vector<std::size_t> run_of_;
  std::vector<std::vector<std::size_t>> runs_of_thread_;
};

}  // namespace

bool IsInstantKind(EventKind kind) {
  switch (kind) {
    case EventKind::kRead:
    case EventKind::kWrite:
    case EventKind::kAtomicLoad:
    case EventKind::kAtomicStore:
    case EventKind::kAtomicRmw:
    case EventKind::kAtomicCompareExchange:
    case EventKind::kFence:
    case EventKind::kClockRead:
    case EventKind::kKeyAccess:
      return false;  // memory and clock accesses: listed in their run's args, not drawn one by one
    default: return true;
  }
}

TimelineModel BuildTimelineModel(World& world, const Outcome& outcome, std::uint64_t seed) {
  TimelineModel model;
  model.seed = seed;
  model.verdict = outcome.verdict;
  model.message = outcome.message;
  model.steps = outcome.steps;
  model.preemptions = outcome.preemptions;
  model.trace_hash = outcome.trace_hash;
  model.story = outcome.story;
  const std::vector<Event>& trace = world.whole_trace();
  const bool failed = outcome.verdict != Verdict::kPass;
  const std::optional<ThreadId> failing = failed ? FailingThread(outcome) : std::nullopt;

  // Name each distinct site once.
  SiteNamer namer;
  std::unordered_map<SiteKey, std::pair<std::string, std::string>, SiteKeyHash> names;
  for (const Event& event : trace) {
    if (names.emplace(KeyOf(event.site), std::pair<std::string, std::string>()).second) namer.Add(event.site);
  }
  for (const Event& event : trace) {
    auto& name = names[KeyOf(event.site)];
    if (name.first.empty()) name = {namer.Name(event.site), namer.Function(event.site)};
  }

  model.events.reserve(trace.size());
  for (const Event& event : trace) {
    const auto& [site, function] = names[KeyOf(event.site)];
    TimelineModel::Point point{event.step, event.time_ns, event.thread, event.kind, event.object, site, function, ""};
    if (event.kind == EventKind::kGate && event.object != nullptr) {
      // invariant (gate.cpp): a gate event's object is the gate's interned name, which outlives worlds.
      point.label = "gate '" + *static_cast<const std::string*>(event.object) + "' " + site;
    } else {
      point.label = std::string(EventKindName(event.kind)) + " " + site;
    }
    model.events.push_back(std::move(point));
    if (IsInstantKind(event.kind)) model.instants.push_back(model.events.size() - 1);
  }

  // Runs tile the step axis (timeline_model.h).
  for (std::size_t i = 0; i < model.events.size(); ++i) {
    const TimelineModel::Point& event = model.events[i];
    if (model.runs.empty() || model.runs.back().thread != event.thread) {
      TimelineModel::Run run;
      run.thread = event.thread;
      run.begin = model.runs.empty() ? event.step : model.events[model.runs.back().last_event].step + 1;
      run.first_event = i;
      model.runs.push_back(run);
    }
    model.runs.back().last_event = i;
    model.runs.back().end = event.step + 1;
  }
  for (TimelineModel::Run& run : model.runs) run.range = RunRange(model, run);
  const std::uint64_t after_last = model.events.empty() ? 0 : model.events.back().step + 1;
  model.end_step = std::max<std::uint64_t>(after_last, 1);
  if (failed) {
    model.failure_step = std::max(outcome.steps, after_last);
    model.end_step = model.failure_step + 1;
    model.failure_name = std::string(to_string(outcome.verdict)) + ": " + outcome.message;
    if (failing) {
      model.failure_on_thread = true;
      model.failure_thread = *failing;
      // The failing thread owns the steps from its last switch to the end;
      // it may have run there without reaching a scheduling point.
      if (!model.runs.empty() && model.runs.back().thread == *failing) {
        model.runs.back().end = model.end_step;
      } else {
        TimelineModel::Run run;
        run.thread = *failing;
        run.begin = after_last;
        run.end = model.end_step;
        run.range = "runs until the failure";
        model.runs.push_back(run);
      }
    }
  }

  for (ThreadId id = 0; world.thread(id) != nullptr; ++id) {
    const SimThread& thread = *world.thread(id);
    TimelineModel::Lane lane{id, "T" + std::to_string(id) + (id == 0 ? " main" : ""), ""};
    switch (thread.state) {
      case ThreadState::kFinished: lane.end_state = "finished"; break;
      case ThreadState::kBlocked: lane.end_state = std::string("blocked: ") + thread.wait.description; break;
      case ThreadState::kRunnable:
        lane.end_state = failing && *failing == id ? "running at the failure" : "runnable";
        break;
    }
    model.lanes.push_back(std::move(lane));
  }
  // invariant: every thread in the trace has a lane (threads are never removed from a world).
  for (const TimelineModel::Run& run : model.runs) {
    while (model.lanes.size() <= run.thread) {
      const ThreadId id = static_cast<ThreadId>(model.lanes.size());
      model.lanes.push_back({id, "T" + std::to_string(id), ""});
    }
  }

  FlowBuilder(model).Build();
  return model;
}

std::string TimelineJson(World& world, const Outcome& outcome, std::uint64_t seed) {
  return RenderTimelineJson(BuildTimelineModel(world, outcome, seed));
}

std::string TimelineHtml(World& world, const Outcome& outcome, std::uint64_t seed) {
  return RenderTimelineHtml(BuildTimelineModel(world, outcome, seed));
}

std::string TimelinePath(const std::string& path) {
  const char* outputs = std::getenv("TEST_UNDECLARED_OUTPUTS_DIR");
  if (outputs == nullptr || *outputs == '\0' || path.empty() || path.front() == '/') return path;
  return std::string(outputs) + "/" + path;
}

void WriteTimeline(const std::string& path, World& world, const Outcome& outcome, std::uint64_t seed) {
  const std::string target = TimelinePath(path);
  const bool html = target.size() >= 5 && target.compare(target.size() - 5, 5, ".html") == 0;
  const std::string text = html ? TimelineHtml(world, outcome, seed) : TimelineJson(world, outcome, seed);
  std::ofstream file(target, std::ios::binary | std::ios::trunc);
  if (file) file << text;
  if (file) file.close();
  if (!file) {
    std::fprintf(stderr, "simthread: cannot write the timeline to '%s': %s (does its directory exist?)\n",
                 target.c_str(), std::strerror(errno));
    return;
  }
  std::fprintf(stderr, "simthread: timeline of seed %llu (%s) written to %s (%s)\n",
               static_cast<unsigned long long>(seed), std::string(to_string(outcome.verdict)).c_str(), target.c_str(),
               html ? "open it in a browser" : "open it in ui.perfetto.dev");
}

}  // namespace sim::internal

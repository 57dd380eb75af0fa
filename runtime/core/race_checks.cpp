// race_checks.cpp: the world's side of data-race detection (options.races;
// race/race_detector.h says how a race is found). Every instrumented
// access, atomic ones included, is checked just before it runs: when its
// thread resumes after its point, or on the unasked path, where nothing
// is switched. The edges come from what the world already sees: thread
// start (CreateThread) and join (the join interceptor); a mutex, a
// reader-writer lock and a once where their models take, release and
// finish them (mutex_model.cpp, which covers a condition variable's
// waiter; rwlock.cpp; once.cpp), a function-local static's guard
// (static_guard.cpp); atomics and fences by their memory order; and, here,
// the points of the other sync objects: a release where a post, a wake or
// an unlock acts (before its point) and an acquire after the wait or lock
// (after its point, and after a Block). A condition variable's signal is
// no edge (C++ orders a waiter through its mutex), nor is a gate. What
// uninstrumented libraries synchronise is in race_checks.h.
#include "core/race_checks.h"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <set>
#include <span>
#include <sstream>

#include "core/check.h"
#include "core/site.h"
#include "core/uninstrumented_library.h"
#include "race/race_detector.h"
#include "sim/internal/site_hash.h"

namespace sim::internal {
namespace {

// What a point of `kind` releases before it and acquires after it, beyond
// what the models above do.
struct PointEdges {
  bool releases = false;
  bool acquires = false;
};

PointEdges EdgesOf(EventKind kind) {
  switch (kind) {
    case EventKind::kSpinUnlock:
    case EventKind::kSemaphorePost:
    case EventKind::kFutexWake:
    case EventKind::kStdioUnlock: return {.releases = true};
    case EventKind::kSpinLock:
    case EventKind::kSemaphoreWait:
    case EventKind::kFutexWait:
    case EventKind::kStdioLock: return {.acquires = true};
    case EventKind::kBarrierWait: return {.releases = true, .acquires = true};
    default: return {};
  }
}

// TSan's lines for one of the two accesses: "Read of size 4 at 0x.. by
// thread T1:" and its frame, the one the pass recorded (the runtime keeps
// no call stacks).
std::string DescribeAccess(const RaceAccess& access, std::uintptr_t address, bool previous) {
  char where[32];
  std::snprintf(where, sizeof where, "%#llx", static_cast<unsigned long long>(address));
  std::string kind = std::string(access.atomic ? "atomic " : "") + (access.write ? "write" : "read");
  if (!previous) kind[0] = static_cast<char>(kind[0] - 'a' + 'A');
  std::string text = (previous ? "Previous " : "") + kind + " of size " + std::to_string(access.size) + " at " + where +
                     " by thread T" + std::to_string(access.thread) + ":\n  #0 ";
  const auto* site = static_cast<const __sim_site*>(access.site);
  if (site == nullptr) return text + "(unknown site)\n";
  const bool named = site->function != nullptr && site->function[0] != '\0';
  if (named) text += site->function;
  // A merged instruction's location (line 0, "<unknown>") names nothing.
  if (site->line != 0) text += (named ? " " : "") + std::string(site->file) + ":" + std::to_string(site->line);
  return text + "\n";
}

// The two accesses as the pass's sites name them (no symbolizer): the
// message of a race that is not told.
std::string RaceSites(const Race& race) {
  std::string sites = DescribeAccess(race.current, race.address, /*previous=*/false) +
                      DescribeAccess(race.previous, race.address, /*previous=*/true);
  sites.pop_back();
  return sites;
}

// halt_on_race=0: whether the race's pair of sites is warned of for the
// first time in this process (explore() runs many executions in one, and
// each finds its races anew): only then is its message built.
bool FirstWarningOf(const Race& race) {
  static std::set<std::pair<const void*, const void*>> warned;
  return warned.insert(std::minmax(race.current.site, race.previous.site)).second;
}

// halt_on_race=0: the report's own lines, on stderr.
void WarnOfRace(const std::string& message, std::uint64_t seed, std::uint64_t step) {
  std::string text = "==================\nWARNING: simthread: data race (seed=" + std::to_string(seed) +
                     ", step=" + std::to_string(step) + ")\n";
  for (std::size_t begin = 0; begin < message.size();) {
    const std::size_t end = std::min(message.find('\n', begin), message.size());
    text += "  " + message.substr(begin, end - begin) + "\n";
    begin = end + 1;
  }
  text += "SUMMARY: simthread: data race: " + RacingFrame(message) + "\n==================\n";
  for (std::size_t written = 0; written < text.size();) {
    const ssize_t n = write(STDERR_FILENO, text.data() + written, text.size() - written);
    if (n <= 0) return;
    written += static_cast<std::size_t>(n);
  }
}

// The racing access's callers as "  #1 f() file.cpp:12" lines: of the
// frames walked from the stack at the race (inlined ones included), those
// of the user's code after the runtime's own, the first of which is the
// access's function (its #0, named more exactly by the pass's site), up to
// the first that is not the user's (std::thread's, which keeps no frame
// pointers to walk past). The earlier access's callers are gone: the
// runtime keeps no call stacks.
//
// An access with no site of the pass's (a libc call: free, strerror_r) is
// #0 itself, and `frameless_caller`, the return address into its caller,
// names #1, whether or not the call kept a frame for the walk to find.
std::string CallerFrames(const std::vector<const void*>& walked, const void* frameless_caller, SiteNamer& namer) {
  for (const void* address : walked) {
    Site site;
    site.frames[0] = address;
    namer.Add(site);
  }
  if (frameless_caller != nullptr) {
    Site site;
    site.frames[0] = frameless_caller;
    namer.Add(site);
  }
  std::vector<SiteNamer::Call> calls;
  for (const void* address : walked) {
    if (address == frameless_caller) continue;
    for (SiteNamer::Call& call : namer.Calls(address)) calls.push_back(std::move(call));
  }
  std::size_t first_user = 0;
  while (first_user < calls.size() && !calls[first_user].user) ++first_user;
  if (frameless_caller != nullptr) {
    std::vector<SiteNamer::Call> caller = namer.Calls(frameless_caller);
    const auto first_of_callers = calls.begin() + static_cast<std::ptrdiff_t>(first_user);
    calls.insert(first_of_callers, caller.begin(), caller.end());
    while (first_user < calls.size() && !calls[first_user].user) ++first_user;
  }
  std::string lines;
  for (std::size_t i = first_user + (frameless_caller == nullptr ? 1 : 0), number = 1;
       i < calls.size() && calls[i].user; ++i, ++number) {
    const SiteNamer::Call& call = calls[i];
    lines += "  #" + std::to_string(number) + " " + (call.function.empty() ? "" : call.function + " ") + call.where +
             (call.line != 0 ? ":" + std::to_string(call.line) : "") + "\n";
  }
  return lines;
}

// TSan's lines for a race: the two accesses (the racing one's callers from
// the frames walked at the race), the global they touched, and where each
// thread was created.
std::string RaceMessage(const RaceToTell& told, std::span<const std::unique_ptr<SimThread>> threads) {
  const Race& race = told.race;
  SiteNamer namer;
  // Queued before the callers are named, so that one run of the symbolizer
  // names them all.
  for (const RaceThread id : {race.current.thread, race.previous.thread}) {
    namer.Add(threads[id]->created_at);
    namer.Add(threads[id]->created_after);
  }
  std::string message = DescribeAccess(race.current, race.address, /*previous=*/false) +
                        CallerFrames(told.walked, told.frameless_caller, namer) +
                        DescribeAccess(race.previous, race.address, /*previous=*/true);
  // What the address is, where the executable's or a library's symbols say
  // (a heap block or a stack has no name to give).
  if (const std::optional<SiteNamer::Global> global = namer.GlobalAt(reinterpret_cast<const void*>(race.address))) {
    char start[32];
    std::snprintf(start, sizeof start, "%p", global->start);
    message += "Location is global '" + global->name + "' of size " + std::to_string(global->size) + " at " + start +
               (global->declared.empty() ? "" : " (" + global->declared + ")") + "\n";
  }
  // Where each of the two threads was created, as TSan says it.
  // pthread_create's caller, when that is the user's code. std::thread
  // calls it from libstdc++, which keeps no frame pointers, so the frames
  // walked past it skip the user's function: then the creator's last point.
  auto innermost = [](const Site& site) {
    Site caller;
    caller.frames[0] = site.frames[0];
    return caller;
  };
  for (const RaceThread id : {race.current.thread, race.previous.thread}) {
    const SimThread& created = *threads[id];
    if (id == 0) continue;
    const bool walked_to_user = namer.IsUserSite(innermost(created.created_at));
    const Site& site = walked_to_user ? created.created_at : created.created_after;
    const std::string function = namer.Function(site);
    message += "Thread T" + std::to_string(id) + " created by T" + std::to_string(created.created_by) +
               (walked_to_user ? " at " : " after ") + namer.Name(site) + (function.empty() ? "" : " in " + function) +
               "\n";
  }
  message.pop_back();
  return message;
}

}  // namespace

void World::CheckForRace(EventKind kind, const void* object, unsigned size, const __sim_site* source,
                         bool own_thread_path_tried) {
  ForeignCodeEdge(*this, /*after_point=*/true);
  const ThreadId thread = running_->id;
  const auto order = static_cast<MemoryOrder>(running_->memory_order);
  if (kind == EventKind::kFence) return races_->Fence(thread, order);
  const bool atomic = kind == EventKind::kAtomicLoad || kind == EventKind::kAtomicStore ||
                      kind == EventKind::kAtomicRmw || kind == EventKind::kAtomicCompareExchange;
  if (!atomic && kind != EventKind::kRead && kind != EventKind::kWrite) return;
  if (kind == EventKind::kRead && source->read_then_written != 0) return;
  // The access first (an atomic races with a plain access to its bytes,
  // never with another atomic), then what its memory order orders.
  const bool write = kind != EventKind::kRead && kind != EventKind::kAtomicLoad;
  const auto address = reinterpret_cast<std::uintptr_t>(object);
  const std::optional<Race> race =
      own_thread_path_tried
          ? races_->AccessPastOwnThreadPath(thread, address, size, source, write, atomic, choice_points_)
          : races_->Access(thread, address, size, source, write, atomic, choice_points_);
  if (race) ReportRace(*race, source);
  switch (kind) {
    case EventKind::kAtomicLoad: return races_->AtomicLoad(thread, object, order);
    case EventKind::kAtomicStore: return races_->AtomicStore(thread, object, order);
    case EventKind::kAtomicRmw:
    case EventKind::kAtomicCompareExchange: return races_->AtomicReadModifyWrite(thread, object, order);
    default: return;
  }
}

void World::ReportRace(const Race& race, const __sim_site* source, const void* frameless_caller) {
  const RaceSuppressions& suppressions = RaceSuppressionsOf(options_);
  bool suppressed = false;
  for (const void* access_site : {race.current.site, race.previous.site}) {
    const auto* site = static_cast<const __sim_site*>(access_site);
    suppressed = suppressed || (site != nullptr && suppressions.Match(site->function != nullptr ? site->function : "",
                                                                      site->file) != nullptr);
  }
  if (suppressed || (options_.halt_on_race == 0 && !FirstWarningOf(race))) return;
  // The stack is walked now, while it is there; its frames are named only
  // if the execution is told (DescribeFailure): a shrinking candidate or a
  // flip that meets the race again has nothing to print, and naming frames
  // starts a symbolizer in its process.
  constexpr std::size_t kWalkedFrames = 32;
  auto told = std::make_shared<RaceToTell>(
      RaceToTell{race, CaptureCallers(running_->stack.lowest, running_->stack.top(), kWalkedFrames), frameless_caller,
                 RaceSites(race)});
  if (options_.halt_on_race == 0) {
    WarnOfRace(RaceMessage(*told, threads_), seed_, steps_);
    return;
  }
  outcome_.race_to_flip = {.earlier = race.previous.thread,
                           .later = race.current.thread,
                           .choice_point = race.previous.choice_point,
                           .later_site = reinterpret_cast<std::uintptr_t>(source),
                           .later_points = source == nullptr ? running_->points : 0,
                           .earlier_writes = race.previous.write,
                           .later_writes = race.current.write};
  // Until it is told, the message is the two accesses by the pass's sites.
  std::string sites = told->sites;
  race_to_tell_ = std::move(told);
  EndExecution(Verdict::kDataRace, std::move(sites));
}

void World::DescribeRace(std::string& message) const {
  if (race_to_tell_ && message.starts_with(race_to_tell_->sites))
    message.replace(0, race_to_tell_->sites.size(), RaceMessage(*race_to_tell_, threads_));
}

void World::CheckFreeForRace(const void* block, std::size_t size, const void* freed_from) {
  // The site a free's write is remembered and reported at: free itself, as
  // TSan names it; the report's callers (walked at the race) name the
  // user's code that freed it.
  static const __sim_site kFreeSite = {"", "free", 0, 0, SiteHash("free", 0), 0};
  ForeignCodeEdge(*this, /*after_point=*/true);
  const auto begin = reinterpret_cast<std::uintptr_t>(block);
  if (const std::optional<Race> race = races_->Free(running_->id, begin, begin + size, &kFreeSite, choice_points_))
    ReportRace(*race, nullptr, freed_from);
}

void World::CheckLibraryWriteForRace(const void* begin, std::size_t size, const __sim_site& function,
                                     const void* called_from) {
  ForeignCodeEdge(*this, /*after_point=*/true);
  const auto address = reinterpret_cast<std::uintptr_t>(race_address_.Of(begin, running_->tcb));
  const std::optional<Race> race =
      races_->Access(running_->id, address, size, &function, /*write=*/true, /*atomic=*/false, choice_points_);
  if (race) ReportRace(*race, nullptr, called_from);
}

void World::SyncEdgeForRaces(EventKind kind, const void* object, bool after_point) {
  ForeignCodeEdge(*this, after_point);
  const PointEdges edges = EdgesOf(kind);
  if (object == nullptr) return;
  if (after_point && edges.acquires) races_->Acquire(running_->id, object);
  if (!after_point && edges.releases) races_->Release(running_->id, object);
}

namespace {

// The one clock every uninstrumented library's synchronisation shares.
const char kForeignCode = 0;

// Inline assembly (a null callee) is code the pass cannot see either:
// liburcu publishes with an xchg written in it.
bool Foreign(const void* callee) { return callee == nullptr || InUninstrumentedLibrary(callee); }

}  // namespace

void CallMayEnterForeignCode(World& world, const void* callee, CallArguments arguments) {
  RaceDetector* races = world.races();
  if (races == nullptr || !Foreign(callee)) return;
  SimThread& self = world.running();
  races->Release(self.id, &kForeignCode);
  for (const void* object : arguments) {
    if (object != nullptr) races->Release(self.id, object);
  }
  ++self.foreign_calls;
}

void CallMayLeaveForeignCode(World& world, const void* callee, CallArguments arguments) {
  RaceDetector* races = world.races();
  if (races == nullptr || !Foreign(callee)) return;
  SimThread& self = world.running();
  // What its callbacks did in there after the call's start (abseil's
  // Unlock evaluates a waiter's condition) is released too: the lock it
  // hands over may be taken before this thread's next point.
  races->Release(self.id, &kForeignCode);
  races->Acquire(self.id, &kForeignCode);
  for (const void* object : arguments) {
    if (object != nullptr) races->Acquire(self.id, object);
  }
  if (self.foreign_calls > 0) --self.foreign_calls;
}

std::uint64_t RaceSitesKey(const Race& race) {
  auto key = [](const void* access_site) -> std::uint64_t {
    const auto* site = static_cast<const __sim_site*>(access_site);
    return site != nullptr ? site->hash : 0;
  };
  const auto [low, high] = std::minmax(key(race.current.site), key(race.previous.site));
  return (low * 0x9e3779b97f4a7c15ULL) ^ high;
}

std::string RacingFrame(const std::string& message) {
  const std::size_t frame = message.find("#0 ");
  if (frame == std::string::npos) return "";
  return message.substr(frame + 3, message.find('\n', frame) - frame - 3);
}

const RaceSuppressions& RaceSuppressionsOf(const Options& options) {
  static std::string loaded_path;
  static RaceSuppressions suppressions;
  if (options.suppressions == loaded_path) return suppressions;
  std::ifstream file(options.suppressions);
  std::stringstream text;
  text << file.rdbuf();
  if (!file) {
    Die(exit_status::kUsage, {"suppressions=", options.suppressions, ": cannot read it (", std::strerror(errno),
                              "); give the path of a ThreadSanitizer suppressions file"});
  }
  std::string error;
  suppressions = RaceSuppressions::Parse(text.str(), error);
  if (!error.empty()) Die(exit_status::kUsage, {"suppressions=", options.suppressions, ": ", error});
  loaded_path = options.suppressions;
  return suppressions;
}

void ThreadMayStartInForeignCode(World& world, SimThread& thread, const void* start) {
  if (world.races() != nullptr && InUninstrumentedLibrary(start)) thread.foreign_calls = 1;
}

void ForeignCodeEdge(World& world, bool after_point) {
  SimThread& self = world.running();
  if (self.foreign_calls == 0) return;
  if (after_point) {
    world.races()->Acquire(self.id, &kForeignCode);
  } else {
    world.races()->Release(self.id, &kForeignCode);
  }
}

}  // namespace sim::internal

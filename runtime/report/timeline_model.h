// timeline_model.h: what a timeline shows, built once from the whole trace
// (timeline.cpp) and rendered as Chrome Trace JSON (timeline_json.cpp) or
// as a self-contained HTML page (timeline_html.cpp). Internal to those files.
//
// The time axis is the step. Runs tile it: a run begins right after the
// previous run's last event (when the scheduler switched) and ends right
// after its own last event, so exactly one thread owns each step.
#ifndef SIM_RUNTIME_TIMELINE_MODEL_H_
#define SIM_RUNTIME_TIMELINE_MODEL_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "core/world.h"

namespace sim::internal {

struct TimelineModel {
  static constexpr std::size_t kNone = static_cast<std::size_t>(-1);

  struct Lane {
    ThreadId thread = 0;
    std::string name;       // "T0 main", "T1", ...
    std::string end_state;  // "finished", "blocked: lock mutex", "failed here", ...
  };
  struct Point {  // one event of the trace, its site named
    std::uint64_t step = 0;
    std::uint64_t time_ns = 0;
    ThreadId thread = 0;
    EventKind kind = EventKind::kThreadStart;
    const void* object = nullptr;
    std::string site;      // "file.cpp:42"
    std::string function;  // may be empty
    std::string label;     // what the instant is called: "lock bank.cpp:23", "gate 'name' x.cpp:9"
  };
  struct Run {  // consecutive events of one thread between two switches
    ThreadId thread = 0;
    std::uint64_t begin = 0;  // steps: [begin, end)
    std::uint64_t end = 0;
    std::size_t first_event = kNone;  // kNone: the failing thread ran after the last event without one
    std::size_t last_event = kNone;
    std::string range;  // "bank.cpp:23-25"
  };
  struct Flow {        // a release on one thread that let another go on
    std::string name;  // "unlock -> lock"
    ThreadId from_thread = 0;
    std::uint64_t from_step = 0;
    std::size_t from_event = kNone;
    ThreadId to_thread = 0;
    std::uint64_t to_step = 0;     // where the acquire completed
    std::size_t to_event = kNone;  // the acquiring thread's event (lock, wait, join, ...)
  };

  std::uint64_t seed = 0;
  Verdict verdict = Verdict::kPass;
  std::string message;
  std::uint64_t steps = 0;
  std::uint64_t end_step = 0;  // one past the last step drawn
  std::uint64_t preemptions = 0;
  std::uint64_t trace_hash = 0;
  std::vector<std::string> story;
  std::vector<Lane> lanes;  // lanes[i].thread == i
  std::vector<Point> events;
  std::vector<Run> runs;
  std::vector<std::size_t> instants;  // events drawn as markers: sync operations, thread events, gates
  std::vector<Flow> flows;
  // The failure (verdict != kPass), drawn at failure_step on the failing
  // thread's lane, or across all lanes when no thread was running (deadlock).
  bool failure_on_thread = false;
  ThreadId failure_thread = 0;
  std::uint64_t failure_step = 0;
  std::string failure_name;  // "failure: checking is overdrawn ..."
};

TimelineModel BuildTimelineModel(World& world, const Outcome& outcome, std::uint64_t seed);
std::string RenderTimelineJson(const TimelineModel& model);
std::string RenderTimelineHtml(const TimelineModel& model);

// Shared by both renderers.
bool IsInstantKind(EventKind kind);

}  // namespace sim::internal

#endif  // SIM_RUNTIME_TIMELINE_MODEL_H_

// timeline_json.cpp: the timeline as Chrome Trace Event JSON
// (https://docs.google.com/document/d/1CvAClvFfyA5R-PhYUmn5OOQtYMH4h6I0nSsKchNAySU),
// the format Perfetto (ui.perfetto.dev) and chrome://tracing open.
//
// One process (pid 1); one thread (tid = simulated thread id) per lane, named
// by "thread_name" metadata; "X" slices for runs, "i" instants for sync
// operations, gates and the failure, "s"/"f" flow pairs (bound to the
// enclosing slices) for release->acquire edges. ts is the step, read as
// microseconds; virtual time is in args.
#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <string>
#include <vector>

#include "common/json_string.h"
#include "report/timeline_model.h"

namespace sim::internal {
namespace {

constexpr std::size_t kEventsListedPerRun = 64;

std::string Quote(const std::string& text) { return common::JsonString(text); }
std::string Number(std::uint64_t value) { return std::to_string(value); }

const char* Category(EventKind kind) {
  switch (kind) {
    case EventKind::kGate: return "gate";
    case EventKind::kThreadStart:
    case EventKind::kThreadCreate:
    case EventKind::kThreadExit:
    case EventKind::kJoin:
    case EventKind::kDetach: return "thread";
    default: return "sync";
  }
}

// Timed events are sorted by ts (slices first at equal ts, so an instant
// or flow finds its enclosing slice already open).
struct Timed {
  std::uint64_t ts;
  int order;
  std::string json;
};

// What every event carries: its process, the only one.
std::string Pid() { return "\"pid\":1,"; }

// A run's args: its steps, and when it has events their virtual times,
// sites, function and the first kEventsListedPerRun of them.
std::string RunArgs(const TimelineModel& model, const TimelineModel::Run& run) {
  std::string args = "\"first_step\":" + Number(run.begin) + ",\"last_step\":" + Number(run.end - 1);
  if (run.first_event != TimelineModel::kNone) {
    const TimelineModel::Point& first = model.events[run.first_event];
    const TimelineModel::Point& last = model.events[run.last_event];
    args += ",\"virtual_time_ns_begin\":" + Number(first.time_ns) + ",\"virtual_time_ns_end\":" + Number(last.time_ns) +
            ",\"first_site\":" + Quote(first.site) + ",\"last_site\":" + Quote(last.site);
    if (!first.function.empty()) args += ",\"function\":" + Quote(first.function);
    args += ",\"events\":[";
    const std::size_t count = run.last_event - run.first_event + 1;
    for (std::size_t i = run.first_event; i <= run.last_event && i - run.first_event < kEventsListedPerRun; ++i) {
      if (i != run.first_event) args += ",";
      args += Quote("step " + Number(model.events[i].step) + " " + model.events[i].label);
    }
    if (count > kEventsListedPerRun) args += "," + Quote("... " + Number(count - kEventsListedPerRun) + " more");
    args += "]";
  }
  return args;
}

// Each run as an "X" slice on its thread's track.
void AddRunSlices(const TimelineModel& model, std::vector<Timed>& timed) {
  for (const TimelineModel::Run& run : model.runs) {
    timed.push_back({run.begin, 0,
                     "{\"name\":" + Quote(run.range) + ",\"cat\":\"run\",\"ph\":\"X\"," + Pid() +
                         "\"tid\":" + Number(run.thread) + ",\"ts\":" + Number(run.begin) +
                         ",\"dur\":" + Number(run.end - run.begin) + ",\"args\":{" + RunArgs(model, run) + "}}"});
  }
}

// Each sync operation, thread event and gate as an "i" instant.
void AddInstants(const TimelineModel& model, std::vector<Timed>& timed) {
  for (const std::size_t index : model.instants) {
    const TimelineModel::Point& event = model.events[index];
    char object[32];
    std::snprintf(object, sizeof object, "%p", event.object);
    std::string args = "\"step\":" + Number(event.step) + ",\"virtual_time_ns\":" + Number(event.time_ns) +
                       ",\"site\":" + Quote(event.site);
    if (!event.function.empty()) args += ",\"function\":" + Quote(event.function);
    if (event.object != nullptr) args += ",\"object\":" + Quote(object);
    timed.push_back({event.step, 1,
                     "{\"name\":" + Quote(event.label) + ",\"cat\":\"" + Category(event.kind) +
                         "\",\"ph\":\"i\",\"s\":\"t\"," + Pid() + "\"tid\":" + Number(event.thread) +
                         ",\"ts\":" + Number(event.step) + ",\"args\":{" + args + "}}"});
  }
}

// Each release->acquire edge as an "s"/"f" pair with one id, numbered from 1.
void AddFlowPairs(const TimelineModel& model, std::vector<Timed>& timed) {
  std::uint64_t id = 0;
  for (const TimelineModel::Flow& flow : model.flows) {
    ++id;
    const std::string head = "{\"name\":" + Quote(flow.name) + ",\"cat\":\"flow\",\"id\":" + Number(id) + ",";
    std::string args = "\"from\":" + Quote(model.events[flow.from_event].label) +
                       ",\"from_step\":" + Number(flow.from_step) +
                       ",\"to\":" + Quote(model.events[flow.to_event].label) + ",\"to_step\":" + Number(flow.to_step);
    timed.push_back({flow.from_step, 2,
                     head + "\"ph\":\"s\"," + Pid() + "\"tid\":" + Number(flow.from_thread) +
                         ",\"ts\":" + Number(flow.from_step) + ",\"args\":{" + args + "}}"});
    timed.push_back({flow.to_step, 2,
                     head + "\"ph\":\"f\",\"bp\":\"e\"," + Pid() + "\"tid\":" + Number(flow.to_thread) +
                         ",\"ts\":" + Number(flow.to_step) + ",\"args\":{" + args + "}}"});
  }
}

// The failure as an instant with the verdict, message and story in args:
// on the failing thread's track, or global when none was running.
void AddFailureInstant(const TimelineModel& model, std::vector<Timed>& timed) {
  std::string args = "\"verdict\":" + Quote(std::string(to_string(model.verdict))) +
                     ",\"message\":" + Quote(model.message) + ",\"seed\":" + Number(model.seed) +
                     ",\"step\":" + Number(model.failure_step) + ",\"preemptions\":" + Number(model.preemptions) +
                     ",\"story\":[";
  for (std::size_t i = 0; i < model.story.size(); ++i) args += (i ? "," : "") + Quote(model.story[i]);
  args += "]";
  const std::string where = model.failure_on_thread ? "\"s\":\"t\"," + Pid() + "\"tid\":" + Number(model.failure_thread)
                                                    : "\"s\":\"g\"," + Pid() + "\"tid\":0";
  timed.push_back({model.failure_step, 3,
                   "{\"name\":" + Quote(model.failure_name) + ",\"cat\":\"verdict\",\"ph\":\"i\"," + where +
                       ",\"ts\":" + Number(model.failure_step) + ",\"args\":{" + args + "}}"});
}

// The positions of `timed` in the order they are written.
std::vector<std::size_t> SortedByTime(const std::vector<Timed>& timed) {
  // Sorted by (ts, order, position): std::sort with the position as the
  // last key is a stable sort without libstdc++'s deprecated temporary buffer.
  std::vector<std::size_t> position(timed.size());
  for (std::size_t i = 0; i < position.size(); ++i) position[i] = i;
  std::sort(position.begin(), position.end(), [&timed](std::size_t a, std::size_t b) {
    if (timed[a].ts != timed[b].ts) return timed[a].ts < timed[b].ts;
    if (timed[a].order != timed[b].order) return timed[a].order < timed[b].order;
    return a < b;
  });
  return position;
}

// The document up to its first event: what the execution was (otherData),
// then the metadata events naming the process and each thread's track.
std::string Preamble(const TimelineModel& model) {
  std::string out =
      "{\"displayTimeUnit\":\"ns\",\n\"otherData\":{\"tool\":\"simthread\",\"seed\":" + Number(model.seed) +
      ",\"verdict\":" + Quote(std::string(to_string(model.verdict))) + ",\"steps\":" + Number(model.steps) +
      ",\"preemptions\":" + Number(model.preemptions);
  char hash[32];
  std::snprintf(hash, sizeof hash, "%016" PRIx64, model.trace_hash);
  out += ",\"trace_hash\":\"" + std::string(hash) + "\",\"time_axis\":\"ts is the step (scheduling point index)\"},\n";
  out += "\"traceEvents\":[\n";
  out += "{\"name\":\"process_name\",\"ph\":\"M\"," + Pid() + "\"args\":{\"name\":" +
         Quote("simthread seed " + Number(model.seed) + ": " + std::string(to_string(model.verdict))) + "}}";
  for (const TimelineModel::Lane& lane : model.lanes) {
    out += ",\n{\"name\":\"thread_name\",\"ph\":\"M\"," + Pid() + "\"tid\":" + Number(lane.thread) +
           ",\"args\":{\"name\":" + Quote(lane.name) + "}}";
    out += ",\n{\"name\":\"thread_sort_index\",\"ph\":\"M\"," + Pid() + "\"tid\":" + Number(lane.thread) +
           ",\"args\":{\"sort_index\":" + Number(lane.thread) + "}}";
  }
  return out;
}

}  // namespace

std::string RenderTimelineJson(const TimelineModel& model) {
  std::vector<Timed> timed;
  AddRunSlices(model, timed);
  AddInstants(model, timed);
  AddFlowPairs(model, timed);
  if (model.verdict != Verdict::kPass) AddFailureInstant(model, timed);

  std::string out = Preamble(model);
  for (const std::size_t i : SortedByTime(timed)) out += ",\n" + timed[i].json;
  out += "\n]}\n";
  return out;
}

}  // namespace sim::internal

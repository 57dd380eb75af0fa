// timeline.h: the reported execution drawn as a timeline (SIM_OPTIONS=timeline=PATH).
//
// Two renderings of one model built from the world's whole trace:
// - Chrome Trace Event JSON (any PATH not ending in .html), which Perfetto
//   (ui.perfetto.dev) and chrome://tracing open: one track per simulated
//   thread, an "X" slice per run of a thread (its consecutive events between
//   two switches), instants for sync operations and gates, flow arrows for
//   release->acquire edges, and an instant at the failure.
// - One self-contained HTML file (PATH ending in .html): the same lanes,
//   slices, markers and arrows as inline SVG, hover for site and step. No
//   network, no external fonts or scripts.
// The time axis is the step (scheduling point index), written as
// microseconds so that every slice is wide enough to see; virtual time is in
// each event's args. Which executions get a timeline is the caller's
// business (shrink.cpp: the reported failing one; explore.cpp: a replayed
// pass; whole-program mode: its one execution).
#ifndef SIM_RUNTIME_TIMELINE_H_
#define SIM_RUNTIME_TIMELINE_H_

#include <cstdint>
#include <string>

#include "core/world.h"

namespace sim::internal {

// Writes the timeline of `world`'s execution, which ended in `outcome`, to
// `path` (HTML when it ends in ".html", Chrome Trace JSON otherwise). A
// relative path under Bazel (TEST_UNDECLARED_OUTPUTS_DIR set) goes into that
// directory. Prints one stderr line saying where it went, or why it could
// not be written.
// Preconditions: world.KeepWholeTrace() was called before Run, and Run has
// returned; for a failure, DescribeFailure(outcome) has filled in its
// threads (the failing thread is the one described as running).
void WriteTimeline(const std::string& path, World& world, const Outcome& outcome, std::uint64_t seed);

// The two renderings, for tests.
std::string TimelineJson(World& world, const Outcome& outcome, std::uint64_t seed);
std::string TimelineHtml(World& world, const Outcome& outcome, std::uint64_t seed);

// Where WriteTimeline puts `path` (the Bazel rule above).
std::string TimelinePath(const std::string& path);

}  // namespace sim::internal

#endif  // SIM_RUNTIME_TIMELINE_H_

// timeline_html.cpp: the timeline as one self-contained HTML page.
//
// Everything is inline: the SVG is drawn here (so the page reads without
// scripts, and <title> elements give hover text in any browser), a few lines
// of CSS, and a small script that turns those titles into a faster tooltip.
// Nothing is fetched: no fonts, scripts or images from the network. The CSS
// and the script are files of their own, timeline_assets/timeline.css and
// timeline.js, compiled in as string literals (embed_asset.cmake): the page
// is written by user programs, which have no asset files to read.
//
// Layout: one lane per thread; runs as slices coloured per thread, with
// their source range when it fits; under them a marker per sync operation
// or gate with a short label when the scale allows; arrows for
// release->acquire edges; a red line and cross at the failure. The x axis is
// the step. Very long executions draw their last kMaxRunsDrawn runs (where
// the failure is) and say so; the JSON timeline has them all.
#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "report/timeline_assets/timeline.css.h"
#include "report/timeline_assets/timeline.js.h"
#include "report/timeline_model.h"

namespace sim::internal {
namespace {

constexpr std::size_t kMaxRunsDrawn = 20000;
constexpr double kLabelWidth = 150;
constexpr double kTop = 40;
constexpr double kLaneHeight = 78;
constexpr double kSliceTop = 8;
constexpr double kSliceHeight = 24;
constexpr double kMarkerY = 42;
constexpr double kLabelY = 58;
constexpr double kTargetPlotWidth = 1150;  // with the labels, fits a 1400 px window
constexpr double kMaxPlotWidth = 40000;

const char* const kPalette[] = {"#4e79a7", "#f28e2b", "#59a14f", "#b07aa1", "#76b7b2", "#e15759", "#9c755f", "#edc948"};

std::string Escape(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default: out += c;
    }
  }
  return out;
}

std::string Fixed(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f", value);
  return text;
}

std::string Seconds(std::uint64_t ns) {
  char text[32];
  std::snprintf(text, sizeof text, "%.6f s", static_cast<double>(ns) / 1e9);
  return text;
}

const char* Colour(ThreadId thread) { return kPalette[thread % (sizeof kPalette / sizeof kPalette[0])]; }

// The label under a marker: a short kind and the line ("unlock :25").
std::string ShortLabel(const TimelineModel::Point& event) {
  std::string kind;
  switch (event.kind) {
    case EventKind::kThreadCreate: kind = "create"; break;
    case EventKind::kCondSignal: kind = "notify"; break;
    case EventKind::kCondBroadcast: kind = "notify all"; break;
    case EventKind::kGate:
      kind = event.object != nullptr ? "gate " + *static_cast<const std::string*>(event.object) : "gate";
      break;
    default: kind = EventKindName(event.kind);
  }
  const std::size_t colon = event.site.rfind(':');
  if (colon != std::string::npos && event.site.find(" (") == std::string::npos) kind += " " + event.site.substr(colon);
  return kind;
}

// A step interval between axis ticks of at least `min_px` pixels: 1, 2, 5, 10, 20, 50, ...
std::uint64_t TickInterval(double px_per_step, double min_px) {
  for (std::uint64_t base = 1;; base *= 10) {
    for (const std::uint64_t factor : {1, 2, 5}) {
      if (static_cast<double>(base * factor) * px_per_step >= min_px) return base * factor;
    }
  }
}

// Where the drawing sits: the runs drawn (a very long execution's last
// kMaxRunsDrawn), the pixels per step, and the size of the SVG.
struct Canvas {
  std::size_t first_run;       // the first run drawn
  std::uint64_t window_begin;  // its first step, at the left edge of the plot
  double px;                   // pixels per step
  double width;                // of the whole SVG, lane labels included
  double height;

  double X(std::uint64_t step) const { return kLabelWidth + px * static_cast<double>(step - window_begin); }
  double LaneTop(ThreadId thread) const { return kTop + kLaneHeight * thread; }
  bool Drawn(std::uint64_t step) const { return step >= window_begin; }
};

Canvas FitCanvas(const TimelineModel& model) {
  const std::size_t first_run = model.runs.size() > kMaxRunsDrawn ? model.runs.size() - kMaxRunsDrawn : 0;
  const std::uint64_t window_begin = model.runs.empty() ? 0 : model.runs[first_run].begin;
  const std::uint64_t span = std::max<std::uint64_t>(model.end_step - window_begin, 1);
  const double px =
      std::max(kTargetPlotWidth / static_cast<double>(span), std::min(14.0, kMaxPlotWidth / static_cast<double>(span)));
  const double plot_width = px * static_cast<double>(span);
  const double width = kLabelWidth + plot_width + 24;
  const double height = kTop + kLaneHeight * static_cast<double>(model.lanes.size()) + 8;
  return {first_run, window_begin, px, width, height};
}

// Lanes, labels and the step axis.
std::string RenderLanes(const TimelineModel& model, const Canvas& canvas) {
  std::string svg;
  for (const TimelineModel::Lane& lane : model.lanes) {
    const double top = canvas.LaneTop(lane.thread);
    svg += "<rect class=\"lane\" x=\"0\" y=\"" + Fixed(top) + "\" width=\"" + Fixed(canvas.width) + "\" height=\"" +
           Fixed(kLaneHeight) + "\" fill=\"" + (lane.thread % 2 ? "#f4f5f7" : "#fbfbfc") + "\"/>\n";
    svg += "<rect x=\"8\" y=\"" + Fixed(top + kSliceTop + 4) + "\" width=\"12\" height=\"12\" rx=\"2\" fill=\"" +
           Colour(lane.thread) + "\"/>";
    svg +=
        "<text class=\"lane-name\" x=\"26\" y=\"" + Fixed(top + kSliceTop + 15) + "\">" + Escape(lane.name) + "</text>";
    svg += "<text class=\"lane-state\" x=\"8\" y=\"" + Fixed(top + kMarkerY + 4) + "\">" + Escape(lane.end_state) +
           "</text>\n";
  }
  return svg;
}

std::string RenderStepAxis(const TimelineModel& model, const Canvas& canvas) {
  std::string svg;
  const std::uint64_t tick = TickInterval(canvas.px, 60);
  for (std::uint64_t step = (canvas.window_begin + tick - 1) / tick * tick; step <= model.end_step; step += tick) {
    const double x = canvas.X(step);
    svg += "<line class=\"grid\" x1=\"" + Fixed(x) + "\" y1=\"" + Fixed(kTop - 6) + "\" x2=\"" + Fixed(x) + "\" y2=\"" +
           Fixed(canvas.height - 8) + "\"/><text class=\"tick\" x=\"" + Fixed(x) + "\" y=\"" + Fixed(kTop - 10) +
           "\">" + std::to_string(step) + "</text>\n";
  }
  svg += "<text class=\"axis\" x=\"8\" y=\"" + Fixed(kTop - 10) + "\">step &#8594;</text>\n";
  return svg;
}

// A run's hover text: its steps and range, then its first events.
std::string RunTip(const TimelineModel& model, const TimelineModel::Run& run) {
  std::string tip = model.lanes[run.thread].name + " runs, steps " + std::to_string(run.begin) + "-" +
                    std::to_string(run.end - 1) + "\n" + run.range;
  if (run.first_event != TimelineModel::kNone) {
    tip += "\nvirtual time " + Seconds(model.events[run.first_event].time_ns);
    if (!model.events[run.first_event].function.empty()) tip += "\nin " + model.events[run.first_event].function;
    constexpr std::size_t kListed = 12;
    for (std::size_t i = run.first_event; i <= run.last_event && i - run.first_event < kListed; ++i) {
      tip += "\n  step " + std::to_string(model.events[i].step) + "  " + model.events[i].label;
    }
    if (run.last_event - run.first_event + 1 > kListed) {
      tip += "\n  ... " + std::to_string(run.last_event - run.first_event + 1 - kListed) + " more events";
    }
  }
  return tip;
}

// Runs.
std::string RenderRuns(const TimelineModel& model, const Canvas& canvas) {
  std::string svg;
  for (std::size_t r = canvas.first_run; r < model.runs.size(); ++r) {
    const TimelineModel::Run& run = model.runs[r];
    const double x = canvas.X(run.begin);
    const double w = std::max(canvas.px * static_cast<double>(run.end - run.begin) - 1, 1.0);
    const double top = canvas.LaneTop(run.thread);
    svg += "<g class=\"run\"><title>" + Escape(RunTip(model, run)) + "</title><rect x=\"" + Fixed(x) + "\" y=\"" +
           Fixed(top + kSliceTop) + "\" width=\"" + Fixed(w) + "\" height=\"" + Fixed(kSliceHeight) +
           "\" rx=\"3\" fill=\"" + Colour(run.thread) + "\"/>";
    // The range, when about 6.5 px per character fit.
    const std::size_t fits = static_cast<std::size_t>(std::max(0.0, (w - 8) / 6.5));
    if (fits >= 4) {
      std::string text = run.range;
      if (text.size() > fits) {
        const std::size_t colon = text.rfind(':');
        text = colon != std::string::npos && text.size() - colon <= fits ? text.substr(colon) : "";
      }
      if (!text.empty()) {
        svg += "<text class=\"run-text\" x=\"" + Fixed(x + 4) + "\" y=\"" + Fixed(top + kSliceTop + 16) + "\">" +
               Escape(text) + "</text>";
      }
    }
    svg += "</g>\n";
  }
  return svg;
}

// Release->acquire arrows, those with both ends in the window drawn.
std::string RenderFlows(const TimelineModel& model, const Canvas& canvas) {
  const double px = canvas.px;
  std::string svg;
  for (const TimelineModel::Flow& flow : model.flows) {
    if (!canvas.Drawn(flow.from_step) || !canvas.Drawn(flow.to_step)) continue;
    const double x1 = canvas.X(flow.from_step) + px / 2;
    const double y1 = canvas.LaneTop(flow.from_thread) + kMarkerY;
    const bool at_event = flow.to_event != TimelineModel::kNone && model.events[flow.to_event].step == flow.to_step;
    const double x2 = canvas.X(flow.to_step) + (at_event ? px / 2 : 0);
    const double y2 = canvas.LaneTop(flow.to_thread) + (at_event ? kMarkerY : kSliceTop + kSliceHeight / 2);
    const double bend = std::max(std::abs(x2 - x1) / 2, 18.0);
    const std::string tip = flow.name + "\n" + model.lanes[flow.from_thread].name + " " +
                            model.events[flow.from_event].label + " (step " + std::to_string(flow.from_step) +
                            ")\n-> " + model.lanes[flow.to_thread].name + " " + model.events[flow.to_event].label +
                            " (step " + std::to_string(model.events[flow.to_event].step) + "), goes on at step " +
                            std::to_string(flow.to_step);
    svg += "<path class=\"flow\" d=\"M" + Fixed(x1) + "," + Fixed(y1) + " C" + Fixed(x1 + bend * 0.2) + "," +
           Fixed(y1 + (y2 - y1) * 0.5) + " " + Fixed(x2 - bend * 0.6) + "," + Fixed(y2) + " " + Fixed(x2) + "," +
           Fixed(y2) + "\" marker-end=\"url(#arrow)\"><title>" + Escape(tip) + "</title></path>\n";
  }
  return svg;
}

// Markers for sync operations and gates, labels on two alternating rows.
std::string RenderMarkers(const TimelineModel& model, const Canvas& canvas) {
  std::string svg;
  std::vector<double> label_end(model.lanes.size() * 2, -1e9);
  for (const std::size_t index : model.instants) {
    const TimelineModel::Point& event = model.events[index];
    if (!canvas.Drawn(event.step)) continue;
    const double x = canvas.X(event.step) + canvas.px / 2;
    const double y = canvas.LaneTop(event.thread) + kMarkerY;
    std::string tip = model.lanes[event.thread].name + "  step " + std::to_string(event.step) + "  " + event.label;
    if (!event.function.empty()) tip += "\nin " + event.function;
    tip += "\nvirtual time " + Seconds(event.time_ns);
    const bool gate = event.kind == EventKind::kGate;
    const double s = 5;
    svg += "<g class=\"marker\"><title>" + Escape(tip) + "</title>";
    if (gate) {
      svg += "<path d=\"M" + Fixed(x) + "," + Fixed(y - s - 1) + " L" + Fixed(x + s + 1) + "," + Fixed(y + s) + " L" +
             Fixed(x - s - 1) + "," + Fixed(y + s) + " z\" fill=\"#ffd54f\" stroke=\"#333\"/>";
    } else {
      svg += "<path d=\"M" + Fixed(x) + "," + Fixed(y - s) + " L" + Fixed(x + s) + "," + Fixed(y) + " L" + Fixed(x) +
             "," + Fixed(y + s) + " L" + Fixed(x - s) + "," + Fixed(y) + " z\" fill=\"#fff\" stroke=\"" +
             Colour(event.thread) + "\" stroke-width=\"2\"/>";
    }
    // A label where it does not run into the previous one on its row.
    const std::string label = ShortLabel(event);
    const double half = static_cast<double>(label.size()) * 5.6 / 2;
    for (int row = 0; row < 2; ++row) {
      double& end = label_end[event.thread * 2 + row];
      if (x - half < end + 4) continue;
      end = x + half;
      svg += "<text class=\"marker-text\" x=\"" + Fixed(x) + "\" y=\"" +
             Fixed(canvas.LaneTop(event.thread) + kLabelY + row * 12) + "\">" + Escape(label) + "</text>";
      break;
    }
    svg += "</g>\n";
  }
  return svg;
}

// The failure.
std::string RenderFailure(const TimelineModel& model, const Canvas& canvas) {
  const double x = canvas.X(model.failure_step) + canvas.px / 2;
  std::string svg;
  svg += "<g class=\"failure\"><title>" + Escape(model.failure_name + "\nstep " + std::to_string(model.failure_step)) +
         "</title><line x1=\"" + Fixed(x) + "\" y1=\"" + Fixed(kTop - 4) + "\" x2=\"" + Fixed(x) + "\" y2=\"" +
         Fixed(canvas.height - 8) + "\" stroke=\"#d62728\" stroke-width=\"2\" stroke-dasharray=\"5,3\"/>";
  if (model.failure_on_thread) {
    const double y = canvas.LaneTop(model.failure_thread) + kSliceTop + kSliceHeight / 2;
    svg += "<circle cx=\"" + Fixed(x) + "\" cy=\"" + Fixed(y) + "\" r=\"9\" fill=\"#d62728\"/><path d=\"M" +
           Fixed(x - 4) + "," + Fixed(y - 4) + " L" + Fixed(x + 4) + "," + Fixed(y + 4) + " M" + Fixed(x + 4) + "," +
           Fixed(y - 4) + " L" + Fixed(x - 4) + "," + Fixed(y + 4) + "\" stroke=\"#fff\" stroke-width=\"2.2\"/>";
  }
  svg += "<text class=\"failure-text\" x=\"" + Fixed(x - 6) + "\" y=\"" + Fixed(kTop - 22) + "\">" +
         Escape(std::string(to_string(model.verdict))) + " &#8600;</text></g>\n";
  return svg;
}

// The whole drawing: its layers in paint order, later ones on top.
std::string RenderSvg(const TimelineModel& model, const Canvas& canvas) {
  const double width = canvas.width;
  const double height = canvas.height;
  std::string svg;
  svg += "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + Fixed(width) + "\" height=\"" + Fixed(height) +
         "\" viewBox=\"0 0 " + Fixed(width) + " " + Fixed(height) + "\">\n";
  svg +=
      "<defs><marker id=\"arrow\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\" markerWidth=\"7\" "
      "markerHeight=\"7\" orient=\"auto-start-reverse\"><path d=\"M0,0 L10,5 L0,10 z\" fill=\"#333\"/>"
      "</marker></defs>\n";
  svg += RenderLanes(model, canvas);
  svg += RenderStepAxis(model, canvas);
  svg += RenderRuns(model, canvas);
  // Flows, under the markers so the markers stay easy to hover.
  svg += RenderFlows(model, canvas);
  svg += RenderMarkers(model, canvas);
  if (model.verdict != Verdict::kPass) svg += RenderFailure(model, canvas);
  svg += "</svg>\n";
  return svg;
}

// The page's <head>, its stylesheet (timeline_assets/timeline.css) inline.
std::string RenderHead(const TimelineModel& model) {
  const std::string verdict = std::string(to_string(model.verdict));
  std::string html;
  html += "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<title>simthread timeline: seed " +
          std::to_string(model.seed) + " " + Escape(verdict) + "</title>\n";
  html += "<style>\n";
  html += kTimelineCss;
  html += "</style></head><body>\n";
  return html;
}

// What the page is about, above the drawing: verdict, counts, the story.
std::string RenderSummary(const TimelineModel& model, const Canvas& canvas) {
  const bool failed = model.verdict != Verdict::kPass;
  char hash[32];
  std::snprintf(hash, sizeof hash, "%016" PRIx64, model.trace_hash);
  const std::string verdict = std::string(to_string(model.verdict));
  std::string html;
  html += "<h1>simthread timeline</h1>\n";
  html += std::string("<p class=\"verdict ") + (failed ? "fail" : "pass") + "\">" +
          Escape(failed ? model.failure_name : verdict + ": the execution ended normally") + "</p>\n";
  html += "<p class=\"meta\">seed " + std::to_string(model.seed) + " &middot; " + std::to_string(model.steps) +
          " steps &middot; " + std::to_string(model.preemptions) +
          (model.preemptions == 1 ? " preemption" : " preemptions") + " &middot; " +
          std::to_string(model.lanes.size()) + (model.lanes.size() == 1 ? " thread" : " threads") +
          " &middot; trace hash " + hash + "</p>\n";
  if (!model.story.empty()) {
    std::string story;
    for (const std::string& line : model.story) story += Escape(line) + "\n";
    // A long story (an unshrunk run) folds away so the lanes stay in view.
    html += std::string(model.story.size() > 8 ? "<details>" : "<details open>") +
            "<summary>the preemptions, as a story (" + std::to_string(model.story.size()) +
            " lines)</summary><pre class=\"story\">" + story + "</pre></details>\n";
  }
  if (canvas.first_run > 0) {
    html += "<p class=\"meta\">A long execution: this page draws its last " + std::to_string(kMaxRunsDrawn) +
            " runs (from step " + std::to_string(canvas.window_begin) +
            "); a .json timeline of the same execution has them all.</p>\n";
  }
  return html;
}

}  // namespace

std::string RenderTimelineHtml(const TimelineModel& model) {
  const Canvas canvas = FitCanvas(model);
  std::string html = RenderHead(model);
  html += RenderSummary(model, canvas);
  html +=
      R"(<div class="legend"><span><svg width="26" height="12"><rect width="26" height="12" rx="2" fill="#4e79a7"/></svg>a run of a thread (between two switches)</span><span><svg width="12" height="12"><path d="M6,1 L11,6 L6,11 L1,6 z" fill="#fff" stroke="#4e79a7" stroke-width="2"/></svg>sync operation</span><span><svg width="14" height="12"><path d="M7,0 L13,11 L1,11 z" fill="#ffd54f" stroke="#333"/></svg>gate</span><span><svg width="30" height="12"><path d="M1,6 L24,6" stroke="#333" stroke-width="1.4"/><path d="M22,2 L29,6 L22,10 z" fill="#333"/></svg>release &#8594; acquire (unlock&#8594;lock, notify&#8594;wake, post&#8594;wait, exit&#8594;join, create&#8594;start)</span><span><svg width="14" height="14"><circle cx="7" cy="7" r="6" fill="#d62728"/></svg>failure</span></div>
)";
  html += "<div class=\"scroll\">\n" + RenderSvg(model, canvas) + "</div>\n";
  html +=
      "<p class=\"note\">The x axis counts steps (scheduling points); virtual time is in the hover text. "
      "Hover a slice, marker or arrow for its site and step. Written by simthread (SIM_OPTIONS=timeline=PATH); "
      "with a .json PATH the same execution opens in ui.perfetto.dev.</p>\n";
  // The script (timeline_assets/timeline.js) turns the SVG's titles into the #tip tooltip.
  html += "<div id=\"tip\"></div>\n<script>\n";
  html += kTimelineJs;
  html += "</script>\n</body></html>\n";
  return html;
}

}  // namespace sim::internal

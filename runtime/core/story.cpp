// story.cpp: see story.h.
#include "core/story.h"

#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>

#include "core/site.h"

namespace sim::internal {
namespace {

// What one thread ran within a segment: the lines it covered, per file, in
// the order the files came up; or the names of sites that have no line.
class SitesRun {
 public:
  void Add(const SiteNamer::Location& at) {
    auto it = std::find_if(files_.begin(), files_.end(), [&at](const File& f) { return f.name == at.where; });
    if (it == files_.end()) it = files_.insert(files_.end(), File{at.where});
    if (!at.has_line) return;
    if (!it->seen_line || at.line < it->low) it->low = at.line;
    if (!it->seen_line || at.line > it->high) it->high = at.line;
    it->seen_line = true;
  }
  // "a.cpp:23-38", "a.cpp:23, stl_vector.h:988-1012", "... and 3 more files".
  std::string Text() const {
    constexpr std::size_t kFilesNamed = 2;
    std::string text;
    for (std::size_t i = 0; i < files_.size() && i < kFilesNamed; ++i) {
      const File& file = files_[i];
      if (!text.empty()) text += ", ";
      text += file.name;
      if (file.seen_line) {
        text += ":" + std::to_string(file.low);
        if (file.high != file.low) text += "-" + std::to_string(file.high);
      }
    }
    if (files_.size() > kFilesNamed) text += " and " + std::to_string(files_.size() - kFilesNamed) + " more files";
    return text;
  }

 private:
  struct File {
    std::string name;
    bool seen_line = false;
    unsigned low = 0, high = 0;
  };
  std::vector<File> files_;
};

class Teller {
 public:
  Teller(const std::vector<Event>& events, const std::vector<Preemption>& preemptions)
      : events_(events), preemptions_(preemptions) {
    for (const Event& event : events_) namer_.Add(event.site);
  }

  std::vector<std::string> Tell() {
    const std::size_t told = std::min(preemptions_.size(), kMaxPreemptionsTold);
    for (std::size_t p = 0; p < told; ++p) {
      const Preemption& preemption = preemptions_[p];
      const std::size_t at = preemption.event_index;
      // Preempted again at its very next point: it resumed without an event.
      if (auto waiting = FindPending(preemption.preempted)) Resume(*waiting);
      lines_.push_back("T" + std::to_string(preemption.preempted) + " " + namer_.Name(events_[at].site) + " " +
                       EventKindName(events_[at].kind) + "   <- preempted");
      pending_.push_back({preemption.preempted, at});
      const bool more = p + 1 < preemptions_.size();
      const std::size_t end = more ? preemptions_[p + 1].event_index : events_.size();
      TellSegment(at + 1, end, /*stop_when_all_resumed=*/p + 1 == told);
    }
    if (preemptions_.size() > told) {
      lines_.push_back("... and " + std::to_string(preemptions_.size() - told) + " more preemptions");
    } else {
      // The last segment ran to the end of the trace.
      for (const Pending& waiting : pending_) {
        lines_.push_back("T" + std::to_string(waiting.thread) + " does not run again before the end");
      }
    }
    return std::move(lines_);
  }

 private:
  struct Pending {
    ThreadId thread;
    std::size_t event_index;  // where it was preempted, and so where it goes on
  };

  std::optional<std::size_t> FindPending(ThreadId thread) const {
    for (std::size_t i = 0; i < pending_.size(); ++i) {
      if (pending_[i].thread == thread) return i;
    }
    return std::nullopt;
  }

  void Resume(std::size_t pending_index) {
    const Pending waiting = pending_[pending_index];
    const Event& at = events_[waiting.event_index];
    lines_.push_back("T" + std::to_string(waiting.thread) + " " + namer_.Name(at.site) + " resumes (" +
                     EventKindName(at.kind) + ")");
    pending_.erase(pending_.begin() + static_cast<std::ptrdiff_t>(pending_index));
  }

  // Events [from, to): each thread's run summed up, in the order threads
  // first ran; a preempted thread's first event is where it resumed. The
  // story's last segment ends once every preempted thread has resumed.
  void TellSegment(std::size_t from, std::size_t to, bool stop_when_all_resumed) {
    struct Run {
      ThreadId thread;
      SitesRun sites;
      bool finished = false;
      std::size_t line;  // its place in lines_, filled in at the end
    };
    std::vector<Run> runs;
    std::map<ThreadId, std::size_t> run_of;  // thread -> index in runs
    for (std::size_t i = from; i < to; ++i) {
      const Event& event = events_[i];
      if (auto waiting = FindPending(event.thread)) {
        Resume(*waiting);
        if (stop_when_all_resumed && pending_.empty()) break;
      }
      auto it = run_of.find(event.thread);
      if (it == run_of.end()) {
        it = run_of.emplace(event.thread, runs.size()).first;
        runs.push_back(Run{event.thread, {}, false, lines_.size()});
        lines_.emplace_back();
      }
      Run& run = runs[it->second];
      run.sites.Add(namer_.Locate(event.site));
      run.finished |= event.kind == EventKind::kThreadExit;
    }
    for (const Run& run : runs) {
      lines_[run.line] =
          "T" + std::to_string(run.thread) + " " + run.sites.Text() + (run.finished ? " runs to completion" : " runs");
    }
  }

  const std::vector<Event>& events_;
  const std::vector<Preemption>& preemptions_;
  SiteNamer namer_;
  std::vector<Pending> pending_;
  std::vector<std::string> lines_;
};

}  // namespace

std::vector<std::string> TellStory(const std::vector<Event>& events, const std::vector<Preemption>& preemptions) {
  return Teller(events, preemptions).Tell();
}

}  // namespace sim::internal

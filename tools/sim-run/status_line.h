// status_line.h: the one line of progress sim-run keeps on a terminal.
//
// A sweep of a million seeds runs for minutes; on a terminal sim-run keeps a
// line on stderr with what is done, how fast, what is left and what failed,
// redrawn a few times a second and erased when the sweep ends, so the
// summary and reports print as they always do. When stderr is not a
// terminal (a CI log, a file) the same line is written once a minute, each
// on a line of its own, so that a long sweep's log is never silent; a
// sweep shorter than that writes nothing.
#ifndef SIM_TOOLS_SIM_RUN_STATUS_LINE_H_
#define SIM_TOOLS_SIM_RUN_STATUS_LINE_H_

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>

namespace simrun {

class StatusLine {
 public:
  // `what`: the strategy, as the user named it (or "seeds" for the default).
  StatusLine(std::uint64_t total, std::string what);
  ~StatusLine() { Clear(); }
  StatusLine(const StatusLine&) = delete;
  StatusLine& operator=(const StatusLine&) = delete;

  // Whether the line is redrawn in place (on a terminal).
  bool active() const { return active_; }
  // Redraws the line if it was last drawn long enough ago.
  void Update(std::uint64_t done, std::uint64_t failures);
  // The same for a bounded search, whose total is not known in advance:
  // schedules run so far and how fast.
  void UpdateSearch(std::uint64_t schedules);
  // Erases the line, so that whatever sim-run prints next starts a clean
  // one; the next Update draws it again.
  void Clear();

  // How often a line is redrawn, and written where it cannot be redrawn.
  static constexpr std::chrono::milliseconds kRedrawEvery{250};
  static constexpr std::chrono::seconds kLogEvery{60};

 private:
  using Clock = std::chrono::steady_clock;
  // Seconds since the start when the line is to be drawn now, else nothing.
  std::optional<double> SecondsIfDue();
  // Draws "sim-run: <text>, <what>" in place of the line.
  void Draw(const std::string& text);

  std::uint64_t total_;
  std::string what_;
  bool active_;  // on a terminal: redrawn in place; else logged once a minute
  bool shown_ = false;
  Clock::time_point started_ = Clock::now();
  Clock::time_point drawn_{};
};

// "1h02m", "3m05s", "42s": how long a duration is, for the line.
std::string ShortDuration(std::chrono::seconds duration);

}  // namespace simrun

#endif  // SIM_TOOLS_SIM_RUN_STATUS_LINE_H_

// status_line.cpp: see status_line.h.
#include "status_line.h"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <utility>

namespace simrun {
namespace {

bool StderrIsATerminal() {
  const char* term = std::getenv("TERM");
  return isatty(STDERR_FILENO) == 1 && (term == nullptr || std::strcmp(term, "dumb") != 0);
}

std::string Rate(double per_second) {
  char text[32];
  if (per_second >= 10000) {
    std::snprintf(text, sizeof text, "%.0fk/s", per_second / 1000);
  } else {
    std::snprintf(text, sizeof text, "%.0f/s", per_second);
  }
  return text;
}

}  // namespace

std::string ShortDuration(std::chrono::seconds duration) {
  const long long total = duration.count();
  char text[32];
  if (total >= 3600) {
    std::snprintf(text, sizeof text, "%lldh%02lldm", total / 3600, total % 3600 / 60);
  } else if (total >= 60) {
    std::snprintf(text, sizeof text, "%lldm%02llds", total / 60, total % 60);
  } else {
    std::snprintf(text, sizeof text, "%llds", total);
  }
  return text;
}

StatusLine::StatusLine(std::uint64_t total, std::string what)
    : total_(total), what_(std::move(what)), active_(StderrIsATerminal()) {}

std::optional<double> StatusLine::SecondsIfDue() {
  const Clock::time_point now = Clock::now();
  if (!active_ && now - std::max(drawn_, started_) < kLogEvery) return std::nullopt;
  if (active_ && shown_ && now - drawn_ < kRedrawEvery) return std::nullopt;
  drawn_ = now;
  return std::chrono::duration<double>(now - started_).count();
}

void StatusLine::Draw(const std::string& text) {
  if (!active_) {
    std::fprintf(stderr, "sim-run: %s, %s\n", text.c_str(), what_.c_str());
    std::fflush(stderr);
    return;
  }
  // \r and "erase to the end of the line": the line is redrawn in place.
  std::fprintf(stderr, "\rsim-run: %s, %s\x1b[K", text.c_str(), what_.c_str());
  std::fflush(stderr);
  shown_ = true;
}

void StatusLine::Update(std::uint64_t done, std::uint64_t failures) {
  const std::optional<double> seconds = SecondsIfDue();
  if (!seconds) return;
  const double per_second = *seconds > 0 ? static_cast<double>(done) / *seconds : 0;
  std::string left = "time left unknown";
  if (per_second > 0) {
    const auto remaining =
        std::chrono::seconds(static_cast<long long>(static_cast<double>(total_ - done) / per_second));
    left = ShortDuration(remaining) + " left";
  }
  Draw(std::to_string(done) + "/" + std::to_string(total_) + " seeds, " + Rate(per_second) + ", " + left + ", " +
       std::to_string(failures) + " failed");
}

void StatusLine::UpdateSearch(std::uint64_t schedules) {
  const std::optional<double> seconds = SecondsIfDue();
  if (!seconds) return;
  const double per_second = *seconds > 0 ? static_cast<double>(schedules) / *seconds : 0;
  Draw(std::to_string(schedules) + " schedules, " + Rate(per_second) + ", " +
       ShortDuration(std::chrono::seconds(static_cast<long long>(*seconds))) + " running");
}

void StatusLine::Clear() {
  if (!shown_) return;
  std::fputs("\r\x1b[K", stderr);
  std::fflush(stderr);
  shown_ = false;
}

}  // namespace simrun

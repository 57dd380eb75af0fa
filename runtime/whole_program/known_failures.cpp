// known_failures.cpp: a data race told once per sweep (known_failures.h).
#include "whole_program/known_failures.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <string>

#include "common/exit_status.h"
#include "core/thread_local_switch.h"
#include "explore/explore_internal.h"
#include "report/report_json.h"

namespace sim::internal {

bool ClaimsFailure(const std::string& directory, const Options& options, const Outcome& failing) {
  if (directory.empty() || failing.verdict != Verdict::kDataRace || options.race_shrink == "all") return true;
  char name[32];
  std::snprintf(name, sizeof name, "/%016" PRIx64, failing.failure_signature);
  const int fd = open((directory + name).c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd < 0) return errno != EEXIST;
  // Which seed tells it: sim-run lists it beside the race.
  const std::string seed = std::to_string(options.first_seed) + "\n";
  (void)!write(fd, seed.data(), seed.size());
  close(fd);
  return true;
}

void ReportToldElsewhere(const Options& options, const Outcome& failing) {
  Report report = MakeReport(failing, options.first_seed, 0, options);
  // This run kept no decisions (and the schedule that would replay it is
  // the seed's): the replay line is all.
  report.schedule.clear();
  report.shrink_stopped =
      "not shrunk or flipped: an earlier seed of this sweep met the same pair of sites and tells it "
      "(race_shrink=all tells every seed's race)";
  if (!options.report_json.empty())
    WriteJsonFile(options.report_json, ReportJson(report, ChosenTlsSwitchName(options.tls_switch)));
  std::fflush(stdout);
  std::fputs(report.render().c_str(), stderr);
  std::fflush(stderr);
  _exit(exit_status::kVerdict);
}

}  // namespace sim::internal

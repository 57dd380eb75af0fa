// explorer.h: the seed loop: runs the seeds of one sim-run, --jobs at a
// time, each in a process of its own, and keeps the failures.
//
// A seed's process is forked by a fork server (fork_server.h: PROG started
// once per job, static initialisation done once) when PROG supports it, and
// spawned otherwise (child.h), with --no-fork-server, or when its job's
// server is gone (a note on stderr says so, and the seed it was running runs
// again).
//
// The lowest failing seed does not depend on --jobs: a failure is reported
// only once every lower seed has ended, and seeds above it that are still
// running are then killed unless --keep-going. A seed that outlives
// --timeout is killed and classified as a hang.
//
// The loop: launch up to J seeds, collect those that ended, kill those past
// --timeout or beyond a failure, wait for the next child to end.
#ifndef SIM_TOOLS_SIM_RUN_EXPLORER_H_
#define SIM_TOOLS_SIM_RUN_EXPLORER_H_

#include <sys/types.h>

#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "child.h"
#include "command_line.h"
#include "fork_server.h"
#include "pct_estimates.h"
#include "status_line.h"

namespace simrun {

class Explorer {
 public:
  Explorer(const Config& config, LaunchSpec spec, bool fork_servers)
      : config_(config),
        spec_(std::move(spec)),
        fork_servers_(fork_servers),
        pct_estimates_(config.start),
        status_(config.seeds, !spec_.bounded_search.empty() ? "strategy " + spec_.bounded_search
                              : spec_.strategy.empty()      ? "default strategy"
                                                            : "strategy " + spec_.strategy) {}

  // Runs the seeds; returns the failing seeds' outcomes (lowest first).
  // `signals` is a signalfd for the blocked SIGCHLD and termination signals.
  std::map<std::uint64_t, Outcome> Run(int signals);

  std::uint64_t seeds_run() const { return seeds_run_; }
  // A bounded search's one process, as it ended (LaunchSpec::bounded_search).
  const std::optional<Outcome>& search_outcome() const { return search_outcome_; }

  // Kills every child's process group and every fork server (whose
  // children die with it) (on SIGINT/SIGTERM/SIGHUP).
  void KillAll();

 private:
  using Clock = std::chrono::steady_clock;

  struct Running {
    pid_t pid = -1;   // -1 while its fork server has not said it started
    int server = -1;  // the fork server that forked it, or -1: spawned here
    Clock::time_point deadline;
    bool timed_out = false;               // killed by us for outliving --timeout
    bool discarded = false;               // killed by us because a lower seed failed
    std::uint64_t pct_choice_points = 0;  // what it was given (pct_estimates.h)
  };

  struct Server {
    std::unique_ptr<ForkServer> process;
    std::optional<std::uint64_t> seed;  // the seed it is serving
  };

  bool stopping() const { return !config_.keep_going && !failures_.empty(); }

  // The status line: seeds done, or a bounded search's schedules so far
  // (which its process writes to SearchProgressPath).
  void UpdateStatus();

  // Whether `seed` may start now: its pct estimate is known, when learnt.
  bool MayLaunch(std::uint64_t seed) const;
  void Launch(std::uint64_t seed);
  pid_t Spawn(std::uint64_t seed, std::uint64_t pct_choice_points);

  // A fork server with no seed, started if there are fewer than --jobs; -1
  // when seeds are to be spawned.
  int IdleServer();

  // Reaps every spawned child that has ended (and any fork server that
  // exited); true when a seed ended.
  bool ReapEnded();

  // Takes what the fork servers said; true when a seed ended.
  bool ReadServerReplies();

  // A seed's process has ended with `status`: classify it, clean up.
  void Finish(std::uint64_t seed, int status);

  // Server `index` closed its socket. Its seed, unless sim-run was stopping
  // it anyway, runs again in a spawned process; true when the seed ended.
  bool ServerGone(std::size_t index);
  // --keep-going: a failure unlike any before it in this sweep, said on
  // stderr as it is found (distinct_failures.h), so that a long sweep's
  // findings show before its summary.
  void SayIfNew(std::uint64_t seed, const Outcome& outcome);
  // Says once what a child said once per process (common/process_notices.h).
  void RelayProcessNotice(const std::string& child_stderr);

  void NoteServerGone(std::size_t index, const std::uint64_t* seed);

  // Seeds above the lowest failure cannot change the answer once every seed
  // below it has ended; stop them early.
  void DiscardAboveLowestFailure();

  void KillTimedOut();

  // Sleeps until a child ends (SIGCHLD), a fork server replies, the next
  // deadline passes, or a termination signal arrives (then kills the
  // children and re-raises it).
  void Wait(int signals);

  const Config& config_;
  const LaunchSpec spec_;
  bool fork_servers_;
  PctEstimates pct_estimates_;
  StatusLine status_;
  std::uint64_t seeds_finished_ = 0;
  bool process_notice_relayed_ = false;
  std::vector<Server> servers_;
  std::map<std::uint64_t, Running> running_;
  std::map<pid_t, std::uint64_t> by_pid_;
  std::map<std::uint64_t, Outcome> failures_;
  std::set<std::string> findings_said_;  // FailureKey of each failure said (SayIfNew)
  std::uint64_t seeds_run_ = 0;
  std::optional<Outcome> search_outcome_;
};

}  // namespace simrun

#endif  // SIM_TOOLS_SIM_RUN_EXPLORER_H_

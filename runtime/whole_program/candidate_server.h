// candidate_server.h: runs this program again, once per candidate schedule,
// by forking a copy of it that has done static initialisation once.
//
// Whole-program shrinking, the determinism check and the told rerun of a
// failure each need fresh executions of the same program (main runs once
// per process). Spawning /proc/self/exe for each paid exec, the dynamic
// loader and static initialisation every time: 5-25 ms a candidate, so the
// default budget ran out before shrinking reached the minimum. Instead the
// failing process starts its own program once as a fork server
// (fork_server.h, the protocol sim-run uses) and asks it for one child per
// candidate: a fork and the execution itself. Where the program cannot
// serve forks (static initialisation left threads running), each candidate
// is spawned as before.
//
// A candidate's stdin, stdout and stderr are /dev/null; what it has to say
// it writes to the outcome file its SIM_OPTIONS name (rerun.h).
#ifndef SIM_RUNTIME_WHOLE_PROGRAM_CANDIDATE_SERVER_H_
#define SIM_RUNTIME_WHOLE_PROGRAM_CANDIDATE_SERVER_H_

#include <sys/types.h>

#include <chrono>
#include <string>

namespace sim::internal {

class CandidateServer {
 public:
  // `argv`: this program's arguments, as main got them.
  explicit CandidateServer(char** argv) : argv_(argv) {}
  // Closes the server's socket (it exits) and reaps it.
  ~CandidateServer();
  CandidateServer(const CandidateServer&) = delete;
  CandidateServer& operator=(const CandidateServer&) = delete;

  // Runs the program once with SIM_OPTIONS set to `sim_options`, and waits
  // for it to end. A candidate still running a second past `deadline` is
  // killed. Returns true when it ended by itself.
  bool Run(const std::string& sim_options, std::chrono::steady_clock::time_point deadline);
  // Run in two halves, so that candidates of two servers run at once:
  // Start returns once the candidate is under way (false when it could not
  // start), and Await waits for it as Run does. One at a time per server.
  bool Start(const std::string& sim_options);
  bool Await(std::chrono::steady_clock::time_point deadline);
  // Whether the next candidate gets this process's symbolizer as
  // kLentSymbolizerFd (core/symbolizer.h): the server got it when it
  // started, a spawned candidate when it is spawned.
  bool LendsSymbolizer() const;

 private:
  using Clock = std::chrono::steady_clock;

  // Starts the server on first use; false when it cannot be started or
  // refused to serve (then every candidate is spawned).
  bool EnsureServer();
  void StopServer();
  bool AwaitForked(Clock::time_point kill_at);
  bool AwaitSpawned(Clock::time_point kill_at);
  // Falls back to spawning each candidate from now on, the one under way first.
  bool StartSpawnedInstead();
  // posix_spawn of /proc/self/exe with SIM_OPTIONS=`sim_options`, its
  // standard files on /dev/null and, when `fd3` >= 0, that descriptor as fd 3.
  pid_t Spawn(const std::string& sim_options, int fd3);

  char** argv_;
  pid_t server_ = -1;
  int socket_ = -1;
  bool spawn_each_ = false;  // the server could not start or refused
  bool server_has_symbolizer_ = false;
  std::string started_options_;  // the candidate under way's, to spawn it if the server refuses it
  pid_t spawned_ = -1;           // the candidate under way, when spawned
  bool forked_ = false;          // the candidate under way was asked of the server
};

}  // namespace sim::internal

#endif  // SIM_RUNTIME_WHOLE_PROGRAM_CANDIDATE_SERVER_H_

// fork_server.h: sim-run's side of a fork server (the program's side is
// runtime/whole_program/fork_server.h, the protocol between them
// common/fork_server_protocol.h).
//
// A server is the user's program started once, with SIM_OPTIONS=
// fork_server=3 and fd 3 one end of a socket pair, stdin and stdout on
// /dev/null, stderr on a file of its own, in a process group of its own. It
// runs static initialisation once, then forks one child per seed, one seed
// at a time; each child is the seed's process exactly as SpawnSeed would
// have started it (same environment, files and process group), but without
// paying exec, the dynamic loader and static initialisation again. The
// server, not sim-run, is the child's parent, so the child's wait status
// comes back as a reply. When to use a server, and what to do when one is
// gone, is the explorer's business (explorer.h).
#ifndef SIM_TOOLS_SIM_RUN_FORK_SERVER_H_
#define SIM_TOOLS_SIM_RUN_FORK_SERVER_H_

#include <sys/types.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "child.h"

namespace simrun {

// True when `program` is an ELF executable carrying the section the runtime
// marks fork-server support with (a program built with a sim-clang++ whose
// whole-program mode can serve forks). Scripts, programs built without
// simthread and older builds are spawned once per seed as before.
bool SpeaksForkServerProtocol(const std::string& program);

class ForkServer {
 public:
  // What a server said, or that it is gone.
  struct Event {
    enum class Kind { kStarted, kEnded, kGone } kind;
    pid_t child = -1;     // kStarted, kEnded: the seed's process (and group)
    int wait_status = 0;  // kEnded
  };

  // Starts a server for `spec`'s program; `index` names its stderr file.
  // Returns nullptr with `error` set when it cannot be started.
  static std::unique_ptr<ForkServer> Start(const LaunchSpec& spec, unsigned index, std::string* error);

  // Kills the server (not a child it may have) and reaps it.
  ~ForkServer();
  ForkServer(const ForkServer&) = delete;
  ForkServer& operator=(const ForkServer&) = delete;

  pid_t pid() const { return pid_; }
  int socket_fd() const { return socket_fd_; }
  bool gone() const { return gone_; }
  // It said it cannot serve this program (every server of it would).
  bool refused() const { return !refusal_.empty(); }

  // Asks for `seed`'s process. False when the server is gone.
  bool Submit(const LaunchSpec& spec, std::uint64_t seed, std::uint64_t pct_choice_points = 0);

  // Every reply that has arrived, without blocking; a kGone event last when
  // the server closed its end (exited, died, or refused to serve).
  std::vector<Event> ReadReplies();

  // Kills the server now (a seed it has not started outlived --timeout).
  void Kill();

  // sim-run reaped the server (waitpid(-1) takes any child); keeps its status.
  void SetWaitStatus(int wait_status) { wait_status_ = wait_status; }

  // Why the server is gone, for a note on stderr: its refusal, or how it
  // ended (reaping it if nobody has).
  std::string DescribeEnd();

 private:
  ForkServer(pid_t pid, int socket_fd) : pid_(pid), socket_fd_(socket_fd) {}

  pid_t pid_;
  int socket_fd_;
  bool gone_ = false;
  std::string refusal_;  // what the server said instead of serving
  std::string failure_;  // why sim-run gave up on it
  std::optional<int> wait_status_;
};

}  // namespace simrun

#endif  // SIM_TOOLS_SIM_RUN_FORK_SERVER_H_

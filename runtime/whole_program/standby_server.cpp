// standby_server.cpp: see standby_server.h.
//
// Like fork_server.cpp, this runs before the program's heap may change: no
// malloc, no std::string, no stdio, no mmap.
#include "whole_program/standby_server.h"

#include <fcntl.h>
#include <sys/personality.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <string_view>

#include "common/fork_server_protocol.h"
#include "whole_program/fork_server.h"

namespace sim::internal {
namespace {

namespace protocol = sim::common::fork_server_protocol;

// Both ends sit above the lent symbolizer's fd (core/symbolizer.h), where
// the program's own descriptors are not: its first open() still gets 3.
constexpr int kLowestSocketFd = 200;

std::optional<StandbyServer> standby;
pid_t standby_owner = -1;  // a child the program forks does not share it

// Whether the SIM_OPTIONS value `options` sets `key` ("name="): read here
// without the option parser, which allocates.
bool SetsOption(const char* options, std::string_view key) {
  for (const char* at = options; at != nullptr; at = std::strchr(at, ':')) {
    if (*at == ':') ++at;
    if (std::strncmp(at, key.data(), key.size()) == 0) return true;
  }
  return false;
}

// Moves `fd` above the program's descriptors; -1 (and `fd` closed) when it cannot.
int MoveHigh(int fd) {
  const int moved = fcntl(fd, F_DUPFD_CLOEXEC, kLowestSocketFd);
  close(fd);
  return moved;
}

void OpenOnDevNull(int fd, int flags) {
  const int null = open("/dev/null", flags);
  if (null < 0 || null == fd) return;
  dup2(null, fd);
  close(null);
}

// In the grandchild: serves its process. Returns only in a candidate.
void Serve(int process_end, int server_end) {
  close(process_end);
  OpenOnDevNull(STDIN_FILENO, O_RDONLY);
  OpenOnDevNull(STDOUT_FILENO, O_WRONLY);
  OpenOnDevNull(STDERR_FILENO, O_WRONLY);
  ServeForkRequests(server_end);
}

}  // namespace

bool ForkStandbyServerIfWanted() {
  const int saved_errno = errno;
  const char* options = std::getenv("SIM_OPTIONS");
  // A candidate (rerun.h) is told where to write its outcome.
  if (options == nullptr || SetsOption(options, "outcome_file=")) return false;
  // A copy shares this process's addresses: only with randomisation off
  // is that what a fresh process of the program would have, so that the
  // determinism check still tells a run that follows addresses.
  const int persona = personality(0xffffffff);
  if (persona == -1 || (persona & ADDR_NO_RANDOMIZE) == 0) return false;
  if (ThreadsOnceDonorsEnded() != 1) return false;
  int ends[2];
  if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, ends) != 0) return false;
  const int process_end = MoveHigh(ends[0]);
  const int server_end = MoveHigh(ends[1]);
  if (process_end < 0 || server_end < 0) {
    if (process_end >= 0) close(process_end);
    if (server_end >= 0) close(server_end);
    errno = saved_errno;
    return false;
  }
  // _Fork, not fork: the program's atfork handlers are for its own forks.
  const pid_t parent = _Fork();
  if (parent == 0) {
    const pid_t server = _Fork();
    if (server == 0) {
      Serve(process_end, server_end);
      errno = saved_errno;
      return true;
    }
    if (server > 0) {
      const protocol::ReplyText serving = protocol::EncodeServing(static_cast<long>(server));
      (void)send(server_end, serving.data(), serving.size(), MSG_NOSIGNAL);
    }
    _exit(0);
  }
  close(server_end);
  if (parent > 0) {
    int status = 0;
    while (waitpid(parent, &status, 0) < 0 && errno == EINTR) {
    }
    // Sent before the parent exited; EOF when there is no server.
    char text[protocol::ReplyText::kCapacity + 1];
    ssize_t length;
    while ((length = recv(process_end, text, sizeof text - 1, 0)) < 0 && errno == EINTR) {
    }
    if (length > 0) {
      const protocol::Reply reply = protocol::DecodeReply(std::string_view(text, static_cast<std::size_t>(length)));
      if (reply.kind == protocol::Reply::Kind::kServing) {
        standby = StandbyServer{static_cast<pid_t>(reply.child), process_end};
        standby_owner = getpid();
      }
    }
  }
  if (!standby) close(process_end);
  errno = saved_errno;
  return false;
}

std::optional<StandbyServer> TakeStandbyServer() {
  if (getpid() != standby_owner) return std::nullopt;
  std::optional<StandbyServer> taken = standby;
  standby.reset();
  return taken;
}

}  // namespace sim::internal

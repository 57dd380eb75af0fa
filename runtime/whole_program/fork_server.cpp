// fork_server.cpp: the server loop and the child's set-up (see fork_server.h).
//
// Everything here runs before the program's heap may change: no malloc, no
// std::string, no stdio, no mmap. Buffers are static (the child keeps
// pointing into them) or on the stack; numbers are formatted by hand (the
// messages are common/fork_server_protocol.h's, which allocates nothing on
// this side).
#include "whole_program/fork_server.h"

#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstddef>
#include <cstdlib>
#include <cstring>

#include "common/fork_server_protocol.h"
#include "interceptors/libc_binding.h"

namespace sim::internal {
namespace {

namespace protocol = sim::common::fork_server_protocol;

constexpr char kOptionsPrefix[] = "SIM_OPTIONS=";
constexpr std::size_t kOptionsPrefixLength = sizeof(kOptionsPrefix) - 1;
constexpr std::size_t kMaxRequestBytes = protocol::kMaxRequestBytes;
constexpr int kThreadCountTries = 1000;

// "SIM_OPTIONS=<value>\0<stderr path>\0". Static: the child's environ slot
// points here for the rest of its life, and a static buffer moves neither
// the heap nor the mappings a spawned process would have.
char request[kOptionsPrefixLength + kMaxRequestBytes + 1] = "SIM_OPTIONS=";

// A reply (built on the stack) to sim-run. A lost reply means sim-run is
// gone or broken; it sees EOF either way.
void Send(int socket_fd, const protocol::ReplyText& reply) {
  (void)send(socket_fd, reply.data(), reply.size(), MSG_NOSIGNAL);
}

// Says why this process cannot serve ("refused <before><number><after>") and ends it.
[[noreturn]] void Refuse(int socket_fd, const char* before, long number = -1, const char* after = "") {
  Send(socket_fd, protocol::EncodeRefused(before, number, after));
  _exit(0);
}

// Threads of this process, from /proc/self/stat (field 20), or -1.
long ThreadCount() {
  char stat[1024];
  const int fd = open("/proc/self/stat", O_RDONLY | O_CLOEXEC);
  if (fd < 0) return -1;
  const ssize_t length = read(fd, stat, sizeof stat - 1);
  close(fd);
  if (length <= 0) return -1;
  stat[length] = '\0';
  // The command name (field 2) may hold spaces; it ends at the last ')'.
  const char* at = std::strrchr(stat, ')');
  if (at == nullptr) return -1;
  int field = 2;
  for (++at; *at != '\0'; ++at) {
    if (*at == ' ' && ++field == 20) return std::strtol(at + 1, nullptr, 10);
  }
  return -1;
}

// Whatever static initialisation wrote to the server's stderr (a file of
// sim-run's), so that a seed's stderr starts as a spawned one's would.
void CopyStaticInitialisationOutput(int to_fd) {
  char buffer[4096];
  off_t offset = 0;
  for (ssize_t length; (length = pread(STDERR_FILENO, buffer, sizeof buffer, offset)) > 0; offset += length) {
    if (write(to_fd, buffer, static_cast<std::size_t>(length)) != length) return;
  }
}

// In the child: undo what only the server has, so that from here on this
// process is a spawned seed's.
void BecomeSeedProcess(int socket_fd, pid_t server, char** options_slot, const char* stderr_path) {
  close(socket_fd);
  setpgid(0, 0);
  // sim-run kills a server to stop a seed whose pid it has not read yet (a
  // timeout, its own termination): the seed must go with it.
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (getppid() != server) _exit(127);
  const int stderr_fd = open(stderr_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (stderr_fd < 0) _exit(127);  // sim-run reads the missing file as a failed start
  CopyStaticInitialisationOutput(stderr_fd);
  dup2(stderr_fd, STDERR_FILENO);
  close(stderr_fd);
  *options_slot = request;
}

}  // namespace

// sim-run reads section names (tools/sim-run/fork_server.cpp) to know that a
// program speaks this protocol before starting it as a server.
[[gnu::used, gnu::retain, gnu::section(SIM_FORK_SERVER_MARKER_SECTION)]] extern const char kForkServerProtocol[] =
    SIM_FORK_SERVER_MARKER_TEXT;

void ServeForkRequestsIfAsked() {
  const int saved_errno = errno;
  const char* value = std::getenv("SIM_OPTIONS");
  const int fd = protocol::ServerSocketIn(value);
  if (fd < 0) return;
  // __environ, glibc's reserved name: a user global named `environ` cannot replace it.
  char** options_slot = __environ;
  while (*options_slot != nullptr && *options_slot + kOptionsPrefixLength != value) ++options_slot;
  if (*options_slot == nullptr) return;

  // The server is sim-run's helper; it must not outlive it.
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  // A fork copies only the calling thread: threads that static
  // initialisation started would be missing from every child.
  // Donors made ahead (thread_control_block.h) have ended, but the kernel
  // may count one for a moment after it cleared its tid.
  long threads = ThreadCount();
  for (int tries = 0; threads > 1 && tries < kThreadCountTries; ++tries) {
    sched_yield();
    threads = ThreadCount();
  }
  if (threads != 1) {
    Refuse(fd, "static initialisation left ", threads,
           " threads running, and a forked child would have only the one that forks");
  }

  BindLibcSymbolsAhead();
  for (;;) {
    const ssize_t length = recv(fd, request + kOptionsPrefixLength, kMaxRequestBytes, MSG_TRUNC);
    if (length < 0 && errno == EINTR) continue;
    if (length <= 0) _exit(0);  // sim-run closed its end (or is gone)
    if (static_cast<std::size_t>(length) >= kMaxRequestBytes) {
      Refuse(fd, "a request of ", length, " bytes, longer than an environment string may be");
    }
    protocol::Request decoded;
    if (!protocol::DecodeRequest(request + kOptionsPrefixLength, static_cast<std::size_t>(length), &decoded)) {
      Refuse(fd, "a malformed request (no stderr path)");
    }
    const char* stderr_path = decoded.stderr_path;

    // _Fork, not fork: the atfork handlers a program registered are for its
    // own forks; a spawned process never runs them at start-up.
    const pid_t server = getpid();
    const pid_t child = _Fork();
    if (child == 0) {
      BecomeSeedProcess(fd, server, options_slot, stderr_path);
      errno = saved_errno;
      return;
    }
    if (child < 0) Refuse(fd, "fork failed with errno ", errno);
    setpgid(child, child);  // also done by the child; whichever runs first wins the race with a kill
    Send(fd, protocol::EncodeStarted(static_cast<long>(child)));
    int status = 0;
    while (waitpid(child, &status, 0) < 0 && errno == EINTR) {
    }
    Send(fd, protocol::EncodeEnded(static_cast<long>(child), static_cast<long>(status)));
  }
}

}  // namespace sim::internal

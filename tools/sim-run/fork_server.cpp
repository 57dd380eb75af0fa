// fork_server.cpp: starting a fork server, talking to it, and telling how
// it ended (see fork_server.h).
#include "fork_server.h"

#include <elf.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string_view>

#include "common/fork_server_protocol.h"

namespace simrun {
namespace {

namespace protocol = sim::common::fork_server_protocol;

template <typename T>
bool ReadAt(std::ifstream& file, std::uint64_t offset, T* into, std::size_t count = 1) {
  file.seekg(static_cast<std::streamoff>(offset));
  return static_cast<bool>(file.read(reinterpret_cast<char*>(into), static_cast<std::streamsize>(sizeof(T) * count)));
}

std::string DescribeWaitStatus(int status) {
  if (WIFSIGNALED(status)) {
    const char* abbrev = sigabbrev_np(WTERMSIG(status));
    return std::string("was killed by ") + (abbrev ? std::string("SIG") + abbrev : std::to_string(WTERMSIG(status)));
  }
  if (WIFEXITED(status)) return "exited with status " + std::to_string(WEXITSTATUS(status));
  return "ended (wait status " + std::to_string(status) + ")";
}

}  // namespace

bool SpeaksForkServerProtocol(const std::string& program) {
  std::ifstream file(program, std::ios::binary);
  Elf64_Ehdr header;
  if (!file || !ReadAt(file, 0, &header)) return false;
  if (std::memcmp(header.e_ident, ELFMAG, SELFMAG) != 0 || header.e_ident[EI_CLASS] != ELFCLASS64 ||
      header.e_shentsize != sizeof(Elf64_Shdr) || header.e_shoff == 0 || header.e_shnum == 0 ||
      header.e_shstrndx >= header.e_shnum) {
    return false;
  }
  std::vector<Elf64_Shdr> sections(header.e_shnum);
  if (!ReadAt(file, header.e_shoff, sections.data(), sections.size())) return false;
  const Elf64_Shdr& names = sections[header.e_shstrndx];
  if (names.sh_size > (1 << 20)) return false;
  std::string text(names.sh_size, '\0');
  if (!ReadAt(file, names.sh_offset, text.data(), text.size())) return false;
  for (const Elf64_Shdr& section : sections) {
    if (section.sh_name < text.size() && std::string_view(text.c_str() + section.sh_name) == protocol::kMarkerSection) {
      return true;
    }
  }
  return false;
}

std::unique_ptr<ForkServer> ForkServer::Start(const LaunchSpec& spec, unsigned index, std::string* error) {
  int ends[2];
  if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, ends) != 0) {
    *error = std::string("socketpair: ") + std::strerror(errno);
    return nullptr;
  }
  // The server's end becomes its fd 3; posix_spawn's dup2 must not be a
  // no-op on an fd that is already 3 (it would keep close-on-exec).
  const int server_end = fcntl(ends[1], F_DUPFD_CLOEXEC, 10);
  close(ends[1]);
  if (server_end < 0) {
    *error = std::string("fcntl: ") + std::strerror(errno);
    close(ends[0]);
    return nullptr;
  }
  const std::string stderr_path = spec.scratch_dir + "/server-" + std::to_string(index) + ".stderr";
  const pid_t pid = SpawnProgram(spec, protocol::ServerOptions(3), stderr_path, server_end);
  const int spawn_errno = errno;
  close(server_end);
  if (pid < 0) {
    *error = std::string("cannot start ") + spec.program_path + ": " + std::strerror(spawn_errno);
    close(ends[0]);
    return nullptr;
  }
  return std::unique_ptr<ForkServer>(new ForkServer(pid, ends[0]));
}

ForkServer::~ForkServer() {
  close(socket_fd_);
  if (!wait_status_) {
    kill(pid_, SIGKILL);
    int status = 0;
    while (waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
    }
  }
}

bool ForkServer::Submit(const LaunchSpec& spec, std::uint64_t seed, std::uint64_t pct_choice_points) {
  if (gone_) return false;
  const std::string request =
      protocol::EncodeRequest(ChildOptions(spec, seed, pct_choice_points), StderrPath(spec, seed));
  if (send(socket_fd_, request.data(), request.size(), MSG_NOSIGNAL) != static_cast<ssize_t>(request.size())) {
    const int send_errno = errno;
    (void)ReadReplies();  // a server that refused and exited first said why
    if (!refused()) {
      failure_ = "could not be sent seed " + std::to_string(seed) + "'s request (" + std::strerror(send_errno) + ")";
    }
    Kill();
    gone_ = true;
    return false;
  }
  return true;
}

std::vector<ForkServer::Event> ForkServer::ReadReplies() {
  std::vector<Event> events;
  bool reset_seen = false;
  while (!gone_) {
    char reply[512];
    const ssize_t length = recv(socket_fd_, reply, sizeof reply - 1, MSG_DONTWAIT);
    if (length < 0 && errno == EINTR) continue;
    // A server that exits with our request unread resets the connection; the
    // error is reported once, before the replies it sent first (its refusal).
    if (length < 0 && errno == ECONNRESET && !reset_seen) {
      reset_seen = true;
      continue;
    }
    if (length < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) break;
    if (length <= 0) {
      gone_ = true;
      events.push_back({Event::Kind::kGone});
      break;
    }
    reply[length] = '\0';
    const protocol::Reply decoded = protocol::DecodeReply(reply);  // up to a '\0' in it, as a C string
    if (decoded.kind == protocol::Reply::Kind::kStarted) {
      events.push_back({Event::Kind::kStarted, static_cast<pid_t>(decoded.child)});
    } else if (decoded.kind == protocol::Reply::Kind::kEnded) {
      events.push_back({Event::Kind::kEnded, static_cast<pid_t>(decoded.child), static_cast<int>(decoded.wait_status)});
    } else {
      // "refused <reason>" or something this sim-run does not know: either
      // way the server will not serve.
      refusal_ = decoded.kind == protocol::Reply::Kind::kRefused ? std::string(decoded.reason)
                                                                 : std::string("said '") + reply + "'";
      gone_ = true;
      events.push_back({Event::Kind::kGone});
    }
  }
  return events;
}

void ForkServer::Kill() {
  kill(pid_, SIGKILL);
  gone_ = true;
}

std::string ForkServer::DescribeEnd() {
  if (!refusal_.empty()) return "cannot serve: " + refusal_;
  if (!failure_.empty()) return failure_;
  // A server that closed its socket is on its way out; one that is not gone
  // within a second is stopped, so that sim-run never waits on it.
  for (int tries = 0; !wait_status_ && tries < 1000; ++tries) {
    int status = 0;
    const pid_t reaped = waitpid(pid_, &status, WNOHANG);
    if (reaped == pid_) wait_status_ = status;
    if (reaped < 0 && errno != EINTR) return "closed its socket";
    if (!wait_status_) usleep(1000);
  }
  if (!wait_status_) {
    kill(pid_, SIGKILL);
    int status = 0;
    while (waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
    }
    wait_status_ = status;
    return "closed its socket but did not exit (killed)";
  }
  return DescribeWaitStatus(*wait_status_);
}

}  // namespace simrun

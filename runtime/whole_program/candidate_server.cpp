// candidate_server.cpp: see candidate_server.h.
#include "whole_program/candidate_server.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <string>
#include <thread>

#include "common/child_environment.h"
#include "common/fork_server_protocol.h"
#include "core/symbolizer.h"

namespace sim::internal {
namespace {

namespace protocol = sim::common::fork_server_protocol;

void WaitFor(pid_t pid) {
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
}

}  // namespace

CandidateServer::~CandidateServer() { StopServer(); }

bool CandidateServer::Run(const std::string& sim_options, Clock::time_point deadline) {
  return Start(sim_options) && Await(deadline);
}

bool CandidateServer::Start(const std::string& sim_options) {
  started_options_ = sim_options;
  if (EnsureServer()) {
    const std::string request = protocol::EncodeRequest(sim_options, "/dev/null");
    if (send(socket_, request.data(), request.size(), MSG_NOSIGNAL) == static_cast<ssize_t>(request.size())) {
      forked_ = true;
      return true;
    }
    StopServer();
  }
  return StartSpawnedInstead();
}

bool CandidateServer::StartSpawnedInstead() {
  forked_ = false;
  spawn_each_ = true;
  spawned_ = Spawn(started_options_, -1);
  return spawned_ >= 0;
}

bool CandidateServer::Await(Clock::time_point deadline) {
  const Clock::time_point kill_at = deadline + std::chrono::seconds(1);
  if (forked_) {
    forked_ = false;
    return AwaitForked(kill_at);
  }
  if (spawned_ < 0) return false;
  return AwaitSpawned(kill_at);
}

bool CandidateServer::LendsSymbolizer() const {
  return server_ >= 0 && !spawn_each_ ? server_has_symbolizer_ : LentSymbolizerSocket() >= 0;
}

bool CandidateServer::EnsureServer() {
  if (spawn_each_) return false;
  if (server_ >= 0) return true;
  spawn_each_ = true;  // until it is up
  int ends[2];
  if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, ends) != 0) return false;
  // Its end becomes the server's fd 3; posix_spawn's dup2 onto an fd that
  // already is 3 would be a no-op and keep close-on-exec.
  const int server_end = fcntl(ends[1], F_DUPFD_CLOEXEC, 10);
  close(ends[1]);
  if (server_end < 0) {
    close(ends[0]);
    return false;
  }
  const pid_t server = Spawn(protocol::ServerOptions(3), server_end);
  close(server_end);
  if (server < 0) {
    close(ends[0]);
    return false;
  }
  server_ = server;
  socket_ = ends[0];
  server_has_symbolizer_ = LentSymbolizerSocket() >= 0;
  spawn_each_ = false;
  return true;
}

void CandidateServer::StopServer() {
  if (server_ < 0) return;
  close(socket_);  // the server exits when its socket closes
  WaitFor(server_);
  server_ = -1;
  socket_ = -1;
}

bool CandidateServer::AwaitForked(Clock::time_point kill_at) {
  pid_t child = -1;
  bool killed = false;
  for (;;) {
    int timeout_ms = -1;
    if (!killed) {
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(kill_at - Clock::now()).count();
      timeout_ms = static_cast<int>(std::max<long long>(0, std::min<long long>(left, 1000)));
    }
    pollfd readable{socket_, POLLIN, 0};
    const int ready = poll(&readable, 1, timeout_ms);
    if (ready < 0 && errno != EINTR) break;
    if (ready <= 0) {
      if (Clock::now() < kill_at) continue;
      if (child < 0) break;  // not even started: the server goes (below), and the candidate with it
      kill(-child, SIGKILL);
      kill(child, SIGKILL);  // before it has made its own group
      killed = true;
      continue;
    }
    char text[protocol::ReplyText::kCapacity + 1];
    const ssize_t length = recv(socket_, text, sizeof text - 1, 0);
    if (length < 0 && errno == EINTR) continue;
    if (length <= 0) break;
    const protocol::Reply reply = protocol::DecodeReply(std::string_view(text, static_cast<std::size_t>(length)));
    switch (reply.kind) {
      case protocol::Reply::Kind::kStarted: child = static_cast<pid_t>(reply.child); break;
      case protocol::Reply::Kind::kEnded: return !killed;
      case protocol::Reply::Kind::kRefused:
        // This program cannot serve forks (threads after static
        // initialisation): spawn every candidate.
        StopServer();
        return StartSpawnedInstead() && AwaitSpawned(kill_at);
      case protocol::Reply::Kind::kUnknown: break;
    }
  }
  // The server is gone or stuck: its children die with it (PR_SET_PDEATHSIG).
  kill(server_, SIGKILL);
  StopServer();
  spawn_each_ = true;
  return false;
}

bool CandidateServer::AwaitSpawned(Clock::time_point kill_at) {
  const pid_t child = spawned_;
  spawned_ = -1;
  for (;;) {
    int status = 0;
    const pid_t done = waitpid(child, &status, WNOHANG);
    if (done == child) return true;
    if (done < 0 && errno != EINTR) return false;
    if (Clock::now() > kill_at) {
      kill(child, SIGKILL);
      WaitFor(child);
      return false;
    }
    std::this_thread::sleep_for(std::chrono::microseconds(200));
  }
}

pid_t CandidateServer::Spawn(const std::string& sim_options, int fd3) {
  sim::common::ChildEnvironment environment(sim_options);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
  // Lent (core/symbolizer.h); the program's own fds are not near it. First:
  // the symbolizer's socket may be the fd that fd3 then replaces.
  if (const int symbolizer = LentSymbolizerSocket(); symbolizer >= 0 && symbolizer != kLentSymbolizerFd)
    posix_spawn_file_actions_adddup2(&actions, symbolizer, kLentSymbolizerFd);
  if (fd3 >= 0) posix_spawn_file_actions_adddup2(&actions, fd3, 3);
  pid_t child = -1;
  const bool started = posix_spawn(&child, "/proc/self/exe", &actions, nullptr, argv_, environment.envp()) == 0;
  posix_spawn_file_actions_destroy(&actions);
  return started ? child : -1;
}

}  // namespace sim::internal

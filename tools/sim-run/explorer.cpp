// explorer.cpp: the seed loop (see explorer.h).
#include "explorer.h"

#include <poll.h>
#include <signal.h>
#include <sys/signalfd.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>

#include "common/process_notices.h"
#include "distinct_failures.h"

namespace simrun {

std::map<std::uint64_t, Outcome> Explorer::Run(int signals) {
  std::uint64_t next = config_.start;
  const std::uint64_t end = config_.start + config_.seeds;
  for (;;) {
    while (!stopping() && running_.size() < config_.jobs && next < end && MayLaunch(next)) Launch(next++);
    if (running_.empty()) break;
    const bool reaped = ReapEnded();
    const bool replied = ReadServerReplies();
    if (stopping()) DiscardAboveLowestFailure();
    KillTimedOut();
    UpdateStatus();
    if (!reaped && !replied) Wait(signals);
  }
  status_.Clear();
  servers_.clear();
  seeds_run_ = stopping() ? failures_.begin()->first - config_.start + 1 : config_.seeds;
  return std::move(failures_);
}

void Explorer::UpdateStatus() {
  if (spec_.bounded_search.empty()) {
    status_.Update(seeds_finished_, failures_.size());
    return;
  }
  std::ifstream progress(SearchProgressPath(spec_));
  std::uint64_t schedules = 0;
  progress >> schedules;
  status_.UpdateSearch(schedules);
}

void Explorer::KillAll() {
  for (const auto& [seed, child] : running_) {
    if (child.pid > 0) kill(-child.pid, SIGKILL);
  }
  for (const Server& server : servers_) kill(server.process->pid(), SIGKILL);
}

bool Explorer::MayLaunch(std::uint64_t seed) const {
  if (!spec_.learns_pct_choice_points || running_.empty()) return true;
  return pct_estimates_.Ready(seed, running_.begin()->first);
}

void Explorer::Launch(std::uint64_t seed) {
  Running child;
  if (spec_.learns_pct_choice_points) child.pct_choice_points = pct_estimates_.For(seed);
  if (config_.timeout_seconds) {
    child.deadline = Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                        std::chrono::duration<double>(*config_.timeout_seconds));
  }
  if (const int index = IdleServer(); index >= 0) {
    if (servers_[index].process->Submit(spec_, seed, child.pct_choice_points)) {
      child.server = index;
      servers_[index].seed = seed;
      running_[seed] = child;
      return;
    }
    NoteServerGone(index, nullptr);
  }
  child.pid = Spawn(seed, child.pct_choice_points);
  running_[seed] = child;
  by_pid_[child.pid] = seed;
}

pid_t Explorer::Spawn(std::uint64_t seed, std::uint64_t pct_choice_points) {
  const pid_t pid = SpawnSeed(spec_, seed, pct_choice_points);
  if (pid < 0) {
    status_.Clear();
    std::fprintf(stderr, "sim-run: cannot start %s for seed %llu: %s\n", spec_.program_path.c_str(),
                 static_cast<unsigned long long>(seed), std::strerror(errno));
    KillAll();
    std::exit(kExitUsage);
  }
  return pid;
}

int Explorer::IdleServer() {
  if (!fork_servers_) return -1;
  for (std::size_t i = 0; i < servers_.size(); ++i) {
    if (!servers_[i].process->gone() && !servers_[i].seed) return static_cast<int>(i);
  }
  if (servers_.size() >= config_.jobs) return -1;
  std::string error;
  std::unique_ptr<ForkServer> server = ForkServer::Start(spec_, servers_.size(), &error);
  if (!server) {
    status_.Clear();
    std::fprintf(stderr, "sim-run: note: no fork server (%s); spawning a process per seed\n", error.c_str());
    fork_servers_ = false;
    return -1;
  }
  servers_.push_back({std::move(server), std::nullopt});
  return static_cast<int>(servers_.size() - 1);
}

bool Explorer::ReapEnded() {
  bool reaped = false;
  for (;;) {
    int status = 0;
    const pid_t pid = waitpid(-1, &status, WNOHANG);
    if (pid <= 0) break;
    const auto seed_it = by_pid_.find(pid);
    if (seed_it == by_pid_.end()) {
      for (Server& server : servers_) {
        if (server.process->pid() == pid) server.process->SetWaitStatus(status);
      }
      continue;
    }
    reaped = true;
    const std::uint64_t seed = seed_it->second;
    by_pid_.erase(seed_it);
    Finish(seed, status);
  }
  return reaped;
}

bool Explorer::ReadServerReplies() {
  bool ended = false;
  for (std::size_t i = 0; i < servers_.size(); ++i) {
    Server& server = servers_[i];
    if (server.process->gone()) continue;
    for (const ForkServer::Event& event : server.process->ReadReplies()) {
      switch (event.kind) {
        case ForkServer::Event::Kind::kStarted: {
          if (!server.seed) break;
          Running& child = running_.at(*server.seed);
          child.pid = event.child;
          if (child.timed_out || child.discarded) kill(-child.pid, SIGKILL);
          break;
        }
        case ForkServer::Event::Kind::kEnded: {
          if (!server.seed) break;
          const std::uint64_t seed = *server.seed;
          server.seed.reset();
          Finish(seed, event.wait_status);
          ended = true;
          break;
        }
        case ForkServer::Event::Kind::kGone: ended |= ServerGone(i); break;
      }
    }
  }
  return ended;
}

void Explorer::Finish(std::uint64_t seed, int status) {
  const Running child = running_[seed];
  running_.erase(seed);
  ++seeds_finished_;
  // The child's own process is gone; anything it left in its group goes too.
  if (child.pid > 0) kill(-child.pid, SIGKILL);
  if (spec_.learns_pct_choice_points) {
    std::ifstream written(ChoicePointsPath(spec_, seed));
    std::uint64_t choice_points = 0;
    if (written >> choice_points) pct_estimates_.Record(seed, choice_points);
    unlink(ChoicePointsPath(spec_, seed).c_str());
  }
  if (!child.discarded) {
    Outcome outcome = ClassifyExit(spec_, seed, status, child.timed_out, config_.timeout_text);
    outcome.pct_choice_points = child.pct_choice_points;
    RelayProcessNotice(outcome.report);
    if (!spec_.bounded_search.empty()) search_outcome_ = outcome;
    if (!outcome.passed) {
      if (config_.keep_going) SayIfNew(seed, outcome);
      failures_.emplace(seed, std::move(outcome));
    }
  }
  unlink(ReportJsonPath(spec_, seed).c_str());
  unlink(StderrPath(spec_, seed).c_str());
}

void Explorer::SayIfNew(std::uint64_t seed, const Outcome& outcome) {
  if (!findings_said_.insert(FailureKey(outcome)).second) return;
  status_.Clear();
  std::fprintf(stderr, "sim-run: seed %llu failed: %s (new; replay: %s)\n", static_cast<unsigned long long>(seed),
               FailureHeadline(outcome).c_str(), ReplayCommand(spec_, seed, outcome.pct_choice_points).c_str());
}

void Explorer::RelayProcessNotice(const std::string& child_stderr) {
  if (process_notice_relayed_) return;
  const std::size_t start = child_stderr.find(sim::common::kSyscallPerSwitchNotice);
  if (start == std::string::npos) return;
  const std::size_t end = child_stderr.find('\n', start);
  status_.Clear();
  std::fprintf(stderr, "%s\n", child_stderr.substr(start, end == std::string::npos ? end : end - start).c_str());
  process_notice_relayed_ = true;
}

bool Explorer::ServerGone(std::size_t index) {
  Server& server = servers_[index];
  if (!server.seed) {
    NoteServerGone(index, nullptr);
    return false;
  }
  const std::uint64_t seed = *server.seed;
  server.seed.reset();
  Running& child = running_.at(seed);
  if (child.pid > 0) kill(-child.pid, SIGKILL);
  if (child.discarded || child.timed_out) {  // killed (with its server) by us
    Finish(seed, 0);
    return true;
  }
  NoteServerGone(index, &seed);
  child.server = -1;
  child.pid = Spawn(seed, child.pct_choice_points);
  by_pid_[child.pid] = seed;
  return false;
}

void Explorer::NoteServerGone(std::size_t index, const std::uint64_t* seed) {
  ForkServer& server = *servers_[index].process;
  const std::string why = server.DescribeEnd();
  status_.Clear();
  if (server.refused()) {
    if (fork_servers_) {
      std::fprintf(stderr, "sim-run: note: %s %s; spawning a process per seed instead\n", spec_.program_path.c_str(),
                   why.c_str());
    }
    fork_servers_ = false;
  } else {
    std::fprintf(stderr, "sim-run: note: the fork server of %s (pid %d) %s", spec_.program_path.c_str(),
                 static_cast<int>(server.pid()), why.c_str());
    if (seed != nullptr) {
      std::fprintf(stderr, " while it ran seed %llu; that seed runs again in a process of its own",
                   static_cast<unsigned long long>(*seed));
    }
    std::fprintf(stderr, ", and its job spawns a process per seed from now on\n");
  }
}

void Explorer::DiscardAboveLowestFailure() {
  const std::uint64_t lowest = failures_.begin()->first;
  for (auto& [seed, child] : running_) {
    if (seed > lowest && !child.discarded) {
      child.discarded = true;
      if (child.pid > 0) kill(-child.pid, SIGKILL);  // else when its server says it started
    }
  }
}

void Explorer::KillTimedOut() {
  if (!config_.timeout_seconds) return;
  const Clock::time_point now = Clock::now();
  for (auto& [seed, child] : running_) {
    if (!child.timed_out && !child.discarded && now >= child.deadline) {
      child.timed_out = true;
      if (child.pid > 0) {
        kill(-child.pid, SIGKILL);
      } else {
        // Not started yet (its server is still in static initialisation,
        // say): the server goes, and the seed with it.
        servers_[child.server].process->Kill();
      }
    }
  }
}

void Explorer::Wait(int signals) {
  long long wait_ms = status_.active() ? StatusLine::kRedrawEvery.count() : 1000;
  if (config_.timeout_seconds) {
    Clock::time_point earliest = Clock::time_point::max();
    for (const auto& [seed, child] : running_) {
      if (!child.timed_out && !child.discarded) earliest = std::min(earliest, child.deadline);
    }
    if (earliest != Clock::time_point::max()) {
      const auto left = std::max(Clock::duration::zero(), earliest - Clock::now());
      // +1 ms so the deadline has passed when we wake; at most 1 s at a time.
      wait_ms = std::min<long long>(std::chrono::duration_cast<std::chrono::milliseconds>(left).count() + 1, wait_ms);
    }
  }
  std::vector<pollfd> fds{{signals, POLLIN, 0}};
  for (const Server& server : servers_) {
    if (!server.process->gone()) fds.push_back({server.process->socket_fd(), POLLIN, 0});
  }
  if (poll(fds.data(), fds.size(), static_cast<int>(wait_ms)) <= 0 || (fds[0].revents & POLLIN) == 0) return;
  signalfd_siginfo info;
  while (read(signals, &info, sizeof info) == sizeof info) {
    const int signal_number = static_cast<int>(info.ssi_signo);
    if (signal_number == SIGCHLD) continue;
    KillAll();
    std::error_code ignored;
    std::filesystem::remove_all(spec_.scratch_dir, ignored);
    signal(signal_number, SIG_DFL);
    sigset_t just_this;
    sigemptyset(&just_this);
    sigaddset(&just_this, signal_number);
    sigprocmask(SIG_UNBLOCK, &just_this, nullptr);
    raise(signal_number);
    std::_Exit(128 + signal_number);
  }
}

}  // namespace simrun

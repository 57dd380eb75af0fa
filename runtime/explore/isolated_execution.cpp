// isolated_execution.cpp: see isolated_execution.h.
#include "explore/isolated_execution.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <exception>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

#include "core/thread_control_block.h"
#include "core/thread_local_switch.h"
#include "explore/crash_guard.h"
#include "explore/execution_codec.h"
#include "strategy/recording.h"

namespace sim::internal {
namespace {

// A reply: its length, then a tag and the outcome and the recording, or the
// text of an exception that escaped the execution.
constexpr char kOutcomeTag = 'O';
constexpr char kErrorTag = 'E';

bool WriteAll(int fd, std::string_view bytes) {
  while (!bytes.empty()) {
    const ssize_t written = write(fd, bytes.data(), bytes.size());
    if (written < 0 && errno == EINTR) continue;
    if (written <= 0) return false;
    bytes.remove_prefix(static_cast<std::size_t>(written));
  }
  return true;
}

bool ReadExactly(int fd, char* into, std::size_t size) {
  while (size > 0) {
    const ssize_t got = read(fd, into, size);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) return false;
    into += got;
    size -= static_cast<std::size_t>(got);
  }
  return true;
}

bool WriteMessage(int fd, const std::string& message) {
  const std::uint64_t size = message.size();
  return WriteAll(fd, std::string_view(reinterpret_cast<const char*>(&size), sizeof size)) && WriteAll(fd, message);
}

std::optional<std::string> ReadMessage(int fd) {
  std::uint64_t size = 0;
  if (!ReadExactly(fd, reinterpret_cast<char*>(&size), sizeof size)) return std::nullopt;
  std::string message(size, '\0');
  if (!ReadExactly(fd, message.data(), size)) return std::nullopt;
  return message;
}

// Whether a worker may run another execution after this one: a failed
// execution may leave the process unfit, and a passing one that left a
// thread running (a library's, kept for the process) leaves it unfit for
// the next execution.
bool WorkerGoesOn(const Outcome& outcome) {
  return outcome.verdict == Verdict::kPass && outcome.threads_left_running == 0;
}

// Runs one execution in the calling (child) process, as the reply to send.
std::string RunAndEncode(Strategy* learner, const std::function<Outcome(Strategy*)>& run, bool& worker_goes_on) {
  StrategyRecording recording;
  std::optional<RecordingStrategy> recorder;
  if (learner != nullptr) recorder.emplace(*learner, recording, /*keep_choices=*/false);
  std::string message;
  worker_goes_on = false;
  try {
    const Outcome outcome = run(recorder ? &*recorder : nullptr);
    message.push_back(kOutcomeTag);
    EncodeOutcome(outcome, message);
    EncodeStrategyRecording(recording, message);
    worker_goes_on = WorkerGoesOn(outcome);
  } catch (const std::exception& error) {
    message = std::string(1, kErrorTag) + error.what();
  } catch (...) {
    message = std::string(1, kErrorTag) + "an exception that is not a std::exception";
  }
  // What the execution printed reaches its files before the parent goes on
  // (the parent flushed its own buffers before the fork, so nothing is
  // printed twice).
  std::fflush(nullptr);
  return message;
}

// An execution whose process ended without saying how: it called exit or
// _exit itself, or a signal the crash guard does not catch killed it.
Outcome EndedWithoutOutcome(int status) {
  Outcome outcome;
  outcome.verdict = Verdict::kCrash;
  outcome.process_suspect = true;
  if (WIFSIGNALED(status)) {
    outcome.signal_number = WTERMSIG(status);
    outcome.message = std::string("the execution's process was killed by SIG") + sigabbrev_np(WTERMSIG(status)) +
                      " (isolate=fork runs executions in processes of their own; a report it wrote before it "
                      "died is above)";
  } else {
    outcome.message = "the execution's process exited with status " + std::to_string(WEXITSTATUS(status)) +
                      " before the execution ended (exit or _exit called in it?)";
  }
  return outcome;
}

// The outcome in a reply, after `learner` (if any) learnt from it; nullopt
// for a reply that is not an outcome. Throws the text of an error reply.
std::optional<Outcome> DecodeReply(const std::string& message, Strategy* learner) {
  if (!message.empty() && message[0] == kErrorTag) throw std::runtime_error(message.substr(1));
  std::string_view bytes = message;
  if (bytes.empty() || bytes[0] != kOutcomeTag) return std::nullopt;
  bytes.remove_prefix(1);
  std::optional<Outcome> outcome = DecodeOutcome(bytes);
  std::optional<StrategyRecording> recording = outcome ? DecodeStrategyRecording(bytes) : std::nullopt;
  if (!outcome || !recording) return std::nullopt;
  if (learner != nullptr) TeachStrategy(*learner, *recording);
  return outcome;
}

void MakePipe(int fds[2]) {
  if (pipe2(fds, O_CLOEXEC) != 0) {
    throw std::runtime_error(std::string("isolate=fork: cannot make a pipe: ") + std::strerror(errno));
  }
}

// Forks; in the child, forgets what of the parent cannot be used there.
pid_t ForkChild() {
  std::fflush(nullptr);
  const pid_t child = fork();
  if (child < 0) {
    throw std::runtime_error(std::string("isolate=fork: cannot fork: ") + std::strerror(errno) +
                             "; isolate=none runs every execution in this process");
  }
  if (child == 0) ForgetInheritedDonors();
  return child;
}

int WaitFor(pid_t child) {
  int status = 0;
  while (waitpid(child, &status, 0) < 0 && errno == EINTR) {
  }
  return status;
}

}  // namespace

bool Isolated(const Options& options) { return options.isolate == "fork"; }

void ResolveIsolation(Options& options, const char* automatic) {
  if (options.isolate == "auto") options.isolate = automatic;
  if (options.isolate != "fork" && options.isolate != "none") {
    throw std::invalid_argument("SIM_OPTIONS: option 'isolate' is auto, fork or none, got '" + options.isolate + "'");
  }
}

std::string SeedRequest(std::uint64_t seed) { return std::to_string(seed); }

std::uint64_t SeedOfRequest(std::string_view request) { return std::stoull(std::string(request)); }

ExecutionRunner::ExecutionRunner(const Options& options, Strategy* learner, RunRequest run)
    : options_(options), learner_(learner), run_(std::move(run)) {}

ExecutionRunner::~ExecutionRunner() { EndWorker(); }

Outcome ExecutionRunner::Run(std::string_view request) {
  Outcome outcome = Isolated(options_) ? RunInWorker(request) : run_(learner_, request);
  // Run here, a crash ended the execution from inside a signal handler
  // (crash_guard.h); in a worker, it ended the worker, and this is harmless.
  if (outcome.verdict == Verdict::kCrash) CrashGuard::AfterCrash();
  return outcome;
}

Outcome ExecutionRunner::RunInWorker(std::string_view request) {
  if (worker_ < 0) StartWorker();
  std::optional<std::string> reply;
  if (WriteMessage(requests_, std::string(request))) reply = ReadMessage(replies_);
  std::optional<Outcome> outcome = reply ? DecodeReply(*reply, learner_) : std::nullopt;
  if (outcome && WorkerGoesOn(*outcome)) return std::move(*outcome);
  // The worker has exited (or died): the next request gets a new one.
  close(requests_);
  close(replies_);
  const int status = WaitFor(worker_);
  worker_ = -1;
  return outcome ? std::move(*outcome) : EndedWithoutOutcome(status);
}

void ExecutionRunner::StartWorker() {
  // Chosen here, before the fork, so that a notice the choice says once
  // (a system call per switch) is said by this process, not by every worker.
  ChooseTlsSwitch(options_.tls_switch);
  int requests[2];
  int replies[2];
  MakePipe(requests);
  MakePipe(replies);
  const pid_t child = ForkChild();
  if (child == 0) {
    close(requests[1]);
    close(replies[0]);
    ServeRequests(requests[0], replies[1]);
  }
  close(requests[0]);
  close(replies[1]);
  worker_ = child;
  requests_ = requests[1];
  replies_ = replies[0];
}

void ExecutionRunner::ServeRequests(int requests, int replies) {
  while (const std::optional<std::string> request = ReadMessage(requests)) {
    bool goes_on = false;
    const std::string reply =
        RunAndEncode(learner_, [this, &request](Strategy* deciding) { return run_(deciding, *request); }, goes_on);
    if (!WriteMessage(replies, reply) || !goes_on) break;
  }
  _exit(0);  // no static destructor or atexit handler of the parent's runs again here
}

void ExecutionRunner::EndWorker() {
  if (worker_ < 0) return;
  close(requests_);  // the worker reads the end and exits
  close(replies_);
  WaitFor(worker_);
  worker_ = -1;
}

}  // namespace sim::internal

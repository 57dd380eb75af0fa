// symbolizer.cpp: the process's llvm-symbolizer (symbolizer.h).
#include "core/symbolizer.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace sim::internal {
namespace {

// An answer that takes longer than this is given up (the symbolizer is
// killed): a report must not hang on a broken debug-info file.
constexpr int kAnswerTimeoutMs = 60'000;
// Queries written before their answers are read: few enough that neither
// side's socket buffer can fill while the other waits to write.
constexpr std::size_t kQueriesPerWrite = 64;

// sim-symbolizer first (tools/sim-symbolizer): it answers as llvm-symbolizer
// does and starts in milliseconds, where llvm-symbolizer spends about 0.1 s
// loading libLLVM before its first answer.
std::string FindSymbolizer() {
  if (const char* configured = std::getenv("SIM_SYMBOLIZER")) return configured;
  for (const char* candidate : {SIM_INSTALLED_SYMBOLIZER, SIM_BUILT_SYMBOLIZER, "/usr/bin/llvm-symbolizer-19",
                                "/usr/lib/llvm-19/bin/llvm-symbolizer", "/usr/bin/llvm-symbolizer"}) {
    if (access(candidate, X_OK) == 0) return candidate;
  }
  return "";
}

// The running symbolizer, owned by the process that started it: a forked
// child's copy of these names its parent's, which it must not talk to.
struct SymbolizerProcess {
  pid_t owner = 0;
  pid_t child = -1;
  int socket = -1;  // its stdin and stdout
};
SymbolizerProcess running;
std::unordered_map<std::string, std::string> answered;
// Written by AskAhead to `running`, in order, and not yet answered.
std::vector<std::string> asked_ahead;

void Stop() {
  if (running.socket >= 0) close(running.socket);
  if (running.child > 0 && running.owner == getpid()) {
    kill(running.child, SIGKILL);
    waitpid(running.child, nullptr, 0);
  }
  running = SymbolizerProcess{};
  asked_ahead.clear();
}

bool Start() {
  const std::string symbolizer = FindSymbolizer();
  if (symbolizer.empty()) return false;
  int ends[2];
  if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, ends) != 0) return false;
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, ends[1], 0);
  posix_spawn_file_actions_adddup2(&actions, ends[1], 1);
  // Its complaints (a stripped module) would land in the user's test output.
  posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
  const char* argv[] = {symbolizer.c_str(), "--demangle", "--inlines", "--functions=linkage", nullptr};
  pid_t child;
  // __environ, glibc's reserved name: a user global named `environ` cannot replace it.
  const bool started =
      posix_spawn(&child, symbolizer.c_str(), &actions, nullptr, const_cast<char**>(argv), __environ) == 0;
  posix_spawn_file_actions_destroy(&actions);
  close(ends[1]);
  if (!started) {
    close(ends[0]);
    return false;
  }
  running = {getpid(), child, ends[0]};
  return true;
}

bool SendAll(std::string_view text) {
  while (!text.empty()) {
    // MSG_NOSIGNAL: a symbolizer that died (reaped by the program's own
    // wait()) is an error here, not a SIGPIPE that ends the program.
    const ssize_t sent = send(running.socket, text.data(), text.size(), MSG_NOSIGNAL);
    if (sent <= 0) return false;
    text.remove_prefix(static_cast<std::size_t>(sent));
  }
  return true;
}

// Reads answers until `count` have ended (each at an empty line) and
// appends each to `answers`.
bool ReadAnswers(std::size_t count, std::vector<std::string>& answers) {
  std::string buffer;
  std::size_t answer_start = 0;
  std::size_t scanned = 0;
  while (count > 0) {
    pollfd readable{running.socket, POLLIN, 0};
    if (poll(&readable, 1, kAnswerTimeoutMs) <= 0) return false;
    char chunk[4096];
    const ssize_t n = read(running.socket, chunk, sizeof chunk);
    if (n <= 0) return false;
    buffer.append(chunk, static_cast<std::size_t>(n));
    // An answer is its lines up to and including an empty one.
    for (std::size_t newline; count > 0 && (newline = buffer.find('\n', scanned)) != std::string::npos;) {
      const bool empty_line = newline == scanned;
      scanned = newline + 1;
      if (empty_line) {
        answers.push_back(buffer.substr(answer_start, scanned - answer_start));
        answer_start = scanned;
        --count;
      }
    }
  }
  return true;
}

// This process's own symbolizer, started if none runs; false when none can be.
bool EnsureRunning() {
  if (running.owner == getpid()) return true;
  if (running.socket >= 0) close(running.socket);  // the parent's, inherited by fork
  running = SymbolizerProcess{};
  asked_ahead.clear();  // the parent's too
  return Start();
}

// The queries of `queries` (one or more lines) not answered yet, each with
// its newline.
std::vector<std::string> SplitQueries(const std::string& queries, std::vector<std::string>* all = nullptr) {
  std::vector<std::string> unasked;
  for (std::size_t begin = 0; begin < queries.size();) {
    std::size_t end = queries.find('\n', begin);
    end = end == std::string::npos ? queries.size() : end + 1;
    std::string line = queries.substr(begin, end - begin);
    if (line.back() != '\n') line += '\n';
    begin = end;
    if (!answered.contains(line)) unasked.push_back(line);
    if (all != nullptr) all->push_back(std::move(line));
  }
  return unasked;
}

// The answers to `queries` (lines with their newlines), from the running
// symbolizer, started or restarted as needed; false when none answers.
bool Ask(const std::vector<std::string>& queries, std::vector<std::string>& answers) {
  for (int attempt = 0; attempt < 2; ++attempt) {
    if (!EnsureRunning()) return false;
    answers.clear();
    bool ok = true;
    for (std::size_t first = 0; ok && first < queries.size(); first += kQueriesPerWrite) {
      const std::size_t last = std::min(queries.size(), first + kQueriesPerWrite);
      std::string text;
      for (std::size_t i = first; i < last; ++i) text += queries[i];
      ok = SendAll(text) && ReadAnswers(last - first, answers);
    }
    if (ok) return true;
    Stop();  // died or hung: once more with a new one
  }
  return false;
}

}  // namespace

int LentSymbolizerSocket() { return running.owner == getpid() ? running.socket : -1; }

void UseLentSymbolizer(int fd) {
  if (fcntl(fd, F_SETFD, FD_CLOEXEC) != 0) return;
  running = {getpid(), /*child=*/-1, fd};  // not ours to kill
}

void AskAhead(const std::string& queries) {
  ReadAnswersAskedAhead();
  if (!EnsureRunning()) return;
  std::vector<std::string> unasked = SplitQueries(queries);
  if (unasked.size() > kQueriesAskedAhead) unasked.resize(kQueriesAskedAhead);
  std::string text;
  for (const std::string& line : unasked) text += line;
  // Few enough to fit the socket's buffer: the write does not wait for the
  // symbolizer to read.
  if (!SendAll(text)) {
    Stop();
    return;
  }
  asked_ahead = std::move(unasked);
}

void ReadAnswersAskedAhead() {
  if (asked_ahead.empty()) return;
  std::vector<std::string> answers;
  if (running.owner != getpid() || !ReadAnswers(asked_ahead.size(), answers)) {
    Stop();
    return;
  }
  for (std::size_t i = 0; i < asked_ahead.size(); ++i) answered[asked_ahead[i]] = std::move(answers[i]);
  asked_ahead.clear();
}

std::string Symbolize(const std::string& queries) {
  ReadAnswersAskedAhead();
  std::vector<std::string> lines;
  std::vector<std::string> unasked = SplitQueries(queries, &lines);
  if (!unasked.empty()) {
    std::vector<std::string> answers;
    if (!Ask(unasked, answers)) return "";
    for (std::size_t i = 0; i < unasked.size(); ++i) answered[unasked[i]] = std::move(answers[i]);
  }
  std::string output;
  for (const std::string& line : lines) output += answered[line];
  return output;
}

}  // namespace sim::internal

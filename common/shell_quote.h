// shell_quote.h: a word as a POSIX shell reads it back, for the replay
// commands the runtime prints and the ones sim-run prints, which must look
// alike. Header-only: libsimrt and sim-run share it (common/ holds what
// both sides of the project use, and nothing else).
#ifndef SIM_COMMON_SHELL_QUOTE_H_
#define SIM_COMMON_SHELL_QUOTE_H_

#include <string>
#include <string_view>

namespace sim::common {

// `word` unchanged when every character is safe unquoted, else in single
// quotes (a quote inside becomes '\'').
inline std::string ShellQuote(std::string_view word) {
  constexpr std::string_view kSafe = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./=:,+@%";
  if (!word.empty() && word.find_first_not_of(kSafe) == std::string_view::npos) return std::string(word);
  std::string quoted = "'";
  for (const char c : word) quoted += c == '\'' ? std::string_view("'\\''") : std::string_view(&c, 1);
  return quoted + "'";
}

}  // namespace sim::common

#endif  // SIM_COMMON_SHELL_QUOTE_H_

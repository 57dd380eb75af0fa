// fork_server_protocol.h: the messages between sim-run and a program that
// serves forks (whole-program mode's fork server), written and read in one
// place. Header-only: libsimrt's whole-program side
// (runtime/whole_program/fork_server.cpp) and sim-run
// (tools/sim-run/fork_server.cpp) share it, so that the two cannot drift.
//
// sim-run starts the program with SIM_OPTIONS=fork_server=<fd>, <fd> one end
// of an AF_UNIX SOCK_SEQPACKET pair, only when the executable carries the
// marker section below. Then one datagram per message:
//   sim-run -> server  "<SIM_OPTIONS value>\0<stderr path>"
//   server -> sim-run  "started <pid>"            the child exists, in group <pid>
//                      "ended <pid> <wait status>" the child was reaped
//                      "refused <reason>"         this process cannot serve
// The server exits when sim-run closes its end. What the server does with a
// request is runtime/whole_program/fork_server.h's; what sim-run does with a
// reply is tools/sim-run/fork_server.h's.
//
// The server runs before the program's heap may change (no malloc, no mmap,
// no stdio), so what it uses here allocates nothing: a reply is built in a
// fixed buffer with numbers formatted by hand, and a request is read in
// place. Only sim-run's side (EncodeRequest, ServerOptions) builds strings.
#ifndef SIM_COMMON_FORK_SERVER_PROTOCOL_H_
#define SIM_COMMON_FORK_SERVER_PROTOCOL_H_

#include <charconv>
#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>

// The ELF section whose presence says that a program speaks this protocol
// (sim-run reads section names before starting it as a server), and what it
// holds. Macros because a section attribute and a char array's initialiser
// take only string literals.
#define SIM_FORK_SERVER_MARKER_SECTION ".simthread_fork_server"
#define SIM_FORK_SERVER_MARKER_TEXT "simthread fork server 1"

namespace sim::common::fork_server_protocol {

inline constexpr std::string_view kMarkerSection = SIM_FORK_SERVER_MARKER_SECTION;

// SIM_OPTIONS of a server: exactly "fork_server=<fd>", nothing else in it.
inline constexpr std::string_view kServerOptionKey = "fork_server=";

// A spawned seed's SIM_OPTIONS is one environment string, which the kernel
// caps at MAX_ARG_STRLEN (32 pages); the stderr path is a path.
inline constexpr std::size_t kMaxRequestBytes = 32 * 4096 + 4096;

// SIM_OPTIONS that make the program a server on `socket_fd` (sim-run).
inline std::string ServerOptions(int socket_fd) { return std::string(kServerOptionKey) + std::to_string(socket_fd); }

// The socket of a server whose SIM_OPTIONS value is `sim_options`, or -1 when
// the value is not exactly "fork_server=<fd>" (the program runs as usual).
inline int ServerSocketIn(const char* sim_options) {
  if (sim_options == nullptr || std::strncmp(sim_options, kServerOptionKey.data(), kServerOptionKey.size()) != 0) {
    return -1;
  }
  const char* digits = sim_options + kServerOptionKey.size();
  char* end = nullptr;
  const long socket_fd = std::strtol(digits, &end, 10);
  if (end == digits || *end != '\0' || socket_fd < 0 || socket_fd > 1 << 20) return -1;
  return static_cast<int>(socket_fd);
}

// A request for `sim_options`' seed, its stderr on `stderr_path` (sim-run).
inline std::string EncodeRequest(std::string_view sim_options, std::string_view stderr_path) {
  std::string request(sim_options);
  request += '\0';
  request += stderr_path;
  return request;
}

// A request as the server reads it, pointing into the datagram.
struct Request {
  const char* sim_options = nullptr;
  const char* stderr_path = nullptr;
};

// Reads the request of `length` bytes at `datagram` in place: writes a '\0'
// at datagram[length] (room for it is the caller's), so that both fields
// are C strings in the caller's buffer. False when it has no stderr path.
inline bool DecodeRequest(char* datagram, std::size_t length, Request* request) {
  datagram[length] = '\0';
  const char* options_end = static_cast<const char*>(std::memchr(datagram, '\0', length));
  if (options_end == nullptr) return false;
  request->sim_options = datagram;
  request->stderr_path = options_end + 1;
  return true;
}

inline constexpr std::string_view kStartedWord = "started ";
inline constexpr std::string_view kEndedWord = "ended ";
inline constexpr std::string_view kRefusedWord = "refused ";

// A reply under construction, on the stack: text beyond its capacity is
// dropped.
class ReplyText {
 public:
  static constexpr std::size_t kCapacity = 256;

  explicit ReplyText(std::string_view word) { Append(word); }
  ReplyText& Append(std::string_view text) {
    for (std::size_t i = 0; i < text.size() && length_ < kCapacity; ++i) text_[length_++] = text[i];
    return *this;
  }
  ReplyText& Append(const char* text) { return Append(std::string_view(text)); }
  ReplyText& Append(long number) {
    char digits[24];
    std::size_t count = 0;
    unsigned long magnitude =
        number < 0 ? 0UL - static_cast<unsigned long>(number) : static_cast<unsigned long>(number);
    do {
      digits[count++] = static_cast<char>('0' + magnitude % 10);
      magnitude /= 10;
    } while (magnitude != 0);
    if (number < 0 && length_ < kCapacity) text_[length_++] = '-';
    while (count > 0 && length_ < kCapacity) text_[length_++] = digits[--count];
    return *this;
  }

  const char* data() const { return text_; }
  std::size_t size() const { return length_; }

 private:
  char text_[kCapacity];
  std::size_t length_ = 0;
};

// "started <pid>": the seed's process exists, in a process group of its own.
inline ReplyText EncodeStarted(long child) { return ReplyText(kStartedWord).Append(child); }

// "ended <pid> <wait status>": the server reaped the seed's process.
inline ReplyText EncodeEnded(long child, long wait_status) {
  return ReplyText(kEndedWord).Append(child).Append(" ").Append(wait_status);
}

// "refused <before><number><after>" (no number when it is negative): this
// process cannot serve, and says why.
inline ReplyText EncodeRefused(const char* before, long number = -1, const char* after = "") {
  ReplyText reply(kRefusedWord);
  reply.Append(before);
  if (number >= 0) reply.Append(number);
  return reply.Append(after);
}

// A reply as sim-run reads it.
struct Reply {
  enum class Kind { kStarted, kEnded, kRefused, kUnknown } kind = Kind::kUnknown;
  long child = -1;          // kStarted, kEnded
  long wait_status = 0;     // kEnded
  std::string_view reason;  // kRefused: what follows the word
};

namespace detail {

// A whole number at the start of `text` (after spaces), consumed; false when
// there is none.
inline bool TakeNumber(std::string_view* text, long* number) {
  std::size_t at = 0;
  while (at < text->size() && (*text)[at] == ' ') ++at;
  const char* begin = text->data() + at;
  const char* end = text->data() + text->size();
  const auto [stop, error] = std::from_chars(begin, end, *number);
  if (error != std::errc() || stop == begin) return false;
  text->remove_prefix(static_cast<std::size_t>(stop - text->data()));
  return true;
}

}  // namespace detail

// Reads one reply. A "started" or "ended" without its numbers, or a word this
// protocol does not have, is kUnknown: a server that says it will not serve.
inline Reply DecodeReply(std::string_view text) {
  Reply reply;
  if (text.substr(0, kStartedWord.size()) == kStartedWord) {
    std::string_view rest = text.substr(kStartedWord.size());
    if (detail::TakeNumber(&rest, &reply.child)) reply.kind = Reply::Kind::kStarted;
  } else if (text.substr(0, kEndedWord.size()) == kEndedWord) {
    std::string_view rest = text.substr(kEndedWord.size());
    if (detail::TakeNumber(&rest, &reply.child) && detail::TakeNumber(&rest, &reply.wait_status)) {
      reply.kind = Reply::Kind::kEnded;
    }
  } else if (text.substr(0, kRefusedWord.size()) == kRefusedWord) {
    reply.kind = Reply::Kind::kRefused;
    reply.reason = text.substr(kRefusedWord.size());
  }
  return reply;
}

}  // namespace sim::common::fork_server_protocol

#endif  // SIM_COMMON_FORK_SERVER_PROTOCOL_H_

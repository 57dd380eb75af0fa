// json_string.h: a string as a JSON string literal (RFC 8259), for every
// JSON file the project writes: the runtime's report and timeline, and
// sim-run's --report-json. Header-only: libsimrt and sim-run share it.
#ifndef SIM_COMMON_JSON_STRING_H_
#define SIM_COMMON_JSON_STRING_H_

#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>

namespace sim::common {

// The length of the valid UTF-8 sequence at the start of `text`, or 0.
inline std::size_t Utf8SequenceLength(std::string_view text) {
  const auto byte = [&text](std::size_t i) { return static_cast<unsigned char>(text[i]); };
  const unsigned char lead = byte(0);
  std::size_t length = 0;
  std::uint32_t minimum = 0;
  if (lead >= 0xC2 && lead <= 0xDF) {
    length = 2, minimum = 0x80;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    length = 3, minimum = 0x800;
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    length = 4, minimum = 0x10000;
  } else {
    return 0;
  }
  if (text.size() < length) return 0;
  std::uint32_t code = lead & (0x3F >> (length - 1));
  for (std::size_t i = 1; i < length; ++i) {
    if ((byte(i) & 0xC0) != 0x80) return 0;
    code = (code << 6) | (byte(i) & 0x3F);
  }
  if (code < minimum || code > 0x10FFFF || (code >= 0xD800 && code <= 0xDFFF)) return 0;
  return length;
}

// `value` as a JSON string literal, quotes included: '"', '\\' and control
// characters escaped, valid UTF-8 passed through, and a byte that starts no
// valid sequence (a message may hold any bytes) replaced by U+FFFD.
inline std::string JsonString(std::string_view value) {
  std::string out = "\"";
  for (std::size_t i = 0; i < value.size(); ++i) {
    const char c = value[i];
    if (static_cast<unsigned char>(c) >= 0x80) {
      const std::size_t length = Utf8SequenceLength(value.substr(i));
      if (length == 0) {
        out += "\xEF\xBF\xBD";
      } else {
        out.append(value.substr(i, length));
        i += length - 1;
      }
      continue;
    }
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      case '\b': out += "\\b"; break;
      case '\f': out += "\\f"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) {
          char escaped[8];
          std::snprintf(escaped, sizeof escaped, "\\u%04x", static_cast<unsigned>(static_cast<unsigned char>(c)));
          out += escaped;
        } else {
          out += c;
        }
    }
  }
  return out + "\"";
}

}  // namespace sim::common

#endif  // SIM_COMMON_JSON_STRING_H_

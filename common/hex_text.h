// hex_text.h: any text as one word of hex digits, and back: how a message
// with spaces, colons and newlines travels in SIM_OPTIONS or in a
// space-separated outcome file. "" is "-", so that the word is never empty.
#ifndef SIM_COMMON_HEX_TEXT_H_
#define SIM_COMMON_HEX_TEXT_H_

#include <optional>
#include <string>
#include <string_view>

namespace common {

inline std::string HexText(std::string_view text) {
  if (text.empty()) return "-";
  constexpr char kDigits[] = "0123456789abcdef";
  std::string word;
  word.reserve(text.size() * 2);
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    word += kDigits[byte >> 4];
    word += kDigits[byte & 15];
  }
  return word;
}

// nullopt for a word that HexText did not make.
inline std::optional<std::string> TextOfHex(std::string_view word) {
  if (word == "-") return std::string();
  if (word.empty() || word.size() % 2 != 0) return std::nullopt;
  auto value = [](char digit) -> int {
    if (digit >= '0' && digit <= '9') return digit - '0';
    if (digit >= 'a' && digit <= 'f') return digit - 'a' + 10;
    return -1;
  };
  std::string text;
  for (std::size_t i = 0; i < word.size(); i += 2) {
    const int high = value(word[i]);
    const int low = value(word[i + 1]);
    if (high < 0 || low < 0) return std::nullopt;
    text += static_cast<char>(high * 16 + low);
  }
  return text;
}

}  // namespace common

#endif  // SIM_COMMON_HEX_TEXT_H_

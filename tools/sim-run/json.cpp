// json.cpp: a recursive-descent reader for one JSON object, and string escaping.
#include "json.h"

#include <cstdint>
#include <cstdio>

namespace simrun {
namespace {

class Reader {
 public:
  explicit Reader(std::string_view text) : text_(text) {}

  std::optional<JsonObject> TopLevelObject() {
    JsonObject object;
    SkipSpace();
    if (!Consume('{')) return std::nullopt;
    SkipSpace();
    if (!Consume('}')) {
      do {
        SkipSpace();
        std::string key;
        if (!String(key)) return std::nullopt;
        SkipSpace();
        if (!Consume(':')) return std::nullopt;
        SkipSpace();
        std::string value;
        if (!Value(value, /*depth=*/1)) return std::nullopt;
        object[key] = value;
        SkipSpace();
      } while (Consume(','));
      if (!Consume('}')) return std::nullopt;
    }
    SkipSpace();
    if (pos_ != text_.size()) return std::nullopt;
    return object;
  }

 private:
  static constexpr int kMaxDepth = 64;

  bool Value(std::string& out, int depth) {
    if (depth > kMaxDepth || pos_ >= text_.size()) return false;
    const char c = text_[pos_];
    if (c == '"') return String(out);
    if (c == '{' || c == '[') return Container(depth);
    for (std::string_view literal : {"true", "false", "null"}) {
      if (text_.substr(pos_, literal.size()) == literal) {
        pos_ += literal.size();
        out = literal;
        return true;
      }
    }
    return Number(out);
  }

  // Parses and drops a nested object or array.
  bool Container(int depth) {
    const char close = text_[pos_] == '{' ? '}' : ']';
    const bool is_object = close == '}';
    ++pos_;
    SkipSpace();
    if (Consume(close)) return true;
    do {
      SkipSpace();
      std::string ignored;
      if (is_object) {
        if (!String(ignored)) return false;
        SkipSpace();
        if (!Consume(':')) return false;
        SkipSpace();
      }
      if (!Value(ignored, depth + 1)) return false;
      SkipSpace();
    } while (Consume(','));
    return Consume(close);
  }

  bool Number(std::string& out) {
    const std::size_t start = pos_;
    Consume('-');
    if (!Digits()) return false;
    if (Consume('.') && !Digits()) return false;
    if (Consume('e') || Consume('E')) {
      if (!Consume('+')) Consume('-');
      if (!Digits()) return false;
    }
    out = text_.substr(start, pos_ - start);
    return true;
  }

  bool Digits() {
    const std::size_t start = pos_;
    while (pos_ < text_.size() && text_[pos_] >= '0' && text_[pos_] <= '9') ++pos_;
    return pos_ > start;
  }

  bool String(std::string& out) {
    out.clear();
    if (!Consume('"')) return false;
    while (pos_ < text_.size()) {
      const char c = text_[pos_++];
      if (c == '"') return true;
      if (static_cast<unsigned char>(c) < 0x20) return false;
      if (c != '\\') {
        out += c;
        continue;
      }
      if (pos_ >= text_.size()) return false;
      const char e = text_[pos_++];
      switch (e) {
        case '"': out += '"'; break;
        case '\\': out += '\\'; break;
        case '/': out += '/'; break;
        case 'b': out += '\b'; break;
        case 'f': out += '\f'; break;
        case 'n': out += '\n'; break;
        case 'r': out += '\r'; break;
        case 't': out += '\t'; break;
        case 'u': {
          std::uint32_t code = 0;
          if (!Hex4(code)) return false;
          if (code >= 0xD800 && code < 0xDC00) {  // a surrogate pair
            std::uint32_t low = 0;
            if (!Consume('\\') || !Consume('u') || !Hex4(low) || low < 0xDC00 || low > 0xDFFF) return false;
            code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00);
          }
          AppendUtf8(out, code);
          break;
        }
        default: return false;
      }
    }
    return false;
  }

  bool Hex4(std::uint32_t& code) {
    if (pos_ + 4 > text_.size()) return false;
    for (int i = 0; i < 4; ++i) {
      const char h = text_[pos_++];
      code <<= 4;
      if (h >= '0' && h <= '9')
        code |= h - '0';
      else if (h >= 'a' && h <= 'f')
        code |= h - 'a' + 10;
      else if (h >= 'A' && h <= 'F')
        code |= h - 'A' + 10;
      else
        return false;
    }
    return true;
  }

  static void AppendUtf8(std::string& out, std::uint32_t code) {
    if (code < 0x80) {
      out += static_cast<char>(code);
    } else if (code < 0x800) {
      out += static_cast<char>(0xC0 | (code >> 6));
      out += static_cast<char>(0x80 | (code & 0x3F));
    } else if (code < 0x10000) {
      out += static_cast<char>(0xE0 | (code >> 12));
      out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (code & 0x3F));
    } else {
      out += static_cast<char>(0xF0 | (code >> 18));
      out += static_cast<char>(0x80 | ((code >> 12) & 0x3F));
      out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (code & 0x3F));
    }
  }

  void SkipSpace() {
    while (pos_ < text_.size() &&
           (text_[pos_] == ' ' || text_[pos_] == '\t' || text_[pos_] == '\n' || text_[pos_] == '\r')) {
      ++pos_;
    }
  }

  bool Consume(char c) {
    if (pos_ < text_.size() && text_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }

  std::string_view text_;
  std::size_t pos_ = 0;
};

}  // namespace

std::optional<JsonObject> ParseJsonObject(std::string_view text) { return Reader(text).TopLevelObject(); }

}  // namespace simrun

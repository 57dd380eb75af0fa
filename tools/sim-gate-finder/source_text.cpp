// source_text.cpp: quoting code and positions for reports (source_text.h).
#include "source_text.h"

#include <cctype>

#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

namespace gate_finder {

std::string QuoteStmt(const clang::Stmt* stmt, const clang::ASTContext& context, std::size_t limit) {
  const clang::SourceManager& sources = context.getSourceManager();
  const clang::CharSourceRange range = clang::CharSourceRange::getTokenRange(
      sources.getExpansionRange(stmt->getBeginLoc()).getBegin(), sources.getExpansionRange(stmt->getEndLoc()).getEnd());
  const std::string raw = clang::Lexer::getSourceText(range, sources, context.getLangOpts()).str();
  std::string quoted;
  for (char c : raw) {
    const bool space = std::isspace(static_cast<unsigned char>(c));
    if (space && (quoted.empty() || quoted.back() == ' ')) continue;
    quoted += space ? ' ' : c;
  }
  while (!quoted.empty() && quoted.back() == ' ') quoted.pop_back();
  if (quoted.size() > limit) quoted = quoted.substr(0, limit - 3) + "...";
  return quoted;
}

SourcePoint PointOf(clang::SourceLocation location, const clang::ASTContext& context) {
  const clang::SourceManager& sources = context.getSourceManager();
  const clang::SourceLocation expansion = sources.getExpansionLoc(location);
  SourcePoint point;
  const clang::PresumedLoc presumed = sources.getPresumedLoc(expansion);
  if (presumed.isInvalid()) return point;
  point.file = presumed.getFilename();
  point.line = presumed.getLine();
  point.column = presumed.getColumn();
  point.offset = sources.getFileOffset(expansion);
  return point;
}

std::string SnakeCase(const std::string& name) {
  std::string snake;
  for (std::size_t i = 0; i < name.size(); ++i) {
    const unsigned char c = name[i];
    if (std::isupper(c)) {
      const bool after_lower = i > 0 && (std::islower(static_cast<unsigned char>(name[i - 1])) ||
                                         std::isdigit(static_cast<unsigned char>(name[i - 1])));
      const bool acronym_end = i > 0 && std::isupper(static_cast<unsigned char>(name[i - 1])) && i + 1 < name.size() &&
                               std::islower(static_cast<unsigned char>(name[i + 1]));
      if ((after_lower || acronym_end) && !snake.empty() && snake.back() != '_') snake += '_';
      snake += static_cast<char>(std::tolower(c));
    } else if (std::isalnum(c) || c == '_') {
      snake += static_cast<char>(c);
    } else if (!snake.empty() && snake.back() != '_') {
      snake += '_';
    }
  }
  while (!snake.empty() && snake.back() == '_') snake.pop_back();
  while (!snake.empty() && snake.front() == '_') snake.erase(0, 1);
  return snake;
}

std::string BareMemberName(const std::string& name) {
  std::string bare = name;
  for (const char* prefix : {"m_", "s_", "g_"}) {
    if (bare.rfind(prefix, 0) == 0 && bare.size() > 2) bare = bare.substr(2);
  }
  return SnakeCase(bare);
}

}  // namespace gate_finder

// source_text.h: how the finder quotes code and positions in its reports.
//
// Positions are the expansion locations (where a macro is used, not where it
// is defined), so a report points at the line a user edits.
#ifndef SIM_GATE_FINDER_SOURCE_TEXT_H_
#define SIM_GATE_FINDER_SOURCE_TEXT_H_

#include <string>

#include "clang/AST/ASTContext.h"
#include "clang/AST/Stmt.h"
#include "finding.h"

namespace gate_finder {

// The statement as written, on one line, whitespace runs collapsed, cut to
// `limit` characters with "..." so a report line stays readable.
std::string QuoteStmt(const clang::Stmt* stmt, const clang::ASTContext& context, std::size_t limit = 80);

SourcePoint PointOf(clang::SourceLocation location, const clang::ASTContext& context);

// "DatabaseHandle" -> "database_handle"; "pool_" and "m_pool" -> "pool".
std::string SnakeCase(const std::string& name);
std::string BareMemberName(const std::string& name);

}  // namespace gate_finder

#endif  // SIM_GATE_FINDER_SOURCE_TEXT_H_

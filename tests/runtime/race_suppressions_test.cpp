// TSan's suppressions format as runtime/race/suppressions.h reads it: the
// pattern rules (a substring unless anchored, `*` any run) and the lines
// it takes, skips and refuses.
#include <gtest/gtest.h>

#include "race/suppressions.h"

namespace sim::internal {
namespace {

TEST(SuppressionPatternTest, MatchesAnywhereUnlessAnchored) {
  EXPECT_TRUE(SuppressionPatternMatches("Count", "counting::Count()"));
  EXPECT_FALSE(SuppressionPatternMatches("count", "Counter::Add()")) << "case matters";
  EXPECT_TRUE(SuppressionPatternMatches("^counting::", "counting::Count()"));
  EXPECT_FALSE(SuppressionPatternMatches("^Count", "counting::Count()"));
  EXPECT_TRUE(SuppressionPatternMatches("Count()$", "counting::Count()"));
  EXPECT_FALSE(SuppressionPatternMatches("Count$", "counting::Count()"));
  EXPECT_TRUE(SuppressionPatternMatches("^counting::Count()$", "counting::Count()"));
}

TEST(SuppressionPatternTest, StarMatchesAnyRun) {
  EXPECT_TRUE(SuppressionPatternMatches("src/*/queue.cpp", "/home/u/src/lib/queue.cpp"));
  EXPECT_TRUE(SuppressionPatternMatches("^Queue*Pop$", "Queue<int>::Pop"));
  EXPECT_FALSE(SuppressionPatternMatches("^Queue*Pop$", "Queue<int>::Push"));
  EXPECT_TRUE(SuppressionPatternMatches("a*b*c", "xxaxxbxxcxx"));
  EXPECT_FALSE(SuppressionPatternMatches("a*b*c", "xxaxxcxxbxx"));
}

TEST(RaceSuppressionsTest, TakesRaceLinesAndSkipsCommentsAndOtherTsanTypes) {
  std::string error;
  const RaceSuppressions suppressions = RaceSuppressions::Parse(
      "# a comment\n\n  race:Legacy::Stats  # why: counters only\nrace_top:^third_party/\n"
      "mutex:Anything\ncalled_from_lib:libfoo.so\n",
      error);
  ASSERT_EQ(error, "");
  EXPECT_NE(suppressions.Match("Legacy::Stats::Bump()", "stats.cpp"), nullptr);
  EXPECT_NE(suppressions.Match("", "third_party/zlib/inflate.c"), nullptr) << "by file";
  EXPECT_EQ(suppressions.Match("Anything", "a.cpp"), nullptr) << "a mutex: line suppresses no race";
  EXPECT_EQ(suppressions.Match("libfoo.so", "b.cpp"), nullptr);
}

TEST(RaceSuppressionsTest, RefusesALineNotInTsanFormatNamingIt) {
  for (const char* text : {"race Count\n", "# ok\nraces:Count\n", "race:\n"}) {
    std::string error;
    const RaceSuppressions suppressions = RaceSuppressions::Parse(text, error);
    EXPECT_NE(error.find("is not `type:pattern`"), std::string::npos) << text;
    EXPECT_TRUE(suppressions.empty()) << text;
  }
  std::string error;
  RaceSuppressions::Parse("# ok\nraces:Count\n", error);
  EXPECT_NE(error.find("line 2 ('races:Count')"), std::string::npos) << error;
}

}  // namespace
}  // namespace sim::internal

// A malformed pos or portfolio spec is an error that names the valid forms.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "sim/sim.h"

namespace {

using ::testing::HasSubstr;

std::string ErrorFor(const std::string& strategy) {
  try {
    sim::explore([] {}, {.seeds = 1, .strategy = strategy});
  } catch (const std::invalid_argument& error) {
    return error.what();
  }
  return "(no error)";
}

TEST(StrategySpecErrors, UnknownStrategyNamesPosAndPortfolio) {
  EXPECT_THAT(ErrorFor("pos:3"), HasSubstr("unknown strategy 'pos:3'; valid strategies: random, pct:D (D >= 1), pos,"));
  EXPECT_THAT(ErrorFor("portfolios"), HasSubstr("portfolio or portfolio:S,S,... (each S random, pct:D or pos)"));
}

TEST(StrategySpecErrors, PortfolioMemberThatIsNotSeededIsNamed) {
  const std::string valid = "a portfolio is 'portfolio' (the default, portfolio:random,pct:2,pct:3,pos) or "
                            "portfolio:S,S,... with each S random, pct:D (D >= 1) or pos";
  EXPECT_THAT(ErrorFor("portfolio:random,dfs:2"), HasSubstr("'dfs:2' cannot be a member; " + valid));
  EXPECT_THAT(ErrorFor("portfolio:replay:S1-0"), HasSubstr("'replay:S1-0' cannot be a member"));
  EXPECT_THAT(ErrorFor("portfolio:portfolio"), HasSubstr("'portfolio' cannot be a member"));
  EXPECT_THAT(ErrorFor("portfolio:"), HasSubstr("'' cannot be a member"));
  EXPECT_THAT(ErrorFor("portfolio:random,,pos"), HasSubstr("'' cannot be a member"));
  EXPECT_THAT(ErrorFor("portfolio:random,"), HasSubstr("'' cannot be a member"));
}

TEST(StrategySpecErrors, PortfolioMemberWithABadDepthSaysWhy) {
  EXPECT_THAT(ErrorFor("portfolio:random,pct:0"), HasSubstr("strategy 'pct:0': the depth must be a whole number >= 1"));
}

TEST(StrategySpecErrors, WellFormedSpecsAreAccepted) {
  for (const char* spec : {"pos", "portfolio", "portfolio:pos", "portfolio:random,pct:2,pct:3", "portfolio:pct:1,pos"}) {
    EXPECT_EQ(ErrorFor(spec), "(no error)") << spec;
  }
}

TEST(StrategySpecErrors, SimOptionsKeepsThePortfolioListWhole) {
  setenv("SIM_OPTIONS", "seeds=2:strategy=portfolio:random,pct:2,pos:max_steps=100", 1);
  int executions = 0;
  const auto report = sim::explore([&] { ++executions; });
  unsetenv("SIM_OPTIONS");
  EXPECT_FALSE(report.has_value());
  EXPECT_EQ(executions, 2);
}

}  // namespace

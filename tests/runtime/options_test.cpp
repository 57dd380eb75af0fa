// SIM_OPTIONS: every option is settable, overrides code, and bad input is an
// error naming the key and the valid values.
#include "explore/options.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <stdexcept>

#include "sim/sim.h"

namespace {

using ::testing::HasSubstr;

class OptionsTest : public ::testing::Test {
 protected:
  void TearDown() override { unsetenv("SIM_OPTIONS"); }

  static std::string ErrorFor(const char* options) {
    setenv("SIM_OPTIONS", options, 1);
    try {
      sim::explore([] {});
    } catch (const std::invalid_argument& error) {
      return error.what();
    }
    return "(no error)";
  }
};

TEST_F(OptionsTest, UnknownKeyNamesItAndTheValidKeys) {
  const std::string error = ErrorFor("sedes=10");
  EXPECT_THAT(error, HasSubstr("unknown option 'sedes'"));
  EXPECT_THAT(error, HasSubstr("seeds"));
  EXPECT_THAT(error, HasSubstr("strategy"));
  EXPECT_THAT(error, HasSubstr("help=1"));
}

TEST_F(OptionsTest, BadNumberNamesTheKey) {
  EXPECT_THAT(ErrorFor("seeds=ten"), HasSubstr("option 'seeds' expects a whole number >= 0, got 'ten'"));
  EXPECT_THAT(ErrorFor("max_steps=-1"), HasSubstr("option 'max_steps'"));
}

TEST_F(OptionsTest, BadStrategyListsTheValidOnes) {
  EXPECT_THAT(ErrorFor("strategy=bfs"),
              HasSubstr("valid strategies: random, pct:D (D >= 1), pos, dfs:P (P >= 0), portfolio or "
                        "portfolio:S,S,... (each S random, pct:D or pos), replay:<schedule>"));
  EXPECT_THAT(ErrorFor("strategy=dfs:x"), HasSubstr("the preemption bound must be a whole number >= 0"));
  EXPECT_THAT(ErrorFor("strategy=pct:0"), HasSubstr("the depth must be a whole number >= 1"));
  EXPECT_THAT(ErrorFor("strategy=replay:garbage"), HasSubstr("not a simthread schedule"));
}

TEST_F(OptionsTest, PieceWithoutEqualsIsAnError) {
  EXPECT_THAT(ErrorFor("verbose"), HasSubstr("'verbose' is not key=value"));
}

TEST_F(OptionsTest, EnvironmentOverridesCodeAndSeedMeansOneSeed) {
  setenv("SIM_OPTIONS", "seed=17", 1);
  int executions = 0;
  auto report = sim::explore([&] { ++executions; }, {.first_seed = 0, .seeds = 500});
  EXPECT_FALSE(report.has_value());
  EXPECT_EQ(executions, 1);
}

TEST_F(OptionsTest, SeparatorsAndStrategyWithColon) {
  setenv("SIM_OPTIONS", "seeds=3,strategy=pct:2 max_steps=100", 1);
  int executions = 0;
  sim::explore([&] { ++executions; });
  EXPECT_EQ(executions, 3);
}

TEST_F(OptionsTest, HelpListsEveryOptionWithItsDefaultAndExits) {
  setenv("SIM_OPTIONS", "help=1", 1);
  EXPECT_EXIT(
      sim::explore([] {}), ::testing::ExitedWithCode(0),
      "first_seed.*\n.*seeds.*default 100.*\n.*strategy.*default portfolio:pos,pct:5.*\n.*max_steps.*\n.*stack_size");
}

// Each option's help text whole, at the end of its own row: a fixed buffer
// once cut a long one and ran the next option's row into it (and
// docs/options.md, generated from this text, with it).
TEST_F(OptionsTest, HelpGivesEveryOptionItsWholeTextOnARowOfItsOwn) {
  const std::string help = sim::internal::OptionsHelp();
#define SIM_OPTION(type, name, default_value, text)                                     \
  EXPECT_THAT(help, HasSubstr(std::string("  ") + #name + " ")) << "no row for " #name; \
  EXPECT_THAT(help, HasSubstr(std::string(text) + "\n")) << "the help of " #name " is cut or run on";
#include "sim/options.inc"
#undef SIM_OPTION
}

TEST_F(OptionsTest, TooSmallStackIsAnError) {
  EXPECT_THAT(ErrorFor("stack_size=100"), HasSubstr("'stack_size' must be at least 16384"));
}

// A stack the kernel will not map ends the process as simthread unable to do
// its job (exit 70, common/exit_status.h), naming the fix: not an abort(),
// which inside a world would be reported as a crash of the user's program.
TEST_F(OptionsTest, StackTheKernelWillNotMapEndsTheProcessNamingTheFix) {
  setenv("SIM_OPTIONS", "stack_size=1152921504606846976", 1);  // 2^60 bytes
  EXPECT_EXIT(sim::explore([] {}), ::testing::ExitedWithCode(70),
              "simthread: cannot map a 1152921504606846976-byte fiber stack; lower stack_size in SIM_OPTIONS");
}

}  // namespace

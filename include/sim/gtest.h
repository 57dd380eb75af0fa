// gtest.h: GoogleTest tests whose bodies run under many seeds.
//
//   #include <sim/gtest.h>
//   SIM_TEST(Registry, BuildsTheClientOnce) {     // a TEST whose body runs in a world per seed
//     ServiceRegistry registry(make_client);
//     std::thread a([&] { registry.get_client(); });
//     std::thread b([&] { registry.get_client(); });
//     a.join(); b.join();
//     EXPECT_EQ(registry.build_count(), 1);
//   }
//
// Build with sim-clang++ and link simthread::gtest_main (or
// `sim-clang++ --sim-gtest`), whose main() calls testing::InitGoogleTest,
// sim::init and RUN_ALL_TESTS. A binary not built with sim-clang++ still runs
// its SIM_TESTs, with only synchronisation calls as scheduling points, and
// says so once on stderr.
//
// Seeds are split into chunks, each its own gtest test named
// Suite.Name/seeds_<first>_<last> (value_param "seeds=[first,last+1)"), so
// gtest's sharding (GTEST_TOTAL_SHARDS, GTEST_SHARD_INDEX) spreads seeds over
// processes and machines. A chunk stops at its first failing seed and fails
// once, at the SIM_TEST's line, with the report block
// (docs/report-format.md) and a replay command; the test properties
// sim_seed and sim_replay carry them into --gtest_output=xml.
//
// An EXPECT_* or ASSERT_* that fails in any simulated thread fails the seed.
// ASSERT_* (a fatal failure) ends the execution at once: no later code of
// that execution runs, not even TearDown or destructors. EXPECT_* lets the
// execution finish, then fails the seed with every failed expectation.
//
// Flags (parsed and removed by sim::init; they override SIM_OPTIONS; an
// unknown --sim_* flag exits with status 2; --sim_help lists them):
//   --sim_seeds=N          seeds per SIM_TEST (default 100)
//   --sim_first_seed=K     the first seed (default 0)
//   --sim_chunk=N          seeds per chunk test (default 100)
//   --sim_strategy=S       random | pct:D | pos | dfs:P | portfolio[:S,S,...] | replay:<schedule>
//   --sim_replay=SEED      every selected chunk runs SEED alone, and says how
//                          it ended (verdict, steps, trace hash) even on a pass
//   --sim_schedule=STRING  every selected chunk runs one execution that
//                          follows the schedule STRING
//   --sim_<option>=VALUE   any other SIM_OPTIONS key (--sim_max_steps=...)
// --gtest_repeat=N explores new seeds in every iteration: iteration i runs
// the seeds of each chunk shifted by i * seeds (test names stay those of
// iteration 0).
#ifndef SIM_GTEST_H_
#define SIM_GTEST_H_

#include <gtest/gtest.h>

#include "sim/internal/gtest_internal.h"
#include "sim/sim.h"

namespace sim {

// Applies SIM_OPTIONS, parses and removes the --sim_* flags from argv, and
// registers the chunk tests of every SIM_TEST. Call it once, after
// testing::InitGoogleTest and before RUN_ALL_TESTS (simthread::gtest_main
// does). A malformed option or an unknown --sim_* flag prints what is wrong
// and the valid flags to stderr and exits with status 2; --sim_help prints
// the flags and exits 0. Prints nothing to stdout.
void init(int* argc, char** argv);

}  // namespace sim

// A test whose body runs in a fresh world for every seed.
#define SIM_TEST(suite, name) SIM_INTERNAL_TEST_(suite, name, ::testing::Test)

// SIM_TEST with a fixture. Each execution constructs its own fixture inside
// the world and runs SetUp, the body and TearDown on it, so the fixture's
// members are fresh for every seed. The fixture's SetUp and TearDown must be
// public or protected (as gtest recommends). SetUpTestSuite and
// TearDownTestSuite run once per suite, outside any world.
#define SIM_TEST_F(fixture, name) SIM_INTERNAL_TEST_(fixture, name, fixture)

#endif  // SIM_GTEST_H_

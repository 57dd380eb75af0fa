// gtest_internal.h: what SIM_TEST and SIM_TEST_F expand to. Internal: use
// the macros of sim/gtest.h; names here may change without notice.
//
// A SIM_TEST defines one class derived from its fixture. At static
// initialisation the macro only records the test (RecordSimTest); once
// sim::init has parsed SIM_OPTIONS and the --sim_* flags, it registers one
// gtest test per chunk of seeds through the class's SimRegisterChunk, so
// test names reflect --sim_seeds. gtest constructs that class once per chunk
// and calls its TestBody, which explores the chunk (RunChunk); every
// execution then constructs a fresh object of the same class inside the
// world and runs the fixture's SetUp, the body and TearDown on it
// (SimRunSeed).
#ifndef SIM_INTERNAL_GTEST_INTERNAL_H_
#define SIM_INTERNAL_GTEST_INTERNAL_H_

#include <gtest/gtest.h>

#include <cstdint>

namespace sim::internal {

// The seeds [begin, end) of one chunk test, before the --gtest_repeat offset.
struct SeedChunk {
  std::uint64_t begin = 0;
  std::uint64_t end = 0;
};

struct SimTestRecord;

// Registers one chunk of `record` with gtest under `test_name`; one per
// SIM_TEST, so that testing::RegisterTest sees the fixture's type.
using RegisterChunkFunction = void (*)(const SimTestRecord& record, const SeedChunk& chunk, const char* test_name,
                                       const char* value_param);

// A SIM_TEST as the macro recorded it.
struct SimTestRecord {
  const char* suite;
  const char* name;
  const char* file;
  int line;
  RegisterChunkFunction register_chunk;
};

// Remembers a SIM_TEST until sim::init registers its chunks. Called at
// static initialisation; returns true.
bool RecordSimTest(const char* suite, const char* name, const char* file, int line,
                   RegisterChunkFunction register_chunk);

// The body of a chunk test: explores the chunk's seeds with `run_seed` (the
// fixture's construction, SetUp, the body, TearDown) as each execution's
// body, and reports the first failing seed once, at the SIM_TEST's line.
// Precondition: called from a running gtest test, outside a world.
void RunChunk(const SimTestRecord& record, const SeedChunk& chunk, void (*run_seed)());

}  // namespace sim::internal

#define SIM_INTERNAL_CLASS_NAME_(sim_suite_, sim_name_) sim_suite_##_##sim_name_##_SimTest

// The registered object is a `fixture*`, so a SIM_TEST shares its suite with
// TEST (fixture testing::Test) and a SIM_TEST_F with TEST_F of the same
// fixture, and gtest runs the fixture's SetUpTestSuite once per suite. The
// object gtest constructs for a chunk only drives exploration: its SetUp and
// TearDown are replaced by no-ops, and each seed gets its own object.
#define SIM_INTERNAL_TEST_(sim_suite_, sim_name_, sim_fixture_)                                           \
  static_assert(sizeof(#sim_suite_) > 1, "SIM_TEST: the suite name must not be empty");                   \
  static_assert(sizeof(#sim_name_) > 1, "SIM_TEST: the test name must not be empty");                     \
  class SIM_INTERNAL_CLASS_NAME_(sim_suite_, sim_name_) : public sim_fixture_ {                           \
   public:                                                                                                \
    using SimFixture = sim_fixture_;                                                                      \
    SIM_INTERNAL_CLASS_NAME_(sim_suite_, sim_name_)() = default;                                          \
    static void SimRegisterChunk(const ::sim::internal::SimTestRecord& record,                            \
                                 const ::sim::internal::SeedChunk& chunk, const char* test_name,          \
                                 const char* value_param) {                                               \
      ::testing::RegisterTest(record.suite, test_name, nullptr, value_param, record.file, record.line,    \
                              [record_pointer = &record, chunk]() -> SimFixture* {                        \
                                auto* test = new SIM_INTERNAL_CLASS_NAME_(sim_suite_, sim_name_);         \
                                test->sim_record_ = record_pointer;                                       \
                                test->sim_chunk_ = chunk;                                                 \
                                return test;                                                              \
                              });                                                                         \
    }                                                                                                     \
    static void SimRunSeed() {                                                                            \
      SIM_INTERNAL_CLASS_NAME_(sim_suite_, sim_name_) test;                                               \
      test.SimFixture::SetUp();                                                                           \
      test.SimTestBody();                                                                                 \
      test.SimFixture::TearDown();                                                                        \
    }                                                                                                     \
                                                                                                          \
   private:                                                                                               \
    void SetUp() override {}                                                                              \
    void TearDown() override {}                                                                           \
    void TestBody() override { ::sim::internal::RunChunk(*sim_record_, sim_chunk_, &SimRunSeed); }        \
    void SimTestBody();                                                                                   \
    const ::sim::internal::SimTestRecord* sim_record_ = nullptr;                                          \
    ::sim::internal::SeedChunk sim_chunk_;                                                                \
    static const bool sim_recorded_;                                                                      \
  };                                                                                                      \
  const bool SIM_INTERNAL_CLASS_NAME_(sim_suite_, sim_name_)::sim_recorded_ =                             \
      ::sim::internal::RecordSimTest(#sim_suite_, #sim_name_, __FILE__, __LINE__,                         \
                                     &SIM_INTERNAL_CLASS_NAME_(sim_suite_, sim_name_)::SimRegisterChunk); \
  void SIM_INTERNAL_CLASS_NAME_(sim_suite_, sim_name_)::SimTestBody()

#endif  // SIM_INTERNAL_GTEST_INTERNAL_H_

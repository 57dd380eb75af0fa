// SIM_TESTs for the sweep scripts (ctest runs this binary only through
// them). Sweep.RecordsEachExecution counts its executions per chunk test and,
// when SWEEP_RECORD names a file, writes "<chunk test name> <executions>"
// lines there at exit, so a script can tell which seeds a shard ran.
// SweepRacy.LostUpdate fails in most chunks: a lost update between two
// critical sections.
#include <cstdio>
#include <cstdlib>
#include <map>
#include <mutex>
#include <string>
#include <thread>

#include "sim/gtest.h"

namespace {

std::map<std::string, int> executions_per_chunk;

// Writes the counts outside any world: no file I/O inside an execution.
class WriteRecord : public testing::Environment {
 public:
  void TearDown() override {
    const char* path = std::getenv("SWEEP_RECORD");
    if (path == nullptr) return;
    FILE* file = std::fopen(path, "w");
    if (file == nullptr) return;
    for (const auto& [name, count] : executions_per_chunk) std::fprintf(file, "%s %d\n", name.c_str(), count);
    std::fclose(file);
  }
};
testing::Environment* const write_record = testing::AddGlobalTestEnvironment(new WriteRecord);

SIM_TEST(Sweep, RecordsEachExecution) {
  ++executions_per_chunk[testing::UnitTest::GetInstance()->current_test_info()->name()];
}

SIM_TEST(SweepRacy, LostUpdate) {
  std::mutex mutex;
  int counter = 0;
  auto increment = [&] {
    int seen;
    {
      std::lock_guard guard(mutex);
      seen = counter;
    }
    std::lock_guard guard(mutex);
    counter = seen + 1;
  };
  std::thread first(increment);
  std::thread second(increment);
  first.join();
  second.join();
  EXPECT_EQ(counter, 2);
}

}  // namespace

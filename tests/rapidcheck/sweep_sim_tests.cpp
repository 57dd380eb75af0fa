// SIM_TESTs for the sweep scripts (ctest runs this binary only through
// them). Sweep.RecordsEachExecution, when SWEEP_RECORD names a file, appends
// its chunk test's name there once per execution, so a script can tell which
// seeds a shard ran. Appended by each execution with one write(2) to a file
// opened before any world: the executions run in worker processes
// (isolate=fork), where a count in a variable would die with the worker.
// SweepRacy.LostUpdate fails in most chunks: a lost update between two
// critical sections.
#include <fcntl.h>
#include <unistd.h>

#include <cstdlib>
#include <mutex>
#include <string>
#include <thread>

#include "sim/gtest.h"

namespace {

const int record_fd = [] {
  const char* path = std::getenv("SWEEP_RECORD");
  return path == nullptr ? -1 : open(path, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0644);
}();

SIM_TEST(Sweep, RecordsEachExecution) {
  if (record_fd < 0) return;
  const std::string line = std::string(testing::UnitTest::GetInstance()->current_test_info()->name()) + "\n";
  if (write(record_fd, line.data(), line.size()) != static_cast<ssize_t>(line.size())) std::abort();
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

// append_log_test.cpp: recipe 2 of docs/cookbook.md, the lost append.
//
// Two writers append two entries each; every append that started must be in
// the log. Each write takes a (virtual) second, so one execution covers four
// seconds of simulated time and the 100 seeds of a chunk take milliseconds.
//
//   sim-clang++ --sim-gtest -std=c++20 -O1 -g append_log_test.cpp -o append_log_test
//   sim-clang++ --sim-gtest -std=c++20 -O1 -g -DMUTANT_UNGUARDED append_log_test.cpp -o append_log_unguarded
//   sim-clang++ --sim-gtest -std=c++20 -O1 -g -DMUTANT_SPLIT_LOCK append_log_test.cpp -o append_log_split_lock
#include <chrono>
#include <string>
#include <thread>

#include <sim/gtest.h>

#include "append_log.h"

namespace {

using namespace std::chrono_literals;

SIM_TEST(AppendLog, KeepsEveryAppend) {
  AppendLog log(1s);
  std::thread writers[2];
  for (int w = 0; w < 2; ++w) {
    writers[w] = std::thread([&log, w] {
      for (const char* payload : {"a", "b"}) log.append(std::to_string(w) + payload);
    });
  }
  for (std::thread& writer : writers) writer.join();
  EXPECT_EQ(log.size(), 4u) << "lost " << 4 - log.size() << " of 4 appends";
}

// Without the sleep the window is a few instructions wide; built with
// sim-clang++ every access in it is a scheduling point, and exploration needs
// a preemption inside it.
SIM_TEST(AppendLog, KeepsEveryAppendWhenWritesAreInstant) {
  AppendLog log(0s);
  std::thread first([&log] { log.append("0a"); });
  std::thread second([&log] { log.append("1a"); });
  first.join();
  second.join();
  EXPECT_EQ(log.size(), 2u) << "lost " << 2 - log.size() << " of 2 appends";
}

}  // namespace

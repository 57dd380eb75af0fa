// async_in_a_loop.h: std::async in a loop: each call's shared state is set
// through a std::once_flag of its own, at an address the heap reuses once
// the previous future is gone. Shared by the whole program
// (async_in_a_loop.cpp, under sim-run) and its SIM_TEST
// (tests/gtest/futures_test.cpp).
#ifndef SIM_TESTS_PROGRAMS_ASYNC_IN_A_LOOP_H_
#define SIM_TESTS_PROGRAMS_ASYNC_IN_A_LOOP_H_

#include <future>

namespace async_in_a_loop {

constexpr int kCalls = 30;
constexpr long kExpectedSum = kCalls * (kCalls + 1) / 2;

// The sum of i for i in [1, kCalls], each returned by its own std::async.
inline long SumOfResults() {
  long sum = 0;
  for (int i = 1; i <= kCalls; ++i) {
    std::future<int> result = std::async(std::launch::async, [i] { return i; });
    sum += result.get();
  }
  return sum;
}

}  // namespace async_in_a_loop

#endif  // SIM_TESTS_PROGRAMS_ASYNC_IN_A_LOOP_H_

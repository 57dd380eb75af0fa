// A thread pool of packaged tasks, as a whole program (packaged_task_pool.h
// says what it exercises).
#include <cstdio>

#include "packaged_task_pool.h"

int main() {
  const long sum = packaged_task_pool::SumOfSquares();
  if (sum != packaged_task_pool::kExpectedSum) {
    std::fprintf(stderr, "sum of squares %ld, expected %ld\n", sum, packaged_task_pool::kExpectedSum);
    return 1;
  }
  return 0;
}

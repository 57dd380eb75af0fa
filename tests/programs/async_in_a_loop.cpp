// std::async in a loop, as a whole program (async_in_a_loop.h says what it
// exercises).
#include <cstdio>

#include "async_in_a_loop.h"

int main() {
  const long sum = async_in_a_loop::SumOfResults();
  if (sum != async_in_a_loop::kExpectedSum) {
    std::fprintf(stderr, "sum %ld, expected %ld\n", sum, async_in_a_loop::kExpectedSum);
    return 1;
  }
  return 0;
}

// stack_pool.cpp: guarded mmap stacks for fibers.
#include "core/stack_pool.h"

#include <sys/mman.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#include "core/check.h"

namespace sim::internal {

namespace {
constexpr std::size_t kPageBytes = 4096;
std::size_t RoundUpToPage(std::size_t bytes) { return (bytes + kPageBytes - 1) & ~(kPageBytes - 1); }
}  // namespace

Stack StackPool::Acquire(std::size_t size) {
  size = RoundUpToPage(size);
  for (std::size_t i = 0; i < free_.size(); ++i) {
    if (free_[i].size == size) {
      Stack stack = free_[i];
      free_[i] = free_.back();
      free_.pop_back();
      return stack;
    }
  }
  void* region = mmap(nullptr, size + Stack::kGuardBytes, PROT_READ | PROT_WRITE,
                      MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
  if (region == MAP_FAILED) {
    Die(exit_status::kEnvironment,
        {"cannot map a ", std::to_string(size), "-byte fiber stack; lower stack_size in SIM_OPTIONS"});
  }
  mprotect(region, Stack::kGuardBytes, PROT_NONE);
  return Stack{static_cast<char*>(region) + Stack::kGuardBytes, size};
}

void StackPool::Release(Stack stack) { free_.push_back(stack); }

StackPool& GlobalStackPool() {
  static StackPool pool;
  return pool;
}

}  // namespace sim::internal

// stack_pool.h: fiber stacks, reused across executions.
//
// Each stack is an mmap'd region with a PROT_NONE guard page below it, so an
// overflow faults (and is reported as a crash) instead of corrupting the
// neighbouring stack. Stacks are never unmapped while the process runs: an
// abandoned fiber's stack goes straight back to the pool.
#ifndef SIM_RUNTIME_STACK_POOL_H_
#define SIM_RUNTIME_STACK_POOL_H_

#include <cstddef>
#include <vector>

namespace sim::internal {

struct Stack {
  char* lowest = nullptr;  // first usable byte (just above the guard page)
  std::size_t size = 0;    // usable bytes
  char* top() const { return lowest + size; }
  bool contains(const void* address) const {
    auto* byte = static_cast<const char*>(address);
    return byte >= lowest - kGuardBytes && byte < top();
  }
  static constexpr std::size_t kGuardBytes = 4096;
};

class StackPool {
 public:
  // Returns a stack of exactly `size` usable bytes (rounded up to pages).
  Stack Acquire(std::size_t size);
  void Release(Stack stack);

 private:
  std::vector<Stack> free_;
};

StackPool& GlobalStackPool();

}  // namespace sim::internal

#endif  // SIM_RUNTIME_STACK_POOL_H_

// reused_address.h: for the reused_*_test.cpp tests, which put a new object
// at the address of one that ended, and fail (rather than pass for nothing)
// when the address was not reused.
#ifndef SIM_TESTS_RUNTIME_REUSED_ADDRESS_H_
#define SIM_TESTS_RUNTIME_REUSED_ADDRESS_H_

#include <cstdint>

#include "sim/sim.h"

namespace reused_address {

// Remembers the first object's address, and fails the execution when a
// later object is elsewhere.
class SameAddress {
 public:
  void Expect(const void* object) {
    auto address = reinterpret_cast<std::uintptr_t>(object);
    // Hidden from the optimizer, which may fold a comparison between a new
    // heap block and a freed one to "different".
    asm volatile("" : "+r"(address));
    if (first_ == 0) {
      first_ = address;
    } else if (address != first_) {
      sim::fail("a new object is not at the address of the one before it; the test needs it to be");
    }
  }

 private:
  std::uintptr_t first_ = 0;
};

}  // namespace reused_address

#endif  // SIM_TESTS_RUNTIME_REUSED_ADDRESS_H_

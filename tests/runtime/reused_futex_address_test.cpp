// Futex waiters are queued by address alone, in the kernel as in a world:
// a thread waiting on a word whose memory is then freed stays queued, and a
// wake at that address, on a new object there, wakes it. The world forgets
// every other model of freed memory (reused_*_test.cpp); not this one,
// which would make a program behave differently than on Linux.
#include <gtest/gtest.h>
#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <ctime>
#include <thread>

#include "reused_address.h"
#include "sim/sim.h"

namespace {

using reused_address::SameAddress;

long Futex(std::uint32_t* address, int op, std::uint32_t value, const timespec* timeout = nullptr) {
  return syscall(SYS_futex, address, op, value, timeout, nullptr, 0);
}

TEST(ReusedFutexAddress, WaiterOnAFreedWordIsWokenByAWakeAtItsAddress) {
  // The word clear of the bytes glibc's free list writes into a freed
  // block, in a block of a size nothing else allocates, so that the free
  // list hands it straight back.
  struct Block {
    std::uint32_t padding[8] = {};
    std::uint32_t word = 0;
    char more_padding[700] = {};
  };
  auto report = sim::explore(
      [] {
        auto* first = new Block;
        long waited = -2;
        std::thread waiter([&waited, word = &first->word] {
          const timespec one_second{1, 0};
          waited = Futex(word, FUTEX_WAIT_PRIVATE, 0, &one_second);
        });
        std::this_thread::sleep_for(std::chrono::milliseconds(10));  // the waiter runs until it waits
        SameAddress same;
        same.Expect(first);
        delete first;
        auto* second = new Block;
        same.Expect(second);
        const long woken = Futex(&second->word, FUTEX_WAKE_PRIVATE, 1);
        waiter.join();
        delete second;
        if (woken != 1 || waited != 0) sim::fail("the wake at the freed word's address did not reach its waiter");
      },
      {.seeds = 20});
  EXPECT_FALSE(report.has_value()) << report->render();
}

}  // namespace

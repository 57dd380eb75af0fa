// Every simulated thread has its own errno (it lives in the borrowed TCB):
// set in one thread, preempted, unchanged by another thread's errno.
#include <gtest/gtest.h>

#include <cerrno>
#include <thread>

#include "sim/sim.h"

TEST(PerThreadErrno, EachThreadKeepsItsOwn) {
  auto report = sim::explore(
      [] {
        auto use = [](int mine) {
          for (int round = 0; round < 3; ++round) {
            errno = mine;
            std::this_thread::yield();  // the other thread may run and set its errno
            if (errno != mine) sim::fail("errno changed under a preemption: " + std::to_string(errno));
          }
        };
        errno = 7;
        std::thread a(use, EINTR);
        std::thread b(use, ENOENT);
        a.join();
        b.join();
        if (errno != 7) sim::fail("T0's errno changed");
      },
      {.seeds = 1000});
  EXPECT_FALSE(report.has_value()) << report->render();
}

// A FILE that fopen returns at the address of a closed one starts unlocked,
// as it does natively, even when the closed one was closed while its
// thread held it with flockfile (glibc's lock is recursive, so its owner
// may close it). glibc frees the FILE inside fclose, where the world does
// not see the free; fclose itself tells the world.
#include <gtest/gtest.h>

#include <cstdio>
#include <thread>

#include "reused_address.h"
#include "sim/sim.h"

TEST(ReusedStdioLock, FileOpenedAtTheAddressOfOneClosedWhileLockedIsUnlocked) {
  auto report = sim::explore(
      [] {
        FILE* first = std::fopen("/dev/null", "w");
        flockfile(first);
        std::fputs("first", first);
        reused_address::SameAddress same;
        same.Expect(first);
        std::fclose(first);
        FILE* second = std::fopen("/dev/null", "w");
        same.Expect(second);
        std::thread other([second] {
          flockfile(second);
          std::fputs("second", second);
          funlockfile(second);
        });
        other.join();
        std::fclose(second);
      },
      {.seeds = 20});
  EXPECT_FALSE(report.has_value()) << report->render();
}

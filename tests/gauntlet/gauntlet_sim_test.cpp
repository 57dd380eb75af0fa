// gauntlet_sim_test.cpp: every idiom of idioms.h as a SIM_TEST, and one more
// with gtest's own assertions inside the threads.
#include <csignal>

#include <sim/gtest.h>

#include "idioms.h"

namespace {

struct IgnoreSigpipe {
  IgnoreSigpipe() { std::signal(SIGPIPE, SIG_IGN); }  // syscall_errno writes to a pipe with no reader
} ignore_sigpipe;

SIM_TEST(Gauntlet, StrtolErrno) { EXPECT_TRUE(gauntlet::StrtolErrno()); }
SIM_TEST(Gauntlet, SyscallErrno) { EXPECT_TRUE(gauntlet::SyscallErrno()); }
SIM_TEST(Gauntlet, StrerrorR) { EXPECT_TRUE(gauntlet::StrerrorR()); }
SIM_TEST(Gauntlet, Getline) { EXPECT_TRUE(gauntlet::Getline()); }
SIM_TEST(Gauntlet, Locales) { EXPECT_TRUE(gauntlet::Locales()); }
SIM_TEST(Gauntlet, ThreadLocalCache) { EXPECT_TRUE(gauntlet::ThreadLocalCache()); }
SIM_TEST(Gauntlet, PthreadKeys) { EXPECT_TRUE(gauntlet::PthreadKeys()); }
SIM_TEST(Gauntlet, CoutUnderLock) { EXPECT_TRUE(gauntlet::CoutUnderLock()); }
SIM_TEST(Gauntlet, RandomDevice) { EXPECT_TRUE(gauntlet::RandomDevice()); }

// Assertions in threads: gtest's per-test result is shared by the threads
// and locked inside gtest.
SIM_TEST(Gauntlet, AssertionsInThreads) {
  std::thread a([] { EXPECT_EQ(std::stoi("41") + 1, 42); });
  std::thread b([] { ASSERT_NE(std::string("x"), "y"); });
  a.join();
  b.join();
}

}  // namespace

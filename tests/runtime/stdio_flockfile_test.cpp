// flockfile is a recursive lock per FILE* modelled by the world: two threads
// that hold it across a yield neither hang the world's OS thread (glibc's
// own lock would) nor interleave their output.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>

#include "sim/sim.h"

TEST(StdioFlockfile, TwoThreadsLockStdoutAcrossAYield) {
  auto report = sim::explore(
      [] {
        auto print = [](const char* name) {
          flockfile(stdout);
          std::printf("%s holds stdout\n", name);
          std::this_thread::yield();  // a scheduling point while holding the lock
          funlockfile(stdout);
        };
        std::thread a(print, "T1");
        std::thread b(print, "T2");
        a.join();
        b.join();
      },
      {.seeds = 1000});
  EXPECT_FALSE(report.has_value()) << report->render();
}

TEST(StdioFlockfile, LockedLinesAreNotInterleavedAndTheLockIsRecursive) {
  auto report = sim::explore(
      [] {
        char* buffer = nullptr;
        std::size_t size = 0;
        FILE* stream = open_memstream(&buffer, &size);
        auto write = [stream](char tag) {
          for (int line = 0; line < 2; ++line) {
            flockfile(stream);
            flockfile(stream);  // recursive
            std::fputc(tag, stream);
            std::this_thread::yield();
            if (ftrylockfile(stream) != 0) sim::fail("ftrylockfile failed for the holder");
            std::fputc(tag, stream);
            funlockfile(stream);
            funlockfile(stream);
            std::fputc('\n', stream);
            funlockfile(stream);
          }
        };
        std::thread a(write, 'a');
        std::thread b(write, 'b');
        a.join();
        b.join();
        std::fclose(stream);
        const std::string text(buffer, size);
        std::free(buffer);
        for (std::size_t i = 0; i + 2 < text.size(); i += 3) {
          if (text[i] != text[i + 1] || text[i + 2] != '\n') sim::fail("interleaved output: " + text);
        }
        if (text.size() != 12) sim::fail("lost output: " + text);
      },
      {.seeds = 1000});
  EXPECT_FALSE(report.has_value()) << report->render();
}

TEST(StdioFlockfile, TrylockFailsWhileAnotherThreadHoldsIt) {
  auto report = sim::explore(
      [] {
        bool held = false;
        std::thread holder([&] {
          flockfile(stderr);
          held = true;
          std::this_thread::sleep_for(std::chrono::seconds(1));
          held = false;
          funlockfile(stderr);
        });
        std::thread tester([&] {
          if (ftrylockfile(stderr) == 0) {
            if (held) sim::fail("ftrylockfile succeeded while another thread held the lock");
            funlockfile(stderr);
          }
        });
        holder.join();
        tester.join();
      },
      {.seeds = 1000});
  EXPECT_FALSE(report.has_value()) << report->render();
}

// process.cpp: calls that end or split the process: abort,
// assert, fork. Inside a world each ends the execution with a verdict
// instead of taking the process (or its copy) with it.
#include <assert.h>
#include <signal.h>
#include <unistd.h>

#include <cstdlib>

#include "core/world.h"
#include "interceptors/real_function.h"

using namespace sim::internal;

namespace {
RealFunction<void()> real_abort("abort");
RealFunction<void(const char*, const char*, unsigned, const char*)> real_assert_fail("__assert_fail");
RealFunction<pid_t()> real_fork("fork");

[[noreturn]] void Unsupported(const char* call) {
  World& world = *current_world;
  world.EndExecution(sim::Verdict::kUnsupported,
                     std::string(call) + " called in T" + std::to_string(world.running().id) +
                         ": a world cannot model a second process; move the " + call + " out of the explored code");
}
}  // namespace

extern "C" {

void abort() {
  if (InWorld()) {
    World& world = *current_world;
    world.EndExecution(sim::Verdict::kCrash, "abort() called in T" + std::to_string(world.running().id), SIGABRT);
  }
  real_abort();
  __builtin_unreachable();
}

void __assert_fail(const char* assertion, const char* file, unsigned line, const char* function) {
  if (InWorld()) {
    World& world = *current_world;
    world.EndExecution(sim::Verdict::kCrash,
                       std::string("assertion failed in T") + std::to_string(world.running().id) + ": " + assertion +
                           " (" + file + ":" + std::to_string(line) + " in " + function + ")",
                       SIGABRT);
  }
  real_assert_fail(assertion, file, line, function);
  __builtin_unreachable();
}

pid_t fork() {
  if (InWorld()) Unsupported("fork");
  return real_fork();
}

pid_t vfork() {
  // vfork's child borrows the parent's stack; forwarding through a frame of
  // ours would corrupt it, so it runs as fork.
  if (InWorld()) Unsupported("vfork");
  return real_fork();
}

}  // extern "C"

// The buggy twin of correct.cpp: two consumers drain xenium's lock-free
// michael_scott_queue of jobs, and count what they took in a plain int
// beside it. The queue hands each job to one consumer, but `++taken` is a
// load and a store that the other consumer can interleave, so a count is
// lost. Users write this because the queue is the shared, thread-safe part,
// and a counter "only for statistics" seems too small to need an atomic.
// xenium 0.0.2's generic_epoch_based.hpp uses std::array without including it.
#include <array>

#include <xenium/michael_scott_queue.hpp>
#include <xenium/reclamation/generic_epoch_based.hpp>

#include <cassert>
#include <thread>

namespace {

constexpr int kJobs = 6;

using JobQueue = xenium::michael_scott_queue<
    int, xenium::policy::reclaimer<xenium::reclamation::epoch_based<>>>;

int taken = 0;  // the bug: shared by both consumers, with no synchronisation

void Drain(JobQueue& jobs) {
  int job;
  while (jobs.try_pop(job)) ++taken;
}

}  // namespace

int main() {
  JobQueue jobs;
  for (int job = 0; job < kJobs; ++job) jobs.push(job);
  std::thread first(Drain, std::ref(jobs));
  std::thread second(Drain, std::ref(jobs));
  first.join();
  second.join();
  assert(taken == kJobs && "a taken job went uncounted");
  return 0;
}

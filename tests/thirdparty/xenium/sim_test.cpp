// correct.cpp's body as a SIM_TEST: two producers push numbered jobs into
// xenium's michael_scott_queue (epoch-based reclamation), two consumers pop
// until every job is taken, and each job is taken exactly once.
// xenium 0.0.2's generic_epoch_based.hpp uses std::array without including it.
#include <array>

#include <xenium/michael_scott_queue.hpp>
#include <xenium/reclamation/generic_epoch_based.hpp>

#include <atomic>
#include <thread>
#include <vector>

#include "sim/gtest.h"

namespace {

constexpr int kProducers = 2;
constexpr int kJobsPerProducer = 10;
constexpr int kJobs = kProducers * kJobsPerProducer;

using JobQueue = xenium::michael_scott_queue<
    int, xenium::policy::reclaimer<xenium::reclamation::epoch_based<>>>;

void Produce(JobQueue& jobs, int producer) {
  for (int i = 0; i < kJobsPerProducer; ++i) jobs.push(producer * kJobsPerProducer + i);
}

// Pops until every job has been taken by one consumer or the other; an empty
// queue only means the producers are behind.
void Consume(JobQueue& jobs, std::atomic<int>& taken, std::vector<std::atomic<int>>& times_taken) {
  while (taken.load() < kJobs) {
    int job;
    if (!jobs.try_pop(job)) {
      std::this_thread::yield();
      continue;
    }
    times_taken[job].fetch_add(1);
    taken.fetch_add(1);
  }
}

SIM_TEST(Xenium, EveryJobIsTakenOnce) {
  JobQueue jobs;
  std::atomic<int> taken{0};
  std::vector<std::atomic<int>> times_taken(kJobs);
  std::vector<std::thread> threads;
  for (int i = 0; i < kProducers; ++i) threads.emplace_back(Produce, std::ref(jobs), i);
  for (int i = 0; i < 2; ++i) {
    threads.emplace_back(Consume, std::ref(jobs), std::ref(taken), std::ref(times_taken));
  }
  for (auto& thread : threads) thread.join();
  for (int job = 0; job < kJobs; ++job) EXPECT_EQ(times_taken[job], 1) << "job " << job;
}

}  // namespace

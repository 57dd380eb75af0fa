// xenium's lock-free michael_scott_queue, its nodes reclaimed by epoch-based
// reclamation, used as a work queue: two producers push numbered jobs, two
// consumers pop them until every job is taken, and each job is taken once.
// The consumers count what they took in an atomic; nodes they unlink are
// retired to the reclaimer while the other consumer may still be reading
// them, which is what the epochs protect.
// xenium 0.0.2's generic_epoch_based.hpp uses std::array without including it.
#include <array>

#include <xenium/michael_scott_queue.hpp>
#include <xenium/reclamation/generic_epoch_based.hpp>

#include <atomic>
#include <cstdio>
#include <thread>
#include <vector>

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

}  // namespace

int main() {
  JobQueue jobs;
  std::atomic<int> taken{0};
  std::vector<std::atomic<int>> times_taken(kJobs);
  std::vector<std::thread> threads;
  for (int i = 0; i < kProducers; ++i) threads.emplace_back(Produce, std::ref(jobs), i);
  for (int i = 0; i < 2; ++i) {
    threads.emplace_back(Consume, std::ref(jobs), std::ref(taken), std::ref(times_taken));
  }
  for (auto& thread : threads) thread.join();
  for (int job = 0; job < kJobs; ++job) {
    if (times_taken[job] != 1) {
      std::fprintf(stderr, "job %d taken %d times\n", job, times_taken[job].load());
      return 1;
    }
  }
  return 0;
}

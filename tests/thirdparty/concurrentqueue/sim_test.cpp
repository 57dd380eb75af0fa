// correct.cpp's body as a SIM_TEST: two producers with ProducerTokens and
// two consumers blocked in BlockingConcurrentQueue::wait_dequeue after
// claiming a job on an atomic count; every job is taken exactly once, each
// producer's jobs in order per consumer.
#include <concurrentqueue/blockingconcurrentqueue.h>

#include <atomic>
#include <thread>
#include <vector>

#include "sim/gtest.h"

namespace {

constexpr int kProducers = 2;
constexpr int kConsumers = 2;
constexpr int kJobsPerProducer = 8;

int JobId(int producer, int sequence) { return producer * 100 + sequence; }

SIM_TEST(BlockingConcurrentQueue, EveryJobTakenOnceInProducerOrder) {
  moodycamel::BlockingConcurrentQueue<int> queue;
  std::vector<std::vector<int>> taken_by(kConsumers);
  std::atomic<int> claimed{0};

  std::vector<std::thread> producers;
  for (int producer = 0; producer < kProducers; ++producer) {
    producers.emplace_back([&queue, producer] {
      moodycamel::ProducerToken token(queue);
      for (int sequence = 0; sequence < kJobsPerProducer; ++sequence) {
        queue.enqueue(token, JobId(producer, sequence));
      }
    });
  }
  std::vector<std::thread> consumers;
  for (int consumer = 0; consumer < kConsumers; ++consumer) {
    consumers.emplace_back([&queue, &claimed, &taken = taken_by[consumer]] {
      // A claim below the total is a job that is or will be enqueued, so
      // the wait ends; the order between producers is not promised, so no
      // stop job after them could mark the end.
      while (claimed.fetch_add(1) < kProducers * kJobsPerProducer) {
        int job;
        queue.wait_dequeue(job);
        taken.push_back(job);
      }
    });
  }
  for (auto& producer : producers) producer.join();
  for (auto& consumer : consumers) consumer.join();

  std::vector<int> times_taken(kProducers * 100, 0);
  for (const auto& taken : taken_by) {
    std::vector<int> last_sequence(kProducers, -1);
    for (int job : taken) {
      ++times_taken[job];
      int producer = job / 100, sequence = job % 100;
      EXPECT_GT(sequence, last_sequence[producer]) << "job " << job << " out of order";
      last_sequence[producer] = sequence;
    }
  }
  for (int producer = 0; producer < kProducers; ++producer) {
    for (int sequence = 0; sequence < kJobsPerProducer; ++sequence) {
      EXPECT_EQ(times_taken[JobId(producer, sequence)], 1) << "job " << JobId(producer, sequence);
    }
  }
}

}  // namespace

// Two producers, each with a moodycamel::ProducerToken, push numbered jobs
// into a moodycamel::BlockingConcurrentQueue while two consumers block in
// wait_dequeue (the queue's LightweightSemaphore: a spin, then sem_wait),
// each after claiming one of the jobs on a shared atomic count.
// Checked at the end: every job was taken exactly once, and each consumer
// saw each producer's jobs in the order they were enqueued (the queue's
// per-producer FIFO guarantee).
#include <concurrentqueue/blockingconcurrentqueue.h>

#include <atomic>
#include <cstdio>
#include <thread>
#include <vector>

namespace {

constexpr int kProducers = 2;
constexpr int kConsumers = 2;
constexpr int kJobsPerProducer = 8;

// A job carries its producer in the tens so a consumer can check order.
int JobId(int producer, int sequence) { return producer * 100 + sequence; }

}  // namespace

int main() {
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
      if (sequence <= last_sequence[producer]) {
        std::fprintf(stderr, "job %d taken after job %d of the same producer\n", job,
                     JobId(producer, last_sequence[producer]));
        return 1;
      }
      last_sequence[producer] = sequence;
    }
  }
  for (int producer = 0; producer < kProducers; ++producer) {
    for (int sequence = 0; sequence < kJobsPerProducer; ++sequence) {
      int job = JobId(producer, sequence);
      if (times_taken[job] != 1) {
        std::fprintf(stderr, "job %d taken %d times\n", job, times_taken[job]);
        return 1;
      }
    }
  }
  return 0;
}

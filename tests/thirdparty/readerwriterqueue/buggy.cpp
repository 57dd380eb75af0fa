// Bug: two workers drain one moodycamel::ReaderWriterQueue of print jobs,
// filled up front. The queue is single-consumer: try_dequeue reads the front
// slot and then publishes the new front index, so two consumers between
// those steps both take the same job (and the index moves once). Users
// write it because the queue is "lock-free and thread-safe" and adding a
// second worker to speed up draining looks harmless. Every job must be
// printed exactly once; built without NDEBUG, as here, the queue's own
// ReentrantGuard asserts first, when the second consumer enters
// try_dequeue while the first is inside it.
#include <readerwriterqueue/readerwriterqueue.h>

#include <cstdio>
#include <thread>

namespace {

constexpr int kJobs = 6;

}  // namespace

int main() {
  moodycamel::ReaderWriterQueue<int> print_jobs(kJobs);
  for (int job = 0; job < kJobs; ++job) print_jobs.enqueue(job);

  int times_printed[kJobs] = {};
  auto drain = [&] {
    int job;
    while (print_jobs.try_dequeue(job)) ++times_printed[job];
  };
  std::thread first(drain);
  std::thread second(drain);
  first.join();
  second.join();

  for (int job = 0; job < kJobs; ++job) {
    if (times_printed[job] != 1) {
      std::fprintf(stderr, "job %d printed %d times\n", job, times_printed[job]);
      return 1;
    }
  }
  return 0;
}

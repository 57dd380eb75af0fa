// correct_thread_local: per-thread state in thread_local variables (an int and
// a std::string with a destructor), totals in atomics, and a condition
// variable on which main waits until every worker has reported. Passes under
// every seed: each thread sees only its own thread_local copies.
#include <atomic>
#include <condition_variable>
#include <cstdio>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

constexpr int kWorkers = 3;
constexpr int kItems = 10;

thread_local int items_done = 0;
thread_local std::string journal;

std::atomic<int> total_items{0};
std::atomic<long> total_journal_bytes{0};
std::mutex reported_mutex;
std::condition_variable all_reported;
int reported = 0;
bool mismatch = false;

void worker(int id) {
  for (int i = 0; i < kItems; ++i) {
    ++items_done;
    journal += static_cast<char>('a' + id);
  }
  const bool mine = items_done == kItems && journal == std::string(kItems, static_cast<char>('a' + id));
  total_items.fetch_add(items_done, std::memory_order_relaxed);
  total_journal_bytes.fetch_add(static_cast<long>(journal.size()), std::memory_order_relaxed);
  {
    std::lock_guard<std::mutex> guard(reported_mutex);
    if (!mine) mismatch = true;
    ++reported;
  }
  all_reported.notify_one();
}

int main() {
  std::vector<std::thread> workers;
  for (int id = 0; id < kWorkers; ++id) workers.emplace_back(worker, id);
  {
    std::unique_lock<std::mutex> lock(reported_mutex);
    all_reported.wait(lock, [] { return reported == kWorkers; });
  }
  for (std::thread& thread : workers) thread.join();
  const bool ok = !mismatch && items_done == 0 && journal.empty() && total_items == kWorkers * kItems &&
                  total_journal_bytes == kWorkers * kItems;
  if (!ok) {
    std::fprintf(stderr, "correct_thread_local: per-thread state leaked between threads (total %d)\n",
                 total_items.load());
    return 1;
  }
  return 0;
}

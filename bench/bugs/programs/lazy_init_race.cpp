// lazy_init_race: a database handle builds its connection pool on first use,
// and two request threads ask for it at once.
// Shape: atomicity violation without locks (check-then-act on a plain pointer).
//
// Bug: both callers can see pool_ == nullptr before either stores it, so the
// pool is built twice and the callers hold different pools.
// -DHALF_FIXED: the build is under a mutex, but the check before it is not
// repeated under the mutex, so both callers still build.
// -DFIXED: the check and the build in one critical section.
#include <cstdio>
#include <mutex>
#include <thread>

struct ConnectionPool {
  explicit ConnectionPool(int size) : size(size) {}
  int size;
};

class Database {
 public:
  ~Database() { delete pool_; }

  ConnectionPool* pool() {
#if defined(FIXED)
    std::lock_guard lock(mutex_);
    if (pool_ == nullptr) BuildPool();
#elif defined(HALF_FIXED)
    if (pool_ == nullptr) {
      std::lock_guard lock(mutex_);
      BuildPool();
    }
#else
    if (pool_ == nullptr) BuildPool();
#endif
    return pool_;
  }

  int pools_built() const { return pools_built_; }

 private:
  void BuildPool() {
    ++pools_built_;
    pool_ = new ConnectionPool(4);  // a second build leaks the first pool
  }

  std::mutex mutex_;
  ConnectionPool* pool_ = nullptr;
  int pools_built_ = 0;
};

int main() {
  Database database;
  ConnectionPool* seen_by_first = nullptr;
  ConnectionPool* seen_by_second = nullptr;
  std::thread first([&] { seen_by_first = database.pool(); });
  std::thread second([&] { seen_by_second = database.pool(); });
  first.join();
  second.join();
  if (database.pools_built() != 1 || seen_by_first != seen_by_second) {
    std::fprintf(stderr, "lazy_init_race: the pool was built %d times\n", database.pools_built());
    return 1;
  }
  return 0;
}

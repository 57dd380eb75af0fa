// Bug: a seat map checks for a free seat under an absl::ReaderMutexLock and
// then takes it under a separate absl::MutexLock, because absl::Mutex has
// no reader-to-writer upgrade and the check "only reads". Two buyers can
// both see the last seat free between the two critical sections, and both
// book it: the flight is oversold although every access is locked.
#include <absl/synchronization/mutex.h>

#include <cstdio>
#include <thread>

namespace {

class SeatMap {
 public:
  explicit SeatMap(int free_seats) : free_seats_(free_seats) {}

  bool Book() {
    {
      absl::ReaderMutexLock lock(&mutex_);
      if (free_seats_ == 0) return false;
    }
    absl::MutexLock lock(&mutex_);
    --free_seats_;
    return true;
  }

  int free_seats() {
    absl::ReaderMutexLock lock(&mutex_);
    return free_seats_;
  }

 private:
  absl::Mutex mutex_;
  int free_seats_ ABSL_GUARDED_BY(mutex_);
};

}  // namespace

int main() {
  SeatMap flight(1);
  std::thread first([&] { flight.Book(); });
  std::thread second([&] { flight.Book(); });
  first.join();
  second.join();
  if (flight.free_seats() < 0) {
    std::fprintf(stderr, "oversold: %d free seats\n", flight.free_seats());
    return 1;
  }
  return 0;
}

// refcount_double_delete: a hand-rolled reference count whose release() reads,
// decrements and writes back, then reads the count again to decide whether it
// was the last owner. `volatile` (a common misbelief about thread safety) keeps
// every one of those accesses, and makes none of them atomic. main hands one
// reference to a worker and drops its own: when both decrement before either
// re-reads, both see zero and both delete. glibc then aborts ("double free or
// corruption"): a crash the report has to survive.
//
// An ordinary program: no simthread API.
#include <cstring>
#include <thread>

class Buffer {
 public:
  Buffer() { std::memset(bytes_, 'x', sizeof bytes_); }

  void retain() { refs_ = refs_ + 1; }

  void release() {
    refs_ = refs_ - 1;  // read, decrement, write: not atomic
    if (refs_ == 0) {   // read again: another owner may have decremented too
      delete this;
    }
  }

  char first_byte() const { return bytes_[0]; }

 private:
  // Two kilobytes on each side of the count. Big enough for glibc to skip its
  // per-thread caches (from which a second free by another thread would pass
  // unnoticed), so the second delete is caught; and the count sits where a
  // free chunk keeps no allocator links, so after the first delete it still
  // reads 0.
  char bytes_[2048];
  volatile int refs_ = 1;
  char trailer_[2048] = {};
};

char observed = 0;

int main() {
  Buffer* buffer = new Buffer;  // main's reference
  buffer->retain();             // the worker's
  std::thread worker([buffer] {
    observed = buffer->first_byte();
    buffer->release();
  });
  buffer->release();
  worker.join();
  return 0;
}

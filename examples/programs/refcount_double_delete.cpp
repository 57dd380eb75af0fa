// refcount_double_delete: a hand-rolled reference count whose release() reads,
// decrements and writes back, then reads the count again to decide whether it
// was the last owner. `volatile` (a common misbelief about thread safety) keeps
// every one of those accesses, and makes none of them atomic: when both owners
// decrement before either re-reads, both see zero and both delete. glibc then
// aborts ("free(): double free detected"): a crash the report has to survive.
//
// An ordinary program: no simthread API.
#include <cstdio>
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

 private:
  // The payload comes first, so the count is not where the allocator keeps
  // its free-list links: after the first delete it still reads 0.
  char bytes_[48];
  volatile int refs_ = 1;
};

int main() {
  Buffer* buffer = new Buffer;  // one reference: main's
  buffer->retain();             // one for each worker
  std::thread first([buffer] { buffer->release(); });
  std::thread second([buffer] { buffer->release(); });
  first.join();
  second.join();
  return 0;
}

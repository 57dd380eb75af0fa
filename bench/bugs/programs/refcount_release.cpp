// refcount_release: an intrusive atomic reference count on a shared buffer;
// two owners drop their references at the same time.
// Shape: atomicity violation on atomics (decrement, then a separate load to
// decide who frees): a double free.
//
// Bug: release() decrements and then loads the count; when both owners
// decrement before either loads, both see zero and both free the buffer.
// Freeing returns the buffer to a pool whose free flag is the canary.
// -DFIXED: free when fetch_sub returns 1 (the decrement and the test are
// one atomic step).
#include <atomic>
#include <cstdio>
#include <thread>

struct BufferPool {
  std::atomic<int> frees{0};
  void free_buffer() { frees.fetch_add(1); }
};

class SharedBuffer {
 public:
  SharedBuffer(BufferPool& pool, int refs) : pool_(pool), refs_(refs) {}

  void release() {
#if defined(FIXED)
    if (refs_.fetch_sub(1) == 1) pool_.free_buffer();
#else
    refs_.fetch_sub(1);
    if (refs_.load() == 0) pool_.free_buffer();
#endif
  }

 private:
  BufferPool& pool_;
  std::atomic<int> refs_;
};

int main() {
  BufferPool pool;
  SharedBuffer* buffer = new SharedBuffer(pool, 2);
  std::thread sender([&] { buffer->release(); });
  std::thread logger([&] { buffer->release(); });
  sender.join();
  logger.join();
  delete buffer;
  if (pool.frees.load() != 1) {
    std::fprintf(stderr, "refcount_release: the buffer was freed %d times\n", pool.frees.load());
    return 1;
  }
  return 0;
}

// lazy_registry: a lazily initialised client without a lock. Two threads call
// get_client(); both can see client_ == nullptr before either stores it, and
// the client is built twice (and one copy leaks).
//
// An ordinary program: no simthread API. Build it with sim-clang++ and explore:
//   sim-clang++ -std=c++20 -O1 -g lazy_registry.cpp -o lazy_registry
//   sim-run --seeds 1000 -- ./lazy_registry
#include <cstdio>
#include <thread>

struct Client {
  explicit Client(int id) : id(id) {}
  int id;
};

class ServiceRegistry {
 public:
  Client* get_client() {
    if (client_ == nullptr) {             // check
      Client* client = new Client(next_id_++);  // the window: another caller can pass the check too
      ++build_count_;
      client_ = client;                   // act
    }
    return client_;
  }

  int build_count() const { return build_count_; }

 private:
  Client* client_ = nullptr;
  int build_count_ = 0;
  int next_id_ = 1;
};

int main() {
  ServiceRegistry registry;
  Client* seen_by_first = nullptr;
  Client* seen_by_second = nullptr;
  std::thread first([&] { seen_by_first = registry.get_client(); });
  std::thread second([&] { seen_by_second = registry.get_client(); });
  first.join();
  second.join();
  if (registry.build_count() != 1) {
    std::fprintf(stderr, "lazy_registry: the client was built %d times (expected once)\n", registry.build_count());
    return 1;
  }
  if (seen_by_first != seen_by_second) {
    std::fprintf(stderr, "lazy_registry: the two threads got different clients\n");
    return 1;
  }
  return 0;
}

// service_registry.h: a lazily initialised client, built on first use.
//
// Recipe 1 of docs/cookbook.md. get_client() is a check-then-act: check that
// no client exists, build one, publish it. SIM_GATE("registry.build") names
// the window between the unlocked check and the build; outside simulation it
// costs one predictable branch, inside a world a test can hold it open
// (sim::Gate::hold) or pin it (SIM_OPTIONS=pin=registry.build).
//
// The three-way check runs the same tests against three versions, chosen at
// compile time:
//   (default)                double-checked: check, lock, re-check, build
//   -DMUTANT_NO_LOCK         check, build              (builds twice)
//   -DMUTANT_NO_RECHECK      check, lock, build        (builds twice)
#ifndef COOKBOOK_SERVICE_REGISTRY_H_
#define COOKBOOK_SERVICE_REGISTRY_H_

#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <utility>

#include <sim/sim.h>

struct Client {};

class ServiceRegistry {
 public:
  using BuildClient = std::function<std::unique_ptr<Client>()>;

  explicit ServiceRegistry(BuildClient build_client) : build_client_(std::move(build_client)) {}
  ~ServiceRegistry() { delete client_.load(); }  // a second build, if any, leaks (that is the bug)

  // The client, built by the first caller. Every caller gets the same one.
  Client* get_client() {
    if (Client* client = client_.load(std::memory_order_acquire)) return client;  // check (fast path)
    SIM_GATE("registry.build");  // the window: the check passed, nothing is built yet
#ifndef MUTANT_NO_LOCK
    std::lock_guard lock(mutex_);
#ifndef MUTANT_NO_RECHECK
    // Re-check: another caller may have built it while this one waited for the lock.
    if (Client* client = client_.load(std::memory_order_relaxed)) return client;
#endif
#endif
    Client* client = build_client_().release();
    build_count_.fetch_add(1);
    client_.store(client, std::memory_order_release);  // act
    return client;
  }

  int build_count() const { return build_count_.load(); }

 private:
  BuildClient build_client_;
  std::mutex mutex_;
  std::atomic<Client*> client_{nullptr};
  std::atomic<int> build_count_{0};
};

#endif  // COOKBOOK_SERVICE_REGISTRY_H_

// repository.cpp: the vendored pricing client (see repository.h). Stands in
// for a network call with a 20 ms sleep, which costs nothing in a world.
#include "repository.h"

#include <chrono>
#include <thread>

std::string Repository::fetch(const std::string& sku) {
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  std::lock_guard lock(mutex_);
  ++requests_;
  return sku + "=1999@r" + std::to_string(requests_);
}

int Repository::requests() {
  std::lock_guard lock(mutex_);
  return requests_;
}

// repository.h: a vendored client for a pricing service (third-party code).
//
// Recipe 4 of docs/cookbook.md treats this file and repository.cpp as code
// that cannot be edited: no SIM_GATE may be added here. The recipe makes the
// entry of Repository::fetch a gate at compile time instead:
//   sim-clang++ -fsim-gate=Repository::fetch -c vendor/repository.cpp
#ifndef COOKBOOK_VENDOR_REPOSITORY_H_
#define COOKBOOK_VENDOR_REPOSITORY_H_

#include <mutex>
#include <string>

class Repository {
 public:
  // Fetches the current price of `sku` from the service: one network round
  // trip (20 ms). Every response carries the service's revision counter.
  std::string fetch(const std::string& sku);

  // Round trips made so far (the client's own metrics).
  int requests();

 private:
  std::mutex mutex_;
  int requests_ = 0;
};

#endif  // COOKBOOK_VENDOR_REPOSITORY_H_

// payment_handler_test.cpp: recipe 3 of docs/cookbook.md, duplicate
// deliveries to an idempotent handler.
//
// RedeliveryGetsTheFirstResponse is the example-based test most suites have:
// a duplicate that arrives after the first delivery finished. The
// exists-then-set mutant passes it. DuplicateDeliveriesChargeOnce delivers
// the same message three times at once and checks INV-1 and INV-2 in every
// interleaving the seeds reach; the mutant fails it.
//
//   sim-clang++ --sim-gtest -std=c++20 -O1 -g payment_handler_test.cpp -o payment_handler_test
//   sim-clang++ --sim-gtest -std=c++20 -O1 -g -DMUTANT_EXISTS_THEN_SET payment_handler_test.cpp -o payment_handler_exists_then_set
//   sim-clang++ --sim-gtest -std=c++20 -O1 -g -DMUTANT_NO_REGISTRATION payment_handler_test.cpp -o payment_handler_no_registration
#include <string>
#include <thread>
#include <vector>

#include <sim/gtest.h>

#include "payment_handler.h"

namespace {

constexpr int kDeliveries = 3;

SIM_TEST(PaymentHandler, RedeliveryGetsTheFirstResponse) {
  PaymentHandler handler;
  const std::string first = handler.handle("order-42", 1999);
  const std::string again = handler.handle("order-42", 1999);
  EXPECT_EQ(handler.effects(), 1) << "INV-1: a redelivery charged again";
  EXPECT_EQ(again, first) << "INV-2: the redelivery got a different response";
}

SIM_TEST(PaymentHandler, DuplicateDeliveriesChargeOnce) {
  PaymentHandler handler;
  std::string responses[kDeliveries];
  std::vector<std::thread> deliveries;
  for (int i = 0; i < kDeliveries; ++i) {
    deliveries.emplace_back([&handler, &responses, i] { responses[i] = handler.handle("order-42", 1999); });
  }
  for (std::thread& delivery : deliveries) delivery.join();

  // INV-1: at most one effect, and exactly one because no fault was injected.
  EXPECT_LE(handler.effects(), 1) << "INV-1: " << handler.effects() << " charges for one message";
  EXPECT_EQ(handler.effects(), 1) << "INV-1: no fault was injected, so exactly one charge";
  // INV-2: byte-identical responses.
  for (int i = 1; i < kDeliveries; ++i) {
    EXPECT_EQ(responses[i], responses[0]) << "INV-2: delivery " << i << " got a different response";
  }
}

}  // namespace

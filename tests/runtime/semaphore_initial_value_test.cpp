// A semaphore initialised before explore() starts every execution with its
// initial value: the world reads the value from the sem_t the first time it
// sees it and never writes it back, so no execution inherits another's
// permits.
#include <gtest/gtest.h>

#include <semaphore.h>

#include <cerrno>

#include "sim/sim.h"

TEST(SemaphoreInitialValue, EveryExecutionStartsFromIt) {
  sem_t semaphore;
  sem_init(&semaphore, 0, 1);
  auto report = sim::explore([&] {
    if (sem_trywait(&semaphore) != 0) sim::fail("the initial permit is missing");
    if (sem_trywait(&semaphore) != -1 || errno != EAGAIN) sim::fail("a second permit appeared");
  }, {.seeds = 100});
  EXPECT_FALSE(report.has_value()) << report->render();
  int value = -1;
  sem_getvalue(&semaphore, &value);
  EXPECT_EQ(value, 1);
  sem_destroy(&semaphore);
}

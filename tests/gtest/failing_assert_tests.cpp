// A deliberately failing SIM_TEST whose worker thread fails a C assert():
// a crash of a sound process (abort() by a call, not a fault), which is
// shrunk, diffed and replayed as an EXPECT failure is
// (assert_in_a_thread_is_shrunk.sh). Its own file: assert() must be live
// whatever the build type, before any header includes <assert.h>.
#undef NDEBUG
#include <assert.h>

#include <mutex>
#include <thread>

#include "racy_account.h"
#include "sim/gtest.h"

namespace {

using Account = RacyAccount;

SIM_TEST(FailingAssert, OverdrawnInAThread) {
  Account account;
  auto withdraw = [&] {
    account.Withdraw(80);
    assert(account.balance() >= 0);
  };
  std::thread first(withdraw);
  std::thread second(withdraw);
  first.join();
  second.join();
}

}  // namespace

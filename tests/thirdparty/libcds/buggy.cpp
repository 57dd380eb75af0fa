// Bug: two sign-up handlers register the same customer in a
// cds::container::MichaelHashMap (hazard-pointer GC) with
// `if (!customers.contains(id)) { customers.insert(id, handler); send a
// welcome email; }`, ignoring insert's result because contains() has just
// said the customer is new. Both handlers can pass contains() before either
// inserts; one insert fails, but both send the email. Users write it
// because each call on the map is thread-safe, so the pair looks safe too.
// The welcome queue (a cds::container::MSQueue) must hold each id once.
#include <cds/container/michael_kvlist_hp.h>
#include <cds/container/michael_map.h>
#include <cds/container/msqueue.h>
#include <cds/gc/hp.h>
#include <cds/init.h>

#include <cstdio>
#include <functional>
#include <thread>

namespace {

struct CustomerListTraits : public cds::container::michael_list::traits {
  typedef std::less<int> less;
};
using CustomerList = cds::container::MichaelKVList<cds::gc::HP, int, int, CustomerListTraits>;
struct CustomerMapTraits : public cds::container::michael_map::traits {
  typedef std::hash<int> hash;
};
using Customers = cds::container::MichaelHashMap<cds::gc::HP, CustomerList, CustomerMapTraits>;
using WelcomeEmails = cds::container::MSQueue<cds::gc::HP, int>;

constexpr int kCustomer = 42;

}  // namespace

int main() {
  cds::Initialize();
  int emails_sent = 0;
  {
    cds::gc::HP hazard_pointer_gc;
    cds::threading::Manager::attachThread();
    {
      Customers customers(4, 1);
      WelcomeEmails welcome_emails;

      auto sign_up = [&customers, &welcome_emails](int handler) {
        cds::threading::Manager::attachThread();
        if (!customers.contains(kCustomer)) {
          customers.insert(kCustomer, handler);
          welcome_emails.push(kCustomer);
        }
        cds::threading::Manager::detachThread();
      };
      std::thread first(sign_up, 1);
      std::thread second(sign_up, 2);
      first.join();
      second.join();

      int customer;
      while (welcome_emails.pop(customer)) ++emails_sent;
    }
    cds::threading::Manager::detachThread();
  }
  cds::Terminate();
  if (emails_sent != 1) {
    std::fprintf(stderr, "customer %d got %d welcome emails\n", kCustomer, emails_sent);
    return 1;
  }
  return 0;
}

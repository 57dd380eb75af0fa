// correct.cpp's body as a SIM_TEST: three desks race to insert the same six
// seats into a cds::container::MichaelHashMap and ticket each win on a
// cds::container::MSQueue, both on the hazard-pointer GC; every seat is sold
// once, to the desk the map names. libcds is initialised, and the GC
// built, inside the body: each seed is an execution of its own.
#include <cds/container/michael_kvlist_hp.h>
#include <cds/container/michael_map.h>
#include <cds/container/msqueue.h>
#include <cds/gc/hp.h>
#include <cds/init.h>

#include <functional>
#include <thread>
#include <utility>
#include <vector>

#include "sim/gtest.h"

namespace {

constexpr int kSeats = 6;
constexpr int kDesks = 3;

struct SeatListTraits : public cds::container::michael_list::traits {
  typedef std::less<int> less;
};
using SeatList = cds::container::MichaelKVList<cds::gc::HP, int, int, SeatListTraits>;
struct SeatMapTraits : public cds::container::michael_map::traits {
  typedef std::hash<int> hash;
};
using SeatOwners = cds::container::MichaelHashMap<cds::gc::HP, SeatList, SeatMapTraits>;
using Tickets = cds::container::MSQueue<cds::gc::HP, std::pair<int, int>>;

void ExpectEverySeatSoldOnce(SeatOwners& owners, Tickets& tickets) {
  int tickets_for[kSeats] = {};
  std::pair<int, int> ticket;
  while (tickets.pop(ticket)) {
    auto [seat, desk] = ticket;
    ++tickets_for[seat];
    int owner = -1;
    owners.find(seat, [&owner](SeatOwners::value_type& item) { owner = item.second; });
    EXPECT_EQ(owner, desk) << "seat " << seat;
  }
  for (int seat = 0; seat < kSeats; ++seat) EXPECT_EQ(tickets_for[seat], 1) << "seat " << seat;
}

SIM_TEST(LibcdsHazardPointers, EverySeatSoldOnce) {
  cds::Initialize();
  {
    cds::gc::HP hazard_pointer_gc;
    cds::threading::Manager::attachThread();
    {
      // The containers retire their nodes to the GC as they die, which
      // needs this thread still attached.
      SeatOwners owners(kSeats, 2);
      Tickets tickets;

      std::vector<std::thread> desks;
      for (int desk = 0; desk < kDesks; ++desk) {
        desks.emplace_back([&owners, &tickets, desk] {
          cds::threading::Manager::attachThread();
          // Desks walk the seats from different ends so they collide mid-way.
          for (int step = 0; step < kSeats; ++step) {
            int seat = desk % 2 == 0 ? step : kSeats - 1 - step;
            if (owners.insert(seat, desk)) tickets.push({seat, desk});
          }
          cds::threading::Manager::detachThread();
        });
      }
      for (auto& desk : desks) desk.join();
      ExpectEverySeatSoldOnce(owners, tickets);
    }
    cds::threading::Manager::detachThread();
  }
  cds::Terminate();
}

}  // namespace

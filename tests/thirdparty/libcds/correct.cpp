// Three ticket desks sell the same six seats concurrently: each desk tries
// cds::container::MichaelHashMap::insert(seat, desk) for every seat and,
// when the insert wins, enqueues a ticket (seat, desk) on a
// cds::container::MSQueue; both containers use the hazard-pointer GC
// (cds::gc::HP), so every thread attaches to libcds before it touches them
// and detaches after. Checked at the end: every seat was sold exactly once,
// and the map's owner of each seat is the desk whose ticket names it.
#include <cds/container/michael_kvlist_hp.h>
#include <cds/container/michael_map.h>
#include <cds/container/msqueue.h>
#include <cds/gc/hp.h>
#include <cds/init.h>

#include <cstdio>
#include <functional>
#include <thread>
#include <utility>
#include <vector>

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

// Sold tickets and seat owners are checked against each other in main.
int CheckSales(SeatOwners& owners, Tickets& tickets) {
  int tickets_for[kSeats] = {};
  std::pair<int, int> ticket;
  while (tickets.pop(ticket)) {
    auto [seat, desk] = ticket;
    ++tickets_for[seat];
    int owner = -1;
    owners.find(seat, [&owner](SeatOwners::value_type& item) { owner = item.second; });
    if (owner != desk) {
      std::fprintf(stderr, "seat %d ticketed by desk %d but owned by desk %d\n", seat, desk, owner);
      return 1;
    }
  }
  for (int seat = 0; seat < kSeats; ++seat) {
    if (tickets_for[seat] != 1) {
      std::fprintf(stderr, "seat %d sold %d times\n", seat, tickets_for[seat]);
      return 1;
    }
  }
  return 0;
}

}  // namespace

int main() {
  cds::Initialize();
  int status;
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
      status = CheckSales(owners, tickets);
    }
    cds::threading::Manager::detachThread();
  }
  cds::Terminate();
  return status;
}

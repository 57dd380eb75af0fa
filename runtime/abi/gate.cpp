// gate.cpp: named gates (SIM_GATE, sim::gate, -fsim-gate function gates) and
// sim::Gate, inside worlds and on real threads.
//
// Inside a world a gate is a scheduling point; a held gate parks arrivals
// (a Wait that a release satisfies), await_arrivals blocks until enough
// arrived (so an arrival that can never happen is a deadlock, not a hang),
// and the pin option parks every arrival until nothing else can run. Gate
// state is per world, keyed by the gate's interned name.
//
// On real threads (a test without a world) the same calls work with a
// process-wide mutex and condition variable; while any gate is held there,
// __sim_world_active stays set so instrumented code takes the slow path to
// __sim_gate (the hooks return at once for non-simulated threads).
#include <condition_variable>
#include <map>
#include <mutex>
#include <stdexcept>
#include <string>
#include <unordered_set>

#include "core/world.h"
#include "sim/sim.h"

using namespace sim::internal;

namespace {

// Names are interned so that a gate's per-world model has a stable address
// key however many string literals spell it.
const std::string* Intern(std::string_view name) {
  static std::unordered_set<std::string> names;  // guarded by worlds being single-threaded, or real_gates.mutex
  return &*names.emplace(name).first;
}

struct GateModel final : SyncModel {
  const std::string* name = nullptr;
  bool held = false;
  std::size_t arrivals = 0;
  std::size_t awaited = 0;
};

GateModel& GateIn(World& world, const std::string* name) {
  GateModel& gate = world.ModelOf<GateModel>(name, [] { return std::make_unique<GateModel>(); });
  gate.name = name;
  return gate;
}

bool GateReleased(const void* model) { return !static_cast<const GateModel*>(model)->held; }
bool EnoughArrivals(const void* model) {
  const auto& gate = *static_cast<const GateModel*>(model);
  return gate.arrivals >= gate.awaited;
}
std::string ArrivalsSoFar(const void* model) {
  const auto& gate = *static_cast<const GateModel*>(model);
  return std::to_string(gate.arrivals) + " of " + std::to_string(gate.awaited) + " arrived at gate '" + *gate.name +
         "'";
}
std::string HeldBy(const void* model) { return "gate '" + *static_cast<const GateModel*>(model)->name + "' is held"; }
std::string PinnedAt(const void* model) {
  return "pinned at gate '" + *static_cast<const GateModel*>(model)->name + "' until nothing else can run";
}

void ArriveInWorld(World& world, const char* name, const Site& site) {
  const std::string* interned = Intern(name);
  world.SchedulingPoint(EventKind::kGate, interned, site);
  GateModel& gate = GateIn(world, interned);
  ++gate.arrivals;
  world.ReadinessMayHaveChanged();
  if (world.options().pin == *interned) {
    const Wait pinned{
        .description = "arrive at gate",
        .object = interned,
        .model = &gate,
        .blocker = PinnedAt,
        .released_when_idle = true,
    };
    world.Block(pinned);
  }
  while (gate.held) {
    const Wait parked{
        .description = "arrive at gate",
        .object = interned,
        .ready = GateReleased,
        .model = &gate,
        .blocker = HeldBy,
    };
    world.Block(parked);
  }
}

// Gates held on real threads, outside any world.
struct RealGates {
  std::mutex mutex;
  std::condition_variable changed;
  struct State {
    bool held = false;
    std::size_t arrivals = 0;
  };
  std::map<std::string, State, std::less<>> gates;
};
RealGates& Real() {
  static RealGates real;
  return real;
}
int real_gates_held = 0;  // guarded by Real().mutex

void ArriveOnRealThread(const char* name) {
  RealGates& real = Real();
  std::unique_lock lock(real.mutex);
  auto it = real.gates.find(std::string_view(name));
  if (it == real.gates.end()) return;
  ++it->second.arrivals;
  real.changed.notify_all();
  real.changed.wait(lock, [&] { return !it->second.held; });
}

}  // namespace

namespace sim::internal {

void RefreshSlowPathFlag() { __sim_world_active = current_world != nullptr || real_gates_held > 0; }

}  // namespace sim::internal

extern "C" void __sim_gate(const char* name, const __sim_site* source) {
  if (InWorld()) {
    Site site;
    site.source = source;
    ArriveInWorld(*current_world, name, site);
  } else if (current_world == nullptr) {
    ArriveOnRealThread(name);
  }
}

namespace sim {

void gate(const char* name) {
  if (InWorld()) {
    World& world = *current_world;
    ArriveInWorld(world, name, world.CallerSite());
  } else if (__sim_world_active != 0 && current_world == nullptr) {
    ArriveOnRealThread(name);
  }
}

Gate::Gate(std::string name) : name_(std::move(name)) {}
Gate::Gate(Gate&& other) noexcept : name_(std::move(other.name_)), released_(other.released_) {
  other.released_ = true;
}
Gate::~Gate() {
  if (!released_) release();
}

Gate Gate::hold(std::string_view name) {
  if (InWorld()) {
    GateModel& gate = GateIn(*current_world, Intern(name));
    if (gate.held) throw std::logic_error("sim::Gate::hold: gate '" + std::string(name) + "' is already held");
    gate.held = true;
    gate.arrivals = 0;
    return Gate(std::string(name));
  }
  RealGates& real = Real();
  std::lock_guard lock(real.mutex);
  auto [it, inserted] = real.gates.try_emplace(std::string(name));
  if (!inserted && it->second.held) {
    throw std::logic_error("sim::Gate::hold: gate '" + std::string(name) + "' is already held");
  }
  it->second = RealGates::State{true, 0};
  ++real_gates_held;
  RefreshSlowPathFlag();
  return Gate(std::string(name));
}

void Gate::await_arrivals(std::size_t count, std::chrono::milliseconds timeout) {
  if (InWorld()) {
    World& world = *current_world;
    GateModel& gate = GateIn(world, Intern(name_));
    world.SchedulingPoint(EventKind::kGate, gate.name, world.CallerSite());
    gate.awaited = count;
    while (gate.arrivals < count) {
      const Wait wait{
          .description = "await arrivals at gate",
          .object = gate.name,
          .ready = EnoughArrivals,
          .model = &gate,
          .blocker = ArrivalsSoFar,
      };
      world.Block(wait);
    }
    return;
  }
  RealGates& real = Real();
  std::unique_lock lock(real.mutex);
  RealGates::State& state = real.gates[name_];
  if (!real.changed.wait_for(lock, timeout, [&] { return state.arrivals >= count; })) {
    throw std::runtime_error("sim::Gate::await_arrivals: waited " + std::to_string(timeout.count()) + " ms for " +
                             std::to_string(count) + " arrival(s) at gate '" + name_ + "', " +
                             std::to_string(state.arrivals) + " arrived. Does the code path reach SIM_GATE(\"" + name_ +
                             "\") (or a -fsim-gate function of that name)?");
  }
}

void Gate::release() {
  if (released_) return;
  released_ = true;
  if (InWorld()) {
    World& world = *current_world;
    GateModel& gate = GateIn(world, Intern(name_));
    gate.held = false;
    world.ReadinessMayHaveChanged();
    world.SchedulingPoint(EventKind::kGate, gate.name, world.CallerSite());
    return;
  }
  if (current_world != nullptr) return;  // the world that held it is over
  RealGates& real = Real();
  std::lock_guard lock(real.mutex);
  auto it = real.gates.find(name_);
  if (it != real.gates.end() && it->second.held) {
    it->second.held = false;
    --real_gates_held;
    RefreshSlowPathFlag();
    real.changed.notify_all();
  }
}

std::size_t Gate::arrivals() const {
  if (InWorld()) return GateIn(*current_world, Intern(name_)).arrivals;
  RealGates& real = Real();
  std::lock_guard lock(real.mutex);
  auto it = real.gates.find(name_);
  return it == real.gates.end() ? 0 : it->second.arrivals;
}

}  // namespace sim

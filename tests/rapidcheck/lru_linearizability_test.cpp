// A parallel model-based test of an LRU cache: RapidCheck generates the
// commands, simthread runs them split across 2-3 threads under many seeds,
// and every execution's results are checked for linearizability against the
// sequential model.
//
// RapidCheck's state machines (rc::state) are sequential: one command at a
// time, model and system in lockstep. Here each thread's commands run
// concurrently, so results are checked afterwards: some total order of the
// completed commands that keeps each thread's program order must make the
// sequential model return every recorded result (Herlihy and Wing,
// "Linearizability: A Correctness Condition for Concurrent Objects", 1990;
// no real-time order is recorded, so this checks sequential consistency of
// the history, the weaker condition, which is enough for these bugs). After
// the threads join, the main thread takes a snapshot of the cache (its
// entries, least recent first) as one last observation. The search is
// brute force over interleavings with pruning and memoisation, which is fine
// for the short sequences generated (at most 4 commands per thread).
//
// The four bugs of ../shared/seeds/lru-cache-state-machine.txt's family are
// variants of one cache: three sequential bugs (reads not refreshing
// recency, overwrite evicting, erase leaving a ghost in the recency list)
// and one concurrency bug (get refreshing recency under a shared lock). Each
// must make the property fail; the correct cache must pass.
#include <gtest/gtest.h>
#include <rapidcheck.h>

#include <algorithm>
#include <cstddef>
#include <map>
#include <mutex>
#include <set>
#include <shared_mutex>
#include <sstream>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "sim/sim.h"

namespace {

constexpr std::size_t kCapacity = 2;
constexpr std::uint64_t kSeeds = 100;

enum class Variant { kCorrect, kReadsDontRefresh, kOverwriteEvicts, kEraseLeavesGhost, kTouchUnderSharedLock };

enum class Op { kGet, kPut, kErase };

struct Command {
  Op op = Op::kGet;
  int key = 0;
  int value = 0;
};

std::string Describe(const Command& command) {
  switch (command.op) {
    case Op::kGet:
      return "get(" + std::to_string(command.key) + ")";
    case Op::kPut:
      return "put(" + std::to_string(command.key) + "," + std::to_string(command.value) + ")";
    case Op::kErase:
      return "erase(" + std::to_string(command.key) + ")";
  }
  return "?";
}

void showValue(const Command& command, std::ostream& os) { os << Describe(command); }

// A command's result: the value read (-1 on a miss), 1/0 for an erase that
// did/did not remove a key, 0 for a put.
using Result = int;
// Entries least recent first; a key in the recency list but not in the map
// shows with value -1.
using Snapshot = std::vector<std::pair<int, int>>;

std::string Describe(const Snapshot& snapshot) {
  std::string out = "[";
  for (std::size_t i = 0; i < snapshot.size(); ++i) {
    out += (i ? " " : "") + std::to_string(snapshot[i].first) + ":" + std::to_string(snapshot[i].second);
  }
  return out + "]";
}

// The cache under test: a map and a recency list (least recent first)
// behind a shared_mutex. Touch() reads the key's position, then (past a
// gate, a scheduling point) moves it to the back: harmless under the
// exclusive lock, a lost update under a shared one.
class LruCache {
 public:
  LruCache(std::size_t capacity, Variant variant) : capacity_(capacity), variant_(variant) {}

  Result Get(int key) {
    if (variant_ == Variant::kTouchUnderSharedLock) {
      std::shared_lock lock(mutex_);  // the bug: Touch() writes the list under a reader lock
      return GetLocked(key);
    }
    std::unique_lock lock(mutex_);
    return GetLocked(key);
  }

  Result Put(int key, int value) {
    std::unique_lock lock(mutex_);
    const bool present = values_.count(key) != 0;
    const bool evict = variant_ == Variant::kOverwriteEvicts ? values_.size() == capacity_
                                                              : !present && values_.size() == capacity_;
    if (evict && !order_.empty()) {
      values_.erase(order_.front());
      order_.erase(order_.begin());
    }
    values_[key] = value;
    if (std::find(order_.begin(), order_.end(), key) == order_.end()) {
      order_.push_back(key);
    } else {
      Touch(key);
    }
    return 0;
  }

  Result Erase(int key) {
    std::unique_lock lock(mutex_);
    if (values_.erase(key) == 0) return 0;
    if (variant_ != Variant::kEraseLeavesGhost) order_.erase(std::find(order_.begin(), order_.end(), key));
    return 1;
  }

  Snapshot Take() {
    std::unique_lock lock(mutex_);
    Snapshot snapshot;
    for (int key : order_) {
      auto it = values_.find(key);
      snapshot.emplace_back(key, it == values_.end() ? -1 : it->second);
    }
    return snapshot;
  }

 private:
  Result GetLocked(int key) {
    auto it = values_.find(key);
    if (it == values_.end()) return -1;
    const int value = it->second;
    if (variant_ != Variant::kReadsDontRefresh) Touch(key);
    return value;
  }

  void Touch(int key) {
    const auto position = std::find(order_.begin(), order_.end(), key) - order_.begin();
    SIM_GATE("lru.touch");
    if (position >= static_cast<std::ptrdiff_t>(order_.size())) return;
    order_.erase(order_.begin() + position);
    order_.push_back(key);
  }

  const std::size_t capacity_;
  const Variant variant_;
  std::shared_mutex mutex_;
  std::map<int, int> values_;
  std::vector<int> order_;
};

// The sequential model: obviously right, too slow for production.
struct Model {
  Snapshot entries;  // least recent first

  Result Apply(const Command& command) {
    auto it = std::find_if(entries.begin(), entries.end(), [&](const auto& e) { return e.first == command.key; });
    switch (command.op) {
      case Op::kGet: {
        if (it == entries.end()) return -1;
        const auto entry = *it;
        entries.erase(it);
        entries.push_back(entry);
        return entry.second;
      }
      case Op::kPut:
        if (it != entries.end()) {
          entries.erase(it);
        } else if (entries.size() == kCapacity) {
          entries.erase(entries.begin());
        }
        entries.emplace_back(command.key, command.value);
        return 0;
      case Op::kErase:
        if (it == entries.end()) return 0;
        entries.erase(it);
        return 1;
    }
    return -2;
  }
};

using Program = std::vector<std::vector<Command>>;  // one command list per thread
using History = std::vector<std::vector<Result>>;  // one result list per thread

// True when some interleaving of the threads' commands, each thread in
// program order, makes the model return every result and end in `final`.
bool Linearizable(const Program& program, const History& history, const Snapshot& final) {
  std::set<std::pair<std::vector<std::size_t>, Snapshot>> visited;
  std::vector<std::size_t> next(program.size(), 0);
  auto search = [&](auto& self, const Model& model) -> bool {
    if (!visited.emplace(next, model.entries).second) return false;
    bool done = true;
    for (std::size_t thread = 0; thread < program.size(); ++thread) {
      if (next[thread] == program[thread].size()) continue;
      done = false;
      Model after = model;
      if (after.Apply(program[thread][next[thread]]) != history[thread][next[thread]]) continue;
      ++next[thread];
      const bool found = self(self, after);
      --next[thread];
      if (found) return true;
    }
    return done && model.entries == final;
  };
  return search(search, Model{});
}

std::string Describe(const Program& program, const History& history, const Snapshot& final) {
  std::ostringstream out;
  for (std::size_t thread = 0; thread < program.size(); ++thread) {
    out << "  thread " << thread << ":";
    for (std::size_t i = 0; i < program[thread].size(); ++i) {
      out << " " << Describe(program[thread][i]) << "->" << history[thread][i];
    }
    out << "\n";
  }
  out << "  then snapshot " << Describe(final);
  return out.str();
}

// One execution: the threads run their commands on one cache, recording
// results; the history must be linearizable.
void RunProgram(const Program& program, Variant variant) {
  LruCache cache(kCapacity, variant);
  History history(program.size());
  std::vector<std::thread> threads;
  for (std::size_t thread = 0; thread < program.size(); ++thread) {
    threads.emplace_back([&, thread] {
      for (const Command& command : program[thread]) {
        switch (command.op) {
          case Op::kGet:
            history[thread].push_back(cache.Get(command.key));
            break;
          case Op::kPut:
            history[thread].push_back(cache.Put(command.key, command.value));
            break;
          case Op::kErase:
            history[thread].push_back(cache.Erase(command.key));
            break;
        }
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  const Snapshot final = cache.Take();
  if (!Linearizable(program, history, final)) {
    sim::fail("no sequential order of the commands explains the results:\n" + Describe(program, history, final));
  }
}

rc::Gen<Command> GenCommand() {
  return rc::gen::apply([](int op, int key, int value) { return Command{static_cast<Op>(op), key, value}; },
                        rc::gen::inRange(0, 3), rc::gen::inRange(0, 3), rc::gen::inRange(0, 10));
}

// The property: for every program, no seed in [0, kSeeds) gives a history
// the sequential model cannot explain. All data is drawn before exploring.
auto EveryHistoryLinearizes(Variant variant) {
  return [variant] {
    const int threads = *rc::gen::inRange(2, 4);
    Program program;
    for (int thread = 0; thread < threads; ++thread) {
      const int length = *rc::gen::inRange(0, 5);  // at most 4 commands per thread
      program.push_back(*rc::gen::container<std::vector<Command>>(length, GenCommand()));
    }
    std::optional<sim::Report> report = sim::explore([&] { RunProgram(program, variant); }, {.seeds = kSeeds});
    if (report) RC_FAIL(report->render());
  };
}

rc::detail::TestResult Check(Variant variant) {
  rc::detail::TestMetadata metadata;
  metadata.id = "lru";
  metadata.description = "lru";
  rc::detail::TestParams params;
  params.seed = 20261202;
  params.maxSuccess = 200;
  return rc::detail::checkTestable(EveryHistoryLinearizes(variant), metadata, params);
}

std::string Message(const rc::detail::TestResult& result) {
  std::ostringstream out;
  rc::detail::printResultMessage(result, out);
  return out.str();
}

void ExpectCaught(Variant variant) {
  const rc::detail::TestResult result = Check(variant);
  rc::detail::FailureResult failure;
  ASSERT_TRUE(result.match(failure)) << "the bug was not caught:\n" << Message(result);
  EXPECT_NE(failure.description.find("no sequential order of the commands explains the results"), std::string::npos)
      << Message(result);
}

TEST(LruLinearizability, CorrectCachePasses) {
  const rc::detail::TestResult result = Check(Variant::kCorrect);
  if (!result.is<rc::detail::SuccessResult>()) ADD_FAILURE() << Message(result);
}

TEST(LruLinearizability, CatchesReadsNotRefreshingRecency) { ExpectCaught(Variant::kReadsDontRefresh); }

TEST(LruLinearizability, CatchesOverwriteEvicting) { ExpectCaught(Variant::kOverwriteEvicts); }

TEST(LruLinearizability, CatchesEraseLeavingAGhost) { ExpectCaught(Variant::kEraseLeavesGhost); }

TEST(LruLinearizability, CatchesRecencyUpdatedUnderASharedLock) {
  ExpectCaught(Variant::kTouchUnderSharedLock);
}

}  // namespace

// strategy_portfolio.cpp: several strategies taking turns across seeds.
//
// No one strategy finds every bug first: random walk finds shallow bugs in
// short executions, pct:D bugs of depth D in long ones, pos bugs hidden
// among many commuting events. A portfolio runs seed s with member
// s % n, seeded by s, so a sweep gives each member every n-th seed, and a
// seed replays by itself: the spec and the seed alone pick the member.
// Each member keeps what it learns across its own executions (pct: the
// number of choice points).
#include "strategy.h"

namespace sim::internal {
namespace {

class PortfolioStrategy final : public Strategy {
 public:
  explicit PortfolioStrategy(std::vector<std::unique_ptr<Strategy>> members) : members_(std::move(members)) {}

  void BeginExecution(std::uint64_t seed) override {
    current_ = members_[seed % members_.size()].get();
    current_->BeginExecution(seed);
  }
  bool WantsPendingOperations() const override { return current_->WantsPendingOperations(); }
  void OnThreadCreated(ThreadId thread) override { current_->OnThreadCreated(thread); }
  Choice Choose(std::span<const ThreadId> enabled, const ChoicePoint& at) override {
    return current_->Choose(enabled, at);
  }
  std::string EndExecution(std::uint64_t choice_points) override { return current_->EndExecution(choice_points); }

 private:
  std::vector<std::unique_ptr<Strategy>> members_;
  Strategy* current_ = nullptr;  // invariant: set by BeginExecution before any other call
};

}  // namespace

std::unique_ptr<Strategy> MakePortfolioStrategy(std::vector<std::unique_ptr<Strategy>> members) {
  return std::make_unique<PortfolioStrategy>(std::move(members));
}

}  // namespace sim::internal

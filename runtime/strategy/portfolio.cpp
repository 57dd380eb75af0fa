// portfolio.cpp: several strategies taking turns across seeds.
//
// No one strategy finds every bug first: random walk finds shallow bugs in
// short executions, pct:D bugs of depth D in long ones, pos bugs hidden
// among many commuting events. A portfolio runs seed s with member
// s % n, seeded by s, so a sweep gives each member every n-th seed, and a
// seed replays by itself: the spec and the seed alone pick the member.
// Each member keeps what it learns across its own executions (pct: the
// number of choice points).
#include "strategy/strategy.h"

namespace sim::internal {
namespace {

class PortfolioStrategy final : public Strategy {
 public:
  explicit PortfolioStrategy(std::vector<PortfolioMember> members) : members_(std::move(members)) {}

  void BeginExecution(std::uint64_t seed) override {
    current_index_ = seed % members_.size();
    current_ = members_[current_index_].strategy.get();
    current_->BeginExecution(seed);
  }
  // The members' specs, with the current member's as it needs to be to
  // repeat this execution alone (the others' do not matter to this seed).
  std::string ReplaySpec(std::string_view given) const override {
    std::string spec = "portfolio:";
    for (std::size_t i = 0; i < members_.size(); ++i) {
      if (i > 0) spec += ",";
      spec += i == current_index_ ? current_->ReplaySpec(members_[i].spec) : members_[i].spec;
    }
    return spec == "portfolio:" + ListOf(members_) ? std::string(given) : spec;
  }
  bool WantsPendingOperations() const override { return current_->WantsPendingOperations(); }
  void OnThreadCreated(ThreadId thread) override { current_->OnThreadCreated(thread); }
  Choice Choose(std::span<const ThreadId> enabled, const ChoicePoint& at) override {
    return current_->Choose(enabled, at);
  }
  std::string EndExecution(std::uint64_t choice_points) override { return current_->EndExecution(choice_points); }
  bool LearnsFromChoicePoints() const override { return current_->LearnsFromChoicePoints(); }

 private:
  static std::string ListOf(const std::vector<PortfolioMember>& members) {
    std::string list;
    for (const PortfolioMember& member : members) list += (list.empty() ? "" : ",") + member.spec;
    return list;
  }

  std::vector<PortfolioMember> members_;
  std::size_t current_index_ = 0;
  Strategy* current_ = nullptr;  // invariant: set by BeginExecution before any other call
};

}  // namespace

std::unique_ptr<Strategy> MakePortfolioStrategy(std::vector<PortfolioMember> members) {
  return std::make_unique<PortfolioStrategy>(std::move(members));
}

}  // namespace sim::internal

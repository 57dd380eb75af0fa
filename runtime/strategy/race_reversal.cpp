// race_reversal.cpp: races of one execution, by vector clocks (see the header).
#include "strategy/race_reversal.h"

#include <algorithm>
#include <optional>
#include <unordered_map>

namespace sim::internal {
namespace {

// Per thread, how many of its steps happen before (a vector clock).
using Clock = std::vector<std::uint32_t>;

struct Step {
  ThreadId thread = 0;
  std::uint32_t count = 0;  // 1 for the thread's first step
  std::size_t index = 0;    // in the execution
};

struct ClockedStep {
  Step step;
  Clock clock;  // what happens before it, itself included
};

void Join(Clock& into, const Clock& other) {
  for (std::size_t i = 0; i < into.size(); ++i) into[i] = std::max(into[i], other[i]);
}

// What the steps so far did to one word: its last write, and the latest
// read of each thread since (earlier reads of a thread come before its
// latest in program order, so they add nothing).
struct WordHistory {
  std::optional<ClockedStep> last_write;
  std::vector<ClockedStep> reads_since;
};

class Analysis {
 public:
  Analysis(std::span<const Transition> transitions, std::vector<ChoiceRecord>& choices)
      : transitions_(transitions), choices_(choices) {
    ThreadId threads = 0;
    for (const Transition& transition : transitions) {
      threads = std::max(threads, transition.thread + 1);
      if (transition.spawned != kNoThread) threads = std::max(threads, transition.spawned + 1);
    }
    clocks_.assign(threads, Clock(threads, 0));
    last_of_thread_.resize(threads);
    // The choice point each step began at, if any: the last one at its
    // index (a pinned gate's wake-up decides first at the same step).
    choice_at_.assign(transitions.size() + 1, kNoChoice);
    for (std::size_t i = 0; i < choices.size(); ++i) {
      if (choices[i].transition < choice_at_.size()) choice_at_[choices[i].transition] = i;
    }
    // Where the run of steps of one thread that holds each step began.
    run_start_.resize(transitions.size());
    for (std::size_t i = 0; i < transitions.size(); ++i) {
      run_start_[i] = i > 0 && transitions[i - 1].thread == transitions[i].thread ? run_start_[i - 1] : i;
    }
  }

  void Run() {
    for (std::size_t index = 0; index < transitions_.size(); ++index) Visit(index);
  }

 private:
  static constexpr std::size_t kNoChoice = SIZE_MAX;

  void Visit(std::size_t index) {
    const Transition& transition = transitions_[index];
    const ThreadId thread = transition.thread;
    const Footprint& footprint = transition.footprint;
    Clock& clock = clocks_[thread];
    // The words a known step touches, and whether it writes each.
    std::pair<WordHistory*, bool> touched[2];
    std::size_t words = 0;
    if (footprint.known) {
      touched[words++] = {&words_[footprint.word], footprint.writes || footprint.released == footprint.word};
      if (footprint.released != 0 && footprint.released != footprint.word) {
        touched[words++] = {&words_[footprint.released], true};
      }
    }

    // The latest earlier step of another thread that this one depends on
    // and that is not ordered before it yet.
    std::optional<std::size_t> racing;
    auto consider = [&](const Step& earlier) {
      if (earlier.thread != thread && clock[earlier.thread] < earlier.count && (!racing || earlier.index > *racing)) {
        racing = earlier.index;
      }
    };
    if (footprint.known) {
      for (std::size_t i = 0; i < words; ++i) {
        const auto [history, writes] = touched[i];
        if (history->last_write) consider(history->last_write->step);
        if (writes) {
          for (const ClockedStep& read : history->reads_since) consider(read.step);
        }
      }
      if (last_unknown_) consider(last_unknown_->step);
    } else {
      for (const std::optional<Step>& last : last_of_thread_) {
        if (last) consider(*last);
      }
    }
    if (racing) Reverse(*racing, thread);

    // This step's clock: its thread's, joined with every earlier step it
    // depends on.
    const Step step{thread, ++clock[thread], index};
    if (footprint.known) {
      for (std::size_t i = 0; i < words; ++i) {
        const auto [history, writes] = touched[i];
        if (history->last_write) Join(clock, history->last_write->clock);
        if (writes) {
          for (const ClockedStep& read : history->reads_since) Join(clock, read.clock);
        }
      }
      if (last_unknown_) Join(clock, last_unknown_->clock);
      for (std::size_t i = 0; i < words; ++i) Remember(*touched[i].first, touched[i].second, step, clock);
    } else {
      for (const Clock& other : clocks_) Join(clock, other);
      last_unknown_ = ClockedStep{step, clock};
    }
    last_of_thread_[thread] = step;
    if (transition.spawned < clocks_.size()) Join(clocks_[transition.spawned], clock);
  }

  static void Remember(WordHistory& history, bool writes, const Step& step, const Clock& clock) {
    if (writes) {
      history.last_write = ClockedStep{step, clock};
      history.reads_since.clear();
      return;
    }
    auto same_thread = std::find_if(history.reads_since.begin(), history.reads_since.end(),
                                    [&](const ClockedStep& read) { return read.step.thread == step.thread; });
    if (same_thread != history.reads_since.end()) {
      *same_thread = ClockedStep{step, clock};
    } else {
      history.reads_since.push_back(ClockedStep{step, clock});
    }
  }

  // `thread` must also be tried where step `earlier` began, and where the
  // run of steps before it began (the bound's conservative point).
  void Reverse(std::size_t earlier, ThreadId thread) {
    AlsoTry(earlier, thread);
    if (earlier > 0) AlsoTry(run_start_[earlier - 1], thread);
  }

  void AlsoTry(std::size_t step, ThreadId thread) {
    const std::size_t at = choice_at_[step];
    if (at == kNoChoice) return;  // one thread could run there: nothing else to try
    ChoiceRecord& choice = choices_[at];
    auto add = [&choice](ThreadId candidate) {
      if (std::find(choice.also_try.begin(), choice.also_try.end(), candidate) == choice.also_try.end()) {
        choice.also_try.push_back(candidate);
      }
    };
    if (std::binary_search(choice.enabled.begin(), choice.enabled.end(), thread)) {
      add(thread);
    } else {
      for (ThreadId candidate : choice.enabled) add(candidate);
    }
  }

  std::span<const Transition> transitions_;
  std::vector<ChoiceRecord>& choices_;
  std::vector<Clock> clocks_;
  std::vector<std::optional<Step>> last_of_thread_;
  std::optional<ClockedStep> last_unknown_;
  std::unordered_map<std::uintptr_t, WordHistory> words_;
  std::vector<std::size_t> choice_at_;
  std::vector<std::size_t> run_start_;
};

}  // namespace

void FindRaceReversals(std::span<const Transition> transitions, std::vector<ChoiceRecord>& choices) {
  Analysis(transitions, choices).Run();
}

}  // namespace sim::internal

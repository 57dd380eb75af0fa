// flip_continuations.cpp: see flip_continuations.h.
#include "strategy/flip_continuations.h"

#include <algorithm>

namespace sim::internal {
namespace {

bool SameOperation(const PendingOperation& a, const PendingOperation& b) {
  return a.object == b.object && a.writes == b.writes && a.thread_points == b.thread_points && a.site == b.site;
}

template <typename Number>
void Put(std::string& text, Number number) {
  text += std::to_string(number);
  text += ' ';
}

template <typename Number>
bool Get(std::istream& in, Number& number) {
  std::uint64_t value = 0;
  if (!(in >> value)) return false;
  number = static_cast<Number>(value);
  return true;
}

bool GetThreads(std::istream& in, std::vector<ThreadId>& threads) {
  std::size_t count = 0;
  if (!Get(in, count) || count > (1u << 20)) return false;
  threads.resize(count);
  return std::all_of(threads.begin(), threads.end(), [&in](ThreadId& thread) { return Get(in, thread); });
}

void PutThreads(std::string& text, const std::vector<ThreadId>& threads) {
  Put(text, threads.size());
  for (ThreadId thread : threads) Put(text, thread);
}

}  // namespace

bool ContinuationPoint::SameAs(const ContinuationPoint& other) const {
  return created == other.created && enabled == other.enabled &&
         std::equal(pending.begin(), pending.end(), other.pending.begin(), other.pending.end(), SameOperation) &&
         at.current == other.at.current && at.current_points == other.at.current_points &&
         at.current_enabled == other.at.current_enabled && at.current_yielding == other.at.current_yielding &&
         at.transitions == other.at.transitions && at.current_overran == other.at.current_overran &&
         at.number == other.at.number;
}

Choice ContinuationPoint::Show(Strategy& strategy) const {
  for (ThreadId thread : created) strategy.OnThreadCreated(thread);
  ChoicePoint shown = at;
  shown.pending = pending;
  return strategy.Choose(enabled, shown);
}

std::string EncodeContinuationRecord(const ContinuationRecord& record) {
  std::string text;
  Put(text, record.flipped ? 1 : 0);
  Put(text, record.points.size());
  for (const ContinuationPoint& point : record.points) {
    PutThreads(text, point.created);
    PutThreads(text, point.enabled);
    Put(text, point.pending.size());
    for (const PendingOperation& operation : point.pending) {
      Put(text, reinterpret_cast<std::uintptr_t>(operation.object));
      Put(text, operation.writes ? 1 : 0);
      Put(text, operation.thread_points);
      Put(text, reinterpret_cast<std::uintptr_t>(operation.site));
    }
    const ChoicePoint& at = point.at;
    Put(text, at.current);
    Put(text, at.current_points);
    Put(text, (at.current_enabled ? 1 : 0) | (at.current_yielding ? 2 : 0) | (at.current_overran ? 4 : 0));
    Put(text, at.transitions);
    Put(text, at.number);
    Put(text, point.chosen);
  }
  if (!text.empty()) text.pop_back();
  return text;
}

bool DecodeContinuationRecord(std::istream& in, ContinuationRecord& record) {
  record = ContinuationRecord{};
  int flipped = 0;
  std::size_t count = 0;
  if (!Get(in, flipped) || !Get(in, count)) return false;
  record.flipped = flipped != 0;
  for (std::size_t i = 0; i < count; ++i) {
    ContinuationPoint point;
    std::size_t pending = 0;
    if (!GetThreads(in, point.created) || !GetThreads(in, point.enabled) || !Get(in, pending) ||
        pending > (1u << 20)) {
      return false;
    }
    point.pending.resize(pending);
    for (PendingOperation& operation : point.pending) {
      std::uintptr_t object = 0;
      std::uintptr_t site = 0;
      int writes = 0;
      if (!Get(in, object) || !Get(in, writes) || !Get(in, operation.thread_points) || !Get(in, site)) return false;
      operation.object = reinterpret_cast<const void*>(object);
      operation.writes = writes != 0;
      operation.site = reinterpret_cast<const void*>(site);
    }
    int flags = 0;
    ChoicePoint& at = point.at;
    if (!Get(in, at.current) || !Get(in, at.current_points) || !Get(in, flags) || !Get(in, at.transitions) ||
        !Get(in, at.number) || !Get(in, point.chosen)) {
      return false;
    }
    at.current_enabled = (flags & 1) != 0;
    at.current_yielding = (flags & 2) != 0;
    at.current_overran = (flags & 4) != 0;
    record.points.push_back(std::move(point));
  }
  return true;
}

void FlipContinuations::Add(const ContinuationRecord& record, std::size_t execution) {
  if (!record.flipped || !trusted_) return;
  // The node for what the record met at `index`: a point, or past the last, its end.
  auto node_at = [&](std::size_t index) {
    Node node;
    node.is_point = index < record.points.size();
    if (node.is_point) node.point = record.points[index];
    node.execution = execution;
    nodes_.push_back(std::move(node));
    return nodes_.size() - 1;
  };
  if (nodes_.empty()) node_at(0);
  std::size_t node = 0;
  for (std::size_t index = 0;; ++index) {
    const bool ended = index == record.points.size();
    if (nodes_[node].is_point == ended || (!ended && !nodes_[node].point.SameAs(record.points[index]))) {
      trusted_ = false;
      return;
    }
    if (ended) return;  // the same execution again
    const ThreadId chosen = record.points[index].chosen;
    auto child = nodes_[node].children.find(chosen);
    if (child == nodes_[node].children.end()) {
      const std::size_t added = node_at(index + 1);
      child = nodes_[node].children.emplace(chosen, added).first;
    }
    node = child->second;
  }
}

std::optional<std::size_t> FlipContinuations::Repeated(Strategy& strategy) const {
  if (!trusted_ || nodes_.empty()) return std::nullopt;
  std::size_t node = 0;
  while (nodes_[node].is_point) {
    const Choice choice = nodes_[node].point.Show(strategy);
    if (!choice.mismatch.empty()) return std::nullopt;
    const auto child = nodes_[node].children.find(choice.thread);
    if (child == nodes_[node].children.end()) return std::nullopt;
    node = child->second;
  }
  return nodes_[node].execution;
}

}  // namespace sim::internal

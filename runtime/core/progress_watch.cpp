// progress_watch.cpp: see progress_watch.h.
#include "core/progress_watch.h"

#include <sys/uio.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>

namespace sim::internal {

void ProgressWatch::Begin(std::uint64_t step) {
  watching_ = true;
  window_points_ = 0;
  cycle_start_step_ = step;
  words_.clear();
  words_at_last_look_ = 0;
  states_.clear();
  windows_ = 0;
  threads_.clear();
}

ProgressWatch::Verdict ProgressWatch::Observe(std::uint32_t thread, const void* object, std::uint64_t now_ns) {
  if (std::find(threads_.begin(), threads_.end(), thread) == threads_.end()) threads_.push_back(thread);
  if (object != nullptr) {
    const std::uintptr_t word = reinterpret_cast<std::uintptr_t>(object) & ~std::uintptr_t{7};
    if (std::find(words_.begin(), words_.end(), word) == words_.end()) {
      if (words_.size() == kMaxCycleWords) {
        watching_ = false;
        return Verdict::kProgress;
      }
      words_.push_back(word);
    }
  }
  if (++window_points_ < kWindowPoints) return Verdict::kWatching;
  window_points_ = 0;
  ++windows_;
  // A word first touched in this window: the states before it hashed fewer
  // words, so they cannot be compared with what follows.
  if (words_.size() != words_at_last_look_) {
    words_at_last_look_ = words_.size();
    states_.clear();
  }
  std::uint64_t state = 0;
  if (HashState(now_ns, state)) {
    if (std::find(states_.begin(), states_.end(), state) != states_.end()) {
      watching_ = false;
      return Verdict::kLivelock;
    }
    states_.push_back(state);
  } else {
    states_.clear();
  }
  if (windows_ == kMaxWindows) {
    watching_ = false;
    return Verdict::kProgress;
  }
  return Verdict::kWatching;
}

bool ProgressWatch::HashState(std::uint64_t now_ns, std::uint64_t& hash) const {
  // Read through the kernel, not directly: a word touched early in the
  // watch may belong to memory unmapped since, and reading it here must not
  // crash the user's program. One system call per window.
  std::uint64_t values[kMaxCycleWords];
  iovec local{values, words_.size() * sizeof(std::uint64_t)};
  iovec remote[kMaxCycleWords];
  for (std::size_t i = 0; i < words_.size(); ++i)
    remote[i] = {reinterpret_cast<void*>(words_[i]), sizeof(std::uint64_t)};
  if (!words_.empty()) {
    const ssize_t read = process_vm_readv(getpid(), &local, 1, remote, words_.size(), 0);
    if (read != static_cast<ssize_t>(local.iov_len)) return false;
  }
  // FNV-1a over the clock and the values, in the order the words were first touched.
  hash = 14695981039346656037ULL;
  auto mix = [&hash](std::uint64_t value) {
    for (int byte = 0; byte < 8; ++byte) hash = (hash ^ ((value >> (8 * byte)) & 0xff)) * 1099511628211ULL;
  };
  mix(now_ns);
  for (std::size_t i = 0; i < words_.size(); ++i) mix(values[i]);
  return true;
}

}  // namespace sim::internal

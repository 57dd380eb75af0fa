// append_log.h: a log whose append reserves a slot, writes slowly, then
// publishes the entry.
//
// Recipe 2 of docs/cookbook.md, the lost append. append() reads the length
// (reserve), does the slow part of a write (a sleep standing in for disk or
// network), then writes at the reserved index. Two appends that both reserve
// before either writes get the same index, and one entry is lost. Under
// simulation the sleep is virtual time: it costs nothing, and the window it
// opens is still explored.
//
// The three-way check:
//   (default)              guarded: reserve and write in one critical section
//   -DMUTANT_UNGUARDED     no lock at all
//   -DMUTANT_SPLIT_LOCK    reserve and write each locked, but separately
//                          (every access is locked, so ThreadSanitizer is silent)
#ifndef COOKBOOK_APPEND_LOG_H_
#define COOKBOOK_APPEND_LOG_H_

#include <array>
#include <chrono>
#include <cstddef>
#include <mutex>
#include <string>
#include <thread>

class AppendLog {
 public:
  explicit AppendLog(std::chrono::milliseconds write_time) : write_time_(write_time) {}

  // Appends `entry` (at most 15 characters) after every entry appended before.
  void append(const std::string& entry) {
#if defined(MUTANT_UNGUARDED)
    const std::size_t index = size_;  // reserve
    write_slowly();
    publish(index, entry);
#elif defined(MUTANT_SPLIT_LOCK)
    std::size_t index;
    {
      std::lock_guard lock(mutex_);
      index = size_;  // reserve
    }
    write_slowly();
    std::lock_guard lock(mutex_);
    publish(index, entry);
#else
    std::lock_guard lock(mutex_);
    const std::size_t index = size_;  // reserve
    write_slowly();
    publish(index, entry);
#endif
  }

  std::size_t size() {
    std::lock_guard lock(mutex_);
    return size_;
  }

 private:
  void write_slowly() const { std::this_thread::sleep_for(write_time_); }

  // Writes at `index`, as a slice assignment would: past the end it appends,
  // inside it overwrites.
  void publish(std::size_t index, const std::string& entry) {
    entries_[index] = entry;
    if (size_ < index + 1) size_ = index + 1;
  }

  const std::chrono::milliseconds write_time_;
  std::mutex mutex_;
  std::array<std::string, 16> entries_;
  std::size_t size_ = 0;
};

#endif  // COOKBOOK_APPEND_LOG_H_

// treiber_stack_aba: a lock-free free list (a Treiber stack of node indices)
// from which three workers each take a buffer and give it back.
// Shape: ABA in a lock-free structure (compare-exchange on a head that was
// popped and pushed back in between).
//
// Bug: pop() reads head A and A's successor B, then compare-exchanges the
// head from A to B. Meanwhile one worker pops A, another pops B, and the
// first pushes A back (now followed by C): the head is A again, the exchange
// succeeds and installs B, which a worker still holds. The list ends up with
// a cycle and loses C. Needs three preemptions (the first popper, and each
// of the other two while it holds its buffer).
// -DFIXED: the head carries a version that every successful exchange bumps,
// so a head that went away and came back no longer compares equal.
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <thread>

class FreeList {
 public:
  static constexpr std::uint32_t kNone = 0xffffffffu;
  static constexpr std::uint32_t kNodes = 3;

  FreeList() {
    for (std::uint32_t node = kNodes; node-- > 0;) push(node);
  }

  std::uint32_t pop() {
    Head top = head_.load();
    while (index(top) != kNone) {
      const std::uint32_t next = next_[index(top)].load();
      if (head_.compare_exchange_weak(top, make_head(next, top))) return index(top);
    }
    return kNone;
  }

  void push(std::uint32_t node) {
    Head top = head_.load();
    do {
      next_[node].store(index(top));
    } while (!head_.compare_exchange_weak(top, make_head(node, top)));
  }

  // Whether the list holds every node exactly once (call when all are back).
  bool holds_each_node_once() const {
    bool seen[kNodes] = {};
    std::uint32_t node = index(head_.load());
    for (std::uint32_t count = 0; count < kNodes; ++count) {
      if (node == kNone || seen[node]) return false;
      seen[node] = true;
      node = next_[node].load();
    }
    return node == kNone;
  }

 private:
#if defined(FIXED)
  // The index in the low 32 bits and a version in the high 32 bits.
  using Head = std::uint64_t;
  static std::uint32_t index(Head head) { return static_cast<std::uint32_t>(head); }
  static Head make_head(std::uint32_t node, Head previous) { return ((previous >> 32) + 1) << 32 | node; }
  std::atomic<Head> head_{kNone};
#else
  using Head = std::uint32_t;
  static std::uint32_t index(Head head) { return head; }
  static Head make_head(std::uint32_t node, Head) { return node; }
  std::atomic<Head> head_{kNone};
#endif
  std::atomic<std::uint32_t> next_[kNodes] = {};
};

int main() {
  FreeList free_list;
  std::atomic<bool> in_use[FreeList::kNodes] = {};
  std::atomic<bool> handed_out_twice{false};
  auto worker = [&] {
    const std::uint32_t buffer = free_list.pop();
    if (buffer == FreeList::kNone) return;
    if (in_use[buffer].exchange(true)) handed_out_twice = true;
    in_use[buffer].store(false);
    free_list.push(buffer);
  };
  std::thread first(worker);
  std::thread second(worker);
  std::thread third(worker);
  first.join();
  second.join();
  third.join();
  if (handed_out_twice.load() || !free_list.holds_each_node_once()) {
    std::fprintf(stderr, "treiber_stack_aba: the free list is corrupt (a cycle or a lost node)\n");
    return 1;
  }
  return 0;
}

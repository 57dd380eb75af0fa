// payment_handler.h: an idempotent charge handler over a Redis-like store.
//
// Recipe 3 of docs/cookbook.md. A message broker delivers at least once, so
// the same charge request (same idempotency key) can arrive several times,
// concurrently. The handler registers the key in the store, charges once, and
// stores the response; a duplicate waits for that response and returns it.
// The invariants (the idempotent-handlers seed):
//   INV-1  effects(key) <= 1, and == 1 whenever no failure was injected
//   INV-2  every successful response for a key is byte-identical to the first
//
// The three-way check, by how a delivery registers the key:
//   (default)                  SET NX: claim the key in one atomic step
//   -DMUTANT_EXISTS_THEN_SET   GET, then SET: the non-atomic registration
//                              the suite must catch
//   -DMUTANT_NO_REGISTRATION   no idempotency at all: charge on every delivery
#ifndef COOKBOOK_PAYMENT_HANDLER_H_
#define COOKBOOK_PAYMENT_HANDLER_H_

#include <condition_variable>
#include <map>
#include <mutex>
#include <optional>
#include <string>

// A key-value store whose every operation is atomic, like one Redis command.
class KeyValueStore {
 public:
  std::optional<std::string> get(const std::string& key) {
    std::lock_guard lock(mutex_);
    auto it = values_.find(key);
    if (it == values_.end()) return std::nullopt;
    return it->second;
  }

  void set(const std::string& key, const std::string& value) {
    std::lock_guard lock(mutex_);
    values_[key] = value;
    changed_.notify_all();
  }

  // SET NX: sets `key` only when it is absent; true when this call set it.
  bool set_nx(const std::string& key, const std::string& value) {
    std::lock_guard lock(mutex_);
    return values_.try_emplace(key, value).second;
  }

  // Blocks until `key` holds a value other than `pending`, and returns it.
  std::string await_change(const std::string& key, const std::string& pending) {
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [&] { return values_.count(key) != 0 && values_[key] != pending; });
    return values_[key];
  }

 private:
  std::mutex mutex_;
  std::condition_variable changed_;
  std::map<std::string, std::string> values_;
};

class PaymentHandler {
 public:
  // Handles one delivery of "charge `amount_cents` under `idempotency_key`"
  // and returns the response body.
  std::string handle(const std::string& idempotency_key, int amount_cents) {
#if defined(MUTANT_NO_REGISTRATION)
    return charge(amount_cents);
#else
    const std::string key = "idem:" + idempotency_key;
#if defined(MUTANT_EXISTS_THEN_SET)
    const bool claimed = !store_.get(key).has_value();  // GET ...
    if (claimed) store_.set(key, kPending);              // ... SET: another delivery can GET in between
#else
    const bool claimed = store_.set_nx(key, kPending);  // SET NX
#endif
    if (!claimed) return store_.await_change(key, kPending);  // a duplicate: the first delivery's response
    const std::string response = charge(amount_cents);
    store_.set(key, response);
    return response;
#endif
  }

  // Charges made so far (the side effect, counted from outside).
  int effects() {
    std::lock_guard lock(mutex_);
    return charges_;
  }

 private:
  static constexpr const char* kPending = "pending";

  std::string charge(int amount_cents) {
    std::lock_guard lock(mutex_);
    ++charges_;
    return "{\"charge\":\"ch_" + std::to_string(charges_) + "\",\"amount\":" + std::to_string(amount_cents) + "}";
  }

  KeyValueStore store_;
  std::mutex mutex_;
  int charges_ = 0;
};

#endif  // COOKBOOK_PAYMENT_HANDLER_H_

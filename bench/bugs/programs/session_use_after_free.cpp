// session_use_after_free: a session table hands out pointers to pooled
// session slots; a request uses its session while a logout recycles it.
// Shape: use-after-free (of a pooled object; the slot's generation is the
// canary a debug build checks).
//
// Bug: find() returns the slot under the table's mutex, and the request then
// uses it without the mutex; close() recycles the slot in between (bumps its
// generation and clears it), so the request acts on a freed session.
// -DFIXED: the request uses the session inside the table's critical section
// (with_session), so close() cannot run in between.
#include <cstdio>
#include <mutex>
#include <thread>

struct Session {
  unsigned generation = 0;
  int user_id = 0;
  int requests = 0;
};

struct SessionToken {
  int slot;
  unsigned generation;
};

class SessionTable {
 public:
  SessionToken open(int user_id) {
    std::lock_guard lock(mutex_);
    Session& session = slots_[0];
    ++session.generation;
    session.user_id = user_id;
    return {0, session.generation};
  }

  Session* find(SessionToken token) {
    std::lock_guard lock(mutex_);
    Session& session = slots_[token.slot];
    return session.generation == token.generation ? &session : nullptr;
  }

  template <typename Use>
  bool with_session(SessionToken token, Use use) {
    std::lock_guard lock(mutex_);
    Session& session = slots_[token.slot];
    if (session.generation != token.generation) return false;
    use(session);
    return true;
  }

  void close(SessionToken token) {
    std::lock_guard lock(mutex_);
    Session& session = slots_[token.slot];
    if (session.generation != token.generation) return;
    ++session.generation;  // the slot is free: the next open() reuses it
    session.user_id = 0;
    session.requests = 0;
  }

 private:
  std::mutex mutex_;
  Session slots_[1];
};

int main() {
  SessionTable table;
  const SessionToken token = table.open(42);
  bool used_freed_session = false;
  std::thread request([&] {
    auto serve = [&](Session& session) {
      ++session.requests;
      if (session.generation != token.generation || session.user_id != 42) used_freed_session = true;
    };
#if defined(FIXED)
    table.with_session(token, serve);
#else
    if (Session* session = table.find(token)) serve(*session);
#endif
  });
  std::thread logout([&] { table.close(token); });
  request.join();
  logout.join();
  if (used_freed_session) {
    std::fprintf(stderr, "session_use_after_free: a request used session %d after it was closed\n", token.slot);
    return 1;
  }
  return 0;
}

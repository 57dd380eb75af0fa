// keys.cpp: pthread keys and thread_local destructors.
//
// Key values live in the TCB, so under the eager tls_switch modes a
// borrowed TCB already gives each simulated thread its own; under lazy, where
// the installed TCB is not the running thread's, pthread_getspecific and
// pthread_setspecific keep them in the simulated thread instead. What glibc
// does at a real thread's exit (run destructors, clear values) the runtime
// does at a simulated thread's exit, for the keys it saw created.
// thread_local destructors registered through __cxa_thread_atexit_impl are
// kept per simulated thread, so an abandoned execution leaves nothing on the
// borrowed TCB for the next borrower.
#include "interceptors/keys.h"

#include <limits.h>
#include <pthread.h>

#include <cerrno>
#include <utility>
#include <vector>

#include "core/spin_locked.h"
#include "core/world.h"
#include "interceptors/real_function.h"

using namespace sim::internal;

namespace {
RealFunction<int(pthread_key_t*, void (*)(void*))> real_key_create("pthread_key_create");
RealFunction<int(pthread_key_t)> real_key_delete("pthread_key_delete");
RealFunction<int(void (*)(void*), void*, void*)> real_thread_atexit("__cxa_thread_atexit_impl");
RealFunction<void*(pthread_key_t)> real_getspecific("pthread_getspecific");
RealFunction<int(pthread_key_t, const void*)> real_setspecific("pthread_setspecific");

// Whether the running code is a simulated thread whose own TCB is not the
// installed one (tls_switch=lazy): only then are key values kept here.
bool KeysKeptBySimulatedThread() { return __sim_tls_delta != 0; }

// Keys are created from any real thread at any time (library constructors).
using KeyList = std::vector<std::pair<pthread_key_t, void (*)(void*)>>;
SpinLocked<KeyList>& Keys() {
  static SpinLocked<KeyList> keys;
  return keys;
}
}  // namespace

namespace sim::internal {

void ClearPthreadKeyValues() {
  for (auto [key, destructor] : Keys().Snapshot()) {
    if (pthread_getspecific(key) != nullptr) pthread_setspecific(key, nullptr);
  }
}

void RunPthreadKeyDestructors() {
  for (int round = 0; round < PTHREAD_DESTRUCTOR_ITERATIONS; ++round) {
    bool any = false;
    for (auto [key, destructor] : Keys().Snapshot()) {
      void* value = pthread_getspecific(key);
      if (value == nullptr) continue;
      pthread_setspecific(key, nullptr);
      if (destructor != nullptr) {
        destructor(value);
        any = true;
      }
    }
    if (!any) break;
  }
}

}  // namespace sim::internal

extern "C" {

int pthread_key_create(pthread_key_t* key, void (*destructor)(void*)) {
  const int error = real_key_create(key, destructor);
  if (error == 0) Keys().Update([&](KeyList& keys) { keys.emplace_back(*key, destructor); });
  return error;
}

int pthread_key_delete(pthread_key_t key) {
  Keys().Update([key](KeyList& keys) { std::erase_if(keys, [key](const auto& entry) { return entry.first == key; }); });
  // glibc would retire the values with the key (a key created later with the
  // same number starts empty); the ones kept here go the same way.
  if (InWorld()) {
    for (ThreadId id = 0; SimThread* thread = current_world->thread(id); ++id) {
      if (key < thread->key_values.size()) thread->key_values[key] = nullptr;
    }
  }
  return real_key_delete(key);
}

void* pthread_getspecific(pthread_key_t key) {
  if (!KeysKeptBySimulatedThread()) [[likely]]
    return real_getspecific(key);
  const std::vector<const void*>& values = current_world->running().key_values;
  return key < values.size() ? const_cast<void*>(values[key]) : nullptr;
}

int pthread_setspecific(pthread_key_t key, const void* value) {
  if (!KeysKeptBySimulatedThread()) [[likely]]
    return real_setspecific(key, value);
  if (key >= PTHREAD_KEYS_MAX) return EINVAL;
  std::vector<const void*>& values = current_world->running().key_values;
  if (key >= values.size()) values.resize(key + 1, nullptr);
  values[key] = value;
  return 0;
}

int __cxa_thread_atexit_impl(void (*destructor)(void*), void* object, void* dso_handle) {
  if (!InWorld()) return real_thread_atexit(destructor, object, dso_handle);
  current_world->running().thread_local_destructors.emplace_back(destructor, object);
  return 0;
}

}  // extern "C"

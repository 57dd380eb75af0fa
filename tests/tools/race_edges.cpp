// race_edges.cpp: one program per edge kind of the race detector, each in
// three variants, for sim_run_race_edges.sh. A writer thread writes `data`
// and a reader thread reads (or writes) it:
//   synced: ordered by the edge under test: no race in any schedule;
//   none:   ordered by nothing but a relaxed flag: a race;
//   wrong:  a near miss of the edge (the wrong memory order, a shared lock
//           for a write, the wrong object, a signal instead of the mutex, a
//           plain read of what an atomic wrote): a race.
// (`mixed` has no edge: atomic accesses never race with each other.)
// Usage: race_edges <edge> <synced|none|wrong>. Every variant exits 0 when
// run without the detector.
#include <pthread.h>
#include <semaphore.h>

#include <atomic>
#include <condition_variable>
#include <cstdio>
#include <cstring>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <thread>

extern "C" {
void AnnotateHappensBefore(const char* file, int line, const volatile void* address);
void AnnotateHappensAfter(const char* file, int line, const volatile void* address);
void __tsan_release(void* address);
void __tsan_acquire(void* address);
}

namespace {

int data = 0;
std::atomic<int> flag{0};
enum class Variant { kSynced, kNone, kWrong };
Variant variant;

void WaitForFlag(std::memory_order order = std::memory_order_relaxed) {
  while (flag.load(order) == 0) std::this_thread::yield();
}

// Runs `writer` and `reader` on two threads; `none` replaces both by the
// relaxed flag alone.
void Run(std::function<void()> writer, std::function<void()> reader) {
  if (variant == Variant::kNone) {
    writer = [] {
      data = 1;
      flag.store(1, std::memory_order_relaxed);
    };
    reader = [] {
      WaitForFlag();
      std::printf("%d\n", data);
    };
  }
  std::thread a(writer), b(reader);
  a.join();
  b.join();
}

void Atomic() {
  const auto load_order = variant == Variant::kWrong ? std::memory_order_relaxed : std::memory_order_acquire;
  Run(
      [] {
        data = 1;
        flag.store(1, std::memory_order_release);
      },
      [load_order] {
        WaitForFlag(load_order);
        std::printf("%d\n", data);
      });
}

void Fence() {
  Run(
      [] {
        data = 1;
        std::atomic_thread_fence(std::memory_order_release);
        flag.store(1, std::memory_order_relaxed);
      },
      [] {
        WaitForFlag();
        if (variant != Variant::kWrong) std::atomic_thread_fence(std::memory_order_acquire);
        std::printf("%d\n", data);
      });
}

pthread_rwlock_t rwlock = PTHREAD_RWLOCK_INITIALIZER;
void Rwlock() {
  // Both write; the wrong variant writes under read locks.
  auto locked_write = [] {
    if (variant == Variant::kWrong) {
      pthread_rwlock_rdlock(&rwlock);
    } else {
      pthread_rwlock_wrlock(&rwlock);
    }
    data = data + 1;
    pthread_rwlock_unlock(&rwlock);
  };
  Run(locked_write, locked_write);
}

sem_t semaphore;
void Semaphore() {
  sem_init(&semaphore, 0, 0);
  Run(
      [] {
        if (variant == Variant::kWrong) sem_post(&semaphore);  // posted before the write
        data = 1;
        if (variant != Variant::kWrong) sem_post(&semaphore);
      },
      [] {
        sem_wait(&semaphore);
        std::printf("%d\n", data);
      });
}

std::once_flag once, other_once;
void Once() {
  Run([] { std::call_once(once, [] { data = 1; }); },
      [] {
        std::call_once(variant == Variant::kWrong ? other_once : once, [] {});
        std::printf("%d\n", data);
      });
}

struct Initialised {
  Initialised() { data = 1; }
};
void UseStatic() {
  static Initialised instance;
  std::printf("%d\n", data);
}
void Static() { Run(UseStatic, UseStatic); }  // no near miss: no wrong variant

pthread_barrier_t barrier;
void Barrier() {
  pthread_barrier_init(&barrier, nullptr, 2);
  Run(
      [] {
        data = 1;
        pthread_barrier_wait(&barrier);
      },
      [] {
        if (variant == Variant::kWrong) std::printf("%d\n", data);  // before the barrier
        pthread_barrier_wait(&barrier);
        std::printf("%d\n", data);
      });
}

int other_object;
void Annotation() {
  Run(
      [] {
        data = 1;
        AnnotateHappensBefore(__FILE__, __LINE__, &flag);
        flag.store(1, std::memory_order_relaxed);
      },
      [] {
        WaitForFlag();
        AnnotateHappensAfter(__FILE__, __LINE__,
                             variant == Variant::kWrong ? &other_object : static_cast<void*>(&flag));
        std::printf("%d\n", data);
      });
}

void TsanAcquire() {
  Run(
      [] {
        data = 1;
        __tsan_release(&flag);
        flag.store(1, std::memory_order_relaxed);
      },
      [] {
        WaitForFlag();
        __tsan_acquire(variant == Variant::kWrong ? &other_object : static_cast<void*>(&flag));
        std::printf("%d\n", data);
      });
}

pthread_spinlock_t spin, other_spin;
void Spin() {
  pthread_spin_init(&spin, 0);
  pthread_spin_init(&other_spin, 0);
  Run(
      [] {
        pthread_spin_lock(&spin);
        data = data + 1;
        pthread_spin_unlock(&spin);
      },
      [] {
        pthread_spinlock_t* lock = variant == Variant::kWrong ? &other_spin : &spin;
        pthread_spin_lock(lock);
        data = data + 1;
        pthread_spin_unlock(lock);
      });
}

std::mutex mutex;
std::condition_variable ready_changed;
bool ready = false;
void Condvar() {
  Run(
      [] {
        {
          std::lock_guard lock(mutex);
          if (variant != Variant::kWrong) data = 1;
          ready = true;
        }
        if (variant == Variant::kWrong) data = 1;  // after the unlock: the notify orders nothing
        ready_changed.notify_one();
      },
      [] {
        std::unique_lock lock(mutex);
        ready_changed.wait(lock, [] { return ready; });
        std::printf("%d\n", data);
      });
}

// Both through std::atomic_ref: atomics never race with each other; the
// wrong variant reads plainly what the other wrote atomically.
void Mixed() {
  Run([] { std::atomic_ref<int>(data).store(1, std::memory_order_relaxed); },
      [] {
        const int seen = variant == Variant::kWrong ? data : std::atomic_ref<int>(data).load(std::memory_order_relaxed);
        std::printf("%d\n", seen);
      });
}

}  // namespace

int main(int argc, char** argv) {
  const std::map<std::string, void (*)()> edges = {
      {"atomic", Atomic},
      {"fence", Fence},
      {"rwlock", Rwlock},
      {"semaphore", Semaphore},
      {"once", Once},
      {"static", Static},
      {"barrier", Barrier},
      {"annotation", Annotation},
      {"tsan_acquire", TsanAcquire},
      {"spin", Spin},
      {"condvar", Condvar},
      {"mixed", Mixed},
  };
  const std::map<std::string, Variant> variants = {
      {"synced", Variant::kSynced}, {"none", Variant::kNone}, {"wrong", Variant::kWrong}};
  if (argc != 3 || !edges.contains(argv[1]) || !variants.contains(argv[2])) {
    std::fprintf(stderr, "usage: race_edges <edge> <synced|none|wrong>\n");
    return 2;
  }
  variant = variants.at(argv[2]);
  edges.at(argv[1])();
  return 0;
}

// publish_before_init: a loader thread installs a new configuration that a
// request thread reads through an atomic pointer.
// Shape: order violation (an object is published before it is initialised).
//
// Bug: the loader stores the pointer and then fills in the fields; a reader
// that sees the pointer in between reads port 0.
// -DFIXED: fill in the fields, then publish (a release store).
#include <atomic>
#include <cstdio>
#include <thread>

struct Config {
  int port = 0;
  int workers = 0;
};

int main() {
  std::atomic<Config*> current{nullptr};
  Config storage;
  bool saw_uninitialised = false;
  std::thread loader([&] {
    Config* config = &storage;
#if defined(FIXED)
    config->port = 8080;
    config->workers = 4;
    current.store(config, std::memory_order_release);
#else
    current.store(config, std::memory_order_release);
    config->port = 8080;
    config->workers = 4;
#endif
  });
  std::thread request([&] {
    if (const Config* config = current.load(std::memory_order_acquire)) {
      if (config->port == 0 || config->workers == 0) saw_uninitialised = true;
    }
  });
  loader.join();
  request.join();
  if (saw_uninitialised) {
    std::fprintf(stderr, "publish_before_init: a request saw a configuration before it was filled in\n");
    return 1;
  }
  return 0;
}

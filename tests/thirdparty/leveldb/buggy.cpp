// The buggy twin of correct.cpp: two writer threads bump a shared order
// counter in leveldb with a Get followed by a Put and no lock around the
// pair. Each call is atomic inside leveldb, but another writer can Put
// between this writer's Get and Put, and its increment is lost. Users write
// this because leveldb is documented as safe to share between threads, and
// that reads as if a read-modify-write of one key were safe too; it needs a
// lock of the caller's own (correct.cpp) or a merge of its own design.
#include <leveldb/db.h>
#include <leveldb/options.h>

#include <cassert>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <thread>

namespace {

constexpr int kOrdersPerWriter = 2;
const char kCounterKey[] = "orders/count";

void CountOrders(leveldb::DB& db) {
  for (int order = 0; order < kOrdersPerWriter; ++order) {
    std::string count = "0";
    leveldb::Status status = db.Get(leveldb::ReadOptions(), kCounterKey, &count);
    if (!status.ok() && !status.IsNotFound()) std::abort();
    // Another writer may bump the counter here; its increment is overwritten.
    status = db.Put(leveldb::WriteOptions(), kCounterKey, std::to_string(std::stoi(count) + 1));
    if (!status.ok()) std::abort();
  }
}

}  // namespace

int main() {
  std::string directory = (std::filesystem::temp_directory_path() / "leveldb-buggy-XXXXXX").string();
  if (mkdtemp(directory.data()) == nullptr) return 1;
  leveldb::Options options;
  options.create_if_missing = true;
  leveldb::DB* db = nullptr;
  if (!leveldb::DB::Open(options, directory, &db).ok()) return 1;

  std::thread first(CountOrders, std::ref(*db));
  std::thread second(CountOrders, std::ref(*db));
  first.join();
  second.join();
  std::string count;
  db->Get(leveldb::ReadOptions(), kCounterKey, &count);
  delete db;
  leveldb::DestroyDB(directory, options);
  std::filesystem::remove_all(directory);
  assert(count == std::to_string(2 * kOrdersPerWriter) && "an order was counted over");
  return 0;
}

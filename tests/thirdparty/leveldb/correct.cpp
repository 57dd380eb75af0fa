// leveldb as an order store shared by three writer threads: each thread
// writes its own orders (10 KB values, 240 KB in all: with a 64 KB write
// buffer, the smallest leveldb allows, the memtable fills and the background
// thread compacts it into a table file while writers continue; with 96 KB in
// all a third of native runs ended with every write still in the first
// memtable), and each also bumps
// a shared order counter with a read-modify-write under a std::mutex, since
// leveldb makes single operations atomic but not a Get followed by a Put.
// At the end every order reads back as written, the counter equals the
// number of orders, and once the DB is closed (which waits for a compaction
// under way) a table file exists: the background thread flushed a memtable.
#include <leveldb/db.h>
#include <leveldb/options.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace {

constexpr int kWriters = 3;
constexpr int kOrdersPerWriter = 8;
constexpr int kValueBytes = 10000;
const char kCounterKey[] = "orders/count";

// Formatted by libc, not by inlined std::string code: each character
// std::string copies in instrumented code would be a scheduling point.
std::string OrderKey(int writer, int order) {
  char key[32];
  std::snprintf(key, sizeof key, "order/%d/%d", writer, order);
  return key;
}

std::string OrderValue(int writer, int order) {
  std::string value = OrderKey(writer, order);
  value.resize(kValueBytes, static_cast<char>('a' + (writer * 7 + order) % 26));
  return value;
}

void WriteOrders(leveldb::DB& db, std::mutex& counter_mutex, int writer) {
  for (int order = 0; order < kOrdersPerWriter; ++order) {
    leveldb::Status status = db.Put(leveldb::WriteOptions(), OrderKey(writer, order), OrderValue(writer, order));
    if (!status.ok()) std::abort();
    std::lock_guard guard(counter_mutex);
    std::string count = "0";
    status = db.Get(leveldb::ReadOptions(), kCounterKey, &count);
    if (!status.ok() && !status.IsNotFound()) std::abort();
    status = db.Put(leveldb::WriteOptions(), kCounterKey, std::to_string(std::stoi(count) + 1));
    if (!status.ok()) std::abort();
  }
}

int Check(leveldb::DB& db) {
  for (int writer = 0; writer < kWriters; ++writer) {
    for (int order = 0; order < kOrdersPerWriter; ++order) {
      std::string value;
      if (!db.Get(leveldb::ReadOptions(), OrderKey(writer, order), &value).ok() ||
          value != OrderValue(writer, order)) {
        std::fprintf(stderr, "order %d of writer %d is missing or wrong\n", order, writer);
        return 1;
      }
    }
  }
  std::string count;
  if (!db.Get(leveldb::ReadOptions(), kCounterKey, &count).ok() || std::stoi(count) != kWriters * kOrdersPerWriter) {
    std::fprintf(stderr, "counted %s orders of %d\n", count.c_str(), kWriters * kOrdersPerWriter);
    return 1;
  }
  return 0;
}

}  // namespace

int main() {
  std::string directory = (std::filesystem::temp_directory_path() / "leveldb-correct-XXXXXX").string();
  if (mkdtemp(directory.data()) == nullptr) return 1;
  leveldb::Options options;
  options.create_if_missing = true;
  options.write_buffer_size = 64 << 10;
  leveldb::DB* db = nullptr;
  if (!leveldb::DB::Open(options, directory, &db).ok()) return 1;

  std::mutex counter_mutex;
  std::vector<std::thread> writers;
  for (int writer = 0; writer < kWriters; ++writer) {
    writers.emplace_back(WriteOrders, std::ref(*db), std::ref(counter_mutex), writer);
  }
  for (auto& writer : writers) writer.join();
  int result = Check(*db);

  delete db;
  int table_files = 0;
  for (const auto& file : std::filesystem::directory_iterator(directory)) {
    if (file.path().extension() == ".ldb") ++table_files;
  }
  if (result == 0 && table_files == 0) {
    std::fprintf(stderr, "no table file: the background thread never flushed a memtable\n");
    result = 1;
  }
  leveldb::DestroyDB(directory, options);
  std::filesystem::remove_all(directory);
  return result;
}

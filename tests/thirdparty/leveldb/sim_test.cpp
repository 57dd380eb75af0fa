// correct.cpp's body as a SIM_TEST: three writers store their orders in
// one leveldb (a 64 KB write buffer, so the background thread compacts a
// memtable while they write) and bump a shared counter under a std::mutex;
// every order reads back, the counter is exact, and a table file exists.
// leveldb's Env starts its background thread once per process, so this
// needs every execution of the SIM_TEST to start from a fresh library
// (issue 15 item 4).
#include <leveldb/db.h>
#include <leveldb/options.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "sim/gtest.h"

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

SIM_TEST(LevelDb, EveryOrderIsStoredAndCounted) {
  std::string directory = (std::filesystem::temp_directory_path() / "leveldb-sim-test-XXXXXX").string();
  ASSERT_NE(mkdtemp(directory.data()), nullptr);
  leveldb::Options options;
  options.create_if_missing = true;
  options.write_buffer_size = 64 << 10;
  leveldb::DB* db = nullptr;
  ASSERT_TRUE(leveldb::DB::Open(options, directory, &db).ok());

  std::mutex counter_mutex;
  std::vector<std::thread> writers;
  for (int writer = 0; writer < kWriters; ++writer) {
    writers.emplace_back(WriteOrders, std::ref(*db), std::ref(counter_mutex), writer);
  }
  for (auto& writer : writers) writer.join();
  EXPECT_EQ(Check(*db), 0);

  delete db;
  int table_files = 0;
  for (const auto& file : std::filesystem::directory_iterator(directory)) {
    if (file.path().extension() == ".ldb") ++table_files;
  }
  EXPECT_GT(table_files, 0) << "the background thread never flushed a memtable";
  leveldb::DestroyDB(directory, options);
  std::filesystem::remove_all(directory);
}

}  // namespace

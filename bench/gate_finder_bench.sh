#!/usr/bin/env bash
# gate_finder_bench.sh: how long sim-gate-finder takes over a 30-file CMake
# project, the size the issue asks to stay under 10 s on 2 cores.
#
# usage: bench/gate_finder_bench.sh [--tool PATH] [--files N] [--jobs J] [--repetitions R]
#
# Generates the project in a scratch directory: N sources (default 30), each a
# service class in the style of the bug programs (a mutex, a std::map, a
# lazily built member, a counter updated in two lock scopes, 60-80 lines,
# including <map>, <mutex>, <string>, <thread> and <vector>), configures it
# with CMake's CMAKE_EXPORT_COMPILE_COMMANDS, then runs
# `sim-gate-finder -p build -j J` R times (default 3) and prints each run's
# wall and CPU time and the medians, with the windows found (2 per file).
# Not a ctest: a timing is not a test.
set -euo pipefail

source_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
tool="$source_dir/build/bin/sim-gate-finder"
files=30
jobs=$(nproc)
repetitions=3
while [[ $# -gt 0 ]]; do
  case "$1" in
    --tool) tool=$2; shift 2 ;;
    --files) files=$2; shift 2 ;;
    --jobs) jobs=$2; shift 2 ;;
    --repetitions) repetitions=$2; shift 2 ;;
    *) echo "gate_finder_bench.sh: unknown argument $1 (see the usage at the top of the script)" >&2; exit 2 ;;
  esac
done
[ -x "$tool" ] || { echo "gate_finder_bench.sh: $tool is not built: cmake --build build --target sim-gate-finder" >&2; exit 2; }

project=$(mktemp -d /tmp/gate_finder_bench.XXXXXX)
trap 'rm -rf "$project"' EXIT
mkdir -p "$project/src"
{
  echo "cmake_minimum_required(VERSION 3.25)"
  echo "project(gate_finder_bench CXX)"
  echo "set(CMAKE_CXX_STANDARD 20)"
  echo "add_library(services STATIC"
  for i in $(seq 1 "$files"); do echo "  src/service_$i.cpp"; done
  echo ")"
} > "$project/CMakeLists.txt"
for i in $(seq 1 "$files"); do
  cat > "$project/src/service_$i.cpp" <<CPP
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace bench_$i {

struct Connection {
  explicit Connection(int id) : id(id) {}
  int id;
};

class Service$i {
 public:
  Connection* connection() {
    if (connection_ == nullptr) {
      std::lock_guard lock(mutex_);
      connection_ = new Connection($i);
    }
    return connection_;
  }

  int stock() {
    std::lock_guard lock(mutex_);
    return stock_;
  }

  bool reserve(int quantity) {
    if (stock() < quantity) return false;
    std::lock_guard lock(mutex_);
    stock_ -= quantity;
    return true;
  }

  void remember(const std::string& key, int value) {
    std::lock_guard lock(mutex_);
    if (values_.find(key) == values_.end()) values_[key] = value;
  }

  std::vector<int> snapshot() {
    std::lock_guard lock(mutex_);
    std::vector<int> out;
    for (const auto& [key, value] : values_) out.push_back(value);
    return out;
  }

 private:
  std::mutex mutex_;
  Connection* connection_ = nullptr;
  int stock_ = 10;
  std::map<std::string, int> values_;
};

void exercise() {
  Service$i service;
  std::thread first([&] { service.reserve(3); });
  std::thread second([&] { service.connection(); });
  first.join();
  second.join();
}

}  // namespace bench_$i
CPP
done
cmake -S "$project" -B "$project/build" -G Ninja -DCMAKE_CXX_COMPILER=clang++-19 -DCMAKE_EXPORT_COMPILE_COMMANDS=ON \
  > "$project/configure.log" 2>&1 || { cat "$project/configure.log"; exit 1; }

# Wall time, and the CPU time (user + system) of the tool and its threads:
# on a machine shared with other work the wall time says more about the
# neighbours, and CPU / cores is what an idle machine would take.
times=()
cpus=()
for repetition in $(seq 1 "$repetitions"); do
  TIMEFORMAT='%R %U %S'
  measured=$( { time "$tool" -p "$project/build" -j "$jobs" > "$project/findings.txt" 2> "$project/progress.txt"; } 2>&1 )
  read -r seconds user system <<< "$measured"
  cpu=$(echo "$user + $system" | bc)
  times+=("$seconds")
  cpus+=("$cpu")
  printf 'run %d: %.2f s wall, %.2f s CPU, %s\n' "$repetition" "$seconds" "$cpu" "$(tail -1 "$project/findings.txt")"
done
median() { printf '%s\n' "$@" | sort -n | awk '{ t[NR] = $1 } END { print t[int((NR + 1) / 2)] }'; }
printf 'sim-gate-finder over %d files, -j %d: median %.2f s wall, %.2f s CPU of %d runs (%s, %d cores, load average %s)\n' \
  "$files" "$jobs" "$(median "${times[@]}")" "$(median "${cpus[@]}")" "$repetitions" \
  "$(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //')" "$(nproc)" "$(cut -d' ' -f1 /proc/loadavg)"

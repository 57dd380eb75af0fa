// clang++ -fpass-plugin at -O0 and -O2: the object references the hooks for
// plain globals and atomics and defines __sim_instrumented, and no access
// hook is called for a thread_local (an int, and a std::string behind the
// TLS wrapper, whose first use registers its destructor: a call, hooked
// for the race detector like any call out of the module).
//
// RUN: %clangxx -std=c++20 -O0 -c -fpass-plugin=%plugin %s -o %t.O0.o
// RUN: llvm-nm %t.O0.o | FileCheck %s --check-prefix=SYMBOLS
// RUN: %clangxx -std=c++20 -O2 -c -fpass-plugin=%plugin %s -o %t.O2.o
// RUN: llvm-nm %t.O2.o | FileCheck %s --check-prefix=SYMBOLS
// RUN: %clangxx -std=c++20 -O0 -S -emit-llvm -fpass-plugin=%plugin %s -o - \
// RUN:   | FileCheck %s --check-prefix=IR
// RUN: %clangxx -std=c++20 -O2 -S -emit-llvm -fpass-plugin=%plugin %s -o - \
// RUN:   | FileCheck %s --check-prefixes=IR,IR-O2
//
// SYMBOLS-DAG: U __sim_atomic32_load
// SYMBOLS-DAG: U __sim_atomic32_rmw
// SYMBOLS-DAG: V __sim_instrumented
// SYMBOLS-DAG: U __sim_read4
// SYMBOLS-DAG: U __sim_world_active
// SYMBOLS-DAG: U __sim_write4

#include <atomic>
#include <cstddef>
#include <string>

thread_local int tl_counter;
thread_local std::string tl_name;
std::atomic<int> shared_atomic;
int shared_plain;

// IR-LABEL: define {{.*}} @_Z15bump_tl_counterv(
// IR-NOT:     call void @__sim_{{(read|write|atomic)}}
// IR:         ret void
void bump_tl_counter() { tl_counter++; }

// IR-LABEL: define {{.*}} @_Z14tl_name_lengthv(
// IR-NOT:     call void @__sim_{{(read|write|atomic)}}
// IR:         ret i64
std::size_t tl_name_length() { return tl_name.size(); }

// At -O0 std::atomic's members are not inlined; the hooks are in them.
// IR-LABEL: define {{.*}} @_Z18bump_shared_atomicv(
// IR-O2:      call void @__sim_atomic32_rmw(ptr @shared_atomic, i32 5,
// IR-O2:      atomicrmw add ptr @shared_atomic
void bump_shared_atomic() { shared_atomic.fetch_add(1); }

// IR-LABEL: define {{.*}} @_Z18read_shared_atomicv(
// IR-O2:      call void @__sim_atomic32_load(ptr @shared_atomic, i32 2,
// IR-O2:      load atomic i32, ptr @shared_atomic
int read_shared_atomic() { return shared_atomic.load(std::memory_order_acquire); }

// The body (instrumented or its uninstrumented copy) is chosen at entry.
// IR-LABEL: define {{.*}} @_Z17bump_shared_plainv(
// IR-NEXT:    load i8, ptr @__sim_world_active
// IR-NEXT:    icmp ne i8
// IR-NEXT:    br i1
// IR:         call void @__sim_read4(ptr @shared_plain,
// IR:         call void @__sim_write4(ptr @shared_plain,
// IR:         store i32 %{{.*}}, ptr @shared_plain
void bump_shared_plain() { shared_plain++; }

// Through clang++ -fpass-plugin, at -O0 and -O2: in a PIE the module's own
// thread_local is reached by adding __sim_tls_delta, one declared elsewhere
// through __sim_tls_address; with -fPIC (a shared library) every one goes
// through __sim_tls_address; and the object registers what it defines from
// a constructor in .init_array. Clang's module flags are what tell an
// executable from a shared library here.
//
// RUN: %clangxx -std=c++20 -O0 -fPIE -S -emit-llvm -fpass-plugin=%plugin %s -o - \
// RUN:   | FileCheck %s --check-prefixes=IR,PIE
// RUN: %clangxx -std=c++20 -O2 -fPIE -S -emit-llvm -fpass-plugin=%plugin %s -o - \
// RUN:   | FileCheck %s --check-prefixes=IR,PIE
// RUN: %clangxx -std=c++20 -O2 -fPIC -S -emit-llvm -fpass-plugin=%plugin %s -o - \
// RUN:   | FileCheck %s --check-prefixes=IR,PIC
// RUN: %clangxx -std=c++20 -O2 -fPIE -c -fpass-plugin=%plugin %s -o %t.o
// RUN: llvm-nm %t.o | FileCheck %s --check-prefix=SYMBOLS
// RUN: llvm-readelf -S %t.o | FileCheck %s --check-prefix=SECTIONS
//
// SYMBOLS-DAG: U __sim_register_thread_local
// SYMBOLS-DAG: U __sim_tls_address
// SYMBOLS-DAG: U __sim_tls_delta
// SYMBOLS-DAG: t sim.register_thread_locals
// SECTIONS: .init_array

thread_local int tl_counter;
extern thread_local int tl_elsewhere;

// IR: @llvm.global_ctors = {{.*}} ptr @sim.register_thread_locals

// IR-LABEL: define {{.*}} @_Z15bump_tl_counterv(
// PIE:        [[ADDR:%.*]] = {{.*}}call {{.*}}ptr @llvm.threadlocal.address.p0(ptr {{.*}}@tl_counter)
// PIE-NEXT:   [[DELTA_ADDR:%.*]] = call ptr @llvm.threadlocal.address.p0(ptr @__sim_tls_delta)
// PIE-NEXT:   [[DELTA:%.*]] = load i64, ptr [[DELTA_ADDR]]
// PIE-NEXT:   getelementptr i8, ptr [[ADDR]], i64 [[DELTA]]
// PIC:        [[ADDR:%.*]] = {{.*}}call {{.*}}ptr @llvm.threadlocal.address.p0(ptr {{.*}}@tl_counter)
// PIC-NEXT:   call ptr @__sim_tls_address(ptr [[ADDR]])
// IR:         ret void
void bump_tl_counter() { tl_counter++; }

// At -O0 the access is in the TLS wrapper _ZTW12tl_elsewhere, which follows.
// IR-LABEL: define {{.*}} @_Z17bump_tl_elsewherev(
// IR:         [[ADDR:%.*]] = {{.*}}call {{.*}}ptr @llvm.threadlocal.address.p0(ptr {{.*}}@tl_elsewhere)
// IR-NEXT:    call ptr @__sim_tls_address(ptr [[ADDR]])
void bump_tl_elsewhere() { tl_elsewhere++; }

// IR-LABEL: define internal void @sim.register_thread_locals()
// IR-NEXT:    [[ADDR:%.*]] = call {{.*}}ptr @llvm.threadlocal.address.p0(ptr {{.*}}@tl_counter)
// IR-NEXT:    call void @__sim_register_thread_local(ptr [[ADDR]], i64 4)
// IR-NEXT:    ret void

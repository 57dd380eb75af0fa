// real_function.h: calls the libc/libpthread function that an interceptor
// shadows.
//
// Interceptors are defined in the executable (libsimrt is linked
// whole-archive), so they win symbol lookup for every module. Outside a
// world, and for the parts of a call a world does not model, they forward
// here. Resolution is lazy because interceptors run before any constructor of
// ours (another library's constructor may lock a mutex).
#ifndef SIM_RUNTIME_REAL_FUNCTION_H_
#define SIM_RUNTIME_REAL_FUNCTION_H_

namespace sim::internal {

// Resolves `name` (at `version` when given) in the modules after the
// executable, or aborts naming the symbol: an interceptor with nothing to
// forward to cannot behave correctly.
void* ResolveRealFunction(const char* name, const char* version);

template <typename Signature>
class RealFunction;

template <typename Result, typename... Args>
class RealFunction<Result(Args...)> {
 public:
  constexpr explicit RealFunction(const char* name, const char* version = nullptr) : name_(name), version_(version) {}

  Result operator()(Args... args) {
    if (function_ == nullptr) Resolve();
    return function_(args...);
  }

  // Resolves now rather than at the first call: for functions libc calls
  // from inside dlerror (see interceptors/memory.cpp).
  void Resolve() { function_ = reinterpret_cast<Result (*)(Args...)>(ResolveRealFunction(name_, version_)); }

 private:
  const char* name_;
  const char* version_;
  Result (*function_)(Args...) = nullptr;
};

}  // namespace sim::internal

#endif  // SIM_RUNTIME_REAL_FUNCTION_H_

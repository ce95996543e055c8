// Internal to embed/: what the C++ API's handles hold (include/alea/vm.h's
// embed_internal declarations), shared by cpp_api.cc and cpp_compile.cc.
#ifndef ALEA_EMBED_CPP_API_H_
#define ALEA_EMBED_CPP_API_H_

#include <any>
#include <memory>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "alea/alea.h"
#include "alea/vm.h"

namespace alea::embed_internal {

// An alea_value this API owns, and what it says of it that the C API does
// not keep: a tensor's shape as a vector, whether it is a view, or why a
// Tensor::Copy cannot be passed.
struct Held {
  explicit Held(alea_value value) : v(value) {}
  Held(const Held&) = delete;
  Held& operator=(const Held&) = delete;
  ~Held() { alea_release(v); }
  alea_value v;
  std::vector<int64_t> shape;
  bool view = false;
  DType dtype = DType::kF32;  // a tensor's, also when none could be made
  std::string unusable;       // a Tensor::Copy that no tensor fits: why
};

struct ModuleData {
  explicit ModuleData(alea_module* module) : m(module) {}
  ModuleData(const ModuleData&) = delete;
  ModuleData& operator=(const ModuleData&) = delete;
  ~ModuleData() { alea_module_release(m); }
  alea_module* m;
};

inline StatusCode CodeOf(alea_code code) {
  return code >= ALEA_INVALID_ARGUMENT && code <= ALEA_INTERNAL ? static_cast<StatusCode>(code)
                                                                : StatusCode::kInternal;
}

// The status of a C API failure (the error freed).
inline Status Failed(alea_code code, alea_error* error) {
  Status s(CodeOf(code), error != nullptr ? alea_error_message(error) : alea_code_name(code));
  alea_error_free(error);
  return s;
}

// What the API's classes keep private, for this file.
struct Access {
  static Tensor MakeTensor(std::shared_ptr<const Held> h) { return Tensor(std::move(h)); }
  static const Held& Of(const Tensor& t) { return *t.h_; }
  static RandState MakeState(alea_value v) { return RandState(std::make_shared<Held>(v)); }
  static const Held& Of(const RandState& s) { return *s.h_; }
  static Module MakeModule(alea_module* m) { return Module(std::make_shared<ModuleData>(m)); }
  static alea_module* Of(const Module& m) { return m.d_ == nullptr ? nullptr : m.d_->m; }
  static Function MakeFunction(std::string name, Signature signature, const alea_function* f,
                               std::weak_ptr<VmState> vm) {
    Function out;
    out.vm_ = std::move(vm);
    out.name_ = std::move(name);
    out.signature_ = std::move(signature);
    out.handle_ = f;
    return out;
  }
  // The function's handle when it belongs to `vm` (which is alive).
  static const alea_function* Of(const Function& f, const VmState* vm) {
    std::shared_ptr<VmState> owner = f.vm_.lock();
    return owner.get() == vm ? static_cast<const alea_function*>(f.handle_) : nullptr;
  }
  static HostCall MakeCall(std::span<const Value> args, std::any* state, uint32_t site) {
    return HostCall(args, state, site);
  }
};

}  // namespace alea::embed_internal

#endif  // ALEA_EMBED_CPP_API_H_

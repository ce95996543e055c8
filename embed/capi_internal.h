// Internal to embed/: what the C API's handles (include/alea/alea.h) are, and
// the helpers its files share.
#ifndef ALEA_EMBED_CAPI_INTERNAL_H_
#define ALEA_EMBED_CAPI_INTERNAL_H_

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "alea/alea.h"
#include "lang/diagnostics.h"
#include "lang/source.h"
#include "vm/bytecode.h"
#include "vm/random/keys.h"
#include "vm/vm.h"

// Every object a value refers to: a reference count and the kind, then the
// kind's own part (the derived structs below). Immutable once made but for
// the count and a state's consumed flag, so VMs on several threads may share
// one.
struct alea_object {
  explicit alea_object(alea_kind k) : kind(k) {}
  std::atomic<uint32_t> refs{1};
  const alea_kind kind;
};

namespace alea::capi {
// A compiled module and the sources it came from: run-time errors are
// rendered against them as `alea run` renders them. Immutable once made, so
// VMs on several threads may share one.
struct ModuleSources {
  vm::Module module;
  lang::SourceManager sources;
};
}  // namespace alea::capi

struct alea_module {
  std::atomic<uint32_t> refs{1};
  alea::capi::ModuleSources data;
};

struct alea_error {
  alea_code code = ALEA_OK;
  std::string message;
  std::string file;
  int line = 0;
  int column = 0;
};

namespace alea::capi {

struct StrObject : alea_object {
  explicit StrObject(std::string t) : alea_object(ALEA_STR), text(std::move(t)) {}
  std::string text;
};

struct TensorObject : alea_object {
  TensorObject() : alea_object(ALEA_TENSOR) {}
  ~TensorObject();
  alea_dtype dtype = ALEA_F32;
  std::vector<int64_t> shape;
  int64_t size = 0;  // elements
  size_t bytes = 0;
  const void* data = nullptr;
  void* owned = nullptr;             // 64-byte aligned storage, when the tensor owns its elements
  void (*release)(void*) = nullptr;  // a view's
  void* context = nullptr;
};

struct StateObject : alea_object {
  explicit StateObject(const vm::random::RandState& s) : alea_object(ALEA_RANDSTATE), state(s) {}
  const vm::random::RandState state;
  std::atomic<bool> consumed{false};
};

// A tuple, an array, a record or a variant: its parts (owned references)
// and, for the declared types, the type's name, the constructor and a
// record's field names (in the order of `items`).
struct CompoundObject : alea_object {
  explicit CompoundObject(alea_kind k) : alea_object(k) {}
  ~CompoundObject();
  std::vector<alea_value> items;
  std::string type;
  std::string constructor;
  std::vector<std::string> names;
};

inline bool HoldsObject(alea_value v) {
  return v.kind >= ALEA_STR && v.kind <= ALEA_VARIANT && v.as.object != nullptr;
}
// Whether `v` is of `kind` and, for a kind with an object, has one: what
// every accessor asks before it reads (a host's struct may be anything).
inline bool Is(alea_value v, alea_kind kind) {
  return v.kind == kind && (kind < ALEA_STR || v.as.object != nullptr);
}
inline const TensorObject& TensorOf(alea_value v) {
  return *static_cast<const TensorObject*>(v.as.object);
}
inline StateObject& StateOf(alea_value v) { return *static_cast<StateObject*>(v.as.object); }
inline const CompoundObject& CompoundOf(alea_value v) {
  return *static_cast<const CompoundObject*>(v.as.object);
}
inline alea_value ValueOf(alea_kind kind, alea_object* o) {
  alea_value v;
  v.kind = kind;
  v.as.object = o;
  return v;
}

// A struct a host filled, size first (alea_config, alea_compile_options,
// alea_host_function), over the defaults `init` gives: one from an older,
// smaller header has only the fields it had, and the rest keep their
// defaults.
template <typename T>
T FromHost(const T* given, void (*init)(T*)) {
  T out;
  init(&out);
  if (given != nullptr) std::memcpy(&out, given, std::min(given->size, sizeof(T)));
  out.size = sizeof(T);
  return out;
}

// Reports through `error` (when not null) and returns the code.
alea_code Fail(alea_error** error, alea_code code, std::string message);
// The code of an absl status (OK for OK).
alea_code CodeOf(const absl::Status& status);
// Fails with `status`'s code and message.
alea_code FailWith(alea_error** error, const absl::Status& status);
// Fails with the rendered diagnostics, located at the first one that has a
// place.
alea_code FailWithDiagnostics(alea_error** error, alea_code code,
                              const lang::SourceManager& sources, const lang::Diagnostics& diags);
// An error object whose location is the first diagnostic's, when the
// message is rendered diagnostics (file:line:col: ...).
alea_error* NewError(alea_code code, std::string message);

// A tensor that owns `bytes` bytes of fresh, 64-byte aligned storage, of
// `dtype` and a shape already checked; nullptr when out of memory.
TensorObject* NewOwnedTensor(alea_dtype dtype, const int64_t* shape, int ndim, int64_t size);
// The element count of a shape a host gave, or an error message.
int64_t CheckedElementCount(alea_dtype dtype, const int64_t* shape, int ndim, std::string* why);

// A fresh state value.
alea_value NewState(const vm::random::RandState& state);

// The type of a value as Alea spells it.
std::string Describe(alea_value v);

// The VM inside a handle, for the tooling functions (include/alea/tooling.h).
vm::Vm& InternalVm(alea_vm* vm);
// A VM with the standard library under any limits, those alea_config cannot
// say included (a fuzzer's max_native_nesting); nullptr when out of memory.
alea_vm* NewVm(const vm::Limits& limits);

}  // namespace alea::capi

#endif  // ALEA_EMBED_CAPI_INTERNAL_H_

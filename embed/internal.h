// Internal to embed/: what the public handles of include/alea/ point to.
#ifndef ALEA_EMBED_INTERNAL_H_
#define ALEA_EMBED_INTERNAL_H_

#include <atomic>
#include <cstdint>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "alea/vm.h"
#include "lang/source.h"
#include "vm/bytecode.h"
#include "vm/random/keys.h"

namespace alea::embed_internal {

// The public API's statuses (alea/status.h) of the internal ones (Abseil's).
Status Public(const absl::Status& status);
template <typename T>
StatusOr<T> Public(absl::StatusOr<T>&& s) {
  if (!s.ok()) return Public(s.status());
  return *std::move(s);
}

// A compiled module and the sources it came from: run-time errors are
// rendered against them as `alea run` renders them. Immutable once made, so
// Vms on several threads may share one.
struct ModuleData {
  vm::Module module;
  lang::SourceManager sources;
};

struct TensorData {
  DType dtype = DType::kF32;
  std::vector<int64_t> shape;
  int64_t size = 0;
  const void* data = nullptr;     // the host's memory (a view) or storage.data()
  std::vector<uint32_t> storage;  // owned elements (a copy); 4-byte aligned
  bool view = false;
};

struct RandStateData {
  vm::random::RandState state;
  // Set by the first call it is passed to; atomic because copies of one
  // state may be handed to Vms on different threads.
  std::atomic<bool> consumed{false};
};

}  // namespace alea::embed_internal

#endif  // ALEA_EMBED_INTERNAL_H_
